/**
 * An array of a Variant (`array(use_case_id, 2)`, an Array(Variant(String, UInt8))) has a common
 * type with no other value: an `if` of one and anything else, an array of one type included, is a
 * Variant (typing/branch-types.ts, BRANCH_VARIANT_FAMILIES), which ORDER BY refuses (code 44;
 * seed 13: `ORDER BY if(0, length(use_case_id), array(use_case_id, 2, use_case_id))`). This holds
 * the type to the embedded engine's, branch by branch. Two such arrays compared are refused where
 * their elements' families differ (seed 14: an Array(Variant(String, UInt8)) = an
 * Array(Variant(String, UInt8, UUID)), code 43): the engine compares arrays of a Variant only
 * with the same Variant. An array holding an `if`'s Variant (`array(now(), coalesce(email, 0))`)
 * is an array of a Variant too (seed 16).
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { passRefusal } from "../support/typing-pass.js";
import type { Expression } from "../../src/query/ast.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";

const others = [...ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]), ...variantSamples("tuple"), ...variantSamples("float64s")];
const samples = others;
/** Arrays of two families' columns, each an Array(Variant(...)) (the column types no entity declares). */
const mixedArrays = (
  [
    ["string", "uint8"],
    ["datetime", "int64"],
    ["datetime", "string"],
    ["uuid", "string"],
  ] as const
).map(([a, b]) => [CLASS_SAMPLES[a].column, CLASS_SAMPLES[b].column]);
const entity = probeColumnsEntity(samples);

const engine = useProbeTablesEngine("mixed-array-branches", samples);

const column = (name: string): Expression => ({ kind: "column", name });

describe("an if of an array of a Variant and another value", () => {
  it("is a Variant in the pass and in the engine, and ORDER BY refuses it", async () => {
    const wrong: string[] = [];
    const condition = CLASS_SAMPLES.uint8.column;
    for (const mixed of mixedArrays)
      for (const other of [...others, null]) {
        for (const [a, b] of [
          [mixed, other?.column ?? "NULL"],
          [other?.column ?? "NULL", mixed],
        ] as const) {
          const sqlOf = (side: string | readonly string[]): string => (typeof side === "string" ? side : `array(${side.join(", ")})`);
          const nodeOf = (side: string | readonly string[]): Expression =>
            typeof side !== "string" ? { kind: "function", name: "array", args: side.map(column) } : side === "NULL" ? { kind: "literal", value: null } : column(side);
          const sql = `if(${condition}, ${sqlOf(a)}, ${sqlOf(b)})`;
          const expression: Expression = { kind: "function", name: "if", args: [column(condition), nodeOf(a), nodeOf(b)] };
          const pass = expressionTyping(expression, entity).variant;
          const rows = await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" })).json<{ t: string }>();
          const type = rows[0]!.t;
          if (pass !== "mixed" || !type.startsWith("Variant(")) wrong.push(`${sql}: the engine's ${type}, the pass's ${pass ?? "none"}`);
          if (await engine.accepted(`SELECT 1 FROM ${PROBE_ROW_TABLE} ORDER BY ${sql}`)) wrong.push(`ORDER BY ${sql}: answered`);
        }
      }
    expect(wrong).toEqual([]);
  });
});

