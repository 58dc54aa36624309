/**
 * The one error model of Quarry. Every failure a caller can see is a QueryServiceError with a
 * `type` from spec §7 (bad bodies and unknown datasets are `invalid_query` too, with 400 / 404),
 * plus a few service-level types; the server maps it to an HTTP
 * status + `{"error": {...}}` body on JSON routes and to a Connect code + ErrorDetail on RPC.
 */

export type ErrorType =
  | "invalid_query"
  | "rate-limited"
  | "columnstore"
  | "subscription"
  | "query-too-long"
  | "storage-not-available"
  | "not_implemented"
  | "not_found"
  | "internal_server_error";

/** Where in a query text an error was found; both 1-based. */
export interface TextPosition {
  line: number;
  column: number;
}

export interface QueryServiceErrorOptions {
  position?: TextPosition;
  /** ClickHouse error code, for columnstore errors. */
  code?: number;
  /** Extra fields that travel beside `error` in the body (timing, stats, sql, quota_allowance). */
  extra?: Record<string, unknown>;
  /** Overrides the HTTP status derived from the type. */
  httpStatus?: number;
  /** The request field at fault (subscription errors name it: `time_window`, `project_id`, ...). */
  field?: string;
  cause?: unknown;
}

const STATUS_BY_TYPE: Record<ErrorType, number> = {
  invalid_query: 400,
  "rate-limited": 429,
  columnstore: 500,
  subscription: 400,
  "query-too-long": 400,
  "storage-not-available": 400,
  not_implemented: 501,
  not_found: 404,
  internal_server_error: 500,
};

export class QueryServiceError extends Error {
  readonly type: ErrorType;
  readonly position: TextPosition | undefined;
  readonly code: number | undefined;
  readonly extra: Record<string, unknown>;
  readonly httpStatus: number;
  readonly field: string | undefined;

  constructor(type: ErrorType, message: string, options: QueryServiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "QueryServiceError";
    this.type = type;
    this.position = options.position;
    this.code = options.code;
    this.extra = options.extra ?? {};
    this.httpStatus = options.httpStatus ?? STATUS_BY_TYPE[type];
    this.field = options.field;
  }

  /** Normalises anything thrown into a QueryServiceError, keeping typed errors as they are. */
  static from(reason: unknown): QueryServiceError {
    if (reason instanceof QueryServiceError) return reason;
    const message = reason instanceof Error ? reason.message : String(reason);
    return new QueryServiceError("internal_server_error", message || "internal error", { cause: reason });
  }

  /** This error with more `extra` facts, as a new error: the one it copies may be shared (a single-flight execution's waiters). */
  withExtra(extra: Record<string, unknown>, message = this.message, position = this.position): QueryServiceError {
    return new QueryServiceError(this.type, message, {
      position,
      code: this.code,
      extra: { ...this.extra, ...extra },
      httpStatus: this.httpStatus,
      field: this.field,
      cause: this.cause,
    });
  }

  /** The `error` object of spec §2.4. */
  toErrorBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { type: this.type, message: this.message };
    if (this.code !== undefined) body.code = this.code;
    if (this.field !== undefined) body.field = this.field;
    if (this.position) {
      body.line = this.position.line;
      body.column = this.position.column;
    }
    return body;
  }
}

/** How a message names a place in the query text: " at line 1, column 23", or nothing without one. */
export function atPosition(position: TextPosition | undefined): string {
  return position ? ` at line ${position.line}, column ${position.column}` : "";
}

export function invalidQuery(message: string, position?: TextPosition): QueryServiceError {
  return new QueryServiceError("invalid_query", message, { position });
}

/** A `subscription` error (spec §7) about one request field. */
export function subscriptionError(message: string, field?: string): QueryServiceError {
  return new QueryServiceError("subscription", message, field === undefined ? {} : { field });
}
