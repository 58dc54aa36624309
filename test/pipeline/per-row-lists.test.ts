/**
 * A list on the right of IN that holds a value read per row (`1000 IN tuple(server_sample_rate,
 * TRUE, trace_id)`) is no set: ClickHouse casts each of its values to the left's type made
 * Nullable, row by row. The typing pass judges each value but a string as `left = value` where the
 * left is a number, a DateTime or a UUID (argument-types.ts, judgePerRowList). This holds it to
 * the embedded engine for every pair of classes, the left a constant or a column, the values
 * columns (plain and Nullable) beside a constant: where the pass refuses, the engine refuses; and
 * for plain values, where the engine refuses with a type error, the pass does too.
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE, nullableSample } from "../../src/pipeline/argument-classes.js";
import type { Expression } from "../../src/query/ast.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { passRefusal } from "../support/typing-pass.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";

const TYPE_ERRORS = new Set([43, 386, 48]);
const plainSamples = ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]);
const nullableSamples = NULLABLE_CLASSES.map((cls) => nullableSample(cls)!);
const samples = [...plainSamples, ...nullableSamples];
const entity = probeColumnsEntity(samples);

const engine = useProbeTablesEngine("per-row-lists", samples);



const column = (name: string): Expression => ({ kind: "column", name });
/** A constant the pass types as the sample's class, and its SQL: literals where SnQL has one. */
const LITERALS: Partial<Record<string, { expression: Expression; sql: string }>> = {
  uint8: { expression: { kind: "literal", value: 1 }, sql: "1" },
  int64: { expression: { kind: "literal", value: 1000 }, sql: "1000" },
  float64: { expression: { kind: "literal", value: 0.5 }, sql: "0.5" },
  string: { expression: { kind: "literal", value: "a" }, sql: "'a'" },
  bool: { expression: { kind: "literal", value: true }, sql: "true" },
};

describe("a per-row list on the right of IN", () => {
  it("refuses where the engine's cast of its values refuses, and only there, for every pair of classes", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const leftClass of ARGUMENT_CLASSES) {
      const lefts = [{ expression: column(CLASS_SAMPLES[leftClass].column), sql: CLASS_SAMPLES[leftClass].column }, ...(LITERALS[leftClass] ? [LITERALS[leftClass]] : [])];
      for (const left of lefts)
        for (const value of samples) {
          const list: Expression = { kind: "function", name: "tuple", args: [column(value.column), { kind: "literal", value: 2 }] };
          const expression: Expression = { kind: "function", name: "in", args: [left.expression, list] };
          const sql = `${left.sql} IN tuple(${value.column}, 2)`;
          const refusal = passRefusal(expression, entity);
          const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
          if (refusal !== null) refused += 1;
          const engineRefuses = code !== null && TYPE_ERRORS.has(code);
          if (refusal !== null && !engineRefuses) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 140)}), the engine ${code === null ? "answers" : `fails (${code})`}`);
          // The rule's own ground: a plain value, the left of a class it judges.
          const judged = ["uint8", "int64", "float64", "datetime", "uint32", "uuid"].includes(leftClass) && !value.type.startsWith("Nullable(") && value !== CLASS_SAMPLES.string;
          if (judged && engineRefuses && refusal === null) wrong.push(`${sql}: the engine refuses it (${code}), the pass takes it`);
        }
    }
    expect(wrong).toEqual([]);
    // A UUID beside each number and the DateTime, both ways; arrays and states beside each.
    expect(refused).toBeGreaterThan(40);
  });

  it("looked for with a NULL on the left is a Nullable(UInt8), as the engine types it, and a call refusing a UInt8 refuses it (found by the fuzz: notEmpty((NULL + 'production') IN tuple(tags, span_id)), code 43, seed 33)", async () => {
    const wrong: string[] = [];
    for (const left of ["NULL", "plus(NULL, 'production')", "plus(NULL, 1)"])
      for (const value of samples) {
        const sql = `${left} IN tuple(${value.column}, 2)`;
        const expression = parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression;
        const pass = expressionTyping(expression, entity);
        const rows = (await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" })).json()) as { t: string }[];
        const type = rows[0]?.t;
        if (type !== "Nullable(UInt8)" || pass.cls !== "uint8" || !pass.nullable) wrong.push(`${sql}: the engine ${type}, the pass ${pass.cls}${pass.nullable ? " (Nullable)" : ""}`);
        const notEmpty = `notEmpty(${sql})`;
        const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${notEmpty} AS zz`).selected[0]!.expression, entity);
        const code = await engine.code(`SELECT ${notEmpty} FROM ${PROBE_ROW_TABLE}`);
        if ((refusal === null) !== (code === null)) wrong.push(`${notEmpty}: the pass ${refusal === null ? "takes" : "refuses"} it, the engine ${code === null ? "answers" : `fails (${code})`}`);
      }
    expect(wrong).toEqual([]);
  });
});

describe("a NULL computed per row looked for in a per-row list", () => {
  // `(transaction_status + trace_sampled) IN tuple(http_method, partition)` on discover, whose
  // trace_sampled is NULL (seed 36): the list's values are converted to a Nullable(Nothing), which
  // ClickHouse does from a number, a Boolean or a NULL but from no other class (code 70, on an
  // empty table too). A NULL literal's arithmetic is folded first, and a list of one is a column.
  it("is refused exactly where the engine refuses it, for every class in the list, on an empty table and on a row", async () => {
    const lefts = [`plus(${CLASS_SAMPLES.uint32.column}, NULL)`, `multiply(NULL, ${CLASS_SAMPLES.float64.column})`, "plus(NULL, 1)"];
    const calls = lefts.flatMap((left) =>
      samples.flatMap((sample) => [`in(${left}, tuple(${sample.column}, ${CLASS_SAMPLES.uint8.column}))`, `notIn(${left}, tuple(${CLASS_SAMPLES.uint8.column}, ${sample.column}))`, `in(${left}, tuple(${sample.column}))`, `in(${left}, tuple(NULL, ${sample.column}))`]),
    );
    const wrong: string[] = [];
    let refused = 0;
    for (const sql of calls) {
      const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
      if (refusal !== null) refused++;
      for (const table of ["probe", PROBE_ROW_TABLE]) {
        const code = await engine.code(`SELECT ${sql} FROM ${table}`);
        // The conversion to a Nothing (code 70) is this rule's; the engine refuses a lone state
        // there otherwise (43), and other refusals are the list's own.
        const byRule = refusal?.includes("a NULL computed per row") ?? false;
        if ((byRule && code === null) || (code === 70 && !byRule)) wrong.push(`${sql} on ${table}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 80)})`}, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(20);
  });
});
