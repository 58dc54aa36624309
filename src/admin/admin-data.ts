/**
 * The read-only figures the admin UI shows that no public operation gives: recent query-log
 * rows (filtered), table sizes, applied migrations, allocation policies in force. Every query
 * here is fixed text with escaped values: nothing from a request becomes SQL of its own.
 */
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import { quoteString } from "../clickhouse/escaping.js";
import { MIGRATIONS_TABLE } from "../clickhouse/migrations.js";
import type { DatasetRegistry } from "../datasets/registry.js";

export interface QueryLogFilter {
  readonly referrer?: string;
  readonly organizationId?: number;
  readonly status?: string;
  readonly minDurationMs?: number;
  readonly limit: number;
}

export interface QueryLogRow {
  readonly request_id: string;
  readonly timestamp: string;
  readonly dataset: string;
  readonly referrer: string;
  readonly organization_id: number | null;
  readonly query_text: string;
  readonly status: string;
  readonly error_type: string | null;
  readonly duration_ms: number;
  readonly cache_status: string;
  readonly result_rows: number;
}

/** The newest query-log rows first, filtered as the Query log page asks. */
export async function recentQueries(columnstore: ColumnstoreClient, table: string, filter: QueryLogFilter): Promise<QueryLogRow[]> {
  const conditions = ["1 = 1"];
  if (filter.referrer) conditions.push(`positionCaseInsensitive(referrer, ${quoteString(filter.referrer)}) > 0`);
  if (filter.organizationId !== undefined) conditions.push(`organization_id = ${Math.trunc(filter.organizationId)}`);
  if (filter.status) conditions.push(`status = ${quoteString(filter.status)}`);
  if (filter.minDurationMs !== undefined) conditions.push(`duration_ms >= ${Math.trunc(filter.minDurationMs)}`);
  const limit = Math.max(1, Math.min(500, Math.trunc(filter.limit)));
  const result = await columnstore.client.query({
    query:
      "SELECT request_id, toString(timestamp) AS timestamp, dataset, referrer, organization_id, query_text, status, error_type, " +
      `duration_ms, cache_status, result_rows FROM ${table} WHERE ${conditions.join(" AND ")} ORDER BY timestamp DESC LIMIT ${limit}`,
    format: "JSONEachRow",
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  return result.json<QueryLogRow>();
}

export interface TableFigures {
  readonly table: string;
  readonly rows: number;
  readonly bytes: number;
}

/** Rows and bytes on disk of every table the definitions name (views have none). */
export async function tableFigures(columnstore: ColumnstoreClient, registry: DatasetRegistry): Promise<TableFigures[]> {
  const tables = registry.storages().filter((storage) => !storage.view).map((storage) => storage.table);
  if (tables.length === 0) return [];
  const result = await columnstore.client.query({
    query:
      "SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts " +
      `WHERE active AND database = currentDatabase() AND table IN (${tables.map(quoteString).join(", ")}) GROUP BY table ORDER BY table`,
    format: "JSONEachRow",
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  const sized = new Map((await result.json<TableFigures>()).map((row) => [row.table, row]));
  return tables.sort().map((table) => sized.get(table) ?? { table, rows: 0, bytes: 0 });
}

export interface MigrationRow {
  readonly id: string;
  readonly applied_at: string;
}

export async function appliedMigrations(columnstore: ColumnstoreClient): Promise<MigrationRow[]> {
  const result = await columnstore.client.query({
    query: `SELECT id, toString(max(applied_at)) AS applied_at FROM ${MIGRATIONS_TABLE} GROUP BY id ORDER BY id`,
    format: "JSONEachRow",
  });
  return result.json<MigrationRow>();
}

export interface PolicyRow {
  readonly storage: string;
  readonly policy: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The allocation policies each storage declares, with the overrides in force applied. */
export function policiesInForce(registry: DatasetRegistry, overrides: Readonly<Record<string, unknown>>): PolicyRow[] {
  return registry.storages().flatMap((storage) =>
    storage.allocationPolicies.map((policy) => {
      const override = overrides[policy.name];
      const args = override && typeof override === "object" ? { ...policy.args, ...(override as Record<string, unknown>) } : policy.args;
      return { storage: storage.name, policy: policy.name, args };
    }),
  );
}
