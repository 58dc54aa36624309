/**
 * Migrations against the real embedded engine (chDB). chDB binds one data directory per
 * process, so this file uses one client for all its tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { DatasetRegistry, defaultRegistry } from "../../src/datasets/registry.js";
import { utcDateTimeText } from "../../src/clickhouse/utc-datetime-text.js";
import { tempConfig, VALID_STORAGE } from "../datasets/temp-config.js";

let engine: ColumnstoreClient;
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "quarry-migrations-"));
  engine = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
});

afterAll(async () => {
  await engine?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function rows<T>(query: string): Promise<T[]> {
  const result = await engine.client.query({ query, format: "JSONEachRow" });
  return result.json<T>();
}

describe("runMigrations", () => {
  const registry = defaultRegistry();
  const storages = registry.storages();
  const tableIds = storages.filter((s) => !s.view).map((s) => `create_${s.name}`);
  const viewIds = storages.filter((s) => s.view).map((s) => `create_${s.name}`);
  const windowed = storages.filter((s) => s.writable && !s.view && /MergeTree/.test(s.engine));
  const settingsIds = storages.filter((s) => !s.view && (Object.keys(s.tableSettings).length > 0 || windowed.includes(s))).map((s) => `settings_${s.name}`);
  const materializedViewIds = storages.flatMap((s) => s.materializedViews.map((v) => `create_${v.name}`));
  const storageIds = [...tableIds, ...viewIds, ...settingsIds, ...materializedViewIds];

  it("creates every storage once, views after their tables, then settings and materialized views", async () => {
    const lines: string[] = [];
    const first = await runMigrations(engine.client, registry, (line) => lines.push(line));
    expect([...first.applied].sort()).toEqual([...storageIds].sort());
    expect(first.skipped).toEqual([]);
    const position = (id: string) => first.applied.indexOf(id);
    expect(Math.max(...tableIds.map(position))).toBeLessThan(Math.min(...settingsIds.map(position), ...viewIds.map(position)));
    expect(Math.max(...viewIds.map(position), ...settingsIds.map(position))).toBeLessThan(Math.min(...materializedViewIds.map(position)));
    expect(settingsIds).toContain("settings_generic_metrics_counters_raw");
    expect(materializedViewIds).toContain("create_generic_metric_counters_aggregation_mv_v3");
    expect(lines).toContain("migration create_errors: applied");
    expect(lines).toContain("migration settings_errors: applied");
    expect(windowed.map((s) => s.name)).toEqual(expect.arrayContaining(["errors", "transactions", "generic_metrics_counters", "eap_items"]));

    const second = await runMigrations(engine.client, registry);
    expect(second.applied).toEqual([]);
    expect([...second.skipped].sort()).toEqual([...storageIds].sort());

    const recorded = await rows<{ id: string; n: number }>("SELECT id, count() AS n FROM quarry_migrations GROUP BY id");
    expect(recorded).toHaveLength(storageIds.length);
    expect(recorded.every((r) => Number(r.n) === 1)).toBe(true);
  });

  it("turns on insert deduplication for the writable tables: a replayed token counts once", async () => {
    const settings = await rows<{ name: string; engine_full: string }>(
      "SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree'",
    );
    for (const storage of windowed) {
      const table = settings.find((t) => t.name === storage.table);
      expect(table?.engine_full, storage.table).toContain("non_replicated_deduplication_window = 10000");
    }
    // The token as a clause of the statement: the embedded engine keeps clickhouse_settings for later queries.
    const insert = `INSERT INTO transactions_local (project_id, event_id, span_id, transaction_name, start_ts, finish_ts, duration, platform, user, sdk_name, sdk_version, retention_days)
      SETTINGS insert_deduplication_token = 'transactions:0:10-20'
      VALUES (99, '6c5e5e1a-6b1e-4b8f-9d65-1b1d1c1e1f10', 1, '/x', '2024-05-01 10:00:00', '2024-05-01 10:00:01', 1000, 'python', '', 'sdk', '1', 90)`;
    await engine.client.command({ query: insert });
    await engine.client.command({ query: insert });
    const [count] = await rows<{ n: string }>("SELECT count() AS n FROM transactions_local WHERE project_id = 99");
    expect(Number(count?.n)).toBe(1);
  });

  it("leaves every storage table and materialized view in place, tables with their settings", async () => {
    const tables = new Set((await rows<{ name: string }>("SHOW TABLES")).map((r) => r.name));
    for (const storage of registry.storages()) expect(tables, storage.table).toContain(storage.table);
    for (const view of storages.flatMap((s) => s.materializedViews)) expect(tables, view.name).toContain(view.name);
    expect(tables).toContain("quarry_migrations");
    const [aggregated] = await rows<{ query: string }>("SELECT create_table_query AS query FROM system.tables WHERE name = 'generic_metric_counters_aggregated_local'");
    expect(aggregated?.query).toContain("non_replicated_deduplication_window = 10000");
  });

  it("writes and reads errors_local, computing the read-only columns", async () => {
    await engine.client.command({
      query: `INSERT INTO errors_local
        (project_id, timestamp, event_id, platform, user, tags.key, tags.value, transaction_name,
         group_id, primary_hash, received, message, title, type, retention_days, deleted, release)
        VALUES
        (1, '2024-05-01 10:00:00', 'e2bbd1c4-5d3c-4bb4-9e1c-0f5a6c6d6a01', 'python', 'alice',
         ['a=b', 'plain'], ['c', 'v'], '/api', 7, 'a8f3b6a6-4c0d-4c51-8e2e-1f2d3c4b5a69',
         '2024-05-01 10:00:01', 'boom', 'Boom', 'error', 90, 0, 'r1')`,
    });
    const [row] = await rows<Record<string, unknown>>(
      `SELECT event_id, release, user_hash = cityHash64('alice') AS user_hash_ok,
              _tags_hash_map = [cityHash64('a\\\\=b=c'), cityHash64('plain=v')] AS tags_hash_ok,
              transaction_hash = cityHash64('/api') AS transaction_hash_ok,
              tags.value[indexOf(tags.key, 'plain')] AS plain
       FROM errors_local WHERE project_id = 1 AND deleted = 0`,
    );
    expect(row).toEqual({
      event_id: "e2bbd1c4-5d3c-4bb4-9e1c-0f5a6c6d6a01",
      release: "r1",
      user_hash_ok: 1,
      tags_hash_ok: 1,
      transaction_hash_ok: 1,
      plain: "v",
    });
    const sampled = await rows<{ n: number }>("SELECT count() AS n FROM errors_local SAMPLE 1.0 WHERE project_id = 1");
    expect(Number(sampled[0]?.n)).toBe(1);
  });

  it("reads errors and transactions through the discover view", async () => {
    await engine.client.command({
      query: `INSERT INTO transactions_local
        (project_id, event_id, span_id, transaction_name, start_ts, finish_ts, duration, platform, user,
         sdk_name, sdk_version, tags.key, tags.value, retention_days)
        VALUES
        (1, '0c5e5e1a-6b1e-4b8f-9d65-1b1d1c1e1f10', 42, '/checkout', '2024-05-01 10:00:00',
         '2024-05-01 10:00:02', 2000, 'javascript', '', 'sdk', '1.0', ['plain'], ['w'], 90)`,
    });
    const found = await rows<Record<string, unknown>>(
      `SELECT type, title, timestamp, span_id, tags.value[indexOf(tags.key, 'plain')] AS plain
       FROM discover_local WHERE project_id = 1 AND deleted = 0 ORDER BY type`,
    );
    expect(found).toEqual([
      { type: "error", title: "Boom", timestamp: "2024-05-01T10:00:00Z", span_id: null, plain: "v" },
      { type: "transaction", title: "/checkout", timestamp: "2024-05-01T10:00:02Z", span_id: 42, plain: "w" },
    ]);
  });

  it("stores and merges aggregate states in the generic metrics tables", async () => {
    const insert = `INSERT INTO generic_metric_counters_aggregated_local
        (org_id, project_id, metric_id, granularity, timestamp, retention_days, use_case_id,
         tags.key, tags.indexed_value, tags.raw_value, value, value_weighted)
      SELECT 1, 2, 3, 1, toDateTime('2024-05-01 10:00:00'), 90, 'transactions',
             [10], [20], ['production'], sumState(toFloat64(1)), sumState(toFloat64(2))`;
    await engine.client.command({ query: insert });
    await engine.client.command({ query: insert });
    const [counter] = await rows<{ total: number; weighted: number; raw: string }>(
      `SELECT sumMerge(value) AS total, sumMerge(value_weighted) AS weighted,
              any(tags.raw_value[indexOf(tags.key, 10)]) AS raw
       FROM generic_metric_counters_aggregated_local
       WHERE org_id = 1 AND project_id = 2 AND metric_id = 3 AND granularity = 1
         AND tags.indexed_value[indexOf(tags.key, 10)] = 20`,
    );
    expect(counter).toEqual({ total: 2, weighted: 4, raw: "production" });

    await engine.client.command({
      query: `INSERT INTO generic_metric_distributions_aggregated_local
          (org_id, project_id, metric_id, granularity, timestamp, retention_days, use_case_id,
           percentiles, min, max, count)
        SELECT 1, 2, 4, 1, toDateTime('2024-05-01 10:00:00'), 90, 'transactions',
               quantilesState(0.5, 0.75, 0.9, 0.95, 0.99)(toFloat64(number)), minState(toFloat64(number)),
               maxState(toFloat64(number)), countState(toFloat64(number))
        FROM numbers(101)`,
    });
    const [distribution] = await rows<{ p50: number; low: number; high: number; n: number }>(
      `SELECT quantilesMerge(0.5, 0.75, 0.9, 0.95, 0.99)(percentiles)[1] AS p50, minMerge(min) AS low,
              maxMerge(max) AS high, countMerge(count) AS n
       FROM generic_metric_distributions_aggregated_local WHERE metric_id = 4`,
    );
    expect(distribution).toEqual({ p50: 50, low: 0, high: 100, n: 101 });
  });

  it("reports a storage whose definition changed and leaves its table alone", async () => {
    const config = tempConfig();
    try {
      const before = DatasetRegistry.loadFrom(config.dir);
      expect((await runMigrations(engine.client, before)).applied).toEqual(["create_things_store", "settings_things_store"]);

      config.write("things/storages/things_store.yaml", `${VALID_STORAGE}  - { name: added, type: String }\n`);
      const after = DatasetRegistry.loadFrom(config.dir);
      const lines: string[] = [];
      const outcome = await runMigrations(engine.client, after, (line) => lines.push(line));
      expect(outcome).toEqual({ applied: [], skipped: ["create_things_store", "settings_things_store"] });
      expect(lines.join("\n")).toMatch(/create_things_store: the storage definition changed since it was applied/);

      const columns = (await rows<{ name: string }>("DESCRIBE TABLE things_local")).map((c) => c.name);
      expect(columns).not.toContain("added");
    } finally {
      config.remove();
    }
  });

  it("gives a table its settings, TTL and defaults, feeds its materialized view, and replaces what changed", async () => {
    const aggregated = (window: number) => `version: v1
kind: writable_storage
name: counts_sum
table: counts_sum_local
engine: AggregatingMergeTree
order_by: (k)
settings: { non_replicated_deduplication_window: ${window} }
columns:
  - { name: k, type: UInt64 }
  - { name: total, type: "AggregateFunction(sum, Float64)" }
`;
    const raw = (select: string) => `version: v1
kind: writable_storage
name: counts_raw
table: counts_raw_local
engine: MergeTree
order_by: (k)
ttl: at + toIntervalDay(7)
columns:
  - { name: k, type: UInt64 }
  - { name: at, type: DateTime }
  - { name: v, type: Float64 }
  - { name: weight, type: UInt8, default: "7" }
materialized_views:
  - { name: counts_mv, target: counts_sum, select: "${select}", group_by: k }
`;
    const config = tempConfig();
    try {
      config.write("counts/storages/counts_sum.yaml", aggregated(100));
      config.write("counts/storages/counts_raw.yaml", raw("k, sumState(v * weight) AS total"));
      const first = await runMigrations(engine.client, DatasetRegistry.loadFrom(config.dir));
      expect(first.applied).toEqual(["create_counts_raw", "create_counts_sum", "settings_counts_raw", "settings_counts_sum", "create_counts_mv"]);
      const created = async (table: string) => (await rows<{ query: string }>(`SELECT create_table_query AS query FROM system.tables WHERE name = '${table}'`))[0]?.query ?? "";
      expect(await created("counts_sum_local")).toContain("non_replicated_deduplication_window = 100");
      expect(await created("counts_raw_local")).toMatch(/`weight` UInt8 DEFAULT 7.*TTL at \+ toIntervalDay\(7\)/s);

      const now = utcDateTimeText(Date.now()).slice(0, 19);
      await engine.client.insert({ table: "counts_raw_local", values: [{ k: 1, at: now, v: 2 }, { k: 1, at: now, v: 3 }], format: "JSONEachRow" });
      expect(await rows("SELECT k, sumMerge(total) AS total FROM counts_sum_local GROUP BY k")).toEqual([{ k: 1, total: 35 }]);

      config.write("counts/storages/counts_sum.yaml", aggregated(200));
      config.write("counts/storages/counts_raw.yaml", raw("k, sumState(v) AS total"));
      const lines: string[] = [];
      const second = await runMigrations(engine.client, DatasetRegistry.loadFrom(config.dir), (line) => lines.push(line));
      // The tables' CREATE text did not change: only the settings and the view are applied again.
      expect(second.applied).toEqual(["settings_counts_sum", "create_counts_mv"]);
      expect(lines.join("\n")).toMatch(/settings_counts_sum: the table settings changed; applying them again/);
      expect(lines.join("\n")).toMatch(/create_counts_mv: the view's definition changed; replacing it/);
      expect(await created("counts_sum_local")).toContain("non_replicated_deduplication_window = 200");
      await engine.client.insert({ table: "counts_raw_local", values: [{ k: 2, at: now, v: 4 }], format: "JSONEachRow" });
      expect(await rows("SELECT k, sumMerge(total) AS total FROM counts_sum_local GROUP BY k ORDER BY k")).toEqual([{ k: 1, total: 35 }, { k: 2, total: 4 }]);
    } finally {
      config.remove();
    }
  });

  it("replaces a view whose definition changed (a view holds no data), reading NULL or [] where its source lacks a column", async () => {
    const view = (extra: string) => `version: v1
kind: readable_storage
name: things_view
table: things_view_local
engine: View
view:
  sources:
    - storage: things_store
columns:
  - { name: project_id, type: UInt64 }
  - { name: label, type: String }
${extra}`;
    const config = tempConfig();
    try {
      config.write("things/storages/things_view.yaml", view(""));
      expect((await runMigrations(engine.client, DatasetRegistry.loadFrom(config.dir))).applied).toEqual(["create_things_view"]);

      config.write("things/storages/things_view.yaml", view("  - { name: missing, type: Nullable(String) }\n  - { name: ids, type: Array(UInt64) }\n"));
      const lines: string[] = [];
      const outcome = await runMigrations(engine.client, DatasetRegistry.loadFrom(config.dir), (line) => lines.push(line));
      expect(outcome.applied).toEqual(["create_things_view"]);
      expect(lines.join("\n")).toMatch(/create_things_view: the view's definition changed; replacing it/);
      const columns = await rows<{ name: string; type: string }>("DESCRIBE TABLE things_view_local");
      expect(columns.map((c) => [c.name, c.type])).toEqual([["project_id", "UInt64"], ["label", "String"], ["missing", "Nullable(String)"], ["ids", "Array(UInt64)"]]);
      await engine.client.insert({ table: "things_local", values: [{ project_id: 7, timestamp: "2024-01-01 00:00:00", label: "x" }], format: "JSONEachRow" });
      expect(await rows("SELECT project_id, missing, ids FROM things_view_local WHERE project_id = 7")).toEqual([{ project_id: 7, missing: null, ids: [] }]);
      // Unchanged since: nothing to do.
      expect((await runMigrations(engine.client, DatasetRegistry.loadFrom(config.dir))).skipped).toContain("create_things_view");
    } finally {
      config.remove();
    }
  });
});
