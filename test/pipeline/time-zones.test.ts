/**
 * The date and time functions that take a time zone after their usual arguments
 * (typing/time-zones.ts): each is judged and typed as the call without its zone, and the zone is
 * refused where ClickHouse refuses it (read per row: code 44; a number or a DateTime: code 43).
 * This holds the pass to the embedded engine, both ways, for every such function over every
 * class.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, SCALAR_VARIANT_SAMPLES } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { TIME_ZONE_AFTER } from "../../src/pipeline/typing/time-zones.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine, passRefusal } from "../support/typing-pass.js";

const samples = [...Object.values(CLASS_SAMPLES), ...SCALAR_VARIANT_SAMPLES.date!.samples];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("time-zones", samples);
/**
 * On the probe's row: some refusals happen only as a row is read (`toHour(toDate(t))`, code 43).
 * Its text, 'abc', is no DateTime, which the functions that read a text as one fail on (code 41,
 * a value's error, the same without the zone): those are set apart.
 */
const notAValue = (line: string) => !line.endsWith("the engine refuses it (41)");
const typingOf = (sql: string) => expressionTyping(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);

/** The second argument of the functions with two before the zone: a week mode, a scale, an amount. */
const SECOND: Readonly<Record<string, string>> = { toStartOfWeek: "0", toDayOfWeek: "0", toDateTime64: "3", formatDateTime: "'%Y'" };
/** Every class as the first argument, as a column (a constant text is read as a DateTime while the query is planned). */
const firsts = samples.map((sample) => sample.column);
const callsWith = (zone: string) =>
  [...TIME_ZONE_AFTER].flatMap(([name, before]) => (before === 0 ? [`${name}(${zone})`] : firsts.map((first) => `${name}(${[first, ...(before === 2 ? [SECOND[name] ?? "1"] : []), zone].join(", ")})`)));

describe("a time zone after a date function's arguments", () => {
  it("leaves the call judged as the call without it, exactly where the engine judges it", async () => {
    const { wrong, refused } = await passAgainstEngine(engine, entity, callsWith("'UTC'"), PROBE_ROW_TABLE);
    expect(wrong.filter(notAValue)).toEqual([]);
    expect(refused).toBeGreaterThan(100);
  });

  it("is refused read per row, or a constant of another type, where the engine refuses it", async () => {
    const zones = [CLASS_SAMPLES.string.column, "1.5", CLASS_SAMPLES.datetime.column, "now()", "toNullable('UTC')", "NULL", "3", "TRUE"];
    const calls = zones.flatMap((zone) => callsWith(zone).filter((sql) => sql.startsWith("toStartOfHour(c_datetime") || sql.startsWith("toDateTime(c_uint8") || sql.startsWith("addHours(c_datetime") || sql.startsWith("toYear(c_datetime") || sql.startsWith("now(")));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(10);
  });

  it("is read per row by toString and formatDateTime, which refuse a constant of another type there, and take only a DateTime or a DateTime64 before it (toString)", async () => {
    const dt = CLASS_SAMPLES.datetime.column;
    const refusedCalls = [`toString(${dt}, 1.5)`, `formatDateTime(${dt}, '%Y', 1.5)`, `toString(${CLASS_SAMPLES.uint8.column}, 'UTC')`, `toString(${SCALAR_VARIANT_SAMPLES.date!.samples[0]!.column}, 'UTC')`];
    const { wrong, refused } = await passAgainstEngine(engine, entity, refusedCalls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBe(refusedCalls.length);
    // A zone read per row: the probe row's text, 'abc', is no zone's name (code 36, a value's error), so on no row.
    for (const call of [`toString(${dt}, ${CLASS_SAMPLES.string.column})`, `formatDateTime(${dt}, '%Y', ${CLASS_SAMPLES.string.column})`]) {
      expect(await engine.code(`SELECT ${call} FROM probe`)).toBeNull();
      expect(passRefusal(parseSnql(`MATCH (x) SELECT ${call} AS zz`).selected[0]!.expression, entity)).toBeNull();
    }
  });

  it("types the call as the call without it", () => {
    const differing: string[] = [];
    for (const [name, before] of TIME_ZONE_AFTER) {
      const first = name.startsWith("parseDateTime") ? CLASS_SAMPLES.string.column : CLASS_SAMPLES.datetime.column;
      const args = before === 0 ? [] : [first, ...(before === 2 ? [SECOND[name] ?? "1"] : [])];
      const plain = typingOf(`${name}(${args.join(", ")})`);
      const zoned = typingOf(`${name}(${[...args, "'Europe/Paris'"].join(", ")})`);
      if (plain.cls !== zoned.cls || plain.variant !== zoned.variant || plain.nullable !== zoned.nullable) differing.push(name);
    }
    expect(differing).toEqual([]);
    expect(typingOf(`toHour(${CLASS_SAMPLES.datetime.column}, toNullable('UTC'))`)).toMatchObject({ cls: "uint8", nullable: true });
  });
});
