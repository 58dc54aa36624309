/**
 * A map looked up by a key of another type than its keys' (typing/map-keys.ts): every map the
 * entities store is keyed by String, and ClickHouse refuses a number, a Boolean or a DateTime as
 * the key (code 43), with rows or none (`arrayElement(attributes_int, sampling_weight)`; seed 45),
 * though toTypeName names the call's type. This holds the pass to the embedded engine, both ways,
 * with a key of every class, written as a column and as a constant.
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const maps = ["mapStrings", "mapFloats", "mapInts", "mapBools"].map((variant) => variantSamples(variant)[0]!);
const classes = ARGUMENT_CLASSES.filter((cls) => cls !== "aggregateState").map((cls) => CLASS_SAMPLES[cls]);
const samples = [...maps, ...classes];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("map-keys", samples);

describe("a map looked up by a key", () => {
  it("is refused by the pass exactly where the engine refuses it: by a value of no text type", async () => {
    const keys = [...classes.flatMap((sample) => [sample.column, sample.constant]).filter((key) => !key.includes("[")), "NULL", "'a'"];
    const calls = maps.flatMap((map) => keys.map((key) => `arrayElement(${map.column}, ${key})`));
    for (const table of [PROBE_ROW_TABLE, "probe"]) {
      const { wrong, refused } = await passAgainstEngine(engine, entity, calls, table);
      expect(wrong, table).toEqual([]);
      expect(refused, table).toBeGreaterThan(maps.length * 10);
    }
  });
});
