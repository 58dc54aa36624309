/**
 * A date plus a tuple, or minus one with the date first, adds each element to it as an interval
 * (ClickHouse's addTupleOfIntervals): the result is the date's type (typing/arithmetic-types.ts,
 * dateTupleArithmeticType), `tuple(3, organization_id) + time` a DateTime that `version_name != …`
 * compares with a String (code 386; seed 26). This holds the type and what the pass refuses
 * beside it to the embedded engine, both ways.
 *
 * The elements are taken in turn, each from what the ones before left (`t - tuple(a, b)` is
 * `(t - a) - b`): a DateTime element makes a number of the date, which a DateTime is then not
 * taken from (`timestamp - tuple(project_id, now(), timestamp)`, code 43; seed 44), and the call
 * is of its last step's type.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine, typesAgainstEngine } from "../support/typing-pass.js";

const date = variantSamples("date")[0]!;
const samples = [date, ...(["datetime", "string", "uint8"] as const).map((cls) => CLASS_SAMPLES[cls])];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("date-tuple-arithmetic", samples);
const [d, t, s, n] = samples.map((sample) => sample.column) as [string, string, string, string];

/** Dates and tuples meeting, and what each is then compared with. */
const sums = [`plus(tuple(3, ${n}), ${t})`, `plus(${t}, tuple(1, 2))`, `minus(${t}, tuple(${n}, 1))`, `plus(${d}, tuple(1, ${n}))`, `plus(tuple(1), ${d})`, `minus(${d}, tuple(2))`];
const comparedWith = [s, t, "1", "'2024-01-01 00:00:00'"];

describe("a date plus a tuple", () => {
  it("is of the date's type, as the engine types it", async () => {
    const name = (pass: { cls: string | null; variant: string | null }) => (pass.cls === "datetime" ? "DateTime" : pass.variant === "date" ? "Date" : `${pass.cls ?? pass.variant}`);
    expect(await typesAgainstEngine(engine, entity, sums, PROBE_ROW_TABLE, name, (type) => type.replace(/\(.*\)$/, ""))).toEqual([]);
  });

  it("compared with a value is refused by the pass exactly where the engine refuses it", async () => {
    const calls = sums.flatMap((sum) => comparedWith.flatMap((other) => [`notEquals(${other}, ${sum})`, `less(${sum}, ${other})`]));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(sums.length * 2);
  });
});

/** A date and a tuple whose elements fold it, step by step, into a number or a refusal. */
const folds = [`minus(${t}, tuple(${n}, now(), ${t}))`, `minus(${t}, tuple(now(), now()))`, `minus(${t}, tuple(now(), ${n}))`, `minus(${t}, tuple(${n}, now()))`, `minus(${t}, tuple(${t}, 1))`, `minus(${d}, tuple(1, ${d}))`, `minus(${d}, tuple(1, now()))`, `minus(${t}, tuple(1, ${s}))`, `plus(tuple(${n}, now()), ${t})`, `plus(${t}, tuple(1, ${t}))`, `plus(${t}, tuple(1, tuple(1, 2)))`, `minus(toNullable(${t}), tuple(now(), 2))`];

describe("a date and a tuple whose elements are dates", () => {
  it("is refused by the pass exactly where the engine refuses it, alone or compared with a value", async () => {
    const calls = [...folds, ...folds.flatMap((fold) => comparedWith.map((other) => `less(${fold}, ${other})`))];
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(6 * (comparedWith.length + 1));
  });

  it("is of its last step's type, as the engine types it", async () => {
    const taken = [`minus(${t}, tuple(now(), ${n}))`, `minus(${t}, tuple(${n}, now()))`, `minus(${t}, tuple(${t}, 1))`, `minus(${d}, tuple(1, ${d}))`, `minus(toNullable(${t}), tuple(now(), 2))`, `plus(${t}, tuple(1, tuple(1, 2)))`, `minus(${d}, ${d})`, `minus(toNullable(${d}), ${d})`];
    const name = (pass: { cls: string | null; integer: string | null; nullable: boolean }) => {
      const bare = pass.cls === "datetime" ? "DateTime" : (pass.integer ?? `${pass.cls}`);
      return pass.nullable ? `Nullable(${bare})` : bare;
    };
    expect(await typesAgainstEngine(engine, entity, taken, PROBE_ROW_TABLE, name, (type) => type.replace(/^DateTime\(.*\)$/, "DateTime"))).toEqual([]);
  });
});
