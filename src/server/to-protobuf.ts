/**
 * QueryResult / QueryServiceError -> protobuf messages for the Connect, gRPC and gRPC-Web wire.
 * Struct values cannot hold BigInt, so integers beyond 2^53 travel as decimal strings there.
 */
import { create, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema, type Stats, type Timing } from "../../gen/quarry/v1/common_pb.js";
import { QueryResponseSchema, type QueryResponse } from "../../gen/quarry/v1/query_pb.js";
import { QueryServiceError } from "../errors/query-service-error.js";
import type { ResultRow } from "../query/query-result.js";
import type { ResultValue } from "../query/query-result.js";
import type { QueryResult, QueryStats } from "../query/query-result.js";
import type { Timing as TimingBody } from "../query/stage-timer.js";
import type { WindowResult } from "../subscriptions/execution/executor.js";

function toJsonValue(value: ResultValue): JsonValue {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value !== null && typeof value === "object") return toJsonObject(value);
  return value;
}

function toJsonObject(row: ResultRow | Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(row)) out[key] = toJsonValue(value as ResultValue);
  return out;
}

function toTiming(timing: TimingBody): Timing {
  return {
    $typeName: "quarry.v1.Timing",
    timestamp: BigInt(timing.timestamp),
    durationMs: BigInt(timing.duration_ms),
    marksMs: Object.fromEntries(Object.entries(timing.marks_ms).map(([k, v]) => [k, BigInt(v)])),
    tags: timing.tags,
  };
}

function toStats(stats: QueryStats): Stats {
  return {
    $typeName: "quarry.v1.Stats",
    columnstoreTable: stats.columnstore_table,
    final: stats.final,
    ...(stats.sample === null ? {} : { sample: stats.sample }),
    consistent: stats.consistent,
    resultRows: BigInt(stats.result_rows),
    resultCols: BigInt(stats.result_cols),
    queryId: stats.query_id,
    referrer: stats.referrer,
    maxThreads: stats.max_threads,
    cacheStatus: stats.cache_status,
    rowsRead: BigInt(stats.rows_read),
    bytesRead: BigInt(stats.bytes_read),
  };
}

function quotaAllowance(body: QueryResult["quota_allowance"]) {
  const summary = body.summary as Record<string, unknown>;
  return {
    summary: {
      threadsUsed: Number(summary.threads_used ?? 0),
      isSuccessful: Boolean(summary.is_successful),
      isRejected: Boolean(summary.is_rejected),
      isThrottled: Boolean(summary.is_throttled),
      ...(typeof summary.rejection_storage_key === "string" ? { rejectionStorageKey: summary.rejection_storage_key } : {}),
      ...(typeof summary.throttle_storage_key === "string" ? { throttleStorageKey: summary.throttle_storage_key } : {}),
      quotaUsed: Number(summary.quota_used ?? 0),
      quotaUnit: String(summary.quota_unit ?? ""),
    },
    details: Object.fromEntries(
      Object.entries(body.details).map(([policy, detail]) => [
        policy,
        {
          canRun: Boolean(detail.can_run),
          maxThreads: Number(detail.max_threads ?? 0),
          explanation: toJsonObject((detail.explanation as Record<string, unknown>) ?? {}),
          isThrottled: Boolean(detail.is_throttled),
          throttleThreshold: Number(detail.throttle_threshold ?? 0),
          rejectionThreshold: Number(detail.rejection_threshold ?? 0),
          quotaUsed: Number(detail.quota_used ?? 0),
          quotaUnit: String(detail.quota_unit ?? ""),
          suggestion: String(detail.suggestion ?? ""),
          maxBytesToRead: BigInt(Number(detail.max_bytes_to_read ?? 0)),
        },
      ]),
    ),
  };
}

/** One subscription window's rows and columns (RunSubscriptionWindow). */
export function toWindowResponse(result: WindowResult): QueryResponse {
  return create(QueryResponseSchema, { data: result.data.map(toJsonObject), meta: result.meta.map((m) => ({ name: m.name, type: m.type })) });
}

export function toQueryResponse(result: QueryResult): QueryResponse {
  return create(QueryResponseSchema, {
    data: result.data.map(toJsonObject),
    meta: result.meta.map((m) => ({ name: m.name, type: m.type })),
    timing: toTiming(result.timing),
    ...(result.stats ? { stats: toStats(result.stats) } : {}),
    quotaAllowance: quotaAllowance(result.quota_allowance),
    ...(result.sql === undefined ? {} : { sql: result.sql }),
    ...(result.totals ? { totals: toJsonObject(result.totals) } : {}),
  });
}

const CODE_BY_STATUS: Record<number, Code> = {
  400: Code.InvalidArgument,
  404: Code.NotFound,
  429: Code.ResourceExhausted,
  501: Code.Unimplemented,
  503: Code.Unavailable,
};

/** A QueryServiceError as a ConnectError whose detail is the typed ErrorDetail. */
export function toConnectError(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  const error = QueryServiceError.from(reason);
  const extra = error.extra as { timing?: TimingBody; stats?: QueryStats; sql?: string; quota_allowance?: QueryResult["quota_allowance"] };
  const detail = create(ErrorDetailSchema, {
    type: error.type,
    message: error.message,
    ...(error.code === undefined ? {} : { code: BigInt(error.code) }),
    ...(extra.timing ? { timing: toTiming(extra.timing) } : {}),
    ...(extra.stats ? { stats: toStats(extra.stats) } : {}),
    ...(extra.sql === undefined ? {} : { sql: extra.sql }),
    ...(extra.quota_allowance ? { quotaAllowance: quotaAllowance(extra.quota_allowance) } : {}),
    ...(error.position ? { line: error.position.line, column: error.position.column } : {}),
    ...(error.field === undefined ? {} : { field: error.field }),
  });
  const code = CODE_BY_STATUS[error.httpStatus] ?? Code.Internal;
  return new ConnectError(`${error.type}: ${error.message}`, code, undefined, [{ desc: ErrorDetailSchema, value: detail }], reason);
}
