/**
 * The back end on a real server: the stages each query passes through (as `marks_ms`), a
 * ClickHouse failure mapped end to end (code, status, sql, stats, timing), and execution limits
 * per referrer (memory limit 241 -> 400; result size 396 -> 400; time limit 159 -> 500, logged as a timeout).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEAVY_PROJECT, insertHeavyRows } from "../allocation-policies/heavy-rows.js";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({
    cacheTtlMs: 60_000,
    limits: {
      maxExecutionTimeSeconds: 30,
      maxMemoryUsageBytes: 0,
      maxResultRows: 0,
      maxResultBytes: 0,
      byReferrer: { "test.tiny-memory": { max_memory_usage: 100_000 }, "test.small-results": { max_result_rows: 5 }, "test.no-time": { max_execution_time: 0.001 } },
    },
  });
  await insertHeavyRows(server.columnstore, 300_000);
});
afterAll(async () => {
  await server?.close();
});

async function post(body: Record<string, unknown>) {
  const response = await fetch(`${server.baseUrl}/events/snql`, { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const COUNT = `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1`;

describe("stages in marks_ms", () => {
  it("a miss passes every stage; a hit skips execute and cache_set; a dry run stops after prepare_query", async () => {
    const tenants = { organization_id: 1, referrer: "test.stages" };
    const miss = await post({ query: COUNT, tenant_ids: tenants });
    expect(Object.keys(miss.body.timing.marks_ms)).toEqual(["cache_get", "cache_set", "execute", "prepare_query", "rate_limit", "validate_schema"]);
    const sum = Object.values(miss.body.timing.marks_ms as Record<string, number>).reduce((a, b) => a + b, 0);
    // Each mark is the time since the previous one, so they add up to the total (rounding aside).
    expect(Math.abs(sum - miss.body.timing.duration_ms)).toBeLessThanOrEqual(6);
    const hit = await post({ query: COUNT, tenant_ids: tenants });
    expect(Object.keys(hit.body.timing.marks_ms)).toEqual(["cache_get", "prepare_query", "rate_limit", "validate_schema"]);
    expect(hit.body.quota_allowance.summary).toMatchObject({ is_successful: true, is_rejected: false });
    const dry = await post({ query: COUNT, tenant_ids: tenants, dry_run: true });
    expect(Object.keys(dry.body.timing.marks_ms)).toEqual(["prepare_query", "validate_schema"]);
  });

  it("successful responses carry quota_allowance in Snuba's shape", async () => {
    const answer = await post({ query: `${COUNT} LIMIT 7`, tenant_ids: { organization_id: 1, referrer: "test.stages" } });
    expect(Object.keys(answer.body.quota_allowance.details)).toEqual([
      "ConcurrentRateLimitAllocationPolicy",
      "PerSecondRateLimitAllocationPolicy",
      "BytesScannedWindowAllocationPolicy",
    ]);
    expect(answer.body.quota_allowance.details.ConcurrentRateLimitAllocationPolicy).toMatchObject({
      can_run: true,
      max_threads: 10,
      is_throttled: false,
      quota_used: 1,
      quota_unit: "concurrent_queries",
      explanation: { storage_key: "errors" },
    });
    expect(answer.body.quota_allowance.summary).toEqual({
      threads_used: 10,
      is_successful: true,
      is_rejected: false,
      is_throttled: false,
      rejection_storage_key: null,
      throttle_storage_key: null,
      quota_used: 0,
      quota_unit: "no_units",
      rejected_by: {},
      throttled_by: {},
    });
  });
});

describe("ClickHouse errors end to end", () => {
  it("maps ILLEGAL_TYPE_OF_ARGUMENT (43) to a 400 columnstore error with sql, stats and timing", async () => {
    // sum of a Date taken from an array: ClickHouse refuses it while planning.
    const answer = await post({ query: `MATCH (events) SELECT sum(arrayElement(array(toDate(timestamp)), 1)) AS s WHERE ${RANGE} AND project_id = 1`, tenant_ids: { organization_id: 1, referrer: "test.errors" } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "columnstore", code: 43 });
    expect(answer.body.error.message).toMatch(/sum/i);
    expect(answer.body.sql).toContain("sum(arrayElement(array(toDate(");
    expect(answer.body.stats).toMatchObject({ columnstore_table: "errors_local", cache_status: "miss" });
    expect(answer.body.timing.marks_ms).toHaveProperty("execute");
    expect(answer.body.quota_allowance.summary.is_successful).toBe(true);
  });

  it("maps what the fuzzer found ClickHouse refusing in valid SnQL to 400s: values it cannot read as the type asked for, parameters on a plain function", async () => {
    const cases: [string, number][] = [
      // A text compared with a number computed per query.
      [`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND 'error' < arraySum(array(1.5, 2.5))`, 72],
      // Parameters on a function that takes none.
      [`MATCH (events) SELECT arrayCount(1, 2, 3, 4)(tags.key) AS a WHERE ${RANGE} AND project_id = 1`, 309],
      // The embedded engine cuts its message at the NUL; the code is read from "Code: 53." at its start.
      [`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND arrayElement(array(round(group_id), 7), 1) IN tuple(1000, '\u0000', 2)`, 53],
      // A computed text compared with an array is read as one, and fails to.
      [`MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 1 AND reverse('rorre') = array(user)`, 130],
    ];
    for (const [query, code] of cases) {
      const answer = await post({ query, tenant_ids: { organization_id: 1, referrer: "test.errors" } });
      expect(answer.status, query).toBe(400);
      expect(answer.body.error, query).toMatchObject({ type: "columnstore", code });
    }
  });

  it("applies a referrer's memory limit: MEMORY_LIMIT_EXCEEDED (241) is the query's fault, 400", async () => {
    const answer = await post({
      query: `MATCH (events) SELECT uniq(user) AS u BY group_id WHERE ${RANGE} AND project_id = ${HEAVY_PROJECT}`,
      tenant_ids: { organization_id: 1, referrer: "test.tiny-memory" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "columnstore", code: 241 });
  });

  it("applies a result-size limit: TOO_MANY_ROWS_OR_BYTES (396) is the query's fault, 400, and the server goes on", async () => {
    const query = `MATCH (events) SELECT count() AS n BY group_id WHERE ${RANGE} AND project_id = ${HEAVY_PROJECT} LIMIT 100`;
    const answer = await post({ query, tenant_ids: { organization_id: 1, referrer: "test.small-results" } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "columnstore", code: 396 });
    expect(answer.body.error.message).toMatch(/[Ll]imit for result exceeded/);
    const unlimited = await post({ query, tenant_ids: { organization_id: 1, referrer: "test.other" } });
    expect(unlimited.status).toBe(200);
    expect(unlimited.body.data.length).toBeGreaterThan(5);
  });

  it("applies a referrer's time limit: TIMEOUT_EXCEEDED (159) is a 500, logged as a timeout", async () => {
    const answer = await post({
      query: `MATCH (events) SELECT uniq(user) AS u BY group_id WHERE ${RANGE} AND project_id = ${HEAVY_PROJECT} LIMIT 3`,
      tenant_ids: { organization_id: 1, referrer: "test.no-time" },
    });
    expect(answer.status).toBe(500);
    expect(answer.body.error).toMatchObject({ type: "columnstore", code: 159 });
    await server.backend.queryLog!.flush();
    const rows = await (
      await server.columnstore.client.query({ query: "SELECT status, clickhouse_code FROM querylog_local WHERE referrer = 'test.no-time'", format: "JSONEachRow" })
    ).json();
    expect(rows).toEqual([{ status: "timeout", clickhouse_code: 159 }]);
  });
});
