/**
 * The rule of an aggregating query (src/pipeline/aggregation-keys.ts): the queries it refuses
 * (each one ClickHouse refuses with code 215 or 184, as the fuzz found them) are 400s at the
 * column, and the ones it takes (keys, expressions of keys, aliases, aggregates, constants, time
 * buckets, subscripts of key columns) run on the embedded engine: the check refuses nothing the
 * engine takes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { snqlRefusal as refusal } from "../support/snql-refusal.js";
import { clickHouseCodeOf } from "../../src/clickhouse/clickhouse-error.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { prepareSnqlQuery } from "../../src/pipeline/run-snql-query.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

/** The server's answer to the query, run on the embedded engine. */
async function answer(query: string): Promise<{ status: number; error?: { type: string; message: string } }> {
  const dataset = /^MATCH \(metrics_/.test(query) ? "metrics" : /^MATCH \(generic_/.test(query) ? "generic_metrics" : "events";
  const response = await fetch(`${server.baseUrl}/${dataset}/snql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "test.aggregation-keys" } }),
  });
  const body = (await response.json()) as { error?: { type: string; message: string } };
  return { status: response.status, ...(body.error ? { error: body.error } : {}) };
}

const EVENTS = (select: string, rest = "") => `MATCH (events) SELECT ${select} WHERE ${RANGE} AND project_id = 1${rest}`;
const METRICS_SETS = (select: string) => `MATCH (metrics_sets) SELECT ${select} WHERE ${RANGE} AND project_id = 1 AND org_id = 1`;
const GENERIC_ORG_COUNTERS = (select: string, rest = "") => `MATCH (generic_org_metrics_counters) SELECT ${select} WHERE ${RANGE} AND org_id = 1 AND metric_id = 1${rest}`;
const TRANSACTIONS = (select: string) => `MATCH (transactions) SELECT ${select} WHERE ${RANGE.replaceAll("timestamp", "finish_ts")} AND project_id = 1`;

const REFUSED: readonly (readonly [string, string, string])[] = [
  [EVENTS("title, count() AS c"), "column title at line 1, column 23 is neither a BY key nor inside an aggregate, and the query aggregates (count(…)", "title"],
  [EVENTS("title AS t, count() AS c BY project_id"), "column title at line 1, column 23 is neither a BY key nor inside an aggregate, and the query groups BY", "title"],
  [EVENTS("count() AS c BY project_id", " ORDER BY timestamp ASC"), "column timestamp", "timestamp"],
  [EVENTS("count() AS c BY project_id", " HAVING title != ''"), "column title", "title"],
  [EVENTS("title", " ORDER BY count() DESC"), "and the query aggregates (count(…)", "title"],
  [EVENTS("upper(title) AS u, count() AS c BY upper(title)", " ORDER BY title ASC"), "column title", "title"],
  [EVENTS("count() AS c BY tags[browser]", " ORDER BY tags[environment] DESC"), "column tags[environment]", "tags[environment]"],
  [EVENTS("arrayExists((`k`) -> equals(`k`, 'browser'), tags.key) AS b, count() AS c BY project_id"), "column tags.key", "tags.key"],
  // a call given a NULL that the engine does not compute first: arithmetic, isNull of a Nullable
  // column, AND with a NULL or a true operand (each code 215 in ClickHouse)
  [EVENTS("count() AS c, group_id + NULL AS g"), "column group_id", "group_id"],
  // a column the entity computes from others none of which is a key
  [EVENTS("ip_address, count() AS c BY project_id"), "column ip_address", "ip_address"],
  // ... or from a key and a column that is not one: ip_address reads ip_address_v6 too (seed 45)
  [EVENTS("ip_address_v4, count() AS c BY ip_address_v4", " ORDER BY ip_address DESC"), "column ip_address", "ip_address"],
  [EVENTS("tags_key, count() AS c"), "column tags_key", "tags_key"],
  // `if` on a constant is the branch it picks (isNull of a number is 0)
  [EVENTS("if(100 IS NULL, 'x', title) AS t, count() AS c"), "column title", "title"],
  [EVENTS("count() AS c, isNull(user_email) AS n"), "column user_email", "user_email"],
  [EVENTS("count() AS c BY project_id", " HAVING title = NULL AND title != ''"), "column title", "title"],
  // a comparison of two literals is computed first: true here, so the column is read
  [EVENTS("count() AS c BY project_id", " HAVING 1 = 1 AND title != ''"), "column title", "title"],
  [EVENTS("count() AS c BY project_id", " HAVING 'a' = 'b' OR title != ''"), "column title", "title"],
  [EVENTS("if(1 = 2, 'x', title) AS t, count() AS c"), "column title", "title"],
  // isNull of a subscript whose values may be NULL is read per row (the fuzz: 48 of code 215)
  [TRANSACTIONS("measurements[lcp] IS NULL AS n, count() AS c"), "column measurements[lcp]", "measurements[lcp]"],
  // isNull of an expression that holds an aggregate is computed after it: the columns beside it are read
  [EVENTS("isNull(count() * group_id) AS n"), "column group_id", "group_id"],
  [EVENTS("count() AS c BY title", " HAVING isNotNull(tuple(max(timestamp), group_id))"), "column group_id", "group_id"],
  // `if` on a NULL condition is not computed first (the fuzz: if(profile_id, ...) on discover_events, whose profile_id is NULL)
  [EVENTS("if(NULL, title, 'x') AS t, count() AS c"), "column title", "title"],
  [EVENTS("if(NULL = 1, 'x', title) AS t, count() AS c"), "column title", "title"],
  // isNull of an array column in HAVING tests its elements (arrayExists(x -> isNull(x), col)), which reads the column (the fuzz: tags.raw_value IS NULL on a metrics entity)
  [EVENTS("count() AS c BY project_id", " HAVING tags.key IS NULL"), "column tags.key", "tags.key"],
  [EVENTS("count() AS c", " HAVING c > 1 AND exception_frames.lineno IS NOT NULL"), "column exception_frames.lineno", "exception_frames.lineno"],
  // a Nested column whole as a key makes none of its parts one, nor a subscript of it (the fuzz: tags[k] in HAVING with BY tags on replays)
  [EVENTS("tags.key, count() AS c BY tags"), "column tags.key", "tags.key"],
  [EVENTS("count() AS c BY tags", " HAVING tags[browser] = 'x'"), "column tags[browser]", "tags[browser]"],
  [EVENTS("count() AS c BY tags.key", " ORDER BY tags ASC"), "column tags at", "tags"],
  // AND, OR and if with an aggregate among their operands are not computed first (the fuzz: org_id in HAVING on a metrics entity)
  [EVENTS("count() AS c BY project_id", " HAVING title != '' AND count() > 0 AND 1 = 2"), "column title", "title"],
  [EVENTS("count() AS c BY project_id", " HAVING if(1 = 2, title, toString(count())) != ''"), "column title", "title"],
  // ... nor with an arrayJoin among them (seed 16: tags_key is arrayJoin(tags.key))
  [EVENTS("count() AS c BY project_id", " HAVING 1 = 2 AND tags_key = 'a'"), "column tags_key", "tags_key"],
  // a constant call given a NULL is NULL, which decides no OR (seed 16: `site LIKE 'x'` on discover_transactions, whose site is NULL)
  [EVENTS("count() AS c BY project_id", " HAVING title != '' OR NULL LIKE 'x'"), "column title", "title"],
  // isNull of a column mapped to a subscript, printed with a NULL for a missing key, is read per row (seed 16)
  [TRANSACTIONS("geo_region IS NULL AS n, count() AS c"), "column geo_region", "geo_region"],
  // isNull of an expression holding an arrayJoin, and a comparison with NULL of one holding an aggregate, are not folded (seed 17)
  [EVENTS("coalesce(tags_key, title) IS NULL AS n, count() AS c BY project_id"), "column tags_key", "tags_key"],
  [EVENTS("(title = any(message)) <= NULL AS n, count() AS c"), "column title", "title"],
  // a time bucket is a key only where its column or a bucket of it is one by itself: not read
  // within a key's call (`BY toHour(bucketed_time)`, seed 29), nor beside a call the SQL prints
  // otherwise (toStartOfHour(timestamp) against the bucket's toStartOfHour(timestamp, 'Universal'))
  [EVENTS("toHour(time) AS h, count() AS c BY toHour(time)", " ORDER BY time ASC GRANULARITY 3600"), "column time", "time"],
  [EVENTS("count() AS c BY toStartOfHour(timestamp)", " ORDER BY time ASC GRANULARITY 3600"), "column time", "time"],
  // isNull of a part of a Nested column (an array, never NULL) is 0: the branch it picks is read (seed 34)
  [METRICS_SETS("if(isNull(tags.key), 'p', like(use_case_id, 'x')) AS t, count() AS n"), "column use_case_id", "use_case_id"],
  // ... and in HAVING a test of its elements, read per row, also where the entity maps the part
  // onto another (`tags.value` is `tags.indexed_value`; seed 35, code 215): named as written
  [GENERIC_ORG_COUNTERS("sum(value) AS v BY project_id", " HAVING tags.value IS NOT NULL"), "column tags.value", "tags.value"],
  // isNull of a call that passes on such a column's NULL is read per row too (seed 39); named as
  // written, not as the subscript the entity maps it to
  [EVENTS("count() AS c BY project_id", " HAVING (geo_country_code != 'x') IS NOT NULL"), "column geo_country_code", "geo_country_code"],
  // an array or a tuple of constants is never NULL: `IS NOT NULL` of it is true, which decides no AND (seed 39)
  [EVENTS("count() AS c BY project_id", " HAVING array('staging') IS NOT NULL AND title != ''"), "column title", "title"],
  // greatest and least of constants with a NULL among them are not computed first (seed 40)
  [EVENTS("if(greatest(FALSE, NULL, 2), title, 'x') AS t, count() AS c"), "column title", "title"],
  [EVENTS("if(least(NULL, 0, 3), title, 'x') AS t, count() AS c"), "column title", "title"],
];

const TAKEN: readonly string[] = [
  EVENTS("title, count() AS c BY title"),
  EVENTS("upper(title) AS u, count() AS c BY upper(title)"),
  EVENTS("concat(title, '!') AS t, count() AS c BY title", " ORDER BY title ASC"),
  EVENTS("title AS t, count() AS c BY t", " ORDER BY t ASC"),
  EVENTS("count() AS c BY project_id", " HAVING c > 1 ORDER BY c DESC"),
  EVENTS("tags[browser] AS b, count() AS c BY tags.key, tags.value"),
  EVENTS("tags, count() AS c BY tags.key, tags.value"),
  EVENTS("tags, count() AS c BY tags"),
  EVENTS("arrayExists((`k`) -> equals(`k`, 'browser'), tags.key) AS b, count() AS c BY b"),
  EVENTS("time, count() AS c BY timestamp", " GRANULARITY 3600"),
  EVENTS("toHour(time) AS h, count() AS c BY time", " ORDER BY time ASC GRANULARITY 3600"),
  EVENTS("count() AS c BY timestamp", " ORDER BY time ASC GRANULARITY 3600"),
  EVENTS("1 AS one, now() AS n, count() AS c"),
  EVENTS("title, timestamp", " ORDER BY timestamp ASC"),
  // what the engine computes before it looks for columns: a comparison with NULL, isNull of a
  // column that cannot be NULL, AND with a false operand, OR with a true one, if on a constant
  EVENTS("count() AS c, title = NULL AS t"),
  EVENTS("count() AS c, isNull(project_id) AS n"),
  EVENTS("tags.key IS NOT NULL AS k, count() AS c"),
  // ... and in HAVING, where it tests a key's elements
  EVENTS("count() AS c BY tags.key", " HAVING tags.key IS NOT NULL"),
  EVENTS("count() AS c BY project_id", " HAVING 1 = 2 AND title != ''"),
  EVENTS("count() AS c BY project_id", " HAVING (1 = 2 AND title != '') AND count() > 0"),
  EVENTS("count() AS c BY project_id", " HAVING isNotNull(project_id) OR title != ''"),
  EVENTS("count() AS c, if(isNull(project_id), title, 'x') AS t"),
  EVENTS("count() AS c, if(100 IS NULL, title, 'x') AS t"),
  EVENTS("count() AS c BY project_id", " HAVING 2 > 1.5 OR title != ''"),
  EVENTS("count() AS c BY project_id", " HAVING array('staging') IS NULL AND title != ''"),
  EVENTS("if(least(0, 3), title, 'x') AS t, count() AS c"),
  EVENTS("count() AS c BY project_id", " HAVING (coalesce(geo_country_code, 'a') != 'x') IS NOT NULL"),
  EVENTS("count() AS c BY project_id", " HAVING 'a' != 'a' AND title != ''"),
  EVENTS("count() AS c BY project_id", " HAVING TRUE = 0 AND title != ''"),
  EVENTS("count() AS c, if(1 = 2, title, 'x') AS t"),
  // ... and folded where they cannot (a missing tag reads '')
  EVENTS("isNull(tags[browser]) AS n, count() AS c"),
  EVENTS("isNull(count() * 2) AS n, isNull(project_id + 1) AS p"),
  EVENTS("count() = NULL AS n, title = NULL AS t, count() AS c"),
  EVENTS("count() AS c BY project_id", " HAVING tags[browser] IS NOT NULL OR title != ''"),
  // past 2^53 the two literals may differ to the engine: not judged
  EVENTS("count() AS c BY project_id", " HAVING 9007199254740993 = 9007199254740992 AND title != ''"),
  // a column the entity computes from keys
  EVENTS("ip_address, count() AS c BY ip_address_v4, ip_address_v6"),
  EVENTS("tags_key, count() AS c BY tags.key"),
  EVENTS("tags_key AS k, count() AS c BY k"),
  // isNotNull of a part of a Nested column is 1: the branch it passes over is not read
  METRICS_SETS("if(isNotNull(tags.value), 'p', use_case_id) AS t, count() AS n"),
  GENERIC_ORG_COUNTERS("sum(value) AS v BY project_id, tags.value", " HAVING tags.value IS NOT NULL"),
];

describe("an alias that shadows an aggregate column of the entity", () => {
  it("stands for its definition: the query does not aggregate, and runs (the reliability fuzz found a 500 here)", async () => {
    const query =
      "MATCH (sessions) SELECT 'worker' AS w, org_id AS users WHERE started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00') AND org_id = 1 AND project_id = 1 ORDER BY users DESC LIMIT 10";
    const response = await fetch(`${server.baseUrl}/sessions/snql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "test.aggregation-keys" } }),
    });
    const body = (await response.json()) as { error?: unknown; meta?: { name: string }[] };
    expect(body.error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(body.meta?.map((column) => column.name)).toEqual(["w", "users"]);
  });
});

