/**
 * Runs one SQL statement on the columnstore and returns rows keyed by the query's output names,
 * ClickHouse type names, the totals row and ClickHouse's own read statistics.
 */
import { randomUUID } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { columnstoreError } from "../clickhouse/clickhouse-error.js";
import { quoteString } from "../clickhouse/escaping.js";
import { parseJsonCompact } from "./parse-json-compact.js";
import type { ColumnMetaEntry, ResultRow } from "../query/query-result.js";
import { converterFor } from "./result-values.js";

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

/**
 * The query's own settings as a `SETTINGS` clause rather than client settings: the embedded
 * engine applies client settings as session-wide `SET`s, so one query's thread cap or time limit
 * would stay on for every later query. A clause binds them to this query on either engine.
 */
export function withSettingsClause(sql: string, settings: Readonly<Record<string, string | number>>): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return sql;
  const rendered = entries.map(([name, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid ClickHouse setting name '${name}'`);
    return `${name} = ${typeof value === "number" ? String(value) : quoteString(value)}`;
  });
  return `${sql} SETTINGS ${rendered.join(", ")}`;
}

export async function executeSql(client: ClickHouseClient, sql: string, options: ExecuteOptions): Promise<ExecutionResult> {
  const queryId = randomUUID();
  let result: JsonCompactResult;
  try {
    const resultSet = await client.query({
      query: withSettingsClause(sql, options.settings),
      format: "JSONCompact",
      query_id: queryId,
      clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
    });
    result = parseJsonCompact(await resultSet.text()) as JsonCompactResult;
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
