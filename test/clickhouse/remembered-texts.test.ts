/**
 * The front end remembers a few thousand aliases and datetime literals it has resolved, as they
 * repeat from query to query; a long one is resolved each time and not kept, so that texts as
 * long as a request do not stay for the life of the process.
 */
import { describe, expect, it } from "vitest";
import { MAX_REMEMBERED_ALIAS_CHARS, resultAlias } from "../../src/clickhouse/escaping.js";
import { defaultMemoryReleaseActions } from "../../src/server/idle-memory-release.js";
import { parseDateTimeLiteral } from "../../src/query/datetime-literal.js";

const collect = defaultMemoryReleaseActions().collectGarbage!;

describe("remembered aliases and datetime literals", () => {
  it("resolve long texts as they do short ones", () => {
    const long = "a".repeat(MAX_REMEMBERED_ALIAS_CHARS + 1);
    expect(resultAlias(long)).toBe(`_snuba_${long}`);
    expect(resultAlias(long)).toBe(`_snuba_${long}`);
    expect(resultAlias("x.y")).toBe("`_snuba_x.y`");
    expect(parseDateTimeLiteral(`2024-05-16T00:00:00.${"0".repeat(100)}Z`)).toBe(Date.UTC(2024, 4, 16) / 1000);
  });

  it("keep none of 1,000 long ones", () => {
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 1000; i++) {
      // 50,000 characters each: 150 MB if kept (the name, its alias, the datetime text).
      resultAlias(`c${i}`.padEnd(50_000, "a"));
      parseDateTimeLiteral(`2024-05-16T00:00:00.${String(i).padEnd(50_000, "0")}Z`);
    }
    collect();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);
  });
});
