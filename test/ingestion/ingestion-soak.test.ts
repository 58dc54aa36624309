/**
 * The ingestion soak, small (bench/ingestion/ingestion-soak.ts; the 1,000,000-message run is
 * bench/ingestion/run-ingestion-soak.ts): messages on the five topics with 1 % poison, a
 * `quarry consumer --storage all` process SIGKILLed three times and its ClickHouse server killed
 * once, and still every count, sum and cardinality read back equals what was produced, every
 * poison message is dead-lettered with a reason, and every commit log ends at the end offsets.
 */
import { describe, expect, it } from "vitest";
import { runIngestionSoak } from "../../bench/ingestion/ingestion-soak.js";
import { brokers } from "./consumer-fixture.js";

describe("ingestion under faults", () => {
  it("loses nothing and doubles nothing through consumer SIGKILLs and an engine outage", async () => {
    const lines: string[] = [];
    const report = await runIngestionSoak({
      brokers: brokers(),
      messages: 15_000,
      consumerKills: 3,
      engineOutage: true,
      poisonEvery: 100,
      partitions: 3,
      // 20 s of production: the outage (the second of four faults 8 s apart) comes while messages arrive.
      produceRate: 750,
      faultGapMs: 8000,
      log: (line) => lines.push(line),
    });
    expect(report.consumerKills).toBe(3);
    expect(report.engineOutages).toBe(1);
    for (const check of report.checks) expect(check.found, `${check.what}\n${lines.join("\n")}`).toBe(check.expected);
    // While the engine was down and messages kept coming, /health said which consumers were stuck.
    const stuck = report.outageHealth.filter((answer) => answer.status === 502);
    expect(stuck.length, JSON.stringify(report.outageHealth)).toBeGreaterThan(0);
    expect(stuck[0]!.body).toMatch(/"consumer:[a-z_]+":"stuck: \d+ messages behind and nothing written for \d+ s; writes failing on partition/);
    // The checks count something: a run that wrote nothing would fail them, not pass them.
    expect(report.checks.find((check) => check.what === "error events")!.expected).toBeGreaterThan(2500);
  }, 900_000);
});
