/**
 * An array of tuples written out (`array(tuple(1, 2))`) or collected from one (`groupArray(tuple(x))`)
 * times a number, or over one with the array first, is worked element by element, each tuple as
 * `tuple(…) / n` is (argument-types.ts, arrayOfTuplesByNumber): taken where every element is
 * (`array(tuple(1, 2)) / 2`, which the pass refused as a Nested column of strings), refused
 * where one is not (`groupUniqArray(tuple(org_id, '', t)) / count()`, code 43; seed 47). This
 * holds both to the embedded engine.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const samples = (["uint8", "float64", "string", "datetime"] as const).map((cls) => CLASS_SAMPLES[cls]);
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("tuple-arrays-by-number", samples);
const [u, f, s, t] = samples.map((sample) => sample.column) as [string, string, string, string];

describe("an array of tuples by a number", () => {
  it("is refused by the pass exactly where the engine refuses it, element by element", async () => {
    const calls = [
      `divide(array(tuple(${u}, ${f})), 2)`,
      `multiply(2, array(tuple(${u}, ${u})))`,
      `multiply(array(tuple(1, 2), tuple(3, 4)), ${f})`,
      `intDiv(array(tuple(${u})), 3)`,
      `modulo(array(tuple(${u}, ${f})), 3)`,
      `divide(groupArray(tuple(${u}, ${f})), count())`,
      `divide(array(tuple(${u}, ${s})), 2)`,
      `divide(array(tuple(${u}, ${t})), 2)`,
      `divide(groupUniqArray(tuple(${u}, '', ${t})), count())`,
      `multiply(array(tuple(1, 2)), ${s})`,
      `divide(2, array(tuple(${u})))`,
      `plus(array(tuple(1, 2)), 2)`,
    ];
    for (const table of [PROBE_ROW_TABLE, "probe"]) {
      const { wrong, refused } = await passAgainstEngine(engine, entity, calls, table);
      expect(wrong, table).toEqual([]);
      expect(refused, table).toBe(6);
    }
  });
});
