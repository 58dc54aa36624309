/**
 * Two tuples compared are compared element by element, and inside a tuple an array column is not
 * rewritten into a comparison of its elements: an array beside a Nullable value of a class other
 * than a string (`tuple(contexts.key) = tuple(num_processing_errors)`, seed 15) is refused while
 * the query is planned (code 43), whatever the rows. A Nullable string is read as an array per
 * row and taken. The typing pass refuses the first and takes the second (argument-types.ts,
 * judgeComparedTuples); this holds it to the embedded engine for every array and every Nullable
 * class, each way round. And a tuple an `ifNull`, a `coalesce` or an aggregate returning one of
 * its rows' values (`max`, `any`, `argMax`) returns is judged element by element as the tuple(…)
 * itself is, in arithmetic and comparison; so is the tuple arithmetic with a tuple makes
 * (`2.5 * tuple(a, b) * item_id`, seed 19).
 */
import { describe, expect, it } from "vitest";
import { ARRAY_VARIANTS, CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE, nullableSample, variantSamples } from "../../src/pipeline/argument-classes.js";
import type { Expression } from "../../src/query/ast.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { passAgainstEngine, passRefusal } from "../support/typing-pass.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";

const arrays = [CLASS_SAMPLES.arrayString, CLASS_SAMPLES.arrayNumber, ...ARRAY_VARIANTS.map((variant) => variantSamples(variant)[0]!)];
const nullables = NULLABLE_CLASSES.map((cls) => nullableSample(cls)!);
const scalars = (["string", "uint8", "int64", "datetime", "uuid"] as const).map((cls) => CLASS_SAMPLES[cls]);
/** The operands arithmetic meets beside a tuple arithmetic made: every scalar class and a UInt128 (eap_items' ids). */
const operands = [...(["string", "uint8", "int64", "float64", "datetime", "uuid", "uint32", "bool"] as const).map((cls) => CLASS_SAMPLES[cls]), ...variantSamples("uint128")];
const samples = [...new Set([...arrays, ...nullables, ...scalars, ...operands, ...Object.values(CLASS_SAMPLES)])];
const entity = probeColumnsEntity(samples);

const engine = useProbeTablesEngine("compared-tuples", samples);

const column = (name: string): Expression => ({ kind: "column", name });
const tuple = (...args: Expression[]): Expression => ({ kind: "function", name: "tuple", args });

describe("an array beside a Nullable value in two tuples compared", () => {
  it("is refused by the pass exactly where the engine refuses it while planning (code 43), each way round", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const array of arrays)
      for (const value of nullables)
        for (const name of ["equals", "less", "notEquals"])
          for (const [left, right] of [
            [array.column, value.column],
            [value.column, array.column],
          ] as const) {
            const expression: Expression = { kind: "function", name, args: [tuple(column(left)), tuple(column(right))] };
            const sql = `${name}(tuple(${left}), tuple(${right}))`;
            const refusal = passRefusal(expression, entity);
            // An empty table: what the engine refuses there it refuses while planning.
            const code = await engine.code(`SELECT ${sql} FROM probe`);
            if (refusal !== null) refused++;
            if (refusal !== null && code === null) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 100)}), the engine answers`);
            if (refusal === null && code === 43) wrong.push(`${sql}: the engine refuses it (43), the pass takes it`);
          }
    expect(wrong).toEqual([]);
    // Every array beside each Nullable class but the string, three comparisons, both ways.
    expect(refused).toBeGreaterThanOrEqual(arrays.length * (nullables.length - 1) * 3 * 2);
    // And on a row, the same.
    expect(await engine.code(`SELECT equals(tuple(${CLASS_SAMPLES.arrayString.column}), tuple(${nullableSample("uint8")!.column})) FROM ${PROBE_ROW_TABLE}`)).toBe(43);
  });
});

describe("a Nullable beside a scalar in two tuples compared", () => {
  // `tuple(…, dist, …) != tuple(…, replay_id, …)`: a Nullable(String) and a UUID are compared
  // as the pair alone is, and refused on the first row holding a value (code 386; seed 19).
  it("is refused by the pass exactly where the engine refuses it on a row holding values, each way round", async () => {
    const wrong: string[] = [];
    let refused = 0;
    let judged = 0;
    for (const value of nullables)
      for (const other of [...operands, ...nullables])
        for (const name of ["equals", "less", "notEquals"])
          for (const [left, right] of [
            [value.column, other.column],
            [other.column, value.column],
          ] as const) {
            const sql = `${name}(tuple(${left}, 1), tuple(${right}, 1))`;
            const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
            const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
            judged++;
            if (refusal !== null) refused++;
            if (refusal !== null && code === null) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 100)}), the engine answers`);
            if (refusal === null && code !== null) wrong.push(`${sql}: the engine refuses it (${code}), the pass takes it`);
          }
    expect(wrong.slice(0, 30), `${wrong.length} of ${judged}`).toEqual([]);
    expect(refused).toBeGreaterThan(judged / 4);
  });
});

