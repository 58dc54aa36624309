/**
 * An `if` or a `multiIf` of arrays of numbers whose element types have no common type (an
 * Array(UInt64) and an Array(Float32), an Array(UInt64) and an Array(Int64)) is a Variant of the
 * arrays (typing/branch-types.ts, arraysWithoutCommonElementType): ClickHouse then refuses what
 * takes no array among its alternatives (`duration + if(c, group_ids, spans.exclusive_time_32)`,
 * code 43; seed 45). This holds the type and the refusals to the embedded engine, both ways.
 */
import { describe, expect, it } from "vitest";
import { PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const arrays = (["UInt64", "Int64", "UInt16", "UInt8", "Float32", "Float64"] as const).map((element) => ({ column: `a_${element.toLowerCase()}`, type: `Array(${element})`, constant: "[1, 2]" }));
const samples = [...arrays, { column: "c", type: "UInt8", constant: "1" }, { column: "f", type: "Float64", constant: "1.5" }, { column: "s", type: "String", constant: "'a'" }];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("number-array-branches", samples);

/** Every `if` of two different arrays, and a multiIf of three, with a condition read per row and a constant one. */
const branches = arrays.flatMap((a, i) => arrays.slice(i + 1).flatMap((b) => [`if(c, ${a.column}, ${b.column})`, `if(1, ${a.column}, ${b.column})`]));
branches.push("multiIf(c, a_uint64, c > 1, a_float32, a_uint8)");

describe("an if of arrays of numbers", () => {
  it("is a Variant where the engine makes one, and an array of one type where it does not", async () => {
    const wrong: string[] = [];
    for (const sql of branches) {
      const pass = expressionTyping(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
      const rows = (await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" })).json()) as { t: string }[];
      if ((pass.variant === "mixed") !== rows[0]!.t.startsWith("Variant(")) wrong.push(`${sql}: the engine ${rows[0]!.t}, the pass ${pass.variant ?? pass.cls ?? "no type"}`);
    }
    expect(wrong).toEqual([]);
  });

  it("is refused by the pass, used as a number or looked in, exactly where the engine refuses it", async () => {
    const uses = (x: string) => [`plus(f, ${x})`, `equals(${x}, array(1))`, `in(1, ${x})`, `has(${x}, 1)`, `has(${x}, s)`, `multiply(${x}, 2)`, `length(${x})`];
    const calls = branches.flatMap(uses);
    for (const table of [PROBE_ROW_TABLE, "probe"]) {
      const { wrong, refused } = await passAgainstEngine(engine, entity, calls, table);
      expect(wrong, table).toEqual([]);
      expect(refused, table).toBeGreaterThan(20);
    }
  });
});
