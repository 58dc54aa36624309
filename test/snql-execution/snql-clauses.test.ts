/**
 * Every SnQL construct end to end: JSON route -> parse -> validate -> SQL -> embedded ClickHouse
 * (chDB) over the fixture server's known rows, and the same queries over Connect.
 */
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueryService, SnqlRequestSchema } from "../../gen/quarry/v1/query_pb.js";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;
const TENANTS = { organization_id: 1, referrer: "test.snql-clauses" };
const JOIN_RANGE = "e.timestamp >= toDateTime('2024-01-01T00:00:00') AND e.timestamp < toDateTime('2024-01-02T00:00:00')";

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Body = Record<string, any>;

async function post(path: string, body: Record<string, unknown>): Promise<{ status: number; json: Body }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tenant_ids: TENANTS, ...body }),
  });
  return { status: response.status, json: JSON.parse(await response.text()) as Body };
}

async function rows(query: string, extra: Record<string, unknown> = {}): Promise<Body> {
  const { status, json } = await post("/events/snql", { query, ...extra });
  expect(json.error, JSON.stringify(json.error)).toBeUndefined();
  expect(status).toBe(200);
  return json;
}

const JOIN_QUERY =
  `MATCH (e: events) -[grouped]-> (g: groupedmessage) SELECT count() AS c BY g.status ` +
  `WHERE ${JOIN_RANGE} AND e.project_id = 1 AND g.project_id = 1 ORDER BY g.status ASC`;
const SUBQUERY =
  `MATCH { MATCH (events) SELECT count() AS c BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2) } ` +
  "SELECT max(c) AS most, sum(c) AS total";

