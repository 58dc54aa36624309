/**
 * A value looked for IN an IPv4 column is converted to the column's type (membership's
 * unconvertibleSet): ClickHouse converts an IPv4 to an unsigned integer, not to a signed one
 * (`-2 IN ip_address_v4`, code 48, with a row or none; seed 45). The int64 class stands for both,
 * so the pass refuses a signed integer of known type (a negative literal, an Int32 column, a
 * toInt8) and takes an unsigned one. This holds both ways to the embedded engine.
 */
import { describe, expect, it } from "vitest";
import { PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const samples = [
  { column: "ip", type: "Nullable(IPv4)", constant: "toIPv4('1.2.3.4')" },
  ...(["Int8", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"] as const).map((type) => ({ column: `n_${type.toLowerCase()}`, type, constant: "2" })),
];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("integers-in-ipv4-columns", samples);

describe("an integer looked for in an IPv4 column", () => {
  it("is refused by the pass exactly where the engine refuses it: a signed one, not an unsigned one", async () => {
    const values = [...samples.slice(1).map((sample) => sample.column), "2", "-2", "0", "toInt8(3)", "toInt32(-1)", "toUInt16(3)", "4294967296", "-9223372036854775808"];
    const calls = values.flatMap((value) => [`in(${value}, ip)`, `notIn(${value}, ip)`]);
    for (const table of [PROBE_ROW_TABLE, "probe"]) {
      const { wrong, refused } = await passAgainstEngine(engine, entity, calls, table);
      expect(wrong, table).toEqual([]);
      expect(refused, table).toBe(2 * 7);
    }
  });
});
