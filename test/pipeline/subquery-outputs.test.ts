/**
 * The outer level of a subquery judged on its outputs' types (src/pipeline/subquery-outputs.ts),
 * held to the embedded engine on the storages' own tables (made by the migrations): each call of
 * an output the front end refuses, the engine refuses; each the engine refuses for a type or an
 * argument count, the front end refuses, as it does the same call of the inner expression.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { prepareSnqlQuery } from "../../src/pipeline/run-snql-query.js";
import { subqueryOutputsEntity } from "../../src/pipeline/subquery-outputs.js";
import { validateSnqlQuery } from "../../src/pipeline/snql-validation.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { useMigratedEngine } from "../support/scratch-engine.js";

const registry = defaultRegistry();
// A row each: a text is read as a number only where a row holds one (`release = 1`, code 53).
const engine = useMigratedEngine("subquery-outputs", [
  `INSERT INTO transactions_local (project_id, event_id, transaction_name, start_ts, finish_ts, duration, platform, user, release, trace_id, tags.key, tags.value, retention_days)
      VALUES (1, '0c5e5e1a-6b1e-4b8f-9d65-1b1d1c1e1f10', '/checkout', '2024-01-01 10:00:00', '2024-01-01 10:00:02', 2000, 'javascript', 'u', 'r1', '0c5e5e1a-6b1e-4b8f-9d65-1b1d1c1e1f11', ['k'], ['v'], 90)`,
  "INSERT INTO groupedmessage_local (project_id, id, offset, status, record_deleted) VALUES (1, 1, 7, 0, 0)",
]);

const TX = "finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND project_id = 1";

/** Inner queries and the outputs they name: stored columns of several types, aggregates, computed values. */
const INNER = [
  { query: `MATCH (transactions) SELECT transaction, duration, finish_ts, event_id, trace_id, release, tags.key WHERE ${TX}`, outputs: ["transaction", "duration", "finish_ts", "event_id", "trace_id", "release", "tags.key"] },
  { query: `MATCH (transactions) SELECT transaction, count() AS c, avg(duration) AS a, max(finish_ts) AS last, uniq(user) AS u BY transaction WHERE ${TX}`, outputs: ["c", "a", "last", "u"] },
  { query: `MATCH (transactions) SELECT lower(transaction) AS t, duration * 2 AS d2, toStartOfHour(finish_ts) AS h WHERE ${TX}`, outputs: ["t", "d2", "h"] },
  { query: "MATCH (groupedmessage) SELECT offset, status WHERE project_id = 1", outputs: ["offset", "status"] },
  // a subquery itself, typed level by level (event_id is a String from the level below)
  { query: `MATCH { MATCH (transactions) SELECT event_id, transaction, count() AS c BY event_id, transaction WHERE ${TX} } SELECT event_id, transaction, c * 2 AS d`, outputs: ["event_id", "transaction", "d"] },
];

/** Calls of an output, X, written alike in SnQL and ClickHouse SQL. */
const CALLS = [
  "like(X, '%a%')",
  "equals(X, 1)",
  "equals(X, 'a')",
  "plus(X, 1)",
  "lower(X)",
  "has(X, 'a')",
  "toStartOfDay(X)",
  "greater(X, now())",
  "concat(X, 'x')",
  "abs(X)",
  "divide(X, 2)",
  "arrayElement(X, 1)",
  "notEquals(X, toUUID('00000000-0000-0000-0000-000000000000'))",
  "length(X)",
];

/** Codes of a type or an argument count the typing pass must catch. */
const TYPE_ERRORS = new Set([43, 42, 386, 48, 53, 70]);

function refusal(text: string): string | null {
  try {
    prepareSnqlQuery(registry, text, false);
    return null;
  } catch (error) {
    if (!(error instanceof QueryServiceError) || error.type !== "invalid_query") throw error;
    return error.message;
  }
}

describe("the outer level of a subquery", () => {
  it("is judged on the outputs' types, agreeing with the engine both ways", async () => {
    const disagreements: string[] = [];
    let refused = 0;
    let taken = 0;
    for (const inner of INNER) {
      const innerSql = (prepareSnqlQuery(registry, inner.query, false) as { sql: string }).sql;
      for (const output of inner.outputs) {
        for (const template of CALLS) {
          const snql = `MATCH { ${inner.query} } SELECT ${template.replaceAll("X", output)} AS r LIMIT 1`;
          const sql = `SELECT ${template.replaceAll("X", `\`_snuba_${output}\``)} AS r FROM (${innerSql}) LIMIT 1`;
          const pass = refusal(snql);
          const code = await engine.code(sql);
          if (pass !== null) refused++;
          else taken++;
          if ((pass !== null && code === null) || (pass === null && code !== null && TYPE_ERRORS.has(code))) {
            disagreements.push(`${template.replace("X", output)} over ${inner.query.slice(7, 40)}…: the pass ${pass === null ? "takes it" : `refuses it (${pass.slice(0, 120)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(refused).toBeGreaterThan(70);
    expect(taken).toBeGreaterThan(70);
  }, 300_000);

  it("is left to the engine where an output may be a constant or a NULL of no type", () => {
    const entityOf = (text: string) => {
      const validated = validateSnqlQuery(parseSnql(text), registry);
      if (validated.kind !== "subquery") throw new Error("not a subquery");
      return subqueryOutputsEntity(validated.inner);
    };
    expect(entityOf(`MATCH { MATCH (transactions) SELECT transaction, duration WHERE ${TX} } SELECT transaction`)?.columns.map((c) => `${c.name} ${c.type}`)).toEqual(["transaction String", "duration UInt32"]);
    for (const constant of ["1 AS one", "'a' AS a", "plus(duration, NULL) AS n"]) {
      expect(entityOf(`MATCH { MATCH (transactions) SELECT transaction, ${constant} WHERE ${TX} } SELECT transaction`), constant).toBeNull();
    }
    // and the query holding one is taken as it was: `like(one, 'a')` of a constant 1 is the engine's to judge
    expect(refusal(`MATCH { MATCH (transactions) SELECT duration, 1 AS one WHERE ${TX} } SELECT like(duration, 'a') AS r`)).toBeNull();
  });
});
