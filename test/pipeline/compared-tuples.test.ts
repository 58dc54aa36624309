/**
 * Two tuples compared are compared element by element, and inside a tuple an array column is not
 * rewritten into a comparison of its elements: an array beside a Nullable value of a class other
 * than a string (`tuple(contexts.key) = tuple(num_processing_errors)`, seed 15) is refused while
 * the query is planned (code 43), whatever the rows. A Nullable string is read as an array per
 * row and taken. The typing pass refuses the first and takes the second (argument-types.ts,
 * judgeComparedTuples); this holds it to the embedded engine for every array and every Nullable
 * class, each way round.
 */
import { describe, expect, it } from "vitest";
import { ARRAY_VARIANTS, CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE, nullableSample, variantSamples } from "../../src/pipeline/argument-classes.js";
import type { Expression } from "../../src/query/ast.js";
import { passRefusal } from "../support/typing-pass.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";

const arrays = [CLASS_SAMPLES.arrayString, CLASS_SAMPLES.arrayNumber, ...ARRAY_VARIANTS.map((variant) => variantSamples(variant)[0]!)];
const nullables = NULLABLE_CLASSES.map((cls) => nullableSample(cls)!);
const samples = [...arrays, ...nullables];
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
