/**
 * `dateDiff(unit, start, end[, zone])` (typing/date-differences.ts): the probe could not tell its
 * counts, so such calls went unjudged to the engine (`dateDiff('day', title, timestamp)`, code
 * 43). This holds the pass to the embedded engine, both ways, with every class and the date, IP
 * and tuple variants at each position, and holds the type it gives (an Int64, Nullable where an
 * argument is) to the engine's.
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE, SCALAR_VARIANT_SAMPLES, nullableSample } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const variants = ["date", "nullableDate", "nullableDateTime64", "nullableIPv4", "tuple"].map((variant) => SCALAR_VARIANT_SAMPLES[variant]!.samples[0]!);
const samples = [...ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]), ...NULLABLE_CLASSES.map((cls) => nullableSample(cls)!), ...variants];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("date-differences", samples);
const values = [...samples.map((sample) => sample.column), "NULL"];
const dt = CLASS_SAMPLES.datetime.column;

describe("dateDiff", () => {
  it("is refused exactly where the engine refuses it, whatever is at each position", async () => {
    const calls = [
      ...values.map((unit) => `dateDiff(${unit === CLASS_SAMPLES.string.column ? "'day'" : unit}, ${dt}, ${dt})`),
      ...values.flatMap((value) => [`dateDiff('day', ${value}, ${dt})`, `dateDiff('hour', ${dt}, ${value})`]),
      ...["'UTC'", CLASS_SAMPLES.string.column, "1.5", "NULL"].map((zone) => `dateDiff('day', ${dt}, ${dt}, ${zone})`),
    ];
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(30);
  });

  it("is an Int64, Nullable where the start or the end is, as the engine types it", async () => {
    const wrong: string[] = [];
    for (const start of [dt, nullableSample("datetime")!.column, ...variants.slice(0, 3).map((sample) => sample.column)]) {
      const sql = `dateDiff('day', ${start}, ${dt})`;
      const pass = expressionTyping(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
      const rows = (await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" })).json()) as { t: string }[];
      const named = pass.cls === "int64" && pass.integer !== undefined ? (pass.nullable ? "Nullable(Int64)" : "Int64") : "none";
      if (named !== rows[0]!.t) wrong.push(`${sql}: the engine ${rows[0]!.t}, the pass ${named}`);
    }
    expect(wrong).toEqual([]);
  });
});
