/**
 * `min`, `max`, `any` or `anyLast` of a float other than 0 or 1 among the operands of AND or xor:
 * in a query that groups BY keys the analyzer folds the aggregate to the float, which it then
 * fails to convert to a condition (code 70; `tags.key IS NULL AND min(18446744073709551616)` BY
 * tags.value on metrics_counters, seed 31); without BY it stays an aggregate, and is answered. The
 * pass refuses the first (typing/conditions.ts, refuseFloatAmongConditions; logical-floats.test.ts
 * holds the floats written out). This holds the front end to the embedded engine both ways.
 */
import { describe, expect, it } from "vitest";
import { useMigratedEngine } from "../support/scratch-engine.js";
import { snqlRefusal } from "../support/snql-refusal.js";

const WHERE = "project_id = 1 AND timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";
const events = useMigratedEngine("grouped-logical-floats", ["INSERT INTO errors_local (project_id, timestamp, retention_days) VALUES (1, toDateTime('2024-01-01 10:00:00'), 90)"]);

describe("a float as min, max, any or anyLast among the operands of AND or xor", () => {
  it("is refused in a query that groups BY keys, where the analyzer folds the aggregate to the float, and taken without BY (seed 31)", async () => {
    const operands = ["1", "2.5", "min(2.5)", "max(-1.5)", "any(54839.27)", "anyLast(0.5)", "min(1e+30)", "avg(2.5)", "sum(2.5)", "argMin(2.5, project_id)", "min(project_id)"];
    const wrong: string[] = [];
    let refused = 0;
    for (const name of ["and", "xor"])
      for (const a of operands)
        for (const b of operands)
          for (const grouped of [true, false]) {
            const call = `${name}(${a}, ${b})`;
            const refusal = snqlRefusal(grouped ? `MATCH (events) SELECT project_id, ${call} AS x BY project_id WHERE ${WHERE}` : `MATCH (events) SELECT ${call} AS x WHERE ${WHERE}`);
            const code = await events.code(grouped ? `SELECT project_id, ${call} FROM errors_local GROUP BY project_id` : `SELECT ${call} FROM errors_local`);
            if (refusal !== null) refused++;
            if ((refusal !== null) !== (code === 70)) wrong.push(`${call}${grouped ? " BY project_id" : ""}: the front end ${refusal === null ? "takes it" : `refuses it (${refusal.message})`}, the engine ${code === null ? "answers" : `fails with ${code}`}`);
          }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(100);
  });
});
