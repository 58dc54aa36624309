/**
 * A substring's length that converts to Int64's least value fails the query where the offset is
 * read per row (typing/comparisons.ts, refuseOverflowingLength; `substring(use_case_id,
 * project_id, 18446744073709551616)`, code 69, seeds 26 and 27), and where the string and the
 * offset are both constants (the engine computes the call while it plans). This holds the pass to the
 * embedded engine both ways, over a table of one row: the engine checks the length per row, so
 * over no rows it answers, where the pass refuses all the same (as it refuses an index of 0 over
 * a Nullable string).
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const samples = [
  CLASS_SAMPLES.string,
  { constant: "'abc'", column: "n_string", type: "Nullable(String)" },
  CLASS_SAMPLES.uint8,
  { constant: "2", column: "n_uint64", type: "Nullable(UInt64)" },
  CLASS_SAMPLES.float64,
];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("substring-lengths", samples);

const strings = ["c_string", "n_string", "'abc'"];
/** Offsets read per row (plain, Nullable, a float, computed) and one constant. */
const offsets = ["c_uint8", "n_uint64", "c_float64", "plus(c_uint8, 1)", "1"];
/**
 * Lengths around Int64's and UInt64's ends, written as integers (exact) and as floats, and two
 * plain ones. (Not a float the SQL prints as an integer, `9223372036854775807.5`: the engine is
 * given its text here, not the SQL's.)
 */
const lengths = [
  "18446744073709551616",
  "18446744073709551615",
  "9223372036854775808",
  "9223372036854775807",
  "-9223372036854775808",
  "-9223372036854775807",
  "-9223372036854775809",
  "18446744073709551616.5",
  "-9300000000000000000",
  "5",
  "-1",
];

describe("a substring's length past Int64", () => {
  it("is refused by the pass exactly where the engine refuses it: with the offset read per row, or of constants alone", async () => {
    const calls = ["substring", "substringUTF8"].flatMap((name) => strings.flatMap((s) => offsets.flatMap((offset) => lengths.map((length) => `${name}(${s}, ${offset}, ${length})`))));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    // Six lengths overflow, for each name and string with an offset read per row, and of 'abc' at 1.
    expect(refused).toBe(2 * (strings.length * (offsets.length - 1) + 1) * 6);
  });
});
