/**
 * Turns what the pipeline knows about one finished query into its query-log row. The back end
 * records the queries it saw (success, refusal, ClickHouse error) and marks those errors as
 * recorded; the request observer records the rest (invalid queries that never reached it).
 */
import { randomUUID } from "node:crypto";
import type { QueryServiceError } from "../errors/query-service-error.js";
import type { QueryRequest } from "../query/query-request.js";
import type { Timing } from "../query/stage-timer.js";
import { clickHouseDateTime, queryStatusOf, type QueryLogRow } from "./query-log-row.js";

export interface QueryLogFacts {
  readonly request: QueryRequest;
  readonly entity: string;
  readonly sql: string;
  readonly timing: Timing;
  readonly cacheStatus: string;
  readonly rowsRead: number;
  readonly bytesRead: number;
  readonly resultRows: number;
  readonly quotaAllowance: unknown;
  readonly error: QueryServiceError | null;
}

const UINT32_MAX = 4_294_967_295;

function projectIds(request: QueryRequest): number[] {
  const project = request.tenantIds.project_id;
  return typeof project === "number" && Number.isSafeInteger(project) && project >= 0 ? [project] : [];
}

export function buildQueryLogRow(facts: QueryLogFacts): QueryLogRow {
  const { request, error } = facts;
  const organization = request.tenantIds.organization_id;
  return {
    request_id: randomUUID(),
    timestamp: clickHouseDateTime(new Date(facts.timing.timestamp * 1000)),
    dataset: request.dataset ?? "",
    entity: facts.entity,
    referrer: request.tenantIds.referrer ?? "",
    organization_id: typeof organization === "number" && Number.isSafeInteger(organization) && organization >= 0 ? organization : null,
    project_ids: projectIds(request),
    query_text: request.query ?? "",
    sql: facts.sql,
    status: queryStatusOf(error?.type ?? null, error?.code ?? null),
    error_type: error?.type ?? null,
    error_message: error?.message ?? null,
    clickhouse_code: error?.type === "columnstore" ? (error.code ?? null) : null,
    duration_ms: Math.min(UINT32_MAX, Math.max(0, facts.timing.duration_ms)),
    marks_ms: facts.timing.marks_ms,
    cache_status: facts.cacheStatus,
    rows_read: facts.rowsRead,
    bytes_read: facts.bytesRead,
    result_rows: facts.resultRows,
    policy_decisions: JSON.stringify(facts.quotaAllowance ?? {}),
    tenant_ids: JSON.stringify(request.tenantIds ?? {}),
  };
}

const recorded = new WeakSet<object>();

/** Notes that the back end already logged the query this error ended. */
export function markRecorded(error: QueryServiceError): void {
  recorded.add(error);
}

export function wasRecorded(error: QueryServiceError): boolean {
  return recorded.has(error);
}
