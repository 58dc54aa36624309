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
      produceRate: 1500,
      faultGapMs: 5000,
      log: (line) => lines.push(line),
    });
    expect(report.consumerKills).toBe(3);
    expect(report.engineOutages).toBe(1);
    for (const check of report.checks) expect(check.found, `${check.what}\n${lines.join("\n")}`).toBe(check.expected);
    // The checks count something: a run that wrote nothing would fail them, not pass them.
    expect(report.checks.find((check) => check.what === "error events")!.expected).toBeGreaterThan(2500);
  }, 900_000);
});
