/**
 * A real Quarry server over embedded chDB with a few known pre-aggregated metric rows, written
 * as aggregate states exactly as the demo generator writes them, so MQL results can be checked
 * by hand. Every row sits on 2024-01-01 unless it exists to prove a scope or window condition.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { quoteString } from "../../src/clickhouse/escaping.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry, type DatasetRegistry } from "../../src/datasets/registry.js";
import { parseAggregateFunctionType, stateFromArraysSql } from "../../src/demo-data/aggregate-state-sql.js";
import { startServer } from "../../src/server/start-server.js";

export const START = "2024-01-01T00:00:00+00:00";
export const END = "2024-01-02T00:00:00+00:00";

/** The ids these rows use (a subset of the demo ids, so mappings can be left out too). */
export const MAPPINGS = {
  "c:custom/page_views@none": 65_536,
  "d:custom/checkout.cart_value@none": 65_537,
  "s:custom/active_organizations@none": 65_538,
  "g:custom/queue.depth@none": 65_539,
  "d:transactions/duration@millisecond": 101,
  "c:sessions/session@none": 1,
  environment: 202,
  "session.status": 209,
  transaction: 212,
  page: 65_600,
  payment_method: 65_601,
  queue: 65_602,
  init: 206,
  crashed: 201,
} as const;

interface MetricRow {
  readonly table: string;
  readonly metric: keyof typeof MAPPINGS;
  readonly at: string;
  readonly values: readonly number[];
  readonly tags?: Readonly<Record<string, string>>;
  readonly project?: number;
  readonly org?: number;
  readonly useCase?: string;
  /** The stored granularity: the enum (generic) or seconds (legacy). */
  readonly granularity?: number;
}

const COUNTERS = "generic_metric_counters_aggregated_local";
const DISTRIBUTIONS = "generic_metric_distributions_aggregated_local";
const SETS = "generic_metric_sets_local";
const GAUGES = "generic_metric_gauges_aggregated_local";
const LEGACY_COUNTERS = "metrics_counters_v2_local";

export const ROWS: readonly MetricRow[] = [
  // page views (custom, granularity 60 s = enum 1): 17 in the window, "/" 12, "/pricing" 5.
  { table: COUNTERS, metric: "c:custom/page_views@none", at: "2024-01-01 00:01:00", values: [3], tags: { environment: "production", page: "/" } },
  { table: COUNTERS, metric: "c:custom/page_views@none", at: "2024-01-01 00:01:00", values: [5], tags: { environment: "production", page: "/pricing" } },
  { table: COUNTERS, metric: "c:custom/page_views@none", at: "2024-01-01 01:00:00", values: [2], tags: { environment: "production", page: "/" } },
  { table: COUNTERS, metric: "c:custom/page_views@none", at: "2024-01-01 01:30:00", values: [7], tags: { environment: "staging", page: "/" }, project: 2 },
  // Never counted: after the window, another rollup, another use case, another organization.
  { table: COUNTERS, metric: "c:custom/page_views@none", at: "2024-01-02 00:00:00", values: [100], tags: { environment: "production", page: "/docs" } },
  { table: COUNTERS, metric: "c:custom/page_views@none", at: "2024-01-01 00:00:00", values: [1000], tags: { environment: "production", page: "/" }, granularity: 2 },
  { table: COUNTERS, metric: "c:custom/page_views@none", at: "2024-01-01 00:01:00", values: [10_000], tags: { page: "/" }, useCase: "transactions" },
  { table: COUNTERS, metric: "c:custom/page_views@none", at: "2024-01-01 00:01:00", values: [20_000], tags: { page: "/" }, org: 2 },
  // durations (transactions): a = 10, 20, 30 then 40; b = 100.
  { table: DISTRIBUTIONS, metric: "d:transactions/duration@millisecond", at: "2024-01-01 00:05:00", values: [10, 20, 30], tags: { transaction: "a" }, useCase: "transactions" },
  { table: DISTRIBUTIONS, metric: "d:transactions/duration@millisecond", at: "2024-01-01 00:06:00", values: [100], tags: { transaction: "b" }, useCase: "transactions" },
  { table: DISTRIBUTIONS, metric: "d:transactions/duration@millisecond", at: "2024-01-01 01:10:00", values: [40], tags: { transaction: "a" }, useCase: "transactions" },
  // cart values (custom): two checkouts.
  { table: DISTRIBUTIONS, metric: "d:custom/checkout.cart_value@none", at: "2024-01-01 00:10:00", values: [50, 150], tags: { payment_method: "card" } },
  // active organizations (custom): {1, 2, 3} then {3, 4} -> 4 distinct overall.
  { table: SETS, metric: "s:custom/active_organizations@none", at: "2024-01-01 00:02:00", values: [1, 2, 3] },
  { table: SETS, metric: "s:custom/active_organizations@none", at: "2024-01-01 01:02:00", values: [3, 4] },
  // queue depth (custom, project 3): emails 4, 6 then 10.
  { table: GAUGES, metric: "g:custom/queue.depth@none", at: "2024-01-01 00:03:00", values: [4, 6], tags: { queue: "emails" }, project: 3 },
  { table: GAUGES, metric: "g:custom/queue.depth@none", at: "2024-01-01 01:03:00", values: [10], tags: { queue: "emails" }, project: 3 },
  // sessions (legacy metrics: tag values are ids, granularity in seconds): init 15, crashed 2.
  { table: LEGACY_COUNTERS, metric: "c:sessions/session@none", at: "2024-01-01 00:00:00", values: [10], tags: { "session.status": "init" }, useCase: "sessions", granularity: 60 },
  { table: LEGACY_COUNTERS, metric: "c:sessions/session@none", at: "2024-01-01 00:00:00", values: [2], tags: { "session.status": "crashed" }, useCase: "sessions", granularity: 60 },
  { table: LEGACY_COUNTERS, metric: "c:sessions/session@none", at: "2024-01-01 01:00:00", values: [5], tags: { "session.status": "init" }, useCase: "sessions", granularity: 60 },
];

