/**
 * A ClickHouse failure as a `columnstore` error (spec §2.4): the engine's code and message, with
 * the HTTP status Snuba uses — 400 where the query is at fault, 500 otherwise.
 */
import { QueryServiceError } from "../errors/query-service-error.js";

/**
 * Codes where the query, not the service, is at fault (Snuba: 43, 53, 241; plus those the
 * reliability fuzzer reached with queries that pass Quarry's validation, each traced to the query).
 */
const CLIENT_FAULT_CODES = new Set([
  43, // ILLEGAL_TYPE_OF_ARGUMENT
  53, // TYPE_MISMATCH
  241, // MEMORY_LIMIT_EXCEEDED
  36, // BAD_ARGUMENTS
  42, // NUMBER_OF_ARGUMENTS_DOESNT_MATCH
  44, // ILLEGAL_COLUMN
  46, // UNKNOWN_FUNCTION
  47, // UNKNOWN_IDENTIFIER
  62, // SYNTAX_ERROR (also a query past max_query_size)
  167, // TOO_DEEP_AST
  168, // TOO_BIG_AST (e.g. a scope of 100,000 project ids: max_ast_elements)
  184, // ILLEGAL_AGGREGATION
  215, // NOT_AN_AGGREGATE
  386, // NO_COMMON_TYPE
  396, // TOO_MANY_ROWS_OR_BYTES (max_result_rows / max_result_bytes)
  41, // CANNOT_PARSE_DATETIME (a literal the query compares with a DateTime)
  // Values the query asks ClickHouse to read as another type ('error' < 1.5, 'x' = [1], ...):
  6, // CANNOT_PARSE_TEXT
  32, // ATTEMPT_TO_READ_AFTER_EOF (e.g. '' read as a number)
  27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
  38, // CANNOT_PARSE_DATE
  70, // CANNOT_CONVERT_TYPE
  72, // CANNOT_PARSE_NUMBER
  130, // CANNOT_READ_ARRAY_FROM_TEXT
  25, // CANNOT_PARSE_ESCAPE_SEQUENCE (a LIKE pattern ending in a lone backslash, a pattern column's too)
  26, // CANNOT_PARSE_QUOTED_STRING ('[o' compared with an array of strings: its elements are unquoted)
  467, // CANNOT_PARSE_BOOL
  376, // CANNOT_PARSE_UUID (trace_id IN ('not-a-uuid'))
  675, // CANNOT_PARSE_IPV4 (ip_address_v4 = 'x')
  676, // CANNOT_PARSE_IPV6
  321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  // Functions used in a way they do not support:
  1, // UNSUPPORTED_METHOD (e.g. an aggregate given a lambda)
  48, // NOT_IMPLEMENTED (e.g. a number converted to a UUID)
  34, // TOO_MANY_ARGUMENTS_FOR_FUNCTION
  35, // TOO_FEW_ARGUMENTS_FOR_FUNCTION
  69, // ARGUMENT_OUT_OF_BOUND
  153, // ILLEGAL_DIVISION
  12, // PARAMETER_OUT_OF_BOUND (e.g. a quantile level outside [0, 1])
  407, // DECIMAL_OVERFLOW ("Numeric overflow", e.g. a hash added to a DateTime)
  179, // MULTIPLE_EXPRESSIONS_FOR_ALIAS
  190, // SIZES_OF_ARRAYS_DONT_MATCH
  124, // INCORRECT_ELEMENT_OF_SET (a tuple looked for among values or tuples of another size)
  309, // FUNCTION_CANNOT_HAVE_PARAMETERS
  133, // AGGREGATE_FUNCTION_DOESNT_ALLOW_PARAMETERS (sum(1)(x))
  421, // CANNOT_ADD_DIFFERENT_AGGREGATE_STATES
  135, // ZERO_ARRAY_OR_TUPLE_INDEX (an index 0 where indices start at 1)
  170, // BAD_GET (a parameter of the wrong type, read as another)
  // The query asks for sampling on a table without a sampling key.
  141, // SAMPLING_NOT_SUPPORTED
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
  // The embedded engine's message can be cut short at a NUL byte the query contained, before the
  // client could read its code from the end; the text still starts "Code: N.".
  const message = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "";
  const leading = /^Code: (\d+)\./.exec(message.trim());
  if (leading) return Number(leading[1]);
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