describe("columns outside BY and aggregates", () => {
  it("refuses each at the column's position, as a 400 invalid_query", async () => {
    for (const [query, words, column] of REFUSED) {
      const error = refusal(query);
      expect(error?.type, query).toBe("invalid_query");
      expect(error?.message, query).toContain(words);
      expect(error?.position?.column, query).toBe(query.lastIndexOf(column) + 1);
      expect(await answer(query), query).toMatchObject({ status: 400, error: { type: "invalid_query" } });
    }
  });

  it("takes keys, expressions of keys, aliases of keys, aggregates and constants; the engine runs each", async () => {
    for (const query of TAKEN) {
      expect(refusal(query), query).toBeNull();
      expect(await answer(query), query).toEqual({ status: 200 });
    }
  });

  it("refuses an aggregate inside an aggregate, also through an alias or a column that stands for one (code 184)", async () => {
    for (const [query, inner] of [
      [EVENTS("sum(count()) AS s"), "count(…) at line 1, column 27 inside sum(…) at line 1, column 23"],
      [EVENTS("count() AS c, max(c) AS m"), "count(…) at line 1, column 23 inside max(…) at line 1, column 37"],
      [`MATCH (sessions) SELECT max(sessions) AS m WHERE project_id = 1 AND org_id = 1 AND started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00')`, "column sessions at line 1, column 29 inside max(…) at line 1, column 25"],
    ] as const) {
      expect(refusal(query)?.message, query).toContain(`Aggregate function found inside another aggregate function: ${inner}`);
    }
    expect(await answer(EVENTS("count() AS c, max(timestamp) AS m, uniq(title) AS u"))).toEqual({ status: 200 });
  });

  it("refuses an aggregate a column stands for in BY (code 184)", () => {
    const query = `MATCH (sessions) SELECT count() AS c BY sessions WHERE project_id = 1 AND org_id = 1 AND started >= toDateTime('2024-01-01T00:00:00') AND started < toDateTime('2024-01-02T00:00:00')`;
    const error = refusal(query);
    expect(error?.type).toBe("invalid_query");
    expect(error?.message).toContain("Aggregate function found in BY of query: column sessions, an aggregate at line 1, column 41");
  });
});

