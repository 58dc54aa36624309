/** Golden SQL for every SnQL construct, through the whole front end (parse, validate, translate). */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";

const registry = defaultRegistry();
const W = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00') AND project_id = 1";
const EW = "e.timestamp >= toDateTime('2024-01-01T00:00:00') AND e.timestamp < toDateTime('2024-01-02T00:00:00') AND e.project_id = 1";
const SQL_RANGE = "greaterOrEquals(timestamp, toDateTime('2024-01-01T00:00:00', 'Universal')), less(timestamp, toDateTime('2024-01-02T00:00:00', 'Universal'))";
const SQL_W = `WHERE and(equals(deleted, 0), and(and(${SQL_RANGE}), equals(project_id, 1)))`;
const SQL_EW =
  "and(and(greaterOrEquals(e.timestamp, toDateTime('2024-01-01T00:00:00', 'Universal')), less(e.timestamp, toDateTime('2024-01-02T00:00:00', 'Universal'))), equals(e.project_id, 1))";

const sqlOf = (text: string, turbo = false) => prepareSnqlQuery(registry, text, turbo).sql;

describe("golden SQL per construct", () => {
  it("MATCH with SAMPLE, and turbo's default rate", () => {
    expect(sqlOf(`MATCH (events SAMPLE 0.5) SELECT count() AS c WHERE ${W}`)).toBe(`SELECT count() AS _snuba_c FROM errors_local SAMPLE 0.5 ${SQL_W} LIMIT 1000 OFFSET 0`);
    expect(sqlOf(`MATCH (events) SELECT count() AS c WHERE ${W}`, true)).toBe(`SELECT count() AS _snuba_c FROM errors_local SAMPLE 0.1 ${SQL_W} LIMIT 1000 OFFSET 0`);
  });

  it("MATCH STORAGE reads storage columns with no entity processors", () => {
    expect(sqlOf(`MATCH STORAGE(errors) SELECT uniq(user) AS u WHERE ${W}`)).toBe(`SELECT uniq(user) AS _snuba_u FROM errors_local ${SQL_W} LIMIT 1000 OFFSET 0`);
  });

  it("subqueries read the inner output aliases; only the outer query gets the default LIMIT", () => {
    expect(sqlOf(`MATCH { MATCH (events) SELECT count() AS c BY project_id WHERE ${W} } SELECT max(c) AS m`)).toBe(
      `SELECT max(_snuba_c) AS _snuba_m FROM (SELECT project_id AS _snuba_project_id, count() AS _snuba_c FROM errors_local ${SQL_W} GROUP BY project_id) LIMIT 1000 OFFSET 0`,
    );
  });

  it("left joins with qualified columns, FINAL and each table's deleted condition", () => {
    expect(
      sqlOf(`MATCH (e: events) -[attributes]-> (a: group_attributes) SELECT count() AS c BY e.group_id, a.group_status WHERE ${EW} AND a.project_id = 1`),
    ).toBe(
      "SELECT e.group_id AS `_snuba_e.group_id`, a.group_status AS `_snuba_a.group_status`, count() AS _snuba_c FROM errors_local AS e " +
        "LEFT JOIN group_attributes_local AS a FINAL ON e.project_id = a.project_id AND e.group_id = a.group_id " +
        `WHERE and(equals(e.deleted, 0), equals(a.deleted, 0), and(${SQL_EW}, equals(a.project_id, 1))) GROUP BY e.group_id, a.group_status LIMIT 1000 OFFSET 0`,
    );
  });

  it("turbo joins drop FINAL but are not sampled (ClickHouse may swap the join's sides and refuse SAMPLE, code 141)", () => {
    expect(sqlOf(`MATCH (e: events) -[grouped]-> (g: groupedmessage) SELECT count() AS c WHERE ${EW} AND g.project_id = 1`, true)).toBe(
      "SELECT count() AS _snuba_c FROM errors_local AS e INNER JOIN groupedmessage_local AS g ON e.project_id = g.project_id AND e.group_id = g.id " +
        `WHERE and(equals(e.deleted, 0), equals(g.record_deleted, 0), and(${SQL_EW}, equals(g.project_id, 1))) LIMIT 1000 OFFSET 0`,
    );
  });

  it("ARRAY JOIN", () => {
    expect(sqlOf(`MATCH (events) SELECT count() AS c BY tags.key ARRAY JOIN tags.key WHERE ${W}`)).toBe(
      `SELECT tags.key AS \`_snuba_tags.key\`, count() AS _snuba_c FROM errors_local ARRAY JOIN tags.key ${SQL_W} GROUP BY tags.key LIMIT 1000 OFFSET 0`,
    );
  });

  it("ORDER BY several keys, LIMIT BY, LIMIT and OFFSET", () => {
    expect(sqlOf(`MATCH (events) SELECT user WHERE ${W} ORDER BY timestamp DESC, user ASC LIMIT 2 BY project_id LIMIT 10 OFFSET 20`)).toBe(
      `SELECT user AS _snuba_user FROM errors_local ${SQL_W} ORDER BY timestamp DESC, user ASC LIMIT 2 BY project_id LIMIT 10 OFFSET 20`,
    );
  });

  it("conditions on array and Nested columns compare elements, except ARRAY JOINed ones", () => {
    expect(sqlOf(`MATCH (events) SELECT count() AS c WHERE ${W} AND exception_stacks.type = 'ValueError' AND tags.value != 'Chrome'`)).toBe(
      `SELECT count() AS _snuba_c FROM errors_local WHERE and(equals(deleted, 0), and(and(and(and(${SQL_RANGE}), equals(project_id, 1)), ` +
        "arrayExists((x) -> ifNull(equals(x, 'ValueError'), 0), exception_stacks.type)), arrayAll((x) -> ifNull(notEquals(x, 'Chrome'), 0), tags.value))) LIMIT 1000 OFFSET 0",
    );
    expect(sqlOf(`MATCH (events) SELECT count() AS c BY tags.key ARRAY JOIN tags.key WHERE ${W} AND tags.key = 'browser'`)).toContain(
      "equals(project_id, 1)), equals(tags.key, 'browser')))",
    );
  });

  it("Snuba's arrayExists(col, '<op>', value) shorthand", () => {
    expect(sqlOf(`MATCH (events) SELECT arrayAll(tags.key, 'IS NOT NULL') AS all_set WHERE ${W} AND arrayExists(tags.value, 'LIKE', 'Chr%') = 1`)).toBe(
      "SELECT arrayAll((x) -> ifNull(isNotNull(x), 0), tags.key) AS _snuba_all_set FROM errors_local " +
        `WHERE and(equals(deleted, 0), and(and(and(${SQL_RANGE}), equals(project_id, 1)), equals(arrayExists((x) -> ifNull(like(x, 'Chr%'), 0), tags.value), 1))) LIMIT 1000 OFFSET 0`,
    );
  });

  it("TOTALS", () => {
    expect(sqlOf(`MATCH (events) SELECT count() AS c BY project_id WHERE ${W} TOTALS true`)).toBe(
      `SELECT project_id AS _snuba_project_id, count() AS _snuba_c FROM errors_local ${SQL_W} GROUP BY project_id WITH TOTALS LIMIT 1000 OFFSET 0`,
    );
  });

  it("lambdas with several parameters", () => {
    expect(sqlOf(`MATCH (events) SELECT arrayExists((\`x\`, \`y\`) -> and(equals(\`x\`, 'a'), equals(\`y\`, 'b')), tags.key, tags.value) AS both WHERE ${W}`)).toBe(
      `SELECT arrayExists((x, y) -> and(equals(x, 'a'), equals(y, 'b')), tags.key, tags.value) AS _snuba_both FROM errors_local ${SQL_W} LIMIT 1000 OFFSET 0`,
    );
  });

  it("Snuba's basic function processors", () => {
    // Aggregates and per-row functions in two queries: together, release and project_id would be
    // read outside BY and aggregates (ClickHouse's code 215, refused before it).
    expect(sqlOf(`MATCH (events) SELECT uniq(user) AS u, top(3)(user) AS t WHERE ${W}`)).toBe(
      `SELECT ifNull(uniq(user), 0) AS _snuba_u, topK(3)(user) AS _snuba_t FROM errors_local ${SQL_W} LIMIT 1000 OFFSET 0`,
    );
    expect(sqlOf(`MATCH (events) SELECT log(project_id) AS l WHERE ${W}`)).toBe(`SELECT ifNotFinite(log(project_id), 0) AS _snuba_l FROM errors_local ${SQL_W} LIMIT 1000 OFFSET 0`);
  });

  it("UUID columns selected as 32 hex digits; string literals escaped", () => {
    expect(sqlOf(`MATCH (events) SELECT event_id, trace_id WHERE ${W} AND message = 'it\\'s \\\\ -- /* x */ \\n ☃'`)).toBe(
      "SELECT replaceAll(toString(event_id), '-', '') AS _snuba_event_id, replaceAll(toString(trace_id), '-', '') AS _snuba_trace_id FROM errors_local " +
        `WHERE and(equals(deleted, 0), and(and(and(${SQL_RANGE}), equals(project_id, 1)), equals(message, 'it\\'s \\\\ -- /* x */ \\n ☃'))) LIMIT 1000 OFFSET 0`,
    );
  });

  it("contexts subscripts, nullable mapped subscripts, OR with IS NULL, NOT LIKE, NOT IN", () => {
    expect(
      sqlOf(`MATCH (events) SELECT contexts[browser.name] AS b, geo_city WHERE ${W} AND (level = 'error' OR level IS NULL) AND user NOT LIKE '%bot%' AND release NOT IN tuple('a', 'b')`),
    ).toBe(
      "SELECT arrayElement(contexts.value, indexOf(contexts.key, 'browser.name')) AS _snuba_b, " +
        "if(has(contexts.key, 'geo.city'), arrayElement(contexts.value, indexOf(contexts.key, 'geo.city')), NULL) AS _snuba_geo_city FROM errors_local " +
        `WHERE and(equals(deleted, 0), and(and(and(and(and(${SQL_RANGE}), equals(project_id, 1)), or(equals(level, 'error'), isNull(level))), notLike(user, '%bot%')), notIn(release, tuple('a', 'b')))) LIMIT 1000 OFFSET 0`,
    );
  });
});
