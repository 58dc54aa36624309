/**
 * A Nested column read whole (`tags`, an Array(Tuple(key String, value String))) among an `if`'s
 * or a `multiIf`'s branches has a common type with no scalar: ClickHouse makes a Variant of the
 * two (`multiIf(100, 'sentry', tags)` is a Variant(Array(Tuple(...)), String)), judged per
 * alternative, or on the branch a constant condition picks (seed 15's `greatest(NULL, NULL,
 * multiIf(100, 'sentry', tags)) >= event_id` on discover, code 386). The typing pass types it so
 * (typing/branch-types.ts, BRANCH_VARIANT_FAMILIES); this holds it to the embedded engine.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passRefusal } from "../support/typing-pass.js";

const nested = variantSamples("nested")[0]!;
const scalars = (["string", "uint8", "datetime", "uuid"] as const).map((cls) => CLASS_SAMPLES[cls]);
const samples = [nested, ...scalars];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("nested-branches", samples);

const expressionOf = (sql: string) => parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression;
const condition = CLASS_SAMPLES.uint8.column;

/**
 * Each call `name(value, other)` the pass refuses, run by the engine: one it answers is put in
 * `wrong`. Returns how many the pass refused.
 */
async function refusedWhereTheEngineRefuses(values: readonly string[], others: readonly string[], names: readonly string[], wrong: string[]): Promise<number> {
  let refused = 0;
  for (const value of values)
    for (const other of others)
      for (const name of names) {
        const sql = `${name}(${value}, ${other})`;
        const refusal = passRefusal(expressionOf(sql), entity);
        if (refusal === null) continue;
        refused++;
        const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
        if (code === null) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 120)}), the engine answers`);
      }
  return refused;
}

describe("a Nested column read whole beside a scalar among an if's branches", () => {
  it("makes the engine's Variant of the two, and a call of it is refused by the pass only where the engine refuses it", async () => {
    const ifs = scalars.flatMap((scalar) => [`if(${condition}, ${nested.column}, ${scalar.column})`, `multiIf(100, ${scalar.column}, ${nested.column})`, `greatest(NULL, multiIf(0, ${nested.column}, ${scalar.column}))`]);
    const wrong: string[] = [];
    for (const sql of ifs) {
      const typeName = String((await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" }).then((result) => result.json<{ t: string }>()))[0]!.t);
      const pass = expressionTyping(expressionOf(sql), entity);
      if (!typeName.startsWith("Variant(") || pass.variant !== "mixed") wrong.push(`${sql}: the engine types it ${typeName.replace(/\s+/g, " ")}, the pass ${pass.variant ?? "as nothing it knows"}`);
    }
    expect(wrong).toEqual([]);
    const refused = await refusedWhereTheEngineRefuses(ifs, scalars.map((scalar) => scalar.column), ["greaterOrEquals", "equals", "plus"], wrong);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(20);
    // Seed 15's shape: the constant condition picks the text for every row, compared with a UUID.
    const seed15 = `greaterOrEquals(greatest(NULL, NULL, multiIf(100, 'sentry', ${nested.column})), ${CLASS_SAMPLES.uuid.column})`;
    expect(passRefusal(expressionOf(seed15), entity)).toMatch(/pick the branch of a string for every row/);
    expect(await engine.code(`SELECT ${seed15} FROM ${PROBE_ROW_TABLE}`)).toBe(386);
  });
});

describe("an element of a Nested column read whole", () => {
  it("is a tuple, in the pass and in the engine, and a call of it is refused by the pass only where the engine refuses it (found by the fuzz: arrayElement(tags, org_id) <= 3, code 43, seed 24)", async () => {
    const wrong: string[] = [];
    const elements = [`arrayElement(${nested.column}, 1)`, `arrayElement(${nested.column}, ${condition})`];
    for (const sql of elements) {
      const typeName = String((await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" }).then((result) => result.json<{ t: string }>()))[0]!.t);
      if (!typeName.startsWith("Tuple(") || expressionTyping(expressionOf(sql), entity).variant !== "tuple") wrong.push(`${sql}: the engine types it ${typeName}, the pass ${expressionTyping(expressionOf(sql), entity).variant}`);
    }
    const refused = await refusedWhereTheEngineRefuses(elements, [...scalars.map((scalar) => scalar.column), "3", "'a'"], ["lessOrEquals", "equals", "plus", "concat", "like"], wrong);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(20);
    expect(passRefusal(expressionOf(`lessOrEquals(arrayElement(${nested.column}, ${condition}), 3)`), entity)).not.toBeNull();
  });
});
