/**
 * `toNullable(x)` is x's type made Nullable (typing/result-types.ts, madeNullable): the probe
 * compares plain types and found no result rule for it, so a call on it went untyped to the engine
 * (`upper(toNullable(level_number))`, code 43). This holds the pass to the embedded engine, both
 * ways, over every class and the scalar variants a Nullable holds, as constants and as columns.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE, SCALAR_VARIANT_SAMPLES } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const variantSamples = ["date", "nullableDate", "nullableIPv4", "uint128"].flatMap((variant) => SCALAR_VARIANT_SAMPLES[variant]!.samples);
const samples = [...Object.values(CLASS_SAMPLES), ...variantSamples];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("nullable-conversion", samples);
const typingOf = (sql: string) => expressionTyping(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
const knowsType = (t: ReturnType<typeof typingOf>) => t.cls !== null || t.variant !== null;

/** No Nullable holds an array or a state: toNullable refuses them (code 43), as the pass does. */
const REFUSED = [CLASS_SAMPLES.arrayString.column, CLASS_SAMPLES.arrayNumber.column, CLASS_SAMPLES.aggregateState.column];
/**
 * The values whose type the pass names (a value it leaves untyped, `toDateTime(t, 'UTC')`,
 * `toNullable(toIPv4(…))`, stays so inside toNullable, the engine's to judge), but a UInt128,
 * whose Nullable the pass does not name either. SnQL writes no array literal (`['a']`): of an
 * array only its column, among those refused.
 */
const UINT128 = SCALAR_VARIANT_SAMPLES.uint128!.samples[0]!;
const values = [
  ...REFUSED,
  ...samples
    .flatMap((sample) => [sample.constant, sample.column])
    .filter((value) => !value.startsWith("[") && !REFUSED.includes(value) && value !== UINT128.constant && value !== UINT128.column && knowsType(typingOf(value))),
];
const uuid = CLASS_SAMPLES.uuid.column;

/** Calls that take some classes and refuse others, each given `toNullable(value)`. */
const callsOn = (x: string) => [`upper(${x})`, `plus(${x}, 1)`, `equals(${x}, ${uuid})`, `toStartOfHour(${x})`, `equals(${x}, now())`, `length(${x})`, `lower(toNullable(${x}))`, `if(${x}, 1, 2)`, `less(${x}, 'abc')`];

describe("toNullable", () => {
  it("is of its argument's type made Nullable, as the engine names it", async () => {
    const wrong: string[] = [];
    let compared = 0;
    for (const cls of NULLABLE_CLASSES) {
      const sample = CLASS_SAMPLES[cls];
      // Where the pass names the argument's class (not `toDateTime(t, 'UTC')`, which it leaves untyped).
      for (const value of [sample.constant, sample.column].filter((value) => typingOf(value).cls === cls)) {
        const sql = `toNullable(${value})`;
        const pass = typingOf(sql);
        const rows = (await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" })).json()) as { t: string }[];
        compared++;
        if (pass.cls !== cls || !pass.nullable || rows[0]!.t !== `Nullable(${sample.type})`) wrong.push(`${sql}: the engine ${rows[0]!.t}, the pass ${pass.cls}${pass.nullable ? " (Nullable)" : ""}`);
      }
    }
    expect(compared).toBeGreaterThan(NULLABLE_CLASSES.length);
    expect(wrong).toEqual([]);
  });

  it("is refused in a call exactly where the engine fails the call", async () => {
    const calls = values.flatMap((value) => callsOn(`toNullable(${value})`));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    // Most of these: upper of a number, toStartOfHour of a text, ... (the engine refuses them too).
    expect(refused).toBeGreaterThan(calls.length / 3);
  });
});
