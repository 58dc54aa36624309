/**
 * A ClickHouse failure as a `columnstore` error (spec §2.4): the engine's code and message, with
 * the HTTP status Snuba uses — 400 where the query is at fault, 500 otherwise.
 */
import { QueryServiceError } from "../errors/query-service-error.js";

/** Codes where the query, not the service, is at fault (Snuba: 43, 53, 241; plus obvious ones). */
const CLIENT_FAULT_CODES = new Set([
  43, // ILLEGAL_TYPE_OF_ARGUMENT
  53, // TYPE_MISMATCH
  241, // MEMORY_LIMIT_EXCEEDED
  36, // BAD_ARGUMENTS
  42, // NUMBER_OF_ARGUMENTS_DOESNT_MATCH
  44, // ILLEGAL_COLUMN
  46, // UNKNOWN_FUNCTION
  47, // UNKNOWN_IDENTIFIER
  62, // SYNTAX_ERROR
  184, // ILLEGAL_AGGREGATION
  215, // NOT_AN_AGGREGATE
  386, // NO_COMMON_TYPE
  396, // TOO_MANY_ROWS_OR_BYTES (max_result_rows / max_result_bytes)
  41, // CANNOT_PARSE_DATETIME (a literal the query compares with a DateTime)
]);

export function httpStatusForClickHouseCode(code: number): number {
  return CLIENT_FAULT_CODES.has(code) ? 400 : 500;
}

/** Reads the numeric code from whatever the client threw (server errors, chDB errors, transport). */
export function clickHouseCodeOf(reason: unknown): number {
  if (reason && typeof reason === "object") {
    const candidate = reason as { code?: unknown; clickhouseCode?: unknown };
    for (const value of [candidate.code, candidate.clickhouseCode]) {
      const code = typeof value === "string" ? Number(value) : value;
      if (typeof code === "number" && Number.isInteger(code)) return code;
    }
  }
  // Transport failures (refused connection, timeout) have no engine code: Snuba uses -1.
  return -1;
}

export function columnstoreError(reason: unknown, extra: Record<string, unknown>): QueryServiceError {
  const code = clickHouseCodeOf(reason);
  const message = reason instanceof Error ? reason.message.trim() : String(reason);
  return new QueryServiceError("columnstore", message || "the columnstore failed the query", {
    code,
    extra,
    httpStatus: httpStatusForClickHouseCode(code),
    cause: reason,
  });
}
