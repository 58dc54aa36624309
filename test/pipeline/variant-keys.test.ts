/**
 * A Variant as a key of ORDER BY or BY (an `if` of mixed branches or of a Variant, an array of mixed types), or
 * held inside a key's tuple or array at any depth (`ORDER BY tuple(contexts.key, array(TRUE,
 * environment, 'error'))`, seed 30), is refused (argument-types.ts, refuseVariantKeys):
 * ClickHouse neither sorts nor groups by a Variant (code 44). This holds the front end to the
 * embedded engine both ways, on the events storage's own table holding a row.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { prepareSnqlQuery } from "../../src/pipeline/run-snql-query.js";
import { snqlRefusal } from "../support/snql-refusal.js";
import { useMigratedEngine } from "../support/scratch-engine.js";

const registry = defaultRegistry();
const engine = useMigratedEngine("variant-keys", ["INSERT INTO errors_local (project_id, timestamp, retention_days, title) VALUES (1, toDateTime('2024-01-01 10:00:00'), 90, 'a')"]);

const WHERE = "project_id = 1 AND timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";

/** Keys with a Variant at the top, inside a tuple or an array, deeper, and keys of one type each. */
const KEYS = [
  "if(project_id > 1, 1, 'a')",
  "if(1, 1, 'a')",
  "array(title, 1)",
  "tuple(title, array(TRUE, environment, 'error'))",
  "tuple(1, if(1, 1, 'a'))",
  "array(array(1, title))",
  "tuple(tuple(project_id, array(now(), 3, platform)))",
  "array(tuple(title, if(project_id > 1, 1, 'a')))",
  // An if or coalesce of a Variant is one (seed 35), whichever branch a constant condition picks.
  "if(1, if(0, ip_address_v6, 5), 'x')",
  "if(project_id > 1, if(project_id > 2, title, 5), 7)",
  "coalesce(if(project_id > 1, title, 5), 'x')",
  // An IPv6 has no common type with numbers (an IPv4 has: a UInt32).
  "array(10, 100, ip_address_v6)",
  "array(10, ip_address_v4)",
  // An array of Nullable numbers (one of a few types to the pass) beside a text (seed 38).
  "if(project_id > 1, array(exception_main_thread, 1), title)",
  "tuple(title, 1)",
  "array(title, 'x')",
  "array(array(title))",
  "tuple(title, array(1, 2))",
  "if(project_id > 1, 1, 2.5)",
];

/** The SQL Quarry prints for a key, read from a query that selects it. */
function keySql(key: string): string {
  const { sql } = prepareSnqlQuery(registry, `MATCH (events) SELECT ${key} AS k WHERE ${WHERE}`, false);
  return sql.slice("SELECT ".length, sql.indexOf(" AS _snuba_k"));
}

describe("a Variant as a sorting or grouping key", () => {
  it("is refused by the front end exactly where the engine refuses the key, in ORDER BY and in BY, inside tuples and arrays too", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const key of KEYS) {
      const sql = keySql(key);
      for (const [clause, query, engineSql] of [
        ["ORDER BY", `MATCH (events) SELECT title WHERE ${WHERE} ORDER BY ${key} ASC`, `SELECT title FROM errors_local ORDER BY ${sql}`],
        ["BY", `MATCH (events) SELECT count() AS c BY ${key} AS k WHERE ${WHERE}`, `SELECT count() FROM errors_local GROUP BY ${sql}`],
      ] as const) {
        const refusal = snqlRefusal(query);
        const code = await engine.code(engineSql);
        if (refusal !== null) refused++;
        if ((refusal !== null) !== (code !== null)) wrong.push(`${clause} ${key}: the front end ${refusal === null ? "takes it" : `refuses it (${refusal.message})`}, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBe(2 * 13);
  });
});
