/**
 * The embedded engine is started with Quarry's configuration: its global thread pool keeps only
 * `engineIdleThreads` idle threads, so a burst of parallel queries does not leave its threads
 * (and their memory) behind.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { readSettings } from "../../src/config/settings.js";

const threads = () => Number(/Threads:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]);

describe("embedded engine configuration", () => {
  let dir: string;
  let store: ColumnstoreClient;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "quarry-engine-args-"));
    store = createColumnstoreClient({ ...readSettings({ QUARRY_ENGINE_IDLE_THREADS: "2" }), clickhouseUrl: null, dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts the engine with the configured idle thread count", async () => {
    const rows = await store.client
      .query({ query: "SELECT value FROM system.server_settings WHERE name = 'max_thread_pool_free_size'", format: "JSONEachRow" })
      .then((r) => r.json<{ value: string }>());
    expect(rows).toEqual([{ value: "2" }]);
  });

  it("lets the threads of a parallel burst go once it is over", async () => {
    await store.client.query({ query: "SELECT 1", format: "JSONEachRow" }).then((r) => r.text());
    const before = threads();
    let peak = before;
    // The queries run on a libuv worker: the main thread watches the pool grow meanwhile.
    const watch = setInterval(() => (peak = Math.max(peak, threads())), 2);
    for (let i = 0; i < 5; i++) {
      await store.client
        .query({ query: "SELECT number % 1000 AS k, count() AS n FROM numbers_mt(5000000) GROUP BY k ORDER BY k LIMIT 1 SETTINGS max_threads = 16", format: "JSONEachRow" })
        .then((r) => r.text());
    }
    clearInterval(watch);
    expect(peak).toBeGreaterThan(before + 4); // the burst did start threads
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // ClickHouse's own default (1000 idle) would keep every thread the burst started.
    expect(threads()).toBeLessThanOrEqual(before + 4);
  });
});
