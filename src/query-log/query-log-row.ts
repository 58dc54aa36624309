/** One row of the `querylog` storage (src/datasets/configuration/querylog/storages/querylog.yaml). */
export interface QueryLogRow {
  request_id: string;
  /** `YYYY-MM-DD hh:mm:ss` UTC. */
  timestamp: string;
  dataset: string;
  entity: string;
  referrer: string;
  organization_id: number | null;
  project_ids: number[];
  query_text: string;
  sql: string;
  /** success, error, rate-limited, invalid-request, timeout (Snuba's QueryStatus). */
  status: string;
  error_type: string | null;
  error_message: string | null;
  clickhouse_code: number | null;
  duration_ms: number;
  marks_ms: Record<string, number>;
  /** hit, miss, waited, bypass, or `none` when the query never reached the cache. */
  cache_status: string;
  rows_read: number;
  bytes_read: number;
  result_rows: number;
  /** JSON text of `quota_allowance`. */
  policy_decisions: string;
  /** JSON text of the request's tenant ids. */
  tenant_ids: string;
}

/** Snuba's timeout codes (facts §5): TIMEOUT_EXCEEDED, TOO_SLOW, SOCKET_TIMEOUT, NETWORK_ERROR. */
const TIMEOUT_CODES = new Set([159, 160, 209, 210]);

export function queryStatusOf(errorType: string | null, code: number | null): string {
  if (errorType === null) return "success";
  if (errorType === "rate-limited") return "rate-limited";
  if (errorType === "columnstore") return code !== null && TIMEOUT_CODES.has(code) ? "timeout" : "error";
  if (errorType === "invalid_query" || errorType === "query-too-long" || errorType === "storage-not-available") return "invalid-request";
  return "error";
}

export function clickHouseDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}