describe("a join that aggregates without BY", () => {
  const JOIN = (select: string, rest = "") =>
    `MATCH (e: events) -[attributes_inner]-> (a: group_attributes) SELECT ${select} WHERE e.timestamp >= toDateTime('2024-01-01T00:00:00') AND e.timestamp < toDateTime('2024-01-02T00:00:00') AND e.project_id = 1 AND a.project_id IN tuple(0, 1)${rest}`;
  // Each refused query, and the column it reads outside an aggregate (the fuzz: code 215 on a join).
  const JOIN_REFUSED: readonly (readonly [string, string])[] = [
    [JOIN("count() AS c, e.event_id", " ORDER BY c DESC LIMIT 50"), "e.event_id"],
    [JOIN("count() AS c", " ORDER BY e.timestamp DESC"), "e.timestamp"],
    [JOIN("count() AS c, a.group_status AS s"), "a.group_status"],
    [JOIN("e.title AS t", " ORDER BY count() DESC"), "e.title"],
  ];

  it("refuses a column written bare in SELECT or ORDER BY, at the column; the engine refuses the same SQL (code 215)", async () => {
    for (const [query, column] of JOIN_REFUSED) {
      const error = refusal(query);
      expect(error?.type, query).toBe("invalid_query");
      const at = query.lastIndexOf(column);
      expect(error?.message, query).toContain(`column ${column} at line 1, column ${at + 1} is not inside an aggregate`);
      // The engine's answer to the SQL of the query with the column bare: printed from the query
      // with the column inside any(), which the rule takes, and taken out of it again.
      const wrapped = `${query.slice(0, at)}any(${column})${query.slice(at + column.length)}`;
      const sql = (prepareSnqlQuery(defaultRegistry(), wrapped, false) as { sql: string }).sql.replace(`any(${column})`, column);
      const code = await server.columnstore.client.query({ query: sql, format: "JSONCompact" }).then(() => null, clickHouseCodeOf);
      expect(code, sql).toBe(215);
    }
  });

  it("takes aggregates alone, columns with BY, and columns without an aggregate; the engine runs each", async () => {
    for (const query of [JOIN("count() AS c, any(e.title) AS t", " ORDER BY c DESC"), JOIN("count() AS c, e.title AS t BY e.title"), JOIN("e.title, a.group_status", " ORDER BY e.timestamp DESC")]) {
      expect(refusal(query), query).toBeNull();
      expect(await answer(query), query).toEqual({ status: 200 });
    }
  });
});
