/** GET /metrics after real traffic: requests by dataset/referrer/status, cache, policies, ClickHouse errors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({
    cacheTtlMs: 60_000,
    policyOverrides: { PerSecondRateLimitAllocationPolicy: { per_second_limit: 1000, overrides: [{ organization_id: 77, limit: 1 }] } },
  });
});
afterAll(async () => {
  await server?.close();
});

async function post(query: string, organization = 1) {
  const response = await fetch(`${server.baseUrl}/events/snql`, {
    method: "POST",
    body: JSON.stringify({ query, tenant_ids: { organization_id: organization, referrer: "test.metrics" } }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("GET /metrics", () => {
  it("exports requests, latency, cache lookups, policy rejections and ClickHouse errors", async () => {
    const ok = `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1`;
    expect(await post(ok)).toBe(200);
    expect(await post(ok)).toBe(200);
    expect(await post(`MATCH (events) SELECT sum(arrayElement(array(toDate(timestamp)), 1)) AS s WHERE ${RANGE} AND project_id = 1`)).toBe(400);
    expect(await post(`${ok} LIMIT 1`, 77)).toBe(200);
    expect(await post(`${ok} LIMIT 2`, 77)).toBe(429);

    // Garbage enough for a few young-generation collections in this process (the server's), and
    // a turn for the GC observer to record them: a quick run may otherwise have collected none.
    const garbage = Array.from({ length: 300_000 }, (_, i) => ({ i, text: String(i) }));
    expect(garbage.length).toBe(300_000);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const response = await fetch(`${server.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await response.text();
    expect(text).toContain('quarry_requests_total{dataset="events",referrer="test.metrics",status="success"} 3');
    expect(text).toContain('quarry_requests_total{dataset="events",referrer="test.metrics",status="columnstore"} 1');
    expect(text).toContain('quarry_requests_total{dataset="events",referrer="test.metrics",status="rate-limited"} 1');
    expect(text).toContain('quarry_request_duration_seconds_count{dataset="events",referrer="test.metrics",status="success"} 3');
    expect(text).toContain('quarry_cache_lookups_total{result="hit"} 1');
    expect(text).toContain('quarry_allocation_policy_decisions_total{storage="errors",policy="PerSecondRateLimitAllocationPolicy",decision="rejected"} 1');
    expect(text).toMatch(/quarry_clickhouse_errors_total\{code="43"\} 1/);
    expect(text).toMatch(/# TYPE quarry_querylog_rows_dropped_total counter/);
    // No rule of the typing pass threw anything but a refusal on this traffic.
    expect(text).toMatch(/^quarry_typing_pass_failures 0$/m);
    // The process's memory, split so a leak in JavaScript can be told from the engine's own.
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    const rss = gauge("process_resident_memory_bytes");
    expect(rss).toBeGreaterThan(50 * 1024 * 1024);
    expect(gauge("nodejs_heap_size_used_bytes")).toBeGreaterThan(1024 * 1024);
    expect(gauge("nodejs_heap_size_used_bytes")).toBeLessThan(rss);
    expect(gauge("nodejs_external_memory_bytes")).toBeGreaterThan(0);
    // The heap by space: the old space holds most of what is in use, and the spaces add up to the heap.
    const spaces = (name: string) => new Map([...text.matchAll(new RegExp(`^${name}\\{space="(\\w+)"\\} (\\S+)$`, "gm"))].map((m) => [m[1]!, Number(m[2])]));
    const reserved = spaces("nodejs_heap_space_size_total_bytes");
    const used = spaces("nodejs_heap_space_size_used_bytes");
    expect([...reserved.keys()]).toEqual(expect.arrayContaining(["new_space", "old_space", "code_space", "large_object_space"]));
    expect(used.get("old_space")).toBeGreaterThan(1024 * 1024);
    for (const [space, bytes] of used) expect(bytes, space).toBeLessThanOrEqual(reserved.get(space)!);
    const sum = (values: Map<string, number>) => [...values.values()].reduce((a, b) => a + b, 0);
    expect(sum(reserved)).toBeGreaterThanOrEqual(sum(used));
    expect(sum(reserved)).toBeLessThan(rss);
    expect(gauge("nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    // The engine's own tracked memory, read by the health probe (started by any /health).
    await (await fetch(`${server.baseUrl}/health`)).arrayBuffer();
    const scraped = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const tracked = Number(/^quarry_engine_memory_tracked_bytes (\S+)$/m.exec(scraped)?.[1]);
    expect(tracked).toBeGreaterThan(1024 * 1024);
    expect(tracked).toBeLessThan(rss);
    // And each of its caches, by name: the queries above read parts, so their marks are cached.
    const caches = new Map([...scraped.matchAll(/^quarry_engine_cache_bytes\{cache="(\w+)"\} (\S+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
    expect([...caches.keys()]).toEqual(expect.arrayContaining(["Mark", "Uncompressed", "QueryCondition", "CompiledExpression"]));
    expect(caches.get("Mark")).toBeGreaterThan(0);
    for (const bytes of caches.values()) expect(bytes).toBeGreaterThanOrEqual(0);
    expect([...caches.values()].reduce((a, b) => a + b, 0)).toBeLessThan(rss);
    expect(gauge("process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(gauge("process_start_time_seconds")).toBeGreaterThan(Date.now() / 1000 - 3600);
    expect(gauge("process_start_time_seconds")).toBeLessThanOrEqual(Date.now() / 1000);
    // The server's own listening socket, at least.
    expect(gauge("nodejs_active_handles")).toBeGreaterThanOrEqual(1);
    // A process that served queries has collected garbage by now: some kind has runs and time.
    const runs = [...text.matchAll(/^nodejs_gc_runs_total\{kind="(\w+)"\} (\S+)$/gm)].map((m) => Number(m[2]));
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.some((n) => n > 0)).toBe(true);
    expect(text).toMatch(/^nodejs_gc_duration_seconds_total\{kind="\w+"\} \S+$/m);
  });
});
