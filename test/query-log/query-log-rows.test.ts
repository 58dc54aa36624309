/**
 * Every query leaves one query-log row in ClickHouse: successes, refusals by a policy, ClickHouse
 * errors and invalid queries, with tenant ids, SQL, status, timings, cache status, bytes and the
 * policy decisions; and rows still buffered are written when the server shuts down cleanly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import type { QueryLogRow } from "../../src/query-log/query-log-row.js";
import { startServer } from "../../src/server/start-server.js";
import { GENEROUS_POLICY_LIMITS, RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({ policyOverrides: { ConcurrentRateLimitAllocationPolicy: { concurrent_limit: 1000, overrides: [{ organization_id: 66, limit: 1 }] } } });
});
afterAll(async () => {
  await server?.close();
});

async function post(body: Record<string, unknown>, baseUrl = server.baseUrl) {
  const response = await fetch(`${baseUrl}/events/snql`, { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** Rows read back as JSONEachRow have the shape they were written in. */
type Row = QueryLogRow;

async function rowsFor(referrer: string): Promise<Row[]> {
  await server.backend.queryLog!.flush();
  const result = await server.columnstore.client.query({
    query: "SELECT * FROM querylog_local WHERE referrer = {referrer:String} ORDER BY timestamp",
    query_params: { referrer },
    format: "JSONEachRow",
  });
  return result.json<Row>();
}

describe("query log", () => {
  it("records a successful query with its SQL, tenants, timings and ClickHouse's read statistics", async () => {
    const answer = await post({
      query: `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1`,
      tenant_ids: { organization_id: 5, project_id: 1, referrer: "test.log.success" },
      debug: true,
    });
    expect(answer.status).toBe(200);
    const [row, ...others] = await rowsFor("test.log.success");
    expect(others).toHaveLength(0);
    expect(row).toMatchObject({
      dataset: "events",
      entity: "events",
      organization_id: 5,
      project_ids: [1],
      sql: answer.body.sql,
      status: "success",
      error_type: null,
      cache_status: "miss",
      result_rows: 1,
    });
    expect(Number(row!.bytes_read)).toBe(answer.body.stats.bytes_read);
    expect(Number(row!.rows_read)).toBeGreaterThan(0);
    expect(Object.keys(row!.marks_ms).sort()).toEqual(["cache_get", "cache_set", "execute", "prepare_query", "rate_limit", "validate_schema"]);
    expect(JSON.parse(row!.policy_decisions).details).toHaveProperty("ConcurrentRateLimitAllocationPolicy");
    expect(JSON.parse(row!.tenant_ids)).toEqual({ organization_id: 5, project_id: 1, referrer: "test.log.success" });
  });

  it("records a refusal with the policy decision", async () => {
    const text = `MATCH (events) SELECT count() AS n BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2)`;
    const tenants = { organization_id: 66, referrer: "test.log.refused" };
    const answers = await Promise.all([0, 1, 2, 3].map((i) => post({ query: `${text} LIMIT ${i + 1}`, tenant_ids: tenants })));
    const refused = answers.filter((a) => a.status === 429).length;
    expect(refused).toBeGreaterThan(0);
    const rows = await rowsFor("test.log.refused");
    expect(rows).toHaveLength(4);
    const refusals = rows.filter((r) => r.status === "rate-limited");
    expect(refusals).toHaveLength(refused);
    for (const row of refusals) {
      expect(row.error_type).toBe("rate-limited");
      expect(row.error_message).toContain("ConcurrentRateLimitAllocationPolicy");
      expect(JSON.parse(row.policy_decisions).summary).toMatchObject({ is_rejected: true, rejection_storage_key: "errors" });
      expect(row.cache_status).toBe("none");
    }
  });

  it("records a ClickHouse error with its code, and an invalid query the front end refused", async () => {
    const failing = await post({
      query: `MATCH (events) SELECT sum(arrayElement(array(toDate(timestamp)), 1)) AS s WHERE ${RANGE} AND project_id = 1`,
      tenant_ids: { organization_id: 5, referrer: "test.log.errors" },
    });
    expect(failing.body.error.type).toBe("columnstore");
    const invalid = await post({ query: "MATCH (events) SELECT count(", tenant_ids: { organization_id: 5, referrer: "test.log.errors" } });
    expect(invalid.body.error.type).toBe("invalid_query");
    const rows = await rowsFor("test.log.errors");
    expect(rows.map((r) => r.status).sort()).toEqual(["error", "invalid-request"]);
    const error = rows.find((r) => r.status === "error")!;
    expect(error).toMatchObject({ error_type: "columnstore", clickhouse_code: failing.body.error.code, sql: failing.body.sql });
    const rejected = rows.find((r) => r.status === "invalid-request")!;
    expect(rejected).toMatchObject({ error_type: "invalid_query", query_text: "MATCH (events) SELECT count(", sql: "" });
  });

  it("writes the rows still buffered when the server closes", async () => {
    // A server whose log would only flush after a minute: only the shutdown flush can write them.
    const quiet = await startServer({
      host: "127.0.0.1",
      port: 0,
      definitions: defaultRegistry(),
      columnstore: server.columnstore,
      backend: { queryLogFlushIntervalMs: 60_000, policyOverrides: GENEROUS_POLICY_LIMITS },
    });
    const baseUrl = `http://127.0.0.1:${quiet.port}`;
    for (let i = 0; i < 5; i++) {
      await post({ query: `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1 LIMIT ${i + 1}`, tenant_ids: { organization_id: 5, referrer: "test.log.shutdown" } }, baseUrl);
    }
    expect(quiet.backend.queryLog!.buffered).toBe(5);
    await quiet.close();
    expect(await rowsFor("test.log.shutdown")).toHaveLength(5);
  });
});
