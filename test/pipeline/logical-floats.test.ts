/**
 * A float other than 0 or 1 among the operands of AND or xor, or of an OR of constants alone,
 * fails ClickHouse's conversion to a condition while it plans the query (`avg(8.70503 IS NULL OR
 * 54839.27)` on generic_metrics_sets, code 70; seed 16). Beside a column, OR reads the float as a
 * condition and answers. The typing pass refuses the first (typing/conditions.ts,
 * refuseFloatAmongConditions); this holds it to the embedded engine both ways.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passRefusal } from "../support/typing-pass.js";

const samples = [CLASS_SAMPLES.uint8, CLASS_SAMPLES.float64];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("logical-floats", samples);

describe("a float among the operands of AND, OR or xor", () => {
  it("is refused where the engine refuses it (code 70), and taken where it answers", async () => {
    const operands = ["0", "1", "isNull(8.70503)", "2.5", "0.5", "-1.5", "54839.27", "1e+30", CLASS_SAMPLES.uint8.column, CLASS_SAMPLES.float64.column];
    const wrong: string[] = [];
    let refused = 0;
    for (const name of ["and", "or", "xor"])
      for (const a of operands)
        for (const b of operands) {
          const sql = `${name}(${a}, ${b})`;
          const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
          const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
          if (refusal !== null) refused++;
          if (refusal !== null && code !== 70) wrong.push(`${sql}: the pass refuses it, the engine ${code === null ? "answers" : `fails with ${code}`}`);
          if (refusal === null && code === 70) wrong.push(`${sql}: the engine fails with 70, the pass takes it`);
        }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(30);
  });
});
