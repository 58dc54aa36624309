/**
 * UInt128 values the typing pass knows beyond a column of one. An array of UInt128s
 * (`array(item_id)`, `groupUniqArray(item_id)` on eap_items) knows its elements
 * (typing/array-types.ts, arrayOfUnnamed): arithmetic with it works element by element, and is
 * judged as the same arithmetic on one UInt128 (`avg(TRUE) * groupUniqArray(item_id)` is a Float64
 * times UInt128s, code 43; seed 26). A UInt128 beside unsigned integers in an if is a UInt128
 * (typing/branch-types.ts; seed 39). This holds both to the embedded engine both ways.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const uint128 = variantSamples("uint128")[0]!;
const samples = [uint128, ...(["float64", "int64", "uint8"] as const).map((cls) => CLASS_SAMPLES[cls])];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("uint128-values", samples);
const u = uint128.column;
const columns = samples.slice(1).map((sample) => sample.column);
/** Each array with what it meets: columns beside the array read per row, their aggregates beside the aggregate one (which reads no column outside it). */
const pairs: [string, string[]][] = [
  [`array(${u})`, [...columns, "2.5", "2", "-3"]],
  [`groupUniqArray(${u})`, [...columns.map((column) => `any(${column})`), "2.5", "2", "-3"]],
];

describe("arithmetic on an array of UInt128s", () => {
  it("is refused by the pass exactly where the engine refuses it", async () => {
    const calls = ["multiply", "plus", "minus", "divide"].flatMap((name) => pairs.flatMap(([array, others]) => others.flatMap((other) => [`${name}(${array}, ${other})`, `${name}(${other}, ${array})`])));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(8);
  });
});

describe("a UInt128 beside unsigned integers in an if or a multiIf", () => {
  it("is a UInt128, refused by the pass in a call exactly where the engine refuses it (if(c, 1000, item_id) LIKE 'x', code 43; seed 39)", async () => {
    const uint8 = CLASS_SAMPLES.uint8.column;
    const values = [`if(${uint8}, 1000, ${u})`, `if(${uint8}, ${u}, ${uint8})`, `multiIf(${uint8} = 1, ${u}, ${uint8} = 2, 7, ${u})`, `if(1, 1000, ${u})`];
    const calls = values.flatMap((value) => [`like(${value}, 'x')`, `upper(${value})`, `plus(${value}, 1)`, `equals(${value}, 2.5)`, `toStartOfHour(${value})`]);
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(values.length * 3);
  });
});

