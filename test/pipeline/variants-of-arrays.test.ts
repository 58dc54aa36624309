/**
 * An `if`'s Variant of arrays alone (a NULL branch beside an array, `if(NULL, NULL, arr)`, which
 * discover makes of columns of its two halves; or arrays of two families) is looked for on the
 * left of IN as an array is: ClickHouse refuses it in a value computed per row or once
 * (`if(exception_frames.function, exception_stacks.mechanism_type, span_op_breakdowns.key) IN
 * now()`, seed 15, code 53), in a column and in a list read per row (code 43). A Variant with a
 * scalar among its alternatives is looked for leniently and left alone. The typing pass refuses
 * the first (typing/membership.ts, isVariantOfArrays), and so a value known as one of some arrays
 * (isOneOfArrays); this holds it to the embedded engine.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passRefusal } from "../support/typing-pass.js";

const uuids = variantSamples("uuids")[0]!;
const samples = [...(["string", "uint8", "arrayString", "arrayNumber"] as const).map((cls) => CLASS_SAMPLES[cls]), uuids];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("variants-of-arrays", samples);

const { c_string: s, c_uint8: c, c_array_string: strings, c_array_number: numbers } = Object.fromEntries(samples.map((sample) => [sample.column, sample.column]));

/** The Variants of arrays alone, and of an array beside a scalar (left alone). */
// (and a product known only as one of some arrays of numbers, `offset * spans.exclusive_time_32`; seed 40)
const variantsOfArrays = [`if(NULL, NULL, ${strings})`, `if(${c}, ${numbers}, NULL)`, `if(${c}, ${strings}, ${uuids.column})`, `multiply(${c}, array(${c}))`];
const mixedWithScalars = [`if(${c}, ${strings}, ${s})`, `if(NULL, ${s}, ${numbers})`];
/** What IN looks in: the clock, a value computed per row, a column, lists read per row. */
const sets = [`now()`, `length(${s})`, s, `tuple(${s}, 'b')`, `tuple(${strings}, ${strings})`];

describe("a Variant of arrays alone on the left of IN", () => {
  it("is refused by the pass where the engine refuses it, and a Variant with a scalar among its alternatives is taken", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const left of [...variantsOfArrays, ...mixedWithScalars])
      for (const set of sets) {
        const sql = `in(${left}, ${set})`;
        const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
        const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
        if (refusal !== null) refused++;
        if (refusal !== null && code === null) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 120)}), the engine answers`);
        if (variantsOfArrays.includes(left) && refusal === null) wrong.push(`${sql}: the pass takes it, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
        if (mixedWithScalars.includes(left) && refusal !== null && /Variant of .* alone/.test(refusal)) wrong.push(`${sql}: refused as a Variant of arrays alone`);
      }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(variantsOfArrays.length * sets.length);
  });
});
