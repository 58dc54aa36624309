/**
 * A text compared with the time column in WHERE is read strictly, for the partition index
 * (src/pipeline/indexed-time-texts.ts): held to the embedded engine on the storages' own tables
 * (made by the migrations), each holding a row. First the reading itself (readsAsIndexedDateTime)
 * over texts the comparison alone reads; then the queries the front end prepares, with the text
 * where the time column, a time bucket or a function the index sees through meets it.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { readsAsIndexedDateTime } from "../../src/pipeline/literal-texts.js";
import { prepareSnqlQuery } from "../../src/pipeline/run-snql-query.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { useMigratedEngine } from "../support/scratch-engine.js";

const registry = defaultRegistry();
// A row each: the index is read only where a part exists.
const engine = useMigratedEngine("indexed-time-texts", [
  "INSERT INTO errors_local (project_id, timestamp, retention_days) VALUES (1, toDateTime('2024-01-01 10:00:00'), 90)",
  "INSERT INTO metrics_counters_v2_local (org_id, project_id, metric_id, granularity, timestamp, retention_days) VALUES (1, 1, 1, 3600, toDateTime('2024-01-01 10:00:00'), 90)",
  "INSERT INTO transactions_local (project_id, finish_ts, retention_days) VALUES (1, toDateTime('2024-01-01 10:00:00'), 90)",
  "INSERT INTO search_issues_local_v2 (project_id, client_timestamp, retention_days) VALUES (1, toDateTime('2024-01-01 10:00:00'), 90)",
]);

const quoted = (text: string): string => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** Texts a caller may compare with a time: the formats the strict reading takes, and near misses of each. */
const TEXTS = [
  "1", "12", "31", "2024", "99999", "20240101", "123456789", "1700000000", "0000000000", "1700000000.5",
  "2024-01-01", "2024/01/01", "2024.01.01", "2024-1-1", "2024-01-0", " 2024-01-01", "2024-01-01 ",
  "2024-01-01 00:00:00", "2024-01-01T00:00:00", "2024-01-01 25:00:00", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00+01:00",
  "2024-01-01 00:00:00.5", "2024-01-01 00:00:00 UTC", "2024-01-01 10:00", "2024-01-01T10", "2024-01-01 0:00:00",
  "Jan 1 2024", "1 Jan 2024", "01/01/2024", "10:00:00", "Mon, 01 Jan 2024 00:00:00 GMT",
];

