/**
 * An `if`, `multiIf`, `ifNull` or `coalesce` one of whose values is itself a Variant (an `if` of
 * mixed branches) is a Variant too, of every value's alternatives: `if(c, if(d, s, 5), now())` is
 * a Variant(DateTime, String, UInt8), which ORDER BY refuses (code 44; seed 35) and a call judges
 * per row as it judges any Variant. The typing pass types it so (typing/branch-types.ts,
 * mergedVariant); this holds it to the embedded engine, both ways.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const samples = (["string", "uint8", "datetime", "float64", "uuid"] as const).map((cls) => CLASS_SAMPLES[cls]);
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("variant-branches", samples);
const [s, u8, dt, f, uuid] = samples.map((sample) => sample.column) as [string, string, string, string, string];

// Four rows, the probe row's values but for the UInt8 (1 to 4), so that between them the rows hold
// every branch of the values below: each inner Variant's alternatives, and the other value.
const ROWS = "variant_rows";
beforeAll(async () => {
  await engine.store.client.command({ query: `CREATE TABLE ${ROWS} AS ${PROBE_ROW_TABLE}` });
  await engine.store.client.command({ query: `INSERT INTO ${ROWS} SELECT ${PROBE_ROW_TABLE}.* REPLACE (toUInt8(n.number + 1) AS ${u8}) FROM ${PROBE_ROW_TABLE} CROSS JOIN numbers(4) AS n` });
});
// The last two are Variants whose constant conditions pick one branch for every row: only that
// branch is a row's value (`upper(if(c, if(1, s, 5), 'x'))` is answered).
const INNER = [`if(${u8} = 1, ${s}, 5)`, `if(${u8} = 1, ${dt}, ${u8})`, `multiIf(${u8} = 2, ${uuid}, ${u8} = 1, ${f}, 'a')`, `if(1, ${s}, 5)`, `multiIf(0, ${dt}, NULL, 7, ${uuid})`];
const OTHERS = ["'x'", "7", `${dt}`, "NULL"];

/**
 * Each Variant inside an if, an ifNull or a coalesce, beside each other value, its conditions
 * per row (the fourth row alone takes the other value) or constant: forms whose rows the pass
 * knows. In `multiIf(c, x, 0, y, inner)` a constant condition follows one read per row: the pass
 * judges it on the Variant's type alone, and holds only to refusing no call the engine answers.
 */
const KNOWN_ROWS = INNER.flatMap((inner) =>
  OTHERS.flatMap((other) => [`if(${u8} != 3, ${inner}, ${other})`, `if(${u8} = 3, ${other}, ${inner})`, `if(1, ${inner}, ${other})`, `if(0, ${inner}, ${other})`, `coalesce(${inner}, ${other})`, `ifNull(${inner}, ${other})`]),
);
const TYPE_ALONE = INNER.flatMap((inner) => OTHERS.map((other) => `multiIf(${u8} = 3, ${other}, 0, ${other}, ${inner})`));
const calls = (values: readonly string[]) => values.flatMap((sql) => [`upper(${sql})`, `plus(${sql}, 1)`, `equals(${sql}, ${uuid})`, `toStartOfHour(${sql})`]);
const expressionOf = (sql: string) => parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression;

describe("a Variant among the values of an if or a coalesce", () => {
  it("makes the engine's Variant, and the pass's", async () => {
    const wrong: string[] = [];
    for (const sql of [...KNOWN_ROWS, ...TYPE_ALONE]) {
      const rows = (await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" })).json()) as { t: string }[];
      const variant = expressionTyping(expressionOf(sql), entity).variant;
      if (!rows[0]!.t.startsWith("Variant(") || variant !== "mixed") wrong.push(`${sql}: the engine types it ${rows[0]!.t}, the pass ${variant ?? "as nothing it knows"}`);
    }
    expect(wrong).toEqual([]);
  });

  it("is refused in a call exactly where the engine fails the call on the rows", async () => {
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls(KNOWN_ROWS), ROWS);
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(100);
  });

  it("is refused in a call the engine answers by no rule, where a constant condition follows one read per row", async () => {
    const { wrong } = await passAgainstEngine(engine, entity, calls(TYPE_ALONE), ROWS);
    expect(wrong.filter((line) => line.includes("the pass refuses it"))).toEqual([]);
  });
});
