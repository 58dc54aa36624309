/**
 * Counts of arguments the pass refuses past what the probe table says outright
 * (typing/judge.ts), each measured on the embedded engine over every allowed function:
 *
 * - beside a NULL: some functions count first and refuse (`multiIf(x, NULL < TRUE)`, code 42;
 *   seed 29), others answer a NULL without counting (`toString(NULL, 1, 2)`); the pass refuses
 *   the count beside a NULL only for the first (typing/function-facts.ts, COUNT_CHECKED_BESIDE_NULL);
 * - multiIf's: an odd count, 3 or more, past the probe's 4 arguments too;
 * - past 4 arguments: a function that refuses 4 refuses more, and a few take 4 and no more
 *   (TAKES_AT_MOST_FOUR); the others the pass takes 5 or more of, the engine does not count first.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import { COUNT_CHECKED_BESIDE_NULL, COUNTS_READ_AS_OTHER_SYNTAX, ONE_ARGUMENT_CONVERSION, fixedAggregateCount, TAKES_AT_MOST_FOUR, functionFacts } from "../../src/pipeline/typing/function-facts.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine, passRefusal } from "../support/typing-pass.js";

const sample = CLASS_SAMPLES.uint8;
const entity = probeColumnsEntity([sample]);
const engine = useProbeTablesEngine("argument-counts", [sample]);

/** Each refused count's calls with a NULL: one at each position beside the column, and NULLs alone. */
function callsWithNull(name: string): string[] {
  const calls: string[] = [];
  const refused = functionFacts(name).refusedCounts;
  for (let count = 1; count <= 4; count++) {
    if (refused[count] !== true) continue;
    for (let at = 0; at < count; at++) calls.push(`${name}(${Array.from({ length: count }, (_, i) => (i === at ? "NULL" : sample.column)).join(", ")})`);
    calls.push(`${name}(${Array(count).fill("NULL").join(", ")})`);
  }
  return calls;
}

