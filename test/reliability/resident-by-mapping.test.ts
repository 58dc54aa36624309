/**
 * The reliability run places memory growth by mapping (smaps): the engine's code pages against
 * the heaps. Read from this test's own process, which maps the node binary and anonymous memory.
 */
import { describe, expect, it } from "vitest";
import { mappingChanges, residentByMapping, statusNumber } from "../../bench/reliability/server-process.js";

describe("resident memory by mapping", () => {
  it("sums smaps' Rss per mapped file and for anonymous memory, matching VmRSS", () => {
    const byName = residentByMapping(process.pid);
    expect(byName.get("node") ?? 0).toBeGreaterThan(1024);
    expect(byName.get("[anonymous]") ?? 0).toBeGreaterThan(1024);
    const total = [...byName.values()].reduce((sum, kb) => sum + kb, 0);
    const vmRss = statusNumber(process.pid, "VmRSS");
    // Two readings a moment apart: within 10 %.
    expect(Math.abs(total - vmRss)).toBeLessThan(vmRss * 0.1);
    expect(residentByMapping(2 ** 22 + 12_345).size).toBe(0);
  });

  it("names the largest changes first, leaving out those under 1 MB", () => {
    const before = new Map([["libchdb.so", 100_000], ["[anonymous]", 200_000], ["[stack]", 100]]);
    const after = new Map([["libchdb.so", 120_480], ["[anonymous]", 170_000], ["[stack]", 900], ["libc.so.6", 2_048]]);
    expect(mappingChanges(before, after)).toBe("[anonymous] -29.3 MB, libchdb.so +20.0 MB, libc.so.6 +2.0 MB");
    expect(mappingChanges(before, before)).toBe("no mapping changed by 1 MB or more");
  });
});
