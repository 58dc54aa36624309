/**
 * An array of tuples (a Nested column read whole, `tags`) looked for among NULLs alone
 * (`tags IN (url)` on discover_transactions, which stores no `url`; seed 51) is refused by
 * ClickHouse (code 43), with rows or none, where an array of another type or a tuple is answered,
 * and so is a list holding an array of tuples beside the NULL (typing/membership.ts,
 * refuseNestedInNulls). This holds the pass to the embedded engine, both ways.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const nested = variantSamples("nested")[0]!;
const samples = [nested, CLASS_SAMPLES.arrayString, CLASS_SAMPLES.string];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("nested-in-nulls", samples);

describe("an array of tuples looked for among NULLs", () => {
  it("is refused by the pass exactly where the engine refuses it", async () => {
    const [n, a, s] = samples.map((sample) => sample.column) as [string, string, string];
    const calls = [
      `in(${n}, NULL)`,
      `notIn(${n}, NULL)`,
      `in(${n}, tuple(NULL, NULL))`,
      `in(${a}, NULL)`,
      `in(tuple(${s}, ${s}), NULL)`,
      `in(${n}, tuple(array(tuple('a', 'b')), NULL))`,
    ];
    for (const table of [PROBE_ROW_TABLE, "probe"]) {
      const { wrong, refused } = await passAgainstEngine(engine, entity, calls, table);
      expect(wrong, table).toEqual([]);
      expect(refused, table).toBe(3);
    }
  });
});