describe("two arrays of a Variant compared", () => {
  it("are refused where their elements' families differ, as the engine refuses them; the same families are left to the engine", async () => {
    const families = [["string", "uint8"], ["string", "uint8", "uuid"], ["datetime", "int64"], ["datetime", "string"], ["uuid", "string"], ["string", "bool"], ["string", "float64"]] as const;
    const arrays = families.map((classes) => classes.map((cls) => CLASS_SAMPLES[cls].column));
    const wrong: string[] = [];
    let refused = 0;
    let sameFamilies = 0;
    for (const a of arrays)
      for (const b of arrays)
        for (const name of ["equals", "less", "notEquals"]) {
          const expression: Expression = { kind: "function", name, args: [a, b].map((side): Expression => ({ kind: "function", name: "array", args: side.map(column) })) };
          const sql = `${name}(array(${a.join(", ")}), array(${b.join(", ")}))`;
          const refusal = passRefusal(expression, entity);
          const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
          const familiesOf = (side: readonly string[]) => new Set(side.map((c) => (["uint8", "int64", "float64", "bool"].some((cls) => CLASS_SAMPLES[cls as "uint8"].column === c) ? "number" : c)));
          const differ = [...familiesOf(a)].sort().join() !== [...familiesOf(b)].sort().join();
          if (refusal !== null) refused++;
          if (!differ) sameFamilies++;
          if (refusal !== null && code !== 43) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 100)}), the engine ${code === null ? "answers" : `fails (${code})`}`);
          if (differ && refusal === null) wrong.push(`${sql}: families differ, the pass takes it (the engine ${code === null ? "answers" : `fails (${code})`})`);
        }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(60);
    expect(sameFamilies).toBeGreaterThan(10);
  });
});

describe("two arrays of a Variant of the same families compared, literals among their elements", () => {
  it("are refused where one holds a literal's exact type (a Bool, a String, a Float64), a condition's or an integer column's no element of the other can be, as the engine refuses them; the rest are left to the engine (seed 42: array(use_case_id, 0.95) <= array(use_case_id, FALSE))", async () => {
    const s = column(CLASS_SAMPLES.string.column);
    const n = column(CLASS_SAMPLES.int64.column);
    const f = column(CLASS_SAMPLES.float64.column);
    const lit = (value: string | number | boolean): Expression => ({ kind: "literal", value });
    // A condition is a UInt8 and an integer column of its declared type, whatever the rows (seed 45: array(dist, round(span_id) IN 2) >= array(0.95, release)).
    const u = column(CLASS_SAMPLES.uint8.column);
    const condition: Expression = { kind: "function", name: "equals", args: [n, lit(2)] };
    const sqlOf = (node: Expression): string =>
      node.kind === "column" ? node.name : node.kind === "literal" ? (typeof node.value === "string" ? `'${node.value}'` : String(node.value).toUpperCase()) : node.kind === "function" ? `${node.name}(${node.args.map(sqlOf).join(", ")})` : "";
    const arrays: Expression[][] = [
      [s, lit(0.95)],
      [s, lit(false)],
      [s, lit(0.5)],
      [s, lit(1)],
      [s, n],
      [s, f],
      [lit("a"), lit(0.25)],
      [lit("a"), lit(true)],
      [s, lit(true), lit(0.5)],
      [n, lit("x")],
      [f, lit("x")],
      [s, condition],
      [s, u],
      // A whole number is written as an integer (seed 47: array(http_method, measurements[lcp]) = array(10, 'error')).
      [lit(10), lit("error")],
      [lit(1000), s],
    ];
    const wrong: string[] = [];
    let refused = 0;
    let taken = 0;
    for (const a of arrays)
      for (const b of arrays) {
        const expression: Expression = { kind: "function", name: "lessOrEquals", args: [a, b].map((side): Expression => ({ kind: "function", name: "array", args: side })) };
        const sql = `lessOrEquals(array(${a.map(sqlOf).join(", ")}), array(${b.map(sqlOf).join(", ")}))`;
        const refusal = passRefusal(expression, entity);
        const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
        if (refusal !== null) refused++;
        else taken++;
        if (refusal !== null && code !== 43) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 100)}), the engine ${code === null ? "answers" : `fails (${code})`}`);
      }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(20);
    expect(taken).toBeGreaterThan(15);
    const seed42: Expression = { kind: "function", name: "lessOrEquals", args: [arrays[0]!, arrays[1]!].map((side): Expression => ({ kind: "function", name: "array", args: side })) };
    expect(passRefusal(seed42, entity)).toMatch(/holding a Float64/);
  });
});

describe("an array holding an if's Variant", () => {
  it("is an array of a Variant in the pass and in the engine, alone or beside other values, and ORDER BY refuses it (seed 16)", async () => {
    const condition = CLASS_SAMPLES.uint8.column;
    const [s, d] = [CLASS_SAMPLES.string.column, CLASS_SAMPLES.datetime.column];
    const variant: Expression = { kind: "function", name: "coalesce", args: [{ kind: "literal", value: null }, { kind: "function", name: "if", args: [column(condition), column(s), { kind: "literal", value: 0 }] }] };
    const variantSql = `coalesce(NULL, if(${condition}, ${s}, 0))`;
    const cases: Array<[Expression[], string]> = [
      [[variant], variantSql],
      [[{ kind: "function", name: "now", args: [] }, variant], `now(), ${variantSql}`],
      [[column(d), { kind: "literal", value: null }, variant], `${d}, NULL, ${variantSql}`],
    ];
    const wrong: string[] = [];
    for (const [elements, elementsSql] of cases) {
      const sql = `array(${elementsSql})`;
      const pass = expressionTyping({ kind: "function", name: "array", args: elements }, entity).variant;
      const rows = await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" })).json<{ t: string }>();
      if (pass !== "mixedArray" || !rows[0]!.t.startsWith("Array(Variant(")) wrong.push(`${sql}: the engine's ${rows[0]!.t}, the pass's ${pass ?? "none"}`);
      if (await engine.accepted(`SELECT 1 FROM ${PROBE_ROW_TABLE} ORDER BY ${sql}`)) wrong.push(`ORDER BY ${sql}: answered`);
    }
    expect(wrong).toEqual([]);
  });
});