describe("the strict reading of a text compared with an indexed time", () => {
  it("takes exactly the texts the engine reads in WHERE, among those the comparison alone reads", async () => {
    const wrong: string[] = [];
    let read = 0;
    let refused = 0;
    for (const text of TEXTS) {
      // The comparison's own reading, outside WHERE: a text it refuses is another rule's.
      if ((await engine.code(`SELECT ${quoted(text)} = timestamp FROM errors_local`)) !== null) continue;
      const code = await engine.code(`SELECT count() FROM errors_local WHERE ${quoted(text)} = timestamp`);
      if (code === null) read++;
      else refused++;
      if (readsAsIndexedDateTime(text) !== (code === null)) wrong.push(`'${text}': the rule ${readsAsIndexedDateTime(text) ? "reads it" : "does not"}, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
    }
    expect(wrong).toEqual([]);
    expect(read).toBeGreaterThanOrEqual(8);
    expect(refused).toBeGreaterThanOrEqual(12);
  }, 120_000);
});

const R = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";
const METRICS = `org_id = 1 AND project_id = 1 AND metric_id = 1 AND ${R}`;
const TX = "finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00')";
const JOINED = "MATCH (e: events) -[grouped]-> (g: groupedmessage) SELECT count() AS c WHERE e.project_id = 1 AND g.project_id = 1 AND e.timestamp >= toDateTime('2024-01-01T00:00:00') AND e.timestamp < toDateTime('2024-01-02T00:00:00')";
const LEFT_JOINED = "MATCH (g: groupedmessage) -[groups]-> (ev: events) SELECT count() AS c WHERE g.project_id = 1 AND ev.project_id = 1 AND ev.timestamp >= toDateTime('2024-01-01T00:00:00') AND ev.timestamp < toDateTime('2024-01-02T00:00:00')";
/** Stands for the text in a query the front end takes, to print its SQL; replaced by the text there. */
const STAND_IN = "2024-01-01 00:00:00";

/**
 * Where a text meets the time column in WHERE: the query, with TEXT for the text. A text on the
 * right of the column itself (`timestamp = '…'`, `timestamp IN (…)`) the front end reads as a
 * datetime literal already, as Snuba does, and the SQL holds no text there.
 */
const SHAPES = [
  `MATCH (events) SELECT count() AS c WHERE project_id = 1 AND ${R} AND TEXT = timestamp`,
  `MATCH (events) SELECT count() AS c WHERE project_id = 1 AND ${R} AND TEXT != timestamp`,
  `MATCH (events) SELECT count() AS c WHERE project_id = 1 AND ${R} AND (project_id = 2 OR TEXT < timestamp)`,
  `MATCH (events) SELECT count() AS c WHERE project_id = 1 AND ${R} AND toStartOfDay(timestamp) >= toString(TEXT)`,
  `MATCH (events) SELECT count() AS c WHERE project_id = 1 AND ${R} AND timestamp - 3600 <= TEXT`,
  `MATCH (events) SELECT count() AS c WHERE project_id = 1 AND ${R} AND toDateTime(timestamp) = TEXT`,
  `MATCH (metrics_counters) SELECT bucketed_time WHERE ${METRICS} AND TEXT = bucketed_time GRANULARITY 3600`,
  `MATCH (metrics_counters) SELECT bucketed_time WHERE ${METRICS} AND TEXT < bucketed_time GRANULARITY 60`,
  `MATCH (metrics_counters) SELECT bucketed_time WHERE ${METRICS} AND TEXT >= bucketed_time GRANULARITY 120`,
  // The column by another name the entity gives it: `timestamp` is finish_ts on the transactions
  // entities, client_timestamp on search_issues (`toString(1000) <= timestamp`; seed 29).
  `MATCH (discover_transactions) SELECT count() AS c WHERE project_id = 1 AND ${TX} AND toString(TEXT) <= timestamp`,
  `MATCH (transactions) SELECT count() AS c WHERE project_id = 1 AND ${TX} AND TEXT = timestamp`,
  `MATCH (search_issues) SELECT count() AS c WHERE project_id = 1 AND ${R} AND TEXT > timestamp`,
  // In a join, a conjunct that reads one side alone is pushed down to that side's table and read
  // by its index; one that reads both sides is not, and the engine answers it whatever the text.
  `${JOINED} AND TEXT = e.timestamp`,
  `${JOINED} AND toStartOfDay(e.timestamp) >= toString(TEXT)`,
  `${JOINED} AND (e.project_id = 2 OR TEXT < e.timestamp)`,
  `${JOINED} AND (g.project_id = 2 OR TEXT < e.timestamp)`,
  `${LEFT_JOINED} AND TEXT != ev.timestamp`,
];

function refusal(query: string): string | null {
  try {
    prepareSnqlQuery(registry, query, false);
    return null;
  } catch (error) {
    if (!(error instanceof QueryServiceError)) throw error;
    return error.message;
  }
}

describe("a query comparing a text with the time column in WHERE", () => {
  it("is refused by the front end exactly where the engine refuses its SQL", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const shape of SHAPES) {
      const { sql } = prepareSnqlQuery(registry, shape.replace("TEXT", quoted(STAND_IN)), false);
      expect(sql).toContain(quoted(STAND_IN));
      for (const text of TEXTS) {
        const query = shape.replace("TEXT", quoted(text));
        const message = refusal(query);
        // The comparison's own reading refuses some texts anywhere: not this rule's to judge.
        if (message !== null && !message.includes("time index")) continue;
        const code = await engine.code(sql.replace(quoted(STAND_IN), quoted(text)));
        if (message !== null) refused++;
        if ((message !== null) !== (code !== null)) wrong.push(`${query.slice(query.indexOf(" AND ", 60)).slice(-120)}: the front end ${message === null ? "takes it" : "refuses it"}, the engine ${code === null ? "answers" : `refuses it (${code})`}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(SHAPES.length * 8);
  }, 300_000);

  it("names the text, its position and the formats the index reads (seed 19's toString(1) = bucketed_time)", () => {
    const query = `MATCH (org_metrics_counters) SELECT project_id, argMax(timestamp, bucketed_time) AS level BY project_id WHERE org_id = 1 AND ${R} AND toString(1) = bucketed_time`;
    const message = refusal(query);
    expect(message).toContain("toString(…) (the text '1') at line 1, column");
    expect(message).toContain("'YYYY-MM-DD hh:mm:ss', 'YYYY-MM-DD' or a Unix time of 5 digits or more");
  });

  it("leaves a text compared with the time column outside WHERE, or through a function the index does not see through, to the comparison's own reading, and the engine answers", async () => {
    for (const query of [
      `MATCH (events) SELECT '31' = timestamp AS d WHERE project_id = 1 AND ${R}`,
      `MATCH (events) SELECT max(timestamp) AS m BY project_id WHERE project_id = 1 AND ${R} HAVING max(timestamp) > '31'`,
      `MATCH (events) SELECT count() AS c WHERE project_id = 1 AND ${R} AND greatest(timestamp, timestamp) > '31'`,
    ]) {
      expect(refusal(query), query).toBeNull();
      expect(await engine.code(prepareSnqlQuery(registry, query, false).sql), query).toBeNull();
    }
  });
});