describe("a tuple an ifNull, a coalesce, an aggregate of rows' values or greatest of one value returns", () => {
  // A tuple is never NULL, so `coalesce(tuple(…), 'x')` is that tuple (seed 15's
  // `receive_timestamp - coalesce(tuple(TRUE, geo_subdivision, occurrence_id), 'node-api-a')`,
  // code 43): arithmetic and comparison work on its elements, as on the tuple(…) itself.
  it("is judged element by element, as the tuple(…) it returns, and the engine agrees", async () => {
    const { c_string: s, c_uint8: u, c_int64: i, c_datetime: d, c_uuid: id } = Object.fromEntries(scalars.map((sample) => [sample.column, sample.column]));
    const n = nullableSample("string")!.column;
    const cases: Array<[string, boolean]> = [
      [`minus(${d}, coalesce(tuple(true, ${n}, ${id}), 'x'))`, true],
      [`minus(${d}, coalesce(NULL, tuple(true, 'a'), 'x'))`, true],
      [`minus(${d}, ifNull(tuple(${s}), 1))`, true],
      [`multiply(coalesce(tuple(${u}, ${s}), 2), 3)`, true],
      [`less(ifNull(tuple('a', 'a'), 2), tuple(${i}, 'b'))`, true],
      // An aggregate returning one of its rows' values returns a tuple of the same elements (seed 16).
      [`divide(max(tuple(false, ${u}, 'transaction')), 1)`, true],
      [`multiply(argMax(tuple(1, 'a'), ${d}), 2)`, true],
      [`less(any(tuple(${i}, 1)), tuple('abc', 2))`, true],
      [`divide(max(tuple(1, ${u})), 2)`, false],
      // greatest or least of one value, and identity, are that value (seed 39).
      [`divide(greatest(tuple(${u}, ${d})), ${u})`, true],
      [`multiply(least(tuple(${s}, 1)), 2)`, true],
      [`divide(identity(tuple(${u}, ${i})), 2)`, false],
      // Elements the operation takes: answered.
      [`minus(${d}, coalesce(tuple(1, ${u}), 'x'))`, false],
      [`multiply(ifNull(tuple(${u}, ${i}), 2), 3)`, false],
      [`less(ifNull(tuple(1, 'a'), 2), tuple(${i}, 'b'))`, false],
    ];
    const wrong: string[] = [];
    for (const [sql, refuses] of cases) {
      const expression = parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression;
      const refusal = passRefusal(expression, entity);
      const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
      if ((refusal !== null) !== refuses) wrong.push(`${sql}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 120)})`}`);
      if ((code !== null) !== refuses) wrong.push(`${sql}: the engine ${code === null ? "answers" : `refuses it (${code})`}`);
      if (refusal !== null) expect(refusal, sql).toMatch(/works on a tuple element by element|of a date and a tuple (adds|subtracts) its elements in turn/);
    }
    expect(wrong).toEqual([]);
  });
});

describe("a tuple that arithmetic with a tuple makes", () => {
  // `x * tuple(a, b)` is `tuple(x * a, x * b)`, and arithmetic with it works on those elements
  // (`server_sample_rate * tuple(…) * item_id`: a Float64 times a UInt128, code 43; seed 19).
  it("is judged element by element, and the pass refuses exactly what the engine refuses", async () => {
    const { c_uint8: u, c_float64: f, c_int64: i } = Object.fromEntries(operands.map((sample) => [sample.column, sample.column]));
    const made = [`multiply(${f}, tuple(${u}, ${i}))`, `multiply(tuple(${u}, ${f}), 2)`, `divide(tuple(${i}, ${u}), 3)`, `plus(tuple(${u}, ${i}), tuple(${f}, 1))`, `minus(tuple(${i}, ${u}), tuple(1, ${f}))`, `intDiv(tuple(${u}, ${i}), ${u})`];
    const wrong: string[] = [];
    let refused = 0;
    let judged = 0;
    for (const tupleSql of made)
      for (const other of operands)
        for (const sql of [`multiply(${tupleSql}, ${other.column})`, `multiply(${other.column}, ${tupleSql})`, `divide(${tupleSql}, ${other.column})`, `plus(${tupleSql}, tuple(${other.column}, 1))`, `minus(tuple(1, ${other.column}), ${tupleSql})`]) {
          const expression = parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression;
          const refusal = passRefusal(expression, entity);
          const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
          judged++;
          if (refusal !== null) refused++;
          if (refusal !== null && code === null) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 120)}), the engine answers`);
          if (refusal === null && code !== null) wrong.push(`${sql}: the engine refuses it (${code}), the pass takes it`);
        }
    expect(wrong.slice(0, 30), `${wrong.length} of ${judged}`).toEqual([]);
    // The UInt128 beside a float element, a string, a UUID and a DateTime beside numbers: refused.
    expect(refused).toBeGreaterThan(judged / 4);
    const seed19 = `multiply(multiply(${f}, tuple(${u}, ${u}, ${f})), s_uint128)`;
    expect(passRefusal(parseSnql(`MATCH (x) SELECT ${seed19} AS zz`).selected[0]!.expression, entity)).toMatch(/works on a tuple element by element, and refuses element 1/);
    expect(await engine.code(`SELECT ${seed19} FROM ${PROBE_ROW_TABLE}`)).toBe(43);
  });

  it("is no tuple where the engine makes none: the product of two tuples is a number", async () => {
    const sql = `multiply(multiply(tuple(c_uint8, 2), tuple(c_float64, 1)), c_uint8)`;
    expect(passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity)).toBeNull();
    expect(await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`)).toBeNull();
  });
});

describe("two tuples compared with = beside a pair of constants that differ", () => {
  // `tuple(event_id, 1) = tuple(1.5, 2)`: the engine answers without comparing the rest where
  // the constants differ, but it still builds each pair's comparison, and refuses the types no
  // comparison takes (a UUID and a Float64: code 43; seed 35). A text beside another type is
  // converted per row, never (code 386 alone, answered here).
  it("is refused by the pass exactly where the engine refuses it, for every pair of classes", async () => {
    const classes = Object.values(CLASS_SAMPLES);
    const wrong: string[] = [];
    let refused = 0;
    for (const a of classes)
      for (const b of classes)
        for (const name of ["equals", "notEquals"]) {
          const sql = `${name}(tuple(${a.column}, 1), tuple(${b.column}, 2))`;
          const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
          const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
          if (refusal !== null) refused++;
          if ((refusal !== null) !== (code !== null)) wrong.push(`${sql}: the pass ${refusal === null ? "takes it" : "refuses it"}, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
        }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(100);
  });
});

describe("a Nullable value compared with a tuple", () => {
  // `multiIf(TRUE, NULL, organization_id) >= tuple(user_email, 1, NULL)` (seed 36): a Nullable
  // of a class other than a string is refused while the query is planned (code 43), on an empty
  // table too; a Nullable string is read as a tuple on a row holding one (code 386).
  it("is refused by the pass exactly where the engine refuses it, each way round, on an empty table and on a row", async () => {
    const calls = nullables.flatMap((value) => ["equals", "less", "greaterOrEquals"].flatMap((name) => [`${name}(${value.column}, tuple(1, 2))`, `${name}(tuple('a', 1), ${value.column})`]));
    const onRow = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(onRow.wrong).toEqual([]);
    expect(onRow.refused).toBe(calls.length);
    const planned = await passAgainstEngine(engine, entity, calls.filter((sql) => !sql.includes(nullableSample("string")!.column)), "probe");
    expect(planned.wrong).toEqual([]);
  });
});
