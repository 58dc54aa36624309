/**
 * The reliability suite's CI smoke (the long run is `npm run reliability`): tens of thousands of
 * fuzz inputs and a short 100-client soak against a real `quarry serve` process. Every answer is
 * typed and none is a 5xx, /health stays ok, every query leaves a query-log row (written or
 * dropped with a reason), and SIGTERM stops the server within its deadline.
 */
import { describe, expect, it } from "vitest";
import { runReliability } from "../../bench/reliability/run-reliability.js";

describe("reliability smoke", () => {
  it("answers fuzz and load with typed answers only, stays healthy, accounts for the query log, stops in time", async () => {
    const report = await runReliability({ inputs: 25_000, soakSeconds: 10, soakClients: 100, seed: 20261124, demoRows: 20_000, concurrency: 8 });
    const replay = [...report.fuzz.examples, ...report.soak.examples].join("\n");
    expect(report.fuzz.inputs).toBe(25_000);
    expect(report.fuzz.fiveHundreds, replay).toBe(0);
    expect(report.fuzz.untyped, replay).toBe(0);
    expect(report.soak.requests).toBeGreaterThan(1000);
    expect(report.soak.fiveHundreds, replay).toBe(0);
    expect(report.soak.untyped, replay).toBe(0);
    expect(report.healthChecks).toBeGreaterThan(20);
    expect(report.healthFailures).toBe(0);
    const { requests, written, dropped, buffered } = report.queryLog;
    expect(requests).toBeGreaterThan(10_000);
    expect(written + dropped + buffered).toBe(requests);
    expect(report.stop.code).toBe(0);
    expect(report.stop.ms).toBeLessThan(report.stop.deadlineMs);
  }, 300_000);
});
