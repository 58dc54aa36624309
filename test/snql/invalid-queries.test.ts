/**
 * A corpus of invalid SnQL: each query fails with `invalid_query`, a message naming what is wrong,
 * and the line and column of the offending element (also in the message where Snuba names it).
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";

const registry = defaultRegistry();
const R = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";
const ER = "e.timestamp >= toDateTime('2024-01-01T00:00:00') AND e.timestamp < toDateTime('2024-01-02T00:00:00')";
const TX = "finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00')";
const METRICS = `org_id = 1 AND project_id = 1 AND metric_id = 1 AND ${R}`;
const JOIN = "MATCH (e: events) -[grouped]-> (g: groupedmessage)";

/** [query, message fragment, line, column] */
const CORPUS: readonly [string, string | RegExp, number, number][] = [
  // required time range and required columns
  ["MATCH (events) SELECT count() WHERE project_id = 1", "Missing >= condition with a datetime literal on column timestamp for entity events. Example:", 1, 8],
  ["MATCH (events) SELECT count() WHERE timestamp >= toDateTime('2024-01-01T00:00:00') AND project_id = 1", "Missing < condition", 1, 8],
  [`MATCH (events) SELECT count() WHERE ${R}`, "missing required conditions for project_id", 1, 8],
  [`MATCH (metrics_counters) SELECT sum(value) WHERE project_id = 1 AND metric_id = 1 AND ${R}`, "missing required conditions for org_id", 1, 8],
  // unknown columns, aliases, functions, entities, storages
  [`MATCH (events) SELECT count()\nWHERE ${R} AND project_id = 1 AND projct_id = 2`, "column 'projct_id' does not exist on entity 'events' at line 2, column 127 (did you mean 'project_id'?)", 2, 127],
  [`MATCH (events) SELECT tags[x] AS t, t2 WHERE ${R} AND project_id = 1`, "column 't2' does not exist on entity 'events' at line 1, column 37 (did you mean 't'?)", 1, 37],
  [`MATCH (events) SELECT cnt() WHERE ${R} AND project_id = 1`, "unknown function 'cnt' at line 1, column 23", 1, 23],
  ["MATCH (evnts) SELECT count()", "entity 'evnts' does not exist at line 1, column 8 (did you mean 'events'?)", 1, 8],
  [`MATCH STORAGE(errorz) SELECT count() WHERE ${R}`, "storage 'errorz' does not exist at line 1, column 15 (did you mean 'errors'?)", 1, 15],
  [`MATCH STORAGE(errors) SELECT nope WHERE ${R}`, "column 'nope' does not exist on storage 'errors'", 1, 30],
  ["MATCH STORAGE(errors) SELECT count() WHERE project_id = 1", "Missing >= condition with a datetime literal on column timestamp for storage errors", 1, 15],
  [`MATCH (events) SELECT constructor[x] WHERE ${R} AND project_id = 1`, "'constructor[...]' cannot be subscripted on entity 'events'", 1, 23],
  [`MATCH (metrics_counters) SELECT sum(value) BY tags[abc] WHERE ${METRICS}`, "Expected a string key containing an integer", 1, 47],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND event_id = 'not-a-uuid'`, "Not a valid UUID string: 'not-a-uuid' for column event_id at line 1, column 168", 1, 168],
  [`${JOIN} SELECT count() WHERE ${ER} AND e.project_id = 1 AND g.project_id = 1 AND e.event_id IN tuple('00000000000040008000000000000000', 'x')`, "Not a valid UUID string: 'x'", 1, 276],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND received > 'yesterday'`, "'yesterday' is not a datetime, and column received holds datetimes", 1, 168],
  [`MATCH (transactions) SELECT count() WHERE ${TX} AND project_id = 1 AND start_ts IN tuple('2024-01-01', '01/02/2024')`, "'01/02/2024' is not a datetime", 1, 195],
  // a column the storage does not hold whole: read only by the entity's aggregates, or a map split by key (found by the fuzz: code 47 in ClickHouse)
  [`MATCH (metrics_distributions) SELECT value WHERE project_id = 1 AND org_id = 1 AND ${R}`, "column value at line 1, column 38 is not stored on entity 'metrics_distributions': only its aggregates read it, each from a stored state (min(value), max(value), avg(value)", 1, 38],
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND notEmpty(attributes_string) = 1`, "column attributes_string at line 1, column 155 is a map that entity 'eap_items' stores split by key: read one key as attributes_string[key]", 1, 155],
  [`MATCH (eap_items) SELECT count() AS c WHERE ${R} AND attributes_string != 'x'`, "column attributes_string at line 1, column 146 is a map that entity 'eap_items' stores split by key: read one key as attributes_string[key]", 1, 146],
  [`MATCH (metrics_distributions) SELECT count() AS c WHERE project_id = 1 AND org_id = 1 AND ${R} AND value > 'x'`, "column value at line 1, column 192 is not stored on entity 'metrics_distributions'", 1, 192],
  // `time AS time` selects the alias again: BY time groups by the aggregate (code 184), parenthesised or not
  [`MATCH (events) SELECT title, (argMax(title, received)) AS time, time AS time BY title, time WHERE ${R} AND project_id = 1`, "Aggregate function found in BY clause of query: 'argMax' at line 1, column 88", 1, 88],
  // aggregates where they are not allowed, conditions, aliases, lambdas, totals
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND count() > 1`, "Aggregate function found in WHERE clause of query: 'count'", 1, 157],
  [`MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 AND c > 0`, "Aggregate function found in WHERE clause of query: 'count' at line 1, column 162", 1, 162],
  [`MATCH (events) SELECT count() BY count() WHERE ${R} AND project_id = 1`, "Aggregate function found in BY clause", 1, 34],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 AND level`, "WHERE expects conditions", 1, 157],
  [`MATCH (events) SELECT count() AS c, max(timestamp) AS c WHERE ${R} AND project_id = 1`, "Shadowing aliases detected for alias: c", 1, 37],
  // an alias given inside a clause names one expression across the query (found by the fuzz: code 179 in ClickHouse)
  [`MATCH (events) SELECT title AS c, count() AS n BY title WHERE ${R} AND project_id = 1 HAVING uniq(user) AS c > 1`, "Shadowing aliases detected for alias: c at line 1, column 186", 1, 186],
  [`MATCH (events) SELECT count() AS n WHERE ${R} AND project_id = 1 HAVING uniq(user) AS u > 1 ORDER BY uniq(title) AS u DESC`, "Shadowing aliases detected for alias: u", 1, 194],
  // one expression, one alias (Snuba's grammar has no second AS; found by the fuzz: codes 47 and 215 in ClickHouse)
  [`MATCH (events) SELECT upper(title) AS a AS title WHERE ${R} AND project_id = 1`, "syntax error at line 1, column 41 near 'AS': a already names this expression: give it one alias", 1, 41],
  [`MATCH (events) SELECT arrayExists((\`x\`) -> equals(\`y\`, 1), tags.value) WHERE ${R} AND project_id = 1`, "identifier(s) `y` not defined", 1, 51],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 TOTALS true`, "TOTALS true at line 1, column 153 needs a BY clause", 1, 153],
  // LIMIT, SAMPLE, GRANULARITY values
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 LIMIT 10001`, "queries cannot have a limit higher than 10000", 1, 153],
  [`MATCH (events) SELECT count() WHERE ${R} AND project_id = 1 LIMIT 20000 BY level`, "queries cannot have a limit higher than 10000", 1, 153],
  [`MATCH (events SAMPLE 1000) SELECT count() WHERE ${R} AND project_id = 1`, "invalid SAMPLE 1000 at line 1, column 15", 1, 15],
  [`MATCH (events SAMPLE 0.0) SELECT count() WHERE ${R} AND project_id = 1`, "invalid SAMPLE 0.0", 1, 15],
  [`MATCH (events) SELECT count() BY time WHERE ${R} AND project_id = 1 GRANULARITY 0`, "GRANULARITY must be a positive number of seconds", 1, 161],
  [`MATCH (metrics_counters) SELECT sum(value) WHERE ${METRICS} GRANULARITY 7`, "Granularity must be multiple of one of (10, 60, 3600, 86400)", 1, 199],
  [`MATCH (metrics_counters) SELECT sum(value) WHERE ${METRICS} AND granularity = 60 GRANULARITY 60`, "Granularities cannot be specified in both", 1, 220],
  // joins
  [`MATCH (e: events) -[owns]-> (g: groupedmessage) SELECT count() WHERE ${ER} AND e.project_id = 1`, "ParsingException: events does not have a join relationship -[owns]->", 1, 19],
  [`MATCH (e: events) -[assigned]-> (g: groupedmessage) SELECT count() WHERE ${ER} AND e.project_id = 1`, "ParsingException: -[assigned]-> cannot be used to join events to groupedmessage", 1, 19],
  [`MATCH (e: events) -[toString]-> (g: groupedmessage) SELECT count() WHERE ${ER} AND e.project_id = 1`, "does not have a join relationship -[toString]->", 1, 19],
  [`${JOIN} SELECT count() WHERE ${ER} AND project_id = 1`, "column project_id must be qualified in a join query", 1, 178],
  [`${JOIN} SELECT g.nope WHERE ${ER} AND e.project_id = 1`, "column 'g.nope' does not exist on entity 'groupedmessage'", 1, 59],
  [`${JOIN} SELECT count() WHERE e.project_id = 1`, "Missing >= condition with a datetime literal on column e.timestamp", 1, 8],
  [`${JOIN} SELECT count() WHERE ${ER}`, "missing required conditions for e.project_id", 1, 8],
  ["MATCH (e: events) SELECT count()", "entity alias 'e' at line 1, column 8 is only allowed in a join", 1, 8],
  // subqueries
  ["MATCH { MATCH (events) SELECT count() AS c WHERE project_id = 1 } SELECT c", "Missing >= condition", 1, 16],
  [`MATCH { MATCH (events) SELECT count() AS c WHERE ${R} AND project_id = 1 } SELECT d`, "column 'd' is not an output of the subquery at line 1, column 175 (did you mean 'c'?)", 1, 175],
  // syntax: clause order, missing direction, unterminated strings, lower-case keywords
  [`MATCH (events) SELECT count() BY project_id WHERE ${R} TOTALS true ORDER BY project_id ASC`, "syntax error at line 1, column 160 near 'ORDER'", 1, 160],
  [`MATCH (transactions) SELECT count() WHERE ${TX} AND project_id = 1 ORDER BY duration`, "unexpected end of query at line 1, column 176: expected one of: ASC, DESC", 1, 176],
  [`MATCH (events) SELECT f(a) WHERE ${R} AND x = 'open`, "unterminated string literal", 1, 139],
  ["MATCH (events) select count()", /syntax error at line 1, column 16 near 'select'.*write SELECT/, 1, 16],
  ["MATCH (events) SELECT count() WHERE a = 1 LIMIT 5 BY level LIMIT 2 BY level", "syntax error at line 1, column 68 near 'BY'", 1, 68],
];

function failure(text: string): QueryServiceError {
  try {
    prepareSnqlQuery(registry, text, false);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryServiceError);
    return error as QueryServiceError;
  }
  throw new Error(`expected the query to fail: ${text}`);
}

describe("invalid SnQL corpus", () => {
  it.each(CORPUS)("%s", (text, message, line, column) => {
    const error = failure(text);
    expect(error.type).toBe("invalid_query");
    expect(error.httpStatus).toBe(400);
    if (typeof message === "string") expect(error.message).toContain(message);
    else expect(error.message).toMatch(message);
    expect(error.position).toEqual({ line, column });
  });
});
