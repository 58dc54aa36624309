import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RANGE, startFixtureServer, type FixtureServer } from "./fixture-server.js";

let server: FixtureServer;
const TENANTS = { organization_id: 1, referrer: "test.json-routes" };

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Body = Record<string, any>;

async function post(path: string, body: unknown): Promise<{ status: number; json: Body; headers: Headers }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text), headers: response.headers };
}

function snql(query: string, extra: Record<string, unknown> = {}) {
  return post("/events/snql", { query, tenant_ids: TENANTS, ...extra });
}

describe("POST /{dataset}/snql", () => {
  it("answers count BY project_id in the spec's shape", async () => {
    const { status, json } = await snql(
      `MATCH (events) SELECT count() AS count BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2) ORDER BY project_id ASC`,
    );
    expect(status).toBe(200);
    expect(json.data).toEqual([
      { project_id: 1, count: 3 },
      { project_id: 2, count: 2 },
    ]);
    expect(json.meta).toEqual([
      { name: "project_id", type: "UInt64" },
      { name: "count", type: "UInt64" },
    ]);
    expect(Object.keys(json.timing).sort()).toEqual(["duration_ms", "marks_ms", "tags", "timestamp"]);
    expect(Object.keys(json.timing.marks_ms)).toEqual(["cache_get", "cache_set", "execute", "prepare_query", "rate_limit", "validate_schema"]);
    expect(json.quota_allowance.summary).toMatchObject({ is_successful: true, threads_used: 10 });
    expect(json.stats).toBeUndefined();
    expect(json.sql).toBeUndefined();
  });

  it("filters with =, !=, <, >=, IN, tags[] and returns raw expression names", async () => {
    const { json } = await snql(
      `MATCH (events) SELECT uniq(user), max(timestamp) BY tags[browser] WHERE ${RANGE} AND project_id = 1 AND level != 'info' AND tags[sentry:release] IN tuple('backend@1.0.0', 'backend@1.1.0') ORDER BY tags[browser] ASC`,
    );
    expect(json.data).toEqual([
      { "tags[browser]": "Chrome", "uniq(user)": 1, "max(timestamp)": "2024-01-01T02:00:00+00:00" },
      { "tags[browser]": "Firefox", "uniq(user)": 1, "max(timestamp)": "2024-01-01T01:30:00+00:00" },
    ]);
    expect(json.meta.map((m: { name: string }) => m.name)).toEqual(["tags[browser]", "uniq(user)", "max(timestamp)"]);
  });

  it("adds sql and stats with debug, and validates without executing on dry_run", async () => {
    const query = `MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 1`;
    const debug = await snql(query, { debug: true });
    expect(debug.json.data).toEqual([{ "count()": 3 }]);
    expect(debug.json.sql).toContain("FROM errors_local");
    expect(debug.json.sql).toContain("equals(deleted, 0)");
    expect(debug.json.stats).toMatchObject({ columnstore_table: "errors_local", final: false, consistent: false, result_rows: 1, result_cols: 1 });
    expect(debug.json.stats.query_id).toMatch(/^[0-9a-f-]{36}$/);
    const dry = await snql(query, { dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.json.data).toEqual([]);
    expect(dry.json.sql).toBe(debug.json.sql);
    expect(dry.json.timing.marks_ms.execute).toBeUndefined();
  });

  it("runs quantile on transactions and time buckets with GRANULARITY", async () => {
    const { json } = await post("/transactions/snql", {
      query:
        "MATCH (transactions) SELECT quantile(0.5)(duration) AS p50, count() AS n BY time WHERE finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND project_id = 1 GRANULARITY 3600",
      tenant_ids: TENANTS,
    });
    expect(json.data).toEqual([{ time: "2024-01-01T05:00:00+00:00", p50: 300, n: 2 }]);
  });

  it("applies consistent mode (one thread) and reports it", async () => {
    const { json } = await snql(`MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 2`, { consistent: true, debug: true });
    expect(json.data).toEqual([{ "count()": 2 }]);
    expect(json.stats).toMatchObject({ consistent: true, max_threads: 1 });
    expect(json.quota_allowance.summary.threads_used).toBe(1);
  });
});

describe("POST /query", () => {
  it("takes the dataset from the body", async () => {
    const { status, json } = await post("/query", {
      dataset: "events",
      query: `MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 2`,
      tenant_ids: TENANTS,
    });
    expect(status).toBe(200);
    expect(json.data).toEqual([{ c: 2 }]);
  });
});

describe("bad input", () => {
  it.each([
    ["malformed JSON", "{\"query\": ", 400, "not valid JSON"],
    ["an array body", "[1, 2]", 400, "must be a JSON object"],
    ["a missing query", { tenant_ids: TENANTS }, 400, "'query' is required"],
    ["an empty query", { query: "  ", tenant_ids: TENANTS }, 400, "'query' is empty"],
    ["a missing tenant_ids", { query: "MATCH (events) SELECT count()" }, 400, "'tenant_ids' is required"],
    ["a string organization id", { query: "q", tenant_ids: { organization_id: "1", referrer: "r" } }, 400, "must be a non-negative integer"],
    ["a non-boolean flag", { query: "q", tenant_ids: TENANTS, debug: 1 }, 400, "'debug' must be a boolean"],
  ])("refuses %s with invalid_query", async (_name, body, status, message) => {
    const response = await post("/events/snql", body);
    expect(response.status).toBe(status);
    expect(response.json.error.type).toBe("invalid_query");
    expect(response.json.error.message).toContain(message);
  });

  it("answers 404 for an unknown dataset", async () => {
    const { status, json } = await post("/nosuch/snql", { query: "MATCH (events) SELECT count()", tenant_ids: TENANTS });
    expect(status).toBe(404);
    expect(json.error).toEqual({ type: "invalid_query", message: "dataset 'nosuch' does not exist" });
  });

  it("names an unknown entity and suggests the near miss", async () => {
    const { status, json } = await snql(`MATCH (event) SELECT count() WHERE ${RANGE} AND project_id = 1`);
    expect(status).toBe(400);
    expect(json.error.message).toBe("entity 'event' does not exist at line 1, column 8 (did you mean 'events'?)");
    expect(json.error).toMatchObject({ line: 1, column: 8 });
  });

  it("names an unknown column with its position and a suggestion", async () => {
    const { json } = await snql(`MATCH (events) SELECT count() BY projectid WHERE ${RANGE} AND project_id = 1`);
    expect(json.error.type).toBe("invalid_query");
    expect(json.error.message).toContain("column 'projectid' does not exist on entity 'events' at line 1, column 34 (did you mean 'project_id'?)");
  });

  it("requires the time range and project_id", async () => {
    const noTime = await snql("MATCH (events) SELECT count() WHERE project_id = 1");
    expect(noTime.json.error.message).toBe(
      "Missing >= condition with a datetime literal on column timestamp for entity events. Example: timestamp >= toDateTime('2023-05-16T00:00:00')",
    );
    const noEnd = await snql("MATCH (events) SELECT count() WHERE project_id = 1 AND timestamp >= toDateTime('2024-01-01T00:00:00')");
    expect(noEnd.json.error.message).toContain("Missing < condition");
    const noProject = await snql(`MATCH (events) SELECT count() WHERE ${RANGE}`);
    expect(noProject.status).toBe(400);
    expect(noProject.json.error.message).toContain("missing required conditions for project_id");
  });

  it("keeps hostile strings as data", async () => {
    for (const hostile of ["x') OR 1=1 --", "\\'; DROP TABLE errors_local; --", "😀 \u0000 \\\\ ''", "a\nb"]) {
      const literal = hostile.replace(/\\/g, "\\\\").replace(/'/g, "\\'");
      const { status, json } = await snql(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND message = '${literal}'`);
      expect(status).toBe(200);
      expect(json.data).toEqual([{ c: 0 }]);
    }
    const still = await snql(`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1`);
    expect(still.json.data).toEqual([{ c: 3 }]);
  });

  it("maps a ClickHouse failure to a columnstore error with code, sql, stats and timing", async () => {
    const { status, json } = await snql(`MATCH (events) SELECT sum(arrayElement(array(toDate(timestamp)), 1)) WHERE ${RANGE} AND project_id = 1`);
    expect(status).toBe(400);
    expect(json.error.type).toBe("columnstore");
    expect(json.error.code).toBe(43);
    expect(json.sql).toContain("sum(arrayElement(array(toDate(");
    expect(json.stats.columnstore_table).toBe("errors_local");
    expect(json.timing.marks_ms).toHaveProperty("execute");
  });

  it("answers typed errors for bodies that are not complete and for unknown routes", async () => {
    const mql = await post("/generic_metrics/mql", { query: "sum(c:custom/x@none)", tenant_ids: TENANTS });
    expect(mql.status).toBe(400);
    expect(mql.json.error.type).toBe("invalid_query");
    expect(mql.json.error.message).toContain("'mql_context' is required");
    const subscription = await post("/events/events/subscriptions", { project_id: 1 });
    expect(subscription.status).toBe(400);
    expect(subscription.json.error).toMatchObject({ type: "subscription", field: "tenant_ids" });
    const unknown = await fetch(`${server.baseUrl}/nope`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.type).toBe("not_found");
    const wrongMethod = await fetch(`${server.baseUrl}/query`);
    expect(wrongMethod.status).toBe(405);
  });
});

describe("GET routes", () => {
  it("reports health", async () => {
    const response = await fetch(`${server.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("serves the browsable form", async () => {
    const response = await fetch(`${server.baseUrl}/events/snql`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain("<textarea id=\"body\"");
    expect(html).toContain("MATCH (events)");
  });

  it("answers /favicon.ico with no content rather than an error, as a browser asks for it on loading the form", async () => {
    const response = await fetch(`${server.baseUrl}/favicon.ico`);
    expect(response.status).toBe(204);
    expect(response.headers.get("content-type")).toBe("image/x-icon");
    expect(await response.text()).toBe("");
  });
});
