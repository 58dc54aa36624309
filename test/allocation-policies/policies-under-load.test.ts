/**
 * The policies on a real server under parallel load: concurrent queries past the limit are
 * refused while the first ones run, the per-second rate is refused past its limit and admitted
 * again a second later, and the bytes window (charged with ClickHouse's own bytes_read) fills,
 * throttles and refuses. Every refusal is a 429 with Retry-After, timing and quota_allowance.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import type { BackendOptions } from "../../src/pipeline/query-backend.js";
import { startServer, type QuarryServer } from "../../src/server/start-server.js";
import { GENEROUS_POLICY_LIMITS, RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { HEAVY_PROJECT, insertHeavyRows } from "./heavy-rows.js";

let fixture: FixtureServer;
const servers: QuarryServer[] = [];

beforeAll(async () => {
  fixture = await startFixtureServer();
  await insertHeavyRows(fixture.columnstore);
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await fixture?.close();
});

/** Another Quarry server over the fixture's ClickHouse, with its own policy limits. */
async function serverWith(policyOverrides: BackendOptions["policyOverrides"]): Promise<string> {
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    definitions: defaultRegistry(),
    columnstore: fixture.columnstore,
    backend: { queryLog: false, cacheTtlMs: 0, policyOverrides: { ...GENEROUS_POLICY_LIMITS, ...policyOverrides } },
  });
  servers.push(server);
  return `http://127.0.0.1:${server.port}`;
}

/** Distinct SQL per `variant` (the LIMIT), so single-flight never merges them. */
async function query(baseUrl: string, variant: number, organization = 1, project = HEAVY_PROJECT) {
  const response = await fetch(`${baseUrl}/events/snql`, {
    method: "POST",
    body: JSON.stringify({
      query: `MATCH (events) SELECT uniq(user) AS users, count() AS n BY group_id WHERE ${RANGE} AND project_id = ${project} ORDER BY n DESC LIMIT ${variant + 1}`,
      tenant_ids: { organization_id: organization, referrer: "test.policies" },
      debug: true,
    }),
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
}

describe("ConcurrentRateLimitAllocationPolicy under parallel load", () => {
  it("refuses queries past the limit while the first ones run, then admits again", async () => {
    const baseUrl = await serverWith({ ConcurrentRateLimitAllocationPolicy: { concurrent_limit: 3 } });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => query(baseUrl, i)));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(ok.length + refused.length).toBe(12);
    expect(ok.length).toBeGreaterThanOrEqual(3);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe("1");
      expect(answer.body.error.type).toBe("rate-limited");
      expect(answer.body.error.message).toMatch(/ConcurrentRateLimitAllocationPolicy: concurrent policy \d+ exceeds limit of 3 for organization_id 1/);
      expect(answer.body.timing.marks_ms).toHaveProperty("rate_limit");
      expect(answer.body.quota_allowance.summary).toMatchObject({
        is_successful: false,
        is_rejected: true,
        rejection_storage_key: "errors",
        quota_unit: "concurrent_queries",
        threads_used: 0,
      });
      expect(answer.body.quota_allowance.summary.quota_used).toBeGreaterThan(3);
    }
    // Another organization is not affected, and once the queries finished, slots are free again.
    expect((await query(baseUrl, 0, 2)).status).toBe(200);
    expect((await query(baseUrl, 1)).status).toBe(200);
  });
});

describe("PerSecondRateLimitAllocationPolicy under load", () => {
  it("admits the limit in a second, refuses the rest with Retry-After, and admits again after the second", async () => {
    const baseUrl = await serverWith({ PerSecondRateLimitAllocationPolicy: { per_second_limit: 5 } });
    const started = Date.now();
    // Cheap queries (the fixture's small project), so all of them start within the second.
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => query(baseUrl, i, 1, 1)));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(10);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBe(1);
      expect(answer.body.error.message).toMatch(/PerSecondRateLimitAllocationPolicy: per-second policy 6 exceeds limit of 5 queries per second for organization_id 1/);
      expect(answer.body.quota_allowance.summary).toMatchObject({ is_rejected: true, quota_unit: "queries_per_second", quota_used: 6 });
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await query(baseUrl, 20, 1, 1)).status).toBe(200);
  });
});

describe("BytesScannedWindowAllocationPolicy with ClickHouse's read statistics", () => {
  it("fills the window, throttles to one thread past the threshold, then refuses", async () => {
    // One query's bytes, measured by ClickHouse itself.
    const probe = await query(await serverWith({}), 0, 3);
    const bytesPerQuery = probe.body.stats.bytes_read as number;
    expect(bytesPerQuery).toBeGreaterThan(1_000_000);

    const baseUrl = await serverWith({
      BytesScannedWindowAllocationPolicy: {
        org_limit_bytes_scanned: Math.round(bytesPerQuery * 2.5),
        throttle_bytes_scanned: Math.round(bytesPerQuery * 1.5),
        throttled_thread_number: 1,
      },
    });
    const first = await query(baseUrl, 0);
    expect(first.body.quota_allowance.summary).toMatchObject({ is_throttled: false, threads_used: 10 });
    const second = await query(baseUrl, 1);
    expect(second.body.quota_allowance.details.BytesScannedWindowAllocationPolicy.quota_used).toBe(bytesPerQuery);
    const third = await query(baseUrl, 2);
    expect(third.status).toBe(200);
    expect(third.body.quota_allowance.summary).toMatchObject({ is_throttled: true, threads_used: 1, quota_unit: "bytes", quota_used: 2 * bytesPerQuery });
    expect(third.body.stats.max_threads).toBe(1);
    const fourth = await query(baseUrl, 3);
    expect(fourth.status).toBe(429);
    expect(Number(fourth.retryAfter)).toBeGreaterThan(500);
    expect(fourth.body.error.message).toContain(`bytes scanned ${3 * bytesPerQuery} in the last 600 s reached the limit of ${Math.round(bytesPerQuery * 2.5)} bytes for organization_id 1`);
    expect(fourth.body.quota_allowance.summary).toMatchObject({ is_rejected: true, quota_unit: "bytes", rejection_storage_key: "errors" });
    // Another organization still has its whole window.
    expect((await query(baseUrl, 3, 4)).status).toBe(200);
  });
});
