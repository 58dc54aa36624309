/**
 * A real Quarry server for tests: embedded ClickHouse (chDB) in a fresh data directory, every
 * table migrated, a handful of known events and transactions inserted, served on a free port.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry, type DatasetRegistry } from "../../src/datasets/registry.js";
import type { BackendOptions, QueryBackend } from "../../src/pipeline/query-backend.js";
import { startServer } from "../../src/server/start-server.js";
import type { SubscriptionRuntime, SubscriptionSettings } from "../../src/subscriptions/subscriptions-runtime.js";

export const DAY_START = "2024-01-01T00:00:00";
export const DAY_END = "2024-01-02T00:00:00";
export const RANGE = `timestamp >= toDateTime('${DAY_START}') AND timestamp < toDateTime('${DAY_END}')`;

export interface FixtureServer {
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly columnstore: ColumnstoreClient;
  readonly backend: QueryBackend;
  readonly subscriptions: SubscriptionRuntime;
  readonly definitions: DatasetRegistry;
  close(): Promise<void>;
}

/**
 * Limits far above what any test sends, so suites that are not about allocation policies never
 * trip the production defaults (22 concurrent, 50 per second); policy tests pass their own.
 */
export const GENEROUS_POLICY_LIMITS = {
  ConcurrentRateLimitAllocationPolicy: { concurrent_limit: 100_000 },
  PerSecondRateLimitAllocationPolicy: { per_second_limit: 1_000_000 },
  BytesScannedWindowAllocationPolicy: { org_limit_bytes_scanned: 1e15 },
} as const;

/** Six error events in projects 1 and 2, two transactions; values chosen so counts are easy to check. */
async function insertKnownRows(columnstore: ColumnstoreClient): Promise<void> {
  const events = [
    { project: 1, level: "error", release: "backend@1.0.0", at: "2024-01-01 01:00:00", user: "alice", browser: "Chrome" },
    { project: 1, level: "error", release: "backend@1.0.0", at: "2024-01-01 01:30:00", user: "bob", browser: "Firefox" },
    { project: 1, level: "warning", release: "backend@1.1.0", at: "2024-01-01 02:00:00", user: "alice", browser: "Chrome" },
    { project: 2, level: "error", release: "frontend@2.0.0", at: "2024-01-01 03:00:00", user: "carol", browser: "Safari" },
    { project: 2, level: "info", release: "frontend@2.0.0", at: "2024-01-01 04:00:00", user: "dave", browser: "Chrome" },
    // Outside the query window: must never be counted.
    { project: 1, level: "error", release: "backend@1.0.0", at: "2024-01-03 00:00:00", user: "eve", browser: "Chrome" },
  ];
  await columnstore.client.insert({
    table: "errors_local",
    format: "JSONEachRow",
    values: events.map((e, i) => ({
      project_id: e.project,
      timestamp: e.at,
      received: e.at,
      event_id: `00000000-0000-4000-8000-00000000000${i}`,
      primary_hash: `00000000-0000-4000-8000-0000000000a${i}`,
      group_id: 100 + (i % 3),
      platform: "python",
      environment: "production",
      release: e.release,
      level: e.level,
      user: e.user,
      message: `boom ${i}`,
      title: `ValueError: boom ${i}`,
      type: "error",
      retention_days: 90,
      deleted: 0,
      "tags.key": ["level", "sentry:release", "browser"],
      "tags.value": [e.level, e.release, e.browser],
      "contexts.key": ["browser.name"],
      "contexts.value": [e.browser],
    })),
  });
  await columnstore.client.insert({
    table: "transactions_local",
    format: "JSONEachRow",
    values: [120, 480].map((duration, i) => ({
      project_id: 1,
      event_id: `00000000-0000-4000-8000-0000000000b${i}`,
      span_id: 1000 + i,
      transaction_name: "GET /api/items",
      transaction_op: "http.server",
      start_ts: "2024-01-01 05:00:00",
      finish_ts: "2024-01-01 05:00:01",
      duration,
      platform: "python",
      retention_days: 90,
      deleted: 0,
    })),
  });
  // Issues for SnQL joins (events.group_id = 100 + i % 3): project 1 has 100 and 101 (not 102).
  await columnstore.client.insert({
    table: "groupedmessage_local",
    format: "JSONEachRow",
    values: [
      { project_id: 1, id: 100, status: 0, offset: 1, record_deleted: 0 },
      { project_id: 1, id: 101, status: 1, offset: 1, record_deleted: 0 },
      { project_id: 2, id: 100, status: 2, offset: 1, record_deleted: 0 },
    ],
  });
}

export interface FixtureOptions {
  /** Subscription scheduler and publisher settings (a test clock, no scheduler, Kafka...). */
  readonly subscriptions?: SubscriptionSettings;
  /**
   * Reuse this data directory (a restart): the known rows are not inserted again and the
   * directory is kept at close. Without it, a fresh directory is made and removed.
   */
  readonly dataDir?: string;
}

export async function startFixtureServer(backend: BackendOptions = {}, options: FixtureOptions = {}): Promise<FixtureServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "quarry-server-test-"));
  const columnstore = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const registry = defaultRegistry();
  await runMigrations(columnstore.client, registry);
  if (!options.dataDir) await insertKnownRows(columnstore);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      host: "127.0.0.1",
      port: 0,
      definitions: registry,
      columnstore,
      // No stored results unless a test asks (cache tests do): other suites expect every query to execute.
      backend: { queryLogFlushIntervalMs: 50, cacheTtlMs: 0, ...backend, policyOverrides: { ...GENEROUS_POLICY_LIMITS, ...backend.policyOverrides } },
      // Other suites must not see a scheduler's background queries unless they ask for one.
      subscriptions: options.subscriptions ?? { scheduler: false },
    });
  } catch (reason) {
    // One chDB data directory per process: a failed start must not keep this one open.
    await columnstore.close();
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw reason;
  }
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    dataDir,
    columnstore,
    backend: server.backend,
    subscriptions: server.subscriptions,
    definitions: registry,
    close: async () => {
      await server.close();
      await columnstore.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