function idOf(text: string): number {
  const id = (MAPPINGS as Record<string, number>)[text];
  if (id === undefined) throw new Error(`no id for ${text}`);
  return id;
}

function insertSql(row: MetricRow, columns: readonly { name: string; type: string }[]): string {
  const timeColumn = row.table === GAUGES ? "rounded_timestamp" : "timestamp";
  const values = `CAST([${row.values.join(", ")}] AS Array(Float64))`;
  const tagEntries = Object.entries(row.tags ?? {});
  const legacy = row.table === LEGACY_COUNTERS;
  const plain: Record<string, string> = {
    org_id: String(row.org ?? 1),
    project_id: String(row.project ?? 1),
    metric_id: String(idOf(row.metric)),
    granularity: String(row.granularity ?? 1),
    [timeColumn]: `toDateTime(${quoteString(row.at)}, 'UTC')`,
    use_case_id: quoteString(row.useCase ?? "custom"),
    retention_days: "90",
    "tags.key": `[${tagEntries.map(([k]) => idOf(k)).join(", ")}]`,
  };
  if (legacy) plain["tags.value"] = `[${tagEntries.map(([, v]) => idOf(v)).join(", ")}]::Array(UInt64)`;
  else {
    plain["tags.indexed_value"] = `[${tagEntries.map(() => "0").join(", ")}]::Array(UInt64)`;
    plain["tags.raw_value"] = `[${tagEntries.map(([, v]) => quoteString(v)).join(", ")}]::Array(String)`;
  }
  const names: string[] = [];
  const exprs: string[] = [];
  for (const column of columns) {
    const type = parseAggregateFunctionType(column.type);
    if (type) {
      names.push(column.name);
      exprs.push(
        stateFromArraysSql(type, (argumentType) => {
          if (argumentType === "Float64") return values;
          if (argumentType === "UInt64") return type.name === "uniqCombined64" ? `CAST([${row.values.join(", ")}] AS Array(UInt64))` : `arrayMap(x -> toUInt64(1), ${values})`;
          return `arrayMap(x -> toDateTime(${quoteString(row.at)}, 'UTC'), ${values})`;
        }),
      );
    } else if (plain[column.name] !== undefined) {
      names.push(column.name);
      exprs.push(plain[column.name]!);
    }
  }
  return `INSERT INTO ${row.table} (${names.map((n) => `\`${n}\``).join(", ")}) SELECT ${exprs.join(", ")}`;
}

export interface MqlFixture {
  readonly baseUrl: string;
  readonly columnstore: ColumnstoreClient;
  close(): Promise<void>;
}

/** Writes {@link ROWS} into migrated tables (also used by scripts/test-server.ts). */
export async function insertKnownMetricRows(columnstore: ColumnstoreClient, registry: DatasetRegistry): Promise<void> {
  for (const row of ROWS) {
    const storage = registry.storages().find((s) => s.table === row.table);
    if (!storage) throw new Error(`no storage for ${row.table}`);
    const columns = storage.columns.flatMap((c) => {
      const nested = /^Nested\((.*)\)$/.exec(c.type);
      return nested ? nested[1]!.split(",").map((part) => ({ name: `${c.name}.${part.trim().split(/\s+/)[0]}`, type: "" })) : [c];
    });
    await columnstore.client.command({ query: insertSql(row, columns) });
  }
}

export async function startMqlFixture(): Promise<MqlFixture> {
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-mql-test-"));
  const columnstore = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const registry = defaultRegistry();
  await runMigrations(columnstore.client, registry);
  await insertKnownMetricRows(columnstore, registry);
  const server = await startServer({ host: "127.0.0.1", port: 0, definitions: registry, columnstore });
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    columnstore,
    close: async () => {
      await server.close();
      await columnstore.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
