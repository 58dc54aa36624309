import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapSpaceStatistics } from "node:v8";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { readSettings } from "../../src/config/settings.js";
import { defaultMemoryReleaseActions, ENGINE_IDLE_RELEASE_SQL, IdleMemoryRelease, type MemoryReleaseActions } from "../../src/server/idle-memory-release.js";

/** A server seen from outside: a request count, requests in progress, a clock, and the releases it got. */
function quietServer(idleMs = 10_000) {
  const state = { started: 0, active: 0, now: 1_000_000, rss: 500, gcs: 0, trims: 0, purges: 0 };
  const actions: MemoryReleaseActions = {
    collectGarbage: () => {
      state.gcs += 1;
      state.rss -= 100;
    },
    trimMalloc: async () => {
      state.trims += 1;
      state.rss -= 50;
    },
    releaseEngineMemory: async () => {
      state.purges += 1;
      state.rss -= 25;
    },
    residentBytes: () => state.rss,
  };
  const registry = new Registry();
  const release = new IdleMemoryRelease({
    idleMs,
    requestsStarted: () => state.started,
    activeRequests: () => state.active,
    registry,
    actions,
    now: () => state.now,
  });
  return { state, release, registry };
}

describe("idle memory release", () => {
  it("releases once the server has been quiet for idleMs after requests, and once per quiet period", async () => {
    const { state, release, registry } = quietServer();
    await release.check();
    expect(state.gcs).toBe(0); // nothing happened since the start: nothing to give back

    state.started = 40;
    await release.check(); // sees the burst
    state.now += 9_000;
    await release.check();
    expect(state.gcs).toBe(0); // quiet for 9 s of 10

    state.now += 1_000;
    await release.check();
    expect(state).toMatchObject({ gcs: 1, trims: 1, purges: 1, rss: 325 });
    expect(await registry.metrics()).toContain("quarry_idle_memory_releases_total 1");
    expect(await registry.metrics()).toContain("quarry_idle_memory_released_bytes_total 175");

    state.now += 60_000;
    await release.check();
    expect(state.gcs).toBe(1); // still the same quiet period

    state.started = 41;
    await release.check();
    state.now += 10_000;
    await release.check();
    expect(state.gcs).toBe(2); // a new request, a new quiet period
  });

  it("never releases while a request is in progress, however long it runs", async () => {
    const { state, release } = quietServer();
    state.started = 1;
    state.active = 1;
    await release.check();
    state.now += 120_000;
    await release.check();
    expect(state.gcs).toBe(0);
    state.active = 0;
    await release.check();
    expect(state.gcs).toBe(1);
  });

  it("a request during the quiet period starts the wait again", async () => {
    const { state, release } = quietServer();
    state.started = 5;
    await release.check();
    state.now += 8_000;
    state.started = 6;
    await release.check();
    state.now += 8_000;
    await release.check();
    expect(state.gcs).toBe(0);
    state.now += 2_000;
    await release.check();
    expect(state.gcs).toBe(1);
  });

  it("is off at 0 and says so on /metrics", async () => {
    const { release, registry } = quietServer(0);
    release.start();
    await release.stop();
    expect(await registry.metrics()).toContain("quarry_idle_memory_release_enabled 0");
  });

  it("the real actions exist on this machine and give back what a dropped burst of garbage held", async () => {
    const actions = defaultMemoryReleaseActions();
    expect(actions.collectGarbage).toBeTypeOf("function");
    expect(actions.trimMalloc).toBeTypeOf("function");
    // 200 MB of garbage in the JS heap: after the collection, the heap in use is back near where it was.
    const before = process.memoryUsage().heapUsed;
    let garbage: string[] | null = Array.from({ length: 200_000 }, (_, i) => `${i}`.padEnd(1000, "x"));
    expect(garbage.length).toBe(200_000);
    garbage = null;
    actions.collectGarbage!();
    await actions.trimMalloc!();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before + 50 * 1024 * 1024);
    expect(actions.residentBytes()).toBeGreaterThan(0);
  });

  it("the real collection also returns the pages a burst left partly used", () => {
    const collect = defaultMemoryReleaseActions().collectGarbage!;
    collect();
    const reservedBefore = process.memoryUsage().heapTotal;
    // A burst that leaves survivors on every page: one object in three outlives it.
    const survivors: object[] = [];
    let burst: object[] | null = [];
    for (let i = 0; i < 1_000_000; i++) {
      const made = { i, text: `row ${i}`, list: [i] };
      burst.push(made);
      if (i % 3 === 0) survivors.push(made);
    }
    burst = null;
    const grown = process.memoryUsage().heapTotal - reservedBefore;
    expect(grown).toBeGreaterThan(50 * 1024 * 1024);
    collect();
    // A plain full collection (or two) frees the garbage but keeps every page a survivor sits
    // on: the old generation stayed at 130 MB reserved for 52 MB in use. Compacting moves the
    // survivors together and returns the rest.
    const old = getHeapSpaceStatistics().find((space) => space.space_name === "old_space")!;
    expect(old.space_size - old.space_used_size).toBeLessThan(grown * 0.1);
    expect(survivors.length).toBe(333_334);
  });

  it("a step that fails does not stop the others or the count", async () => {
    const state = { started: 0, now: 1_000_000, gcs: 0 };
    const registry = new Registry();
    const failing = new IdleMemoryRelease({
      idleMs: 10_000,
      requestsStarted: () => state.started,
      activeRequests: () => 0,
      registry,
      actions: { collectGarbage: () => void (state.gcs += 1), trimMalloc: () => Promise.reject(new Error("no trim")), releaseEngineMemory: () => Promise.reject(new Error("no jemalloc")), residentBytes: () => 1 },
      now: () => state.now,
    });
    state.started = 3;
    await failing.check();
    state.now += 10_000;
    await failing.check();
    expect(state.gcs).toBe(1);
    expect(await registry.metrics()).toContain("quarry_idle_memory_releases_total 1");
  });

  it("the embedded engine empties its condition and compiled-expression caches and purges its allocator (chDB is built with jemalloc)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quarry-purge-"));
    const store = createColumnstoreClient({ ...readSettings({}), clickhouseUrl: null, dataDir: dir });
    const metric = async (name: string) =>
      Number((await store.client.query({ query: `SELECT value FROM system.metrics WHERE metric = '${name}'`, format: "JSONEachRow" }).then((r) => r.json<{ value: string }>()))[0]?.value ?? 0);
    const entries = () => metric("QueryConditionCacheEntries");
    try {
      const built = await store.client.query({ query: "SELECT value FROM system.build_options WHERE name = 'USE_JEMALLOC'", format: "JSONEachRow" }).then((r) => r.json<{ value: string }>());
      expect(built).toEqual([{ value: "1" }]);
      await store.client.command({ query: "CREATE TABLE t (k UInt64, v UInt64) ENGINE = MergeTree ORDER BY k SETTINGS index_granularity = 64" });
      for (let part = 0; part < 3; part++) await store.client.command({ query: `INSERT INTO t SELECT number, rand64() FROM numbers(${part * 1000}, 1000)` });
      // A filter no granule matches is remembered per part: one entry per part and filter.
      for (let i = 2; i < 30; i++) await store.client.query({ query: `SELECT count() FROM t WHERE v = ${i}`, format: "JSON" }).then((r) => r.text());
      expect(await entries()).toBeGreaterThan(20);
      // An expression run a few times is compiled and kept (ClickHouse's min_count_to_compile_expression, 3).
      for (let i = 2; i < 6; i++) for (let run = 0; run < 4; run++) await store.client.query({ query: `SELECT sum(v * ${i} + k - v / ${i + 1}) FROM t`, format: "JSON" }).then((r) => r.text());
      expect(await metric("CompiledExpressionCacheCount")).toBeGreaterThan(0);
      for (const query of ENGINE_IDLE_RELEASE_SQL) await store.client.command({ query });
      expect(await entries()).toBe(0);
      expect(await metric("CompiledExpressionCacheCount")).toBe(0);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
