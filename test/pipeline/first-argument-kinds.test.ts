/**
 * Functions whose first argument is of a kind no class of the pass is (a map, a tuple, a -Merge's
 * state: typing/first-argument-kinds.ts) refuse a value of any class there. The probe marked those
 * counts unknown, so such calls went unjudged to the engine (`mapKeys(level)`, `avgMerge(1)`, code
 * 43). This holds the pass to the embedded engine, both ways, over every class, Nullable or not,
 * and over the kinds they take.
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, NULLABLE_CLASSES, PROBE_ROW_TABLE, SCALAR_VARIANT_SAMPLES, nullableSample } from "../../src/pipeline/argument-classes.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const MAP = SCALAR_VARIANT_SAMPLES.mapStrings!.samples[0]!;
const TUPLE = SCALAR_VARIANT_SAMPLES.tuple!.samples[0]!;
const samples = [...ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]), ...NULLABLE_CLASSES.map((cls) => nullableSample(cls)!), MAP, TUPLE];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("first-argument-kinds", samples);

const merges = [...PROBED_FUNCTION_SIGNATURES.keys()].filter((name) => name.endsWith("Merge"));
/** Each function with its other arguments, given its first. */
const CALLS: readonly ((first: string) => string)[] = [
  (first) => `mapKeys(${first})`,
  (first) => `mapValues(${first})`,
  (first) => `mapContains(${first}, 'a')`,
  (first) => `tupleElement(${first}, 1)`,
  ...merges.map((name) => (first: string) => `${name}(${first})`),
];
/** A value of every class but the state, as a column (Nullable too) and as a constant (SnQL writes no array literal). */
const classValues = samples
  .filter((sample) => sample !== MAP && sample !== TUPLE && sample !== CLASS_SAMPLES.aggregateState)
  .flatMap((sample) => [sample.column, ...(sample.constant.startsWith("[") || sample.constant.startsWith("toNullable") ? [] : [sample.constant])]);

describe("a function whose first argument is a map, a tuple or a state", () => {
  it("refuses a value of any class there, as the engine does", async () => {
    expect(merges.length).toBeGreaterThanOrEqual(8);
    const calls = CALLS.flatMap((call) => classValues.map(call));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBe(calls.length);
  });

  it("takes the kind it takes", async () => {
    const calls = [`mapKeys(${MAP.column})`, `mapValues(${MAP.column})`, `mapContains(${MAP.column}, 'a')`, `tupleElement(${TUPLE.column}, 1)`, `sumMerge(${CLASS_SAMPLES.aggregateState.column})`, "mapKeys(NULL)"];
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBe(0);
  });
});
