/** The front-end memo: a repeated query skips parse/validate/translate, keeps its stage marks, stays bounded. */
import { describe, expect, it } from "vitest";
import { frontEndKey, PreparedQueryMemo } from "../../src/cache/prepared-query-memo.js";
import type { PreparedQuery } from "../../src/query/prepared-query.js";
import { StageTimer } from "../../src/query/stage-timer.js";

const prepared = (sql: string) => ({ sql }) as unknown as PreparedQuery;

describe("PreparedQueryMemo", () => {
  it("prepares once per key and still marks the front-end stages on a hit", () => {
    const memo = new PreparedQueryMemo(10);
    let runs = 0;
    const key = frontEndKey("snql", "events", "MATCH (events) SELECT count()", [false]);
    const first = memo.prepare(key, new StageTimer(), ["validate_schema", "prepare_query"], () => (runs++, prepared("A")));
    const timer = new StageTimer();
    const second = memo.prepare(key, timer, ["validate_schema", "prepare_query"], () => (runs++, prepared("B")));
    expect(second).toBe(first);
    expect(runs).toBe(1);
    expect(Object.keys(timer.toTiming().marks_ms)).toEqual(["prepare_query", "validate_schema"]);
    // The flags are part of the key: turbo changes the SQL.
    memo.prepare(frontEndKey("snql", "events", "MATCH (events) SELECT count()", [true]), new StageTimer(), [], () => (runs++, prepared("C")));
    expect(runs).toBe(2);
  });

  it("does not keep failures and evicts the least recently used past its bound", () => {
    const memo = new PreparedQueryMemo(2);
    expect(() => memo.prepare("bad", new StageTimer(), [], () => {
      throw new Error("syntax error");
    })).toThrow("syntax error");
    expect(memo.size).toBe(0);
    memo.prepare("a", new StageTimer(), [], () => prepared("a"));
    memo.prepare("b", new StageTimer(), [], () => prepared("b"));
    memo.prepare("a", new StageTimer(), [], () => prepared("a2"));
    memo.prepare("c", new StageTimer(), [], () => prepared("c"));
    expect(memo.size).toBe(2);
    let rebuilt = false;
    memo.prepare("b", new StageTimer(), [], () => ((rebuilt = true), prepared("b2")));
    expect(rebuilt).toBe(true);
  });

  it("stays within its character budget: long distinct queries push out the oldest", () => {
    const memo = new PreparedQueryMemo(1000, 10_000);
    for (let i = 0; i < 50; i++) memo.prepare(`q${i}`.padEnd(1000, "x"), new StageTimer(), [], () => prepared("s".repeat(1000)));
    expect(memo.heldChars).toBeLessThanOrEqual(10_000);
    expect(memo.size).toBe(5);
    // An entry larger than the whole budget is prepared but not kept.
    memo.prepare("huge", new StageTimer(), [], () => prepared("s".repeat(20_000)));
    expect(memo.size).toBe(5);
    expect(memo.heldChars).toBe(5 * 2000);
  });
});
