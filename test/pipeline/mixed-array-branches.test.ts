/**
 * An array of a Variant (`array(use_case_id, 2)`, an Array(Variant(String, UInt8))) has a common
 * type with no other value: an `if` of one and anything else, an array of one type included, is a
 * Variant (argument-types.ts, BRANCH_VARIANT_FAMILIES), which ORDER BY refuses (code 44; seed 13:
 * `ORDER BY if(0, length(use_case_id), array(use_case_id, 2, use_case_id))`). This holds the type
 * to the embedded engine's, branch by branch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { columnsEntity } from "../../src/datasets/columns-entity.js";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import type { Expression } from "../../src/query/ast.js";
import { openProbeTablesEngine, type ScratchEngine } from "../support/scratch-engine.js";

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
const entity = columnsEntity("probe", samples.map((sample) => ({ name: sample.column, type: sample.type })));

let engine: ScratchEngine;

beforeAll(async () => {
  engine = await openProbeTablesEngine("mixed-array-branches", samples);
});

afterAll(async () => {
  await engine.close();
});

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
