/**
 * A value of an `if`'s Variant looked for with IN in a list holding values read per row, or in a
 * column: ClickHouse reads those values as the left's type made Nullable, and no Nullable holds a
 * Variant (`if(10, time, 1000) IN tuple(2, exception_stacks.mechanism_type, message)` on
 * discover_transactions, a Variant(DateTime, UInt16): code 43 while the query is planned, seed
 * 16). A list of constants is converted to the Variant once, each value into an alternative that
 * reads it: refused only where none does (`if(c, now(), 1000) IN ('a')`, code 117; `if(c, s, i)
 * IN ('a', 1000)` is answered). The typing pass refuses the first (argument-types.ts,
 * variantOnLeft) and judges the second so (judgeVariantInConstants); this holds both to the
 * embedded engine.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passRefusal } from "../support/typing-pass.js";

const samples = (["string", "uint8", "int64", "datetime", "uuid"] as const).map((cls) => CLASS_SAMPLES[cls]);
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("variants-in-lists", samples);

const { c_string: s, c_uint8: c, c_int64: i, c_datetime: d, c_uuid: id } = Object.fromEntries(samples.map((sample) => [sample.column, sample.column]));

/** Variants of two families, one a constant condition picks a branch of. */
const variants = [`if(${c}, ${d}, 1000)`, `if(10, ${d}, 1000)`, `if(${c}, ${s}, ${i})`, `multiIf(${c}, ${id}, ${c}, 'a', 2)`];
const perRow = [s, i, `tuple(2, ${s})`, `tuple(${i}, 2)`, `tuple(NULL, ${d}, 2)`];
const constants = [`tuple(2, 3)`, `tuple('a', 1000)`, `tuple(now())`, `'a'`, `tuple('2024-01-01 00:00:00', 5)`];

describe("an if's Variant on the left of IN", () => {
  it("is refused in a list read per row or a column, and in a list of constants only where no alternative reads a value, as the engine refuses them", async () => {
    const wrong: string[] = [];
    const constantVerdicts = { refused: 0, taken: 0 };
    for (const variant of variants) {
      for (const set of [...perRow, ...constants]) {
        const sql = `in(${variant}, ${set})`;
        const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
        const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
        const readPerRow = perRow.includes(set);
        if (readPerRow && refusal === null) wrong.push(`${sql}: the pass takes it, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
        if (refusal !== null && code === null) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 120)}), the engine answers`);
        if (readPerRow && code !== 43) wrong.push(`${sql}: the engine ${code === null ? "answers" : `refuses it with ${code}`}, not 43 while planning`);
        // A list of constants is converted to the Variant once, while the query is planned: a
        // value no alternative reads fails it whatever the rows (code 117 or 53), and the pass
        // refuses exactly those.
        if (!readPerRow) constantVerdicts[refusal === null ? "taken" : "refused"]++;
        if (!readPerRow && refusal === null && code !== null) wrong.push(`${sql}: a list of constants the engine refuses (${code}), the pass takes it`);
      }
    }
    expect(wrong).toEqual([]);
    // Both ways among the lists of constants.
    expect(constantVerdicts.refused).toBeGreaterThan(2);
    expect(constantVerdicts.taken).toBeGreaterThan(5);
  });
});