describe("a refused count of arguments beside a NULL", () => {
  it("is refused by the engine for every call exactly of the functions in COUNT_CHECKED_BESIDE_NULL, and by the pass there; what the engine answers, the pass takes", async () => {
    const checked: string[] = [];
    const falseRefusals: string[] = [];
    const missed: string[] = [];
    for (const name of PROBED_FUNCTION_SIGNATURES.keys()) {
      const calls = callsWithNull(name);
      if (calls.length === 0) continue;
      let allRefused = true;
      for (const call of calls) {
        const answered = await engine.accepted(`SELECT ${call} FROM ${PROBE_ROW_TABLE}`);
        const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${call} AS zz`).selected[0]!.expression, entity);
        if (answered) allRefused = false;
        if (answered && refusal !== null) falseRefusals.push(`${call}: ${refusal}`);
        if (!answered && refusal === null && COUNT_CHECKED_BESIDE_NULL.has(name)) missed.push(call);
      }
      if (allRefused) checked.push(name);
    }
    expect(checked.sort()).toEqual([...COUNT_CHECKED_BESIDE_NULL].sort());
    expect(falseRefusals).toEqual([]);
    expect(missed).toEqual([]);
  });
});

describe("multiIf's count of arguments", () => {
  it("is refused by the pass exactly where the engine refuses it, past the probe's 4 arguments too, with a NULL or without", async () => {
    const calls: string[] = [];
    for (let count = 0; count <= 8; count++) {
      calls.push(`multiIf(${Array.from({ length: count }, () => sample.column).join(", ")})`);
      if (count > 0) calls.push(`multiIf(${Array.from({ length: count }, (_, i) => (i === count - 1 ? "NULL" : sample.column)).join(", ")})`);
    }
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    // 0, 1, 2, 4, 6 and 8 arguments, each with a NULL last but for none.
    expect(refused).toBe(11);
  });
});

/** The count the pass refuses a call for, as its message says, or null. */
function refusedCount(call: string): number | null {
  const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${call} AS zz`).selected[0]!.expression, entity);
  const count = refusal === null ? null : /does not take (\d+) arguments/.exec(refusal)?.[1];
  return count === undefined || count === null ? null : Number(count);
}

describe("a count past the probe's 4 arguments", () => {
  it("is refused by the engine and the pass for every function that refuses 4 or takes no more than 4 (but multiIf), and taken by the pass for the rest", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const name of PROBED_FUNCTION_SIGNATURES.keys()) {
      if (name === "multiIf") continue;
      const refusesFive = functionFacts(name).refusedCounts[5] === true;
      for (const count of [5, 6, 9]) {
        const call = `${name}(${Array(count).fill(sample.column).join(", ")})`;
        const counted = refusedCount(call) === count;
        if (counted) refused++;
        if (counted !== refusesFive) wrong.push(`${call}: the pass ${counted ? "refuses the count" : "does not refuse the count"}`);
        if (refusesFive && (await engine.accepted(`SELECT ${call} FROM ${PROBE_ROW_TABLE}`))) wrong.push(`${call}: the engine answers it`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(3 * 200);
  });

  it("of a function the pass takes 5 arguments of is not refused by the engine for its count whatever the arguments (dateDiff, toStartOfInterval and transform take 4 and no more)", async () => {
    // Five arguments of several kinds: a function the engine refuses 5 of counts first (code 42
    // for every kind); one that takes 5 answers some kind, or refuses it for its types.
    const kinds = [
      ["1", "2", "3", "4", "5"],
      ["'a'", "'b'", "'c'", "'d'", "'e'"],
      ["'day'", "now()", "now()", "'UTC'", "'UTC'"],
      ["now()", "INTERVAL 1 DAY", "'UTC'", "'UTC'", "'UTC'"],
      ["[1]", "[2]", "[3]", "[4]", "[5]"],
      ["1", "[1]", "[2]", "3", "4"],
      [sample.column, sample.column, sample.column, sample.column, sample.column],
    ];
    const countedFirst: string[] = [];
    for (const name of PROBED_FUNCTION_SIGNATURES.keys()) {
      if (functionFacts(name).refusedCounts[5] === true || name === "multiIf") continue;
      let always42 = true;
      for (const args of kinds) if ((await engine.code(`SELECT ${name}(${args.join(", ")}) FROM ${PROBE_ROW_TABLE}`)) !== 42) always42 = false;
      if (always42) countedFirst.push(name);
    }
    expect(countedFirst).toEqual([]);
    for (const name of TAKES_AT_MOST_FOUR) {
      expect(refusedCount(`${name}(${Array(5).fill(sample.column).join(", ")})`)).toBe(5);
      expect(refusedCount(`${name}(${Array(4).fill(sample.column).join(", ")})`)).toBeNull();
    }
  });
});

describe("a conversion to a number or a UUID that answers NULL or zero (toFloat64OrNull, …)", () => {
  it("is refused with a second argument, a time zone or not, by the engine and the pass, and taken alone", async () => {
    const names = [...PROBED_FUNCTION_SIGNATURES.keys()].filter((name) => ONE_ARGUMENT_CONVERSION.test(name));
    expect(names.length).toBeGreaterThanOrEqual(6);
    const seconds = ["'UTC'", "1", sample.column, "'a', 'b'"];
    const calls = names.flatMap((name) => [`${name}('1.5')`, ...["'1.5'", sample.column].flatMap((first) => seconds.map((second) => `${name}(${first}, ${second})`))]);
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBe(calls.length - names.length);
  });
});

/** Each of `refusedCalls` refused and each of `takenCalls` taken, by the engine and the pass alike. */
async function expectRefusedAndTaken(refusedCalls: readonly string[], takenCalls: readonly string[]): Promise<void> {
  const refused = await passAgainstEngine(engine, entity, refusedCalls, PROBE_ROW_TABLE);
  expect(refused.wrong).toEqual([]);
  expect(refused.refused).toBe(refusedCalls.length);
  const taken = await passAgainstEngine(engine, entity, takenCalls, PROBE_ROW_TABLE);
  expect(taken.wrong).toEqual([]);
  expect(taken.refused).toBe(0);
}

describe("a count ClickHouse's SQL parser reads as other syntax (position(x), substring(x), trim(), not(a, b))", () => {
  it("is refused by the engine with arguments of every kind, and by the pass; the counts around it are taken by both", async () => {
    const kinds = ["'abc'", "1", sample.column, "now()"];
    const refusedCalls: string[] = [];
    const takenCalls: string[] = [];
    for (const [name, counts] of COUNTS_READ_AS_OTHER_SYNTAX) {
      for (const count of counts) refusedCalls.push(...kinds.map((kind) => `${name}(${Array(count).fill(kind).join(", ")})`));
    }
    takenCalls.push("position('abc', 'b')", "position('abc', 'b', 1)", "substring('abc', 2)", "substring('abc', 1, 2)", "trim('abc')", `not(${sample.column})`);
    await expectRefusedAndTaken(refusedCalls, takenCalls);
  });
});

describe("an aggregate of a fixed number of arguments (quantile and its kinds, median, sumArray, …)", () => {
  it("is refused with any other number, by the engine and the pass, and taken with its own; quantiles without its levels with none", async () => {
    const names = [...PROBED_FUNCTION_SIGNATURES.keys()].filter((name) => fixedAggregateCount(name) !== undefined);
    expect(names.length).toBeGreaterThanOrEqual(15);
    const refusedCalls: string[] = [];
    const takenCalls: string[] = [];
    for (const name of names) {
      const arg = name.endsWith("Array") ? `array(${sample.column})` : sample.column;
      for (let count = 1; count <= 4; count++) (count === fixedAggregateCount(name) ? takenCalls : refusedCalls).push(`${name}(${Array(count).fill(arg).join(", ")})`);
    }
    await expectRefusedAndTaken(refusedCalls, takenCalls);
  });
});
