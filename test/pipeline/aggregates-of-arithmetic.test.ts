/**
 * The engine's analyzer moves arithmetic with a constant out of `sum` and `avg` before it judges
 * them (`avg(x / 100)` is `avg(x) / 100`), so `avg(-1e10 + ip_address_v4 / 100)` is refused for the
 * IPv4 itself although the arithmetic makes a number of it (code 43; seed 43). The typing pass
 * judges the aggregate on the value the arithmetic is done on (judgeAggregateOfArithmetic). This
 * holds it to the embedded engine, over the probe's column of every class and a few variants, on
 * the table of one row and the empty one.
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, PROBE_ROW_TABLE, variantSamples } from "../../src/pipeline/argument-classes.js";
import { passRefusal } from "../support/typing-pass.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";

const samples = [...ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]), ...["nullableIPv4", "nullableIPv6", "uint128", "date"].map((variant) => variantSamples(variant)[0]!)];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("aggregates-of-arithmetic", samples);

/** Arithmetic around a value `x`: with constants on either side, nested, and beside a NULL. */
const FORMS = ["x * 2", "2 * x", "x / 2", "2 / x", "x + 1", "1 + x", "x - 1", "1 - x", "(x * 2) * 3", "1.5 + x / 2", "x + NULL", "x * (1 + 1)", "x * TRUE"];

describe("sum and avg of arithmetic with a constant", () => {
  it("are refused by the pass where the engine refuses them, judged on the value the arithmetic is done on, and the IPv4 case of seed 43 among them", async () => {
    const wrong: string[] = [];
    let refused = 0;
    let movedRefusals = 0;
    for (const name of ["sum", "avg"])
      for (const sample of samples)
        for (const form of FORMS) {
          const sql = `${name}(${form.replaceAll("x", sample.column)})`;
          const expression = parseSnql(`MATCH (probe) SELECT ${sql} AS r`).selected[0]!.expression;
          const refusal = passRefusal(expression, entity);
          const codes = [await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`), await engine.code(`SELECT ${sql} FROM probe`)];
          const engineRefuses = codes.every((code) => code === 43 || code === 386);
          if (refusal !== null) refused++;
          if (refusal?.includes("moves arithmetic with a constant out of")) movedRefusals++;
          // The pass refuses nothing the engine takes; of what the engine refuses for a type, it
          // misses nothing on these shapes.
          if ((refusal !== null) !== engineRefuses) wrong.push(`${sql}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 140)})`}, the engine ${codes.map((code) => code ?? "answers").join(" / ")}`);
        }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(100);
    expect(movedRefusals).toBeGreaterThanOrEqual(10);
    const seed43 = parseSnql(`MATCH (probe) SELECT avg(-1e+10 + divide(${variantSamples("nullableIPv4")[0]!.column}, 100)) AS r`).selected[0]!.expression;
    expect(passRefusal(seed43, entity)).toMatch(/computed on column .* \(ClickHouse moves arithmetic with a constant out of avg\).* IPv4/);
  });
});
