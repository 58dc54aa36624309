/**
 * An `if` of constants whose branches have no common type (`if(0, 1, '5')`, a Variant(String,
 * UInt8)) under literal conditions, and the constants an IN set is built from (seed 33):
 *
 * - compared with a column (`=`, `<`), the branch the conditions pick is a value the Variant holds,
 *   compared as a value read per row (`c_uint32 = if(0, 1, '5')`, code 386), not a constant text
 *   the engine reads as a number (typing/branch-types.ts, heldInVariant);
 * - as an IN set, the engine folds it to that branch, of its own type (`granularity IN if(FALSE,
 *   1, '/')`, code 53), and judges the branch as a set's value (literal-texts.ts, foldedSetValue);
 * - a DateTime's set takes no signed integer, whatever its value (`timestamp IN toInt8(1)`, code
 *   53), and no number, Boolean or DateTime set takes a UUID (typing/membership.ts).
 *
 * Each is held to the embedded engine both ways on the probe's row.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const samples = (["string", "uint8", "uint32", "int64", "float64", "datetime", "uuid", "bool"] as const).map((cls) => CLASS_SAMPLES[cls]);
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("picked-constant-branches", samples);
const columns = samples.map((sample) => sample.column);

const UUID = "toUUID('00000000-0000-0000-0000-000000000001')";
/** Constants of each family a caller writes (`now()` aside: the pass does not count the clock a constant). */
const CONSTANTS = ["'5'", "1", "'x'", "'2024-01-01 00:00:00'", "1.5", "-1", UUID];

/** `if(c, a, b)` of two constants under each literal condition: NULL and 0 pick b, 1 picks a. */
function constantIfs(): string[] {
  const ifs: string[] = [];
  for (const a of CONSTANTS) for (const b of CONSTANTS) if (a !== b) for (const condition of ["0", "1", "NULL"]) ifs.push(`if(${condition}, ${a}, ${b})`);
  return ifs;
}

describe("an if of constants under literal conditions", () => {
  it("compared with a column or looked for it in is refused by the pass exactly where the engine refuses it", async () => {
    const calls = columns.flatMap((column) => constantIfs().flatMap((branches) => [`${column} = ${branches}`, `${branches} < ${column}`, `${column} IN ${branches}`]));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    // c_uint32 = if(0, 1, '5') and c_uint32 IN if(0, 1, '/') among them.
    expect(refused).toBeGreaterThan(calls.length / 4);
  }, 300_000);
});

describe("a set of constants", () => {
  it("of a signed integer computed once, a float or a UUID is refused for a DateTime exactly where the engine refuses it, and a UUID for numbers and Booleans", async () => {
    const values = ["toInt8(1)", "toInt64(5)", "toUInt64(5)", "minus(5, 1)", "plus(5, 1)", "if(0, -1, 1)", "if(0, 1.5, 1)", "if(1, 2, 1)", UUID, `tuple(${UUID}, ${UUID})`, "tuple(1, toInt8(1))", "tuple(toUInt16(1), 2)", "toUUIDOrNull('x')"];
    const calls = columns.flatMap((column) => values.map((value) => `${column} IN ${value}`));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(15);
  }, 120_000);
});
