/**
 * Runs one SQL statement on the columnstore and returns rows keyed by the query's output names,
 * ClickHouse type names, the totals row and ClickHouse's own read statistics.
 */
import { randomUUID } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { columnstoreError } from "../clickhouse/clickhouse-error.js";
import { converterFor, type ResultValue } from "./result-values.js";

export type ResultRow = Record<string, ResultValue>;

export interface ColumnMetaEntry {
  readonly name: string;
  readonly type: string;
}

export interface ExecutionResult {
  readonly data: ResultRow[];
  readonly meta: ColumnMetaEntry[];
  readonly totals: ResultRow | null;
  readonly rowsRead: number;
  readonly bytesRead: number;
  readonly elapsedSeconds: number;
  readonly queryId: string;
}

interface JsonCompactResult {
  meta: { name: string; type: string }[];
  data: unknown[][];
  totals?: unknown[];
  statistics?: { elapsed?: number; rows_read?: number; bytes_read?: number };
}

export interface ExecuteOptions {
  /** Output names in SELECT order; the SQL uses mangled aliases. */
  readonly columnNames: readonly string[];
  readonly settings: Record<string, string | number>;
  /** Extra fields for a columnstore error body (sql, stats, timing are added by the caller). */
  readonly errorExtra?: Record<string, unknown>;
}

export async function executeSql(client: ClickHouseClient, sql: string, options: ExecuteOptions): Promise<ExecutionResult> {
  const queryId = randomUUID();
  let result: JsonCompactResult;
  try {
    const resultSet = await client.query({
      query: sql,
      format: "JSONCompact",
      query_id: queryId,
      clickhouse_settings: { output_format_json_quote_64bit_integers: 1, ...options.settings },
    });
    result = (await resultSet.json()) as JsonCompactResult;
  } catch (reason) {
    throw columnstoreError(reason, options.errorExtra ?? {});
  }
  const names = result.meta.map((column, index) => options.columnNames[index] ?? column.name);
  const converters = result.meta.map((column) => converterFor(column.type));
  const toRow = (values: unknown[]): ResultRow => {
    const row: ResultRow = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = converters[i]!(values[i]);
    return row;
  };
  return {
    data: result.data.map(toRow),
    meta: result.meta.map((column, index) => ({ name: names[index]!, type: column.type })),
    totals: result.totals ? toRow(result.totals) : null,
    rowsRead: result.statistics?.rows_read ?? 0,
    bytesRead: result.statistics?.bytes_read ?? 0,
    elapsedSeconds: result.statistics?.elapsed ?? 0,
    queryId,
  };
}
