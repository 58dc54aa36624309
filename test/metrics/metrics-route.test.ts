/** GET /metrics after real traffic: requests by dataset/referrer/status, cache, policies, ClickHouse errors, and prom-client's process and runtime metrics. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/start-server.js";
import { GENEROUS_POLICY_LIMITS, RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

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

async function post(query: string, organization = 1, target: { baseUrl: string } = server, referrer = "test.metrics") {
  const response = await fetch(`${target.baseUrl}/events/snql`, {
    method: "POST",
    body: JSON.stringify({ query, tenant_ids: { organization_id: organization, referrer } }),
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
    // The latency histogram: every bucket, cumulative up to +Inf, then its sum and count.
    const series = 'dataset="events",referrer="test.metrics",status="success"';
    expect(text).toContain("# TYPE quarry_request_duration_seconds histogram");
    const buckets = [...text.matchAll(/^quarry_request_duration_seconds_bucket\{le="([^"]+)",(.*)\} (\S+)$/gm)].filter((m) => m[2] === series).map((m) => [m[1]!, Number(m[3])] as const);
    expect(buckets.map(([le]) => le)).toEqual(["0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "+Inf"]);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]![1]).toBeGreaterThanOrEqual(buckets[i - 1]![1]);
    expect(buckets.at(-1)![1]).toBe(3);
    expect(text).toContain(`quarry_request_duration_seconds_count{${series}} 3`);
    expect(Number(new RegExp(`^quarry_request_duration_seconds_sum\\{${series}\\} (\\S+)$`, "m").exec(text)?.[1])).toBeGreaterThan(0);
    expect(text).toContain('quarry_cache_lookups_total{result="hit"} 1');
    expect(text).toContain('quarry_allocation_policy_decisions_total{storage="errors",policy="PerSecondRateLimitAllocationPolicy",decision="rejected"} 1');
    expect(text).toMatch(/quarry_clickhouse_errors_total\{code="43"\} 1/);
    expect(text).toMatch(/# TYPE quarry_querylog_rows_dropped_total counter/);
    // The process's memory, split so a leak in JavaScript can be told from the engine's own.
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    const rss = gauge("process_resident_memory_bytes");
    expect(rss).toBeGreaterThan(50 * 1024 * 1024);
    expect(gauge("nodejs_heap_size_used_bytes")).toBeGreaterThan(1024 * 1024);
    expect(gauge("nodejs_heap_size_used_bytes")).toBeLessThan(rss);
    expect(gauge("nodejs_external_memory_bytes")).toBeGreaterThan(0);
    // The heap by space: the old space holds most of what is in use, and the spaces add up to the heap.
    // (prom-client names a space without V8's `_space` suffix.)
    const spaces = (name: string) => new Map([...text.matchAll(new RegExp(`^${name}\\{space="(\\w+)"\\} (\\S+)$`, "gm"))].map((m) => [m[1]!, Number(m[2])]));
    const reserved = spaces("nodejs_heap_space_size_total_bytes");
    const used = spaces("nodejs_heap_space_size_used_bytes");
    expect([...reserved.keys()]).toEqual(expect.arrayContaining(["new", "old", "code", "large_object"]));
    expect(used.get("old")).toBeGreaterThan(1024 * 1024);
    for (const [space, bytes] of used) expect(bytes, space).toBeLessThanOrEqual(reserved.get(space)!);
    const sum = (values: Map<string, number>) => [...values.values()].reduce((a, b) => a + b, 0);
    expect(sum(reserved)).toBeGreaterThanOrEqual(sum(used));
    expect(sum(reserved)).toBeLessThan(rss);
    expect(gauge("nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(gauge("nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(gauge("nodejs_array_buffers_bytes")).toBeGreaterThan(0);
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
    // prom-client's process metrics: CPU time (user and system, and their sum, as counters), start time, handles.
    expect(text).toContain("# TYPE process_cpu_seconds_total counter");
    expect(gauge("process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(gauge("process_cpu_system_seconds_total")).toBeGreaterThanOrEqual(0);
    expect(gauge("process_cpu_seconds_total")).toBeGreaterThanOrEqual(gauge("process_cpu_user_seconds_total"));
    expect(gauge("process_start_time_seconds")).toBeGreaterThan(Date.now() / 1000 - 3600);
    expect(gauge("process_start_time_seconds")).toBeLessThanOrEqual(Date.now() / 1000);
    // The server's own listening socket, at least.
    expect(gauge("nodejs_active_handles_total")).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^nodejs_active_handles\{type="Server"\} [1-9]/m);
    // A process that served queries has collected garbage by now: some kind has runs and time.
    const runs = [...text.matchAll(/^nodejs_gc_runs_total\{kind="(\w+)"\} (\S+)$/gm)].map((m) => Number(m[2]));
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.some((n) => n > 0)).toBe(true);
    expect(text).toMatch(/^nodejs_gc_duration_seconds_total\{kind="\w+"\} \S+$/m);
    // And prom-client's histogram of the same collections.
    expect(text).toContain("# TYPE nodejs_gc_duration_seconds histogram");
    expect(text).toMatch(/^nodejs_gc_duration_seconds_bucket\{le="\+Inf",kind="\w+"\} [1-9]/m);
    expect(text).toMatch(/^nodejs_gc_duration_seconds_count\{kind="\w+"\} [1-9]/m);
    // Each metric once: Quarry's own never shadow prom-client's defaults.
    const types = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
    expect(new Set(types).size).toBe(types.length);
  });

  it("keeps each server's counts apart when one process runs two, and reports the process in each", async () => {
    // A second server on the same engine (a process opens one chDB data directory).
    const running = await startServer({
      host: "127.0.0.1",
      port: 0,
      definitions: server.definitions,
      columnstore: server.columnstore,
      backend: { queryLog: false, cacheTtlMs: 0, policyOverrides: GENEROUS_POLICY_LIMITS },
      subscriptions: { scheduler: false },
    });
    const second = { baseUrl: `http://127.0.0.1:${running.port}` };
    try {
      const referrer = "test.metrics.second";
      expect(await post(`MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 2`, 1, second, referrer)).toBe(200);
      const scrape = async (baseUrl: string) => (await fetch(`${baseUrl}/metrics`)).text();
      const firstText = await scrape(server.baseUrl);
      const secondText = await scrape(second.baseUrl);
      expect(secondText).toContain(`quarry_requests_total{dataset="events",referrer="${referrer}",status="success"} 1`);
      expect(secondText).not.toContain('referrer="test.metrics"');
      expect(firstText).not.toContain(referrer);
      for (const text of [firstText, secondText]) {
        expect(text.match(/^process_resident_memory_bytes /gm)).toHaveLength(1);
        expect(text.match(/^# TYPE nodejs_eventloop_lag_seconds gauge$/gm)).toHaveLength(1);
      }
    } finally {
      await running.close();
    }
  });
});
