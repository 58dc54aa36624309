/**
 * The result cache on a real server: N concurrent identical queries cause exactly one ClickHouse
 * execution (proven from the query log: one `miss` row, the rest `waited`, and one ClickHouse
 * query id for all); a repeat hits; `consistent` bypasses; a failing query is not stored; and
 * hits do not count against the per-second quota.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEAVY_PROJECT, insertHeavyRows } from "../allocation-policies/heavy-rows.js";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({
    cacheTtlMs: 60_000,
    policyOverrides: { PerSecondRateLimitAllocationPolicy: { per_second_limit: 3 } },
  });
  await insertHeavyRows(server.columnstore, 500_000);
});
afterAll(async () => {
  await server?.close();
});

async function query(text: string, options: { consistent?: boolean; referrer?: string; organization?: number } = {}) {
  const response = await fetch(`${server.baseUrl}/events/snql`, {
    method: "POST",
    body: JSON.stringify({
      query: text,
      tenant_ids: { organization_id: options.organization ?? 1, referrer: options.referrer ?? "test.cache" },
      debug: true,
      ...(options.consistent ? { consistent: true } : {}),
    }),
  });
  return { status: response.status, body: await response.json() };
}

interface LogRow {
  referrer: string;
  cache_status: string;
  status: string;
  rows_read: string | number;
}

async function logRows(referrer: string): Promise<LogRow[]> {
  await server.backend.queryLog!.flush();
  const result = await server.columnstore.client.query({
    query: `SELECT referrer, cache_status, status, rows_read FROM querylog_local WHERE referrer = {referrer:String}`,
    query_params: { referrer },
    format: "JSONEachRow",
  });
  return result.json<LogRow>();
}

describe("readthrough cache with single-flight", () => {
  it("runs N concurrent identical queries once on ClickHouse", async () => {
    const text = `MATCH (events) SELECT uniq(user) AS users BY group_id WHERE ${RANGE} AND project_id = ${HEAVY_PROJECT} ORDER BY users DESC LIMIT 5`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => query(text, { referrer: "test.singleflight", organization: 11 })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const statuses = answers.map((a) => a.body.stats.cache_status).sort();
    expect(statuses).toEqual(["miss", ...Array(7).fill("waited")]);
    // One ClickHouse execution: every answer carries its query id and the same rows.
    expect(new Set(answers.map((a) => a.body.stats.query_id)).size).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1);
    const rows = await logRows("test.singleflight");
    expect(rows).toHaveLength(8);
    expect(rows.filter((r) => r.cache_status === "miss")).toHaveLength(1);
    expect(rows.filter((r) => Number(r.rows_read) > 0)).toHaveLength(1);
    expect(rows.filter((r) => r.cache_status === "waited")).toHaveLength(7);

    const again = await query(text, { referrer: "test.singleflight", organization: 11 });
    expect(again.body.stats.cache_status).toBe("hit");
    expect(Object.keys(again.body.timing.marks_ms)).toEqual(["cache_get", "prepare_query", "rate_limit", "validate_schema"]);
  });

  it("gives each waiter on one failing execution its own error facts", async () => {
    // The engine fails the query per row (a title read as a number), after it has begun reading;
    // the call is written twice, so the error carries no position of its own.
    const text = `MATCH (events) SELECT uniq(user) AS users, max(toUInt32(title)) + min(toUInt32(title)) AS n BY group_id WHERE ${RANGE} AND project_id = ${HEAVY_PROJECT}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => query(text, { referrer: "test.singleflight-error", organization: 13 })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(400));
    expect(new Set(answers.map((a) => a.body.error.code)).size).toBe(1);
    // One execution, six answers: the first ran it, the others waited, and each says which it was.
    const statuses = answers.map((a) => a.body.stats.cache_status).sort();
    expect(statuses[0]).toBe("miss");
    expect(statuses.filter((status: string) => status === "miss")).toHaveLength(1);
    expect(statuses.filter((status: string) => status === "waited")).toHaveLength(5);
  });

  it("consistent queries bypass the cache", async () => {
    const text = `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1`;
    const first = await query(text, { consistent: true, organization: 12 });
    const second = await query(text, { consistent: true, organization: 12 });
    expect([first.body.stats.cache_status, second.body.stats.cache_status]).toEqual(["bypass", "bypass"]);
    expect(first.body.stats.query_id).not.toBe(second.body.stats.query_id);
    expect(second.body.timing.marks_ms).not.toHaveProperty("cache_get");
  });

  it("does not store errors", async () => {
    const text = `MATCH (events) SELECT sum(arrayElement(array(toDate(timestamp)), 1)) AS s WHERE ${RANGE} AND project_id = 1`;
    const first = await query(text, { organization: 13 });
    const second = await query(text, { organization: 13 });
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(second.body.error.type).toBe("columnstore");
    expect(second.body.stats.cache_status).toBe("miss");
  });

  it("cache hits do not count against the per-second quota", async () => {
    const text = `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 2`;
    expect((await query(text, { organization: 14 })).body.stats.cache_status).toBe("miss");
    // The limit is 3 per second: twenty hits in a row are all admitted.
    for (let i = 0; i < 20; i++) {
      const hit = await query(text, { organization: 14 });
      expect(hit.status).toBe(200);
      expect(hit.body.stats.cache_status).toBe("hit");
    }
    // Two more distinct (uncached) queries fit in the limit of 3; the third is refused.
    expect((await query(`${text} LIMIT 1`, { organization: 14 })).status).toBe(200);
    expect((await query(`${text} LIMIT 2`, { organization: 14 })).status).toBe(200);
    expect((await query(`${text} LIMIT 3`, { organization: 14 })).status).toBe(429);
  });
});
