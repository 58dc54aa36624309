/**
 * The reliability suite's CI smoke (the long run is `npm run reliability`; docs/reliability.md):
 * 20,000 fuzz inputs and a 10-second 100-client soak against a real `quarry serve` process. Every
 * answer is typed and none is a 5xx (ClickHouse's refusals of a query's types are typed 400s and
 * counted), /health stays ok throughout, every query leaves a query-log
 * row (written, or dropped with a reason), and SIGTERM with 100 clients sending stops the server
 * within its deadline, answering the requests in flight. Resident memory is reported, not
 * asserted: ten seconds of load say little about it (the long run checks it).
 */
import { describe, expect, it } from "vitest";
import { changesMb, evaluate, memoryTarget, rssTimeline, runReliability } from "../../bench/reliability/run-reliability.js";

describe("reliability smoke", () => {
  it("answers fuzz and load with typed answers only, stays healthy, accounts for the query log, stops in time", async () => {
    const report = await runReliability({
      inputs: 20_000,
      soakSeconds: 10,
      soakClients: 100,
      seed: 20261124,
      demoRows: 20_000,
      concurrency: 8,
      warmupSeconds: 3,
      settleSeconds: 3,
    });
    const checks = evaluate(report);
    const failures = [...report.fuzz.failures, ...report.soak.failures];
    const replay = [...failures, "", ...report.fuzz.examples, ...report.soak.examples, "", ...report.health.examples].join("\n");
    console.log(checks.map((check) => `${check.ok ? "ok    " : "MISSED"} ${check.bench}: ${check.figure}`).join("\n"));
    console.log(`fuzz by kind:\n  ${report.fuzz.kinds.join("\n  ")}\nresident memory:\n${rssTimeline(report.rss.samples, 10)}`);

    expect(report.fuzz.requests).toBe(20_000);
    expect(report.fuzz.reachedClickHouse, "a good share of the fuzz reaches ClickHouse").toBeGreaterThan(2_000);
    // ClickHouse judges the queries' types: some inputs are its refusals, each a typed 400 (counted).
    expect(report.fuzz.engineTypeErrors).toBeGreaterThan(0);
    expect(report.soak.requests).toBeGreaterThan(500);
    const byName = (prefix: string) => checks.find((check) => check.bench.startsWith(prefix))!;
    for (const prefix of ["Fuzz: 5xx", "Fuzz: untyped", "Soak: 5xx", "Soak: untyped"]) expect(byName(prefix).ok, `${prefix}: ${byName(prefix).figure}\n${replay}`).toBe(true);
    expect(report.health.checks).toBeGreaterThan(50);
    expect(report.health.failures, report.health.examples.join("\n")).toBe(0);
    // The engine's share of memory is reported beside the JavaScript heap's, from /metrics.
    expect(report.js.baselineEngineMb).toBeGreaterThan(0);
    expect(report.js.endEngineMb).toBeGreaterThan(0);
    // And what each of its caches holds: the fuzz read parts, so the mark cache holds some.
    expect(report.js.endEngineCachesMb["Mark"]).toBeGreaterThan(0);
    expect(byName("Resident memory").figure).toMatch(/caches: [^)]*\bMark \S+ -> \S+ MB/);
    // And the V8 heap reserved by space.
    expect(report.js.endHeapSpacesMb["old"]).toBeGreaterThan(1);
    expect(byName("Resident memory").figure).toMatch(/\bold \S+ -> \S+ MB/);
    for (const prefix of ["Query log: rows written", "Query log: rows in the querylog storage", "SIGTERM with 100 clients sending: exit", "SIGTERM with 100 clients sending: requests in flight"]) {
      expect(byName(prefix).ok, `${prefix}: ${byName(prefix).figure}`).toBe(true);
    }
  }, 600_000);

  it("judges memory only on readings taken after the server's idle memory release", () => {
    expect(memoryTarget({ baselineMb: 400, endMb: 430, baselineAfterRelease: true, endAfterRelease: true })).toEqual({ measured: true, ok: true });
    expect(memoryTarget({ baselineMb: 400, endMb: 450, baselineAfterRelease: true, endAfterRelease: true })).toEqual({ measured: true, ok: false });
    // A reading before the release (a quiet period shorter than the server's idle time) is no figure, whatever it says.
    expect(memoryTarget({ baselineMb: 400, endMb: 401, baselineAfterRelease: true, endAfterRelease: false })).toEqual({ measured: false, ok: false });
    expect(memoryTarget({ baselineMb: 400, endMb: 401, baselineAfterRelease: false, endAfterRelease: true })).toEqual({ measured: false, ok: false });
    // A server with the release off is read as it is.
    expect(memoryTarget({ baselineMb: 400, endMb: 420, baselineAfterRelease: null, endAfterRelease: null })).toEqual({ measured: true, ok: true });
  });

  it("names the series that held something, the largest first", () => {
    expect(changesMb({ Mark: 0.2, Uncompressed: 0, Page: 0 }, { Mark: 0.3, Uncompressed: 1.5, Page: 0 })).toBe("Uncompressed 0 -> 1.5 MB, Mark 0.2 -> 0.3 MB");
    expect(changesMb({ Mark: 0 }, {})).toBe("none held anything");
  });
});