describe("SnQL clauses on the embedded engine", () => {
  it("MATCH with SAMPLE reads the sampled table", async () => {
    const json = await rows(`MATCH (events SAMPLE 1.0) SELECT count() AS c WHERE ${RANGE} AND project_id = 1`, { debug: true });
    expect(json.data).toEqual([{ c: 3 }]);
    expect(json.sql).toContain("FROM errors_local SAMPLE 1");
    expect(json.stats.sample).toBe(1);
  });

  it("MATCH STORAGE(name) through POST /query", async () => {
    const { status, json } = await post("/query", {
      dataset: "events",
      query: `MATCH STORAGE(errors) SELECT count() AS c, uniq(user) AS users WHERE ${RANGE} AND project_id = 1`,
      debug: true,
    });
    expect(status).toBe(200);
    expect(json.data).toEqual([{ c: 3, users: 2 }]);
    // A storage is read as it is: no entity processors (uniq stays bare).
    expect(json.sql).toContain("uniq(user) AS _snuba_users");
    expect(json.stats.columnstore_table).toBe("errors_local");
  });

  it("subqueries: the outer query aggregates the inner output", async () => {
    expect((await rows(SUBQUERY)).data).toEqual([{ most: 3, total: 5 }]);
  });

  it("joins over a declared relationship, columns named as written", async () => {
    const json = await rows(JOIN_QUERY, { debug: true });
    // Group 102 has no issue row: the inner join drops its event.
    expect(json.data).toEqual([
      { "g.status": 0, c: 1 },
      { "g.status": 1, c: 1 },
    ]);
    expect(json.sql).toContain("INNER JOIN groupedmessage_local AS g FINAL ON e.project_id = g.project_id AND e.group_id = g.id");
    expect(json.stats.final).toBe(true);
  });

  it("turbo joins drop FINAL but are not sampled (ClickHouse can refuse SAMPLE across a join) and still run", async () => {
    const json = await rows(JOIN_QUERY, { turbo: true, debug: true });
    expect(json.sql).toContain("FROM errors_local AS e INNER JOIN groupedmessage_local AS g ON");
    expect(json.sql).not.toContain("SAMPLE");
    expect(json.stats.final).toBe(false);
    expect(json.stats.sample ?? null).toBeNull();
    expect(Array.isArray(json.data)).toBe(true);
  });

  it("a left join keeps events without an issue row", async () => {
    const json = await rows(
      `MATCH (e: events) -[attributes]-> (a: group_attributes) SELECT count() AS c WHERE ${JOIN_RANGE} AND e.project_id = 1 AND a.project_id IN tuple(0, 1)`,
    );
    expect(json.data).toEqual([{ c: 3 }]);
  });

  it("ARRAY JOIN, BY the joined column", async () => {
    const json = await rows(
      `MATCH (events) SELECT count() AS c BY tags.key ARRAY JOIN tags.key WHERE ${RANGE} AND project_id = 1 ORDER BY tags.key ASC`,
    );
    expect(json.data).toEqual([
      { "tags.key": "browser", c: 3 },
      { "tags.key": "level", c: 3 },
      { "tags.key": "sentry:release", c: 3 },
    ]);
  });

  it("BY an alias or a selected column gives one output column per name", async () => {
    const byAlias = await rows(
      `MATCH (events) SELECT tags[browser] AS b, count() AS c BY b WHERE ${RANGE} AND project_id = 1 ORDER BY b ASC`,
    );
    expect(byAlias.data).toEqual([
      { b: "Chrome", c: 2 },
      { b: "Firefox", c: 1 },
    ]);
    const repeated = await rows(`MATCH (events) SELECT project_id, count() AS c BY project_id WHERE ${RANGE} AND project_id = 1`);
    expect(repeated.data).toEqual([{ project_id: 1, c: 3 }]);
    expect(repeated.meta.map((m: { name: string }) => m.name)).toEqual(["project_id", "c"]);
  });

  it("SELECT names an alias ORDER BY or HAVING defines: one output column, named once in the SQL (seed 23: code 179 before)", async () => {
    const ordered = await rows(`MATCH (events) SELECT c WHERE ${RANGE} AND project_id = 1 ORDER BY count() AS c ASC`);
    expect(ordered.data).toEqual([{ c: 3 }]);
    expect(ordered.meta.map((m: { name: string }) => m.name)).toEqual(["c"]);
    const having = await rows(`MATCH (events) SELECT n, project_id BY project_id WHERE ${RANGE} AND project_id = 1 HAVING (count() AS n) > 1`);
    expect(having.data).toEqual([{ n: 3, project_id: 1 }]);
  });

  it("conditions on array columns hold for any element (positive) or every element (negative)", async () => {
    const any = await rows(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND tags.key = 'browser'`);
    expect(any.data).toEqual([{ c: 3 }]);
    const every = await rows(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND tags.value != 'Chrome'`);
    expect(every.data).toEqual([{ c: 1 }]);
    const shorthand = await rows(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND arrayExists(tags.value, '=', 'Chrome') = 1`);
    expect(shorthand.data).toEqual([{ c: 2 }]);
  });

  it("an array condition on a column the entity lacks (a NULL in its SQL) tests no elements", async () => {
    // discover_transactions has no exception stacks: arrayExists over its NULL was ClickHouse's code 43.
    const TX_RANGE = `finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00')`;
    const count = async (condition: string) => {
      const { status, json } = await post("/discover/snql", { query: `MATCH (discover_transactions) SELECT count() AS c WHERE ${TX_RANGE} AND project_id = 1 AND ${condition}` });
      expect(json.error, JSON.stringify(json.error)).toBeUndefined();
      expect(status).toBe(200);
      return json.data;
    };
    expect(await count("exception_stacks.type = 'ValueError'")).toEqual([{ c: 0 }]);
    expect(await count("exception_stacks.type != 'ValueError'")).toEqual([{ c: 2 }]);
    expect(await count("sdk_integrations IS NOT NULL")).toEqual([{ c: 2 }]);
    // Tested over `array()`, an Array(Nothing), the engine could not convert the set to Nothing (code 48).
    expect(await count("exception_stacks.type NOT IN tuple('error')")).toEqual([{ c: 2 }]);
    expect(await count("exception_frames.colno IN tuple(3, 4)")).toEqual([{ c: 0 }]);
    // Compared with a column the entity lacks, an array's elements are compared with a NULL (code 44 per element).
    expect(await count("measurements.value >= exception_frames.function")).toEqual([{ c: 0 }]);
    expect(await count("measurements.value != exception_frames.function")).toEqual(await count("empty(measurements.value) = 1"));
  });

  it("an array condition compared with NULL: no element matches, every element only of an empty array", async () => {
    // Per element, the test is a NULL of type Nothing, which the engine cannot make a column of
    // (code 44 once an array has an element, with Snuba's assumeNotNull): ifNull(test, 0) can.
    const count = async (condition: string) => (await rows(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND ${condition}`)).data;
    expect(await count("tags.key = NULL")).toEqual([{ c: 0 }]);
    expect(await count("tags.key >= NULL")).toEqual([{ c: 0 }]);
    expect(await count("tags.key != NULL")).toEqual(await count("empty(tags.key) = 1"));
    expect(await count("tags.key != NULL")).toEqual([{ c: 0 }]);
    // So is a call of a NULL (a Nothing too, whatever its other arguments; found by the fuzz).
    expect(await count("tags.key = startsWith(NULL, title)")).toEqual([{ c: 0 }]);
    expect(await count("tags.key != upper(NULL)")).toEqual(await count("empty(tags.key) = 1"));
  });

  it("a number in ORDER BY or BY is that number, not a selected column's position", async () => {
    // ClickHouse's positional references would read `ORDER BY 100` as the 100th column (code 36)
    // and `ORDER BY 2` as the second.
    const byNumber = await rows(`MATCH (events) SELECT user WHERE ${RANGE} AND project_id = 1 ORDER BY 100 ASC, 2 DESC, timestamp ASC`);
    const byTime = await rows(`MATCH (events) SELECT user WHERE ${RANGE} AND project_id = 1 ORDER BY timestamp ASC`);
    expect(byTime.data).toHaveLength(3);
    expect(byNumber.data).toEqual(byTime.data);
    const grouped = await rows(`MATCH (events) SELECT count() AS c BY 1 WHERE ${RANGE} AND project_id = 1`);
    expect(grouped.data).toEqual([{ c: 3, 1: 1 }]);
    // A column discover_transactions maps to a constant (`group_id` is 0), sorted by through its alias.
    const TX_RANGE = `finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00')`;
    const { status, json } = await post("/discover/snql", { query: `MATCH (discover_transactions) SELECT group_id AS c, count() AS n BY group_id WHERE ${TX_RANGE} AND project_id = 1 ORDER BY c DESC` });
    expect(json.error, JSON.stringify(json.error)).toBeUndefined();
    expect(status).toBe(200);
    expect(json.data).toEqual([{ c: 0, n: 2, group_id: 0 }]);
  });

  it("LIMIT BY, LIMIT and OFFSET", async () => {
    const first = await rows(
      `MATCH (events) SELECT user, project_id WHERE ${RANGE} AND project_id IN tuple(1, 2) ORDER BY timestamp ASC LIMIT 1 BY project_id`,
    );
    expect(first.data).toEqual([
      { user: "alice", project_id: 1 },
      { user: "carol", project_id: 2 },
    ]);
    const second = await rows(`MATCH (events) SELECT user WHERE ${RANGE} AND project_id = 1 ORDER BY timestamp ASC LIMIT 1 OFFSET 1`);
    expect(second.data).toEqual([{ user: "bob" }]);
  });

  it("GRANULARITY buckets the time column", async () => {
    const json = await rows(`MATCH (events) SELECT count() AS c BY time WHERE ${RANGE} AND project_id = 1 ORDER BY time ASC GRANULARITY 3600`);
    expect(json.data).toEqual([
      { time: "2024-01-01T01:00:00+00:00", c: 2 },
      { time: "2024-01-01T02:00:00+00:00", c: 1 },
    ]);
  });

  it("TOTALS puts the all-groups row in totals", async () => {
    const json = await rows(
      `MATCH (events) SELECT count() AS c BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2) ORDER BY project_id ASC TOTALS true`,
    );
    expect(json.data).toEqual([
      { project_id: 1, c: 3 },
      { project_id: 2, c: 2 },
    ]);
    expect(json.totals).toEqual({ project_id: 0, c: 5 });
  });

  it("comparisons, IN, NOT IN, LIKE, IS NULL, AND/OR with parentheses, arithmetic precedence", async () => {
    const json = await rows(
      `MATCH (events) SELECT count() * 2 + 1 AS x WHERE ${RANGE} AND project_id = 1 AND user NOT IN tuple('bob') ` +
        "AND message LIKE 'boom%' AND user_email IS NULL AND (level = 'error' OR level = 'warning')",
    );
    expect(json.data).toEqual([{ x: 5 }]);
  });

  it("strings compared with values of other types, in the shapes ClickHouse reads, run", async () => {
    const json = await rows(
      `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1 AND 'Yes' = TRUE AND toString(1) = TRUE AND now() > 'Mon, 01 Jan 2024 00:00:00 GMT' ` +
        "AND toStartOfDay(timestamp) >= '2024/01/01' AND toDate(timestamp) > '2023-1-1' AND '[1]' != _flags_hash_map AND lower('ABC') = 'abc'",
    );
    expect(json.data[0].n).toBeGreaterThan(0);
  });

  it("lambdas, curried functions, tags and contexts subscripts", async () => {
    const json = await rows(
      `MATCH (events) SELECT countIf(arrayExists((\`v\`) -> equals(\`v\`, 'Chrome'), tags.value)) AS chrome, ` +
        `uniq(contexts[browser.name]) AS browsers, quantile(0.5)(project_id) AS median_project ` +
        `WHERE ${RANGE} AND project_id = 1 AND tags[level] = 'error'`,
    );
    expect(json.data).toEqual([{ chrome: 1, browsers: 2, median_project: 1 }]);
  });

  it("UUID columns come back as 32 hex digits, as Snuba returns them", async () => {
    const json = await rows(`MATCH (events) SELECT event_id WHERE ${RANGE} AND project_id = 1 ORDER BY timestamp ASC LIMIT 1`);
    expect(json.data).toEqual([{ event_id: "00000000000040008000000000000000" }]);
  });

  it("turbo samples at 0.1; consistent reads with one thread", async () => {
    const turbo = await rows(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1`, { turbo: true, debug: true });
    expect(turbo.sql).toContain("SAMPLE 0.1");
    expect(turbo.stats.sample).toBe(0.1);
    const consistent = await rows(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1`, { consistent: true, debug: true });
    expect(consistent.data).toEqual([{ c: 3 }]);
    expect(consistent.stats).toMatchObject({ consistent: true, max_threads: 1, result_rows: 1, result_cols: 1, columnstore_table: "errors_local", final: false });
    expect(typeof consistent.stats.query_id).toBe("string");
  });

  it("a chain of 490 conditions (just under the depth bound) runs on the engine", async () => {
    const chain = Array.from({ length: 490 }, (_, i) => `user != 'u${i}'`).join(" AND ");
    expect((await rows(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND ${chain}`)).data).toEqual([{ c: 3 }]);
  });

  it("dry_run validates and translates without executing", async () => {
    const json = await rows(JOIN_QUERY, { dry_run: true });
    expect(json.data).toEqual([]);
    expect(json.sql).toContain("INNER JOIN groupedmessage_local");
  });
});

describe("SnQL clauses over Connect", () => {
  it("answers joins and subqueries with the JSON route's rows", async () => {
    const client = createClient(QueryService, createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" }));
    const ask = (query: string) =>
      client.snql(create(SnqlRequestSchema, { dataset: "events", query, tenantIds: { organizationId: 1n, referrer: "test.rpc" } }));
    expect((await ask(JOIN_QUERY)).data).toEqual([
      { "g.status": 0, c: 1 },
      { "g.status": 1, c: 1 },
    ]);
    expect((await ask(SUBQUERY)).data).toEqual([{ most: 3, total: 5 }]);
  });
});
