/**
 * A ClickHouse failure as a `columnstore` error (spec §2.4): the engine's code and its message made
 * readable (readable-engine-message.ts), with the HTTP status Snuba uses — 400 where the query is
 * at fault, 500 otherwise.
 */
import { QueryServiceError } from "../errors/query-service-error.js";
import { readableEngineMessage } from "../errors/readable-engine-message.js";

/**
 * The engine's codes where the query, not the service, is at fault, by why. Each name is the
 * engine's own (`system.errors`; an engine test holds them to the embedded engine). Snuba counts
 * 43, 53 and 241; the rest are codes a SELECT can meet because of what its author wrote. Codes
 * left out stay 500: the engine's own trouble (49 LOGICAL_ERROR, 173 CANNOT_ALLOCATE_MEMORY),
 * the service's load and time (159 TIMEOUT_EXCEEDED, 160 TOO_SLOW, 202
 * TOO_MANY_SIMULTANEOUS_QUERIES, 394 QUERY_WAS_CANCELLED), the network (209, 210), and the
 * schema Quarry itself names (60 UNKNOWN_TABLE, 16 NO_SUCH_COLUMN_IN_TABLE, 10 NOT_FOUND_COLUMN_IN_BLOCK).
 */
const QUERY_FAULTS = {
  /** The query is not one the engine can take: malformed, or too large or deep to analyse. */
  shape: {
    62: "SYNTAX_ERROR", // also a query past max_query_size
    80: "INCORRECT_QUERY",
    162: "TOO_DEEP_SUBQUERIES",
    167: "TOO_DEEP_AST",
    168: "TOO_BIG_AST", // e.g. a scope of 100,000 project ids: max_ast_elements
    183: "UNEXPECTED_EXPRESSION",
    223: "UNEXPECTED_AST_STRUCTURE",
    229: "QUERY_IS_TOO_LARGE",
    306: "TOO_DEEP_RECURSION",
    718: "TOO_SLOW_PARSING",
  },
  /** It names something that does not exist, or names one thing twice. */
  names: {
    46: "UNKNOWN_FUNCTION",
    47: "UNKNOWN_IDENTIFIER",
    50: "UNKNOWN_TYPE", // CAST(x, 'Foo')
    63: "UNKNOWN_AGGREGATE_FUNCTION", // arrayReduce('sumI✘', ...)
    152: "UNKNOWN_DIRECTION_OF_SORTING",
    174: "CYCLIC_ALIASES",
    179: "MULTIPLE_EXPRESSIONS_FOR_ALIAS",
    206: "ALIAS_REQUIRED",
    207: "AMBIGUOUS_IDENTIFIER",
    352: "AMBIGUOUS_COLUMN_NAME",
    353: "INDEX_OF_POSITIONAL_ARGUMENT_IS_OUT_OF_RANGE",
    691: "UNKNOWN_ELEMENT_OF_ENUM", // a value an Enum does not have
  },
  /** A function is given arguments or parameters of the wrong type, number or kind. */
  arguments: {
    1: "UNSUPPORTED_METHOD", // e.g. an aggregate given a lambda
    2: "UNSUPPORTED_PARAMETER",
    34: "TOO_MANY_ARGUMENTS_FOR_FUNCTION",
    35: "TOO_FEW_ARGUMENTS_FOR_FUNCTION",
    36: "BAD_ARGUMENTS",
    42: "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
    43: "ILLEGAL_TYPE_OF_ARGUMENT",
    44: "ILLEGAL_COLUMN",
    48: "NOT_IMPLEMENTED", // e.g. a number converted to a UUID
    53: "TYPE_MISMATCH",
    59: "ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER", // WHERE on something that is no condition
    70: "CANNOT_CONVERT_TYPE",
    133: "AGGREGATE_FUNCTION_DOESNT_ALLOW_PARAMETERS",
    134: "PARAMETERS_TO_AGGREGATE_FUNCTIONS_MUST_BE_LITERALS",
    169: "BAD_TYPE_OF_FIELD",
    170: "BAD_GET", // a parameter of the wrong type, read as another
    309: "FUNCTION_CANNOT_HAVE_PARAMETERS",
    377: "ILLEGAL_SYNTAX_FOR_DATA_TYPE",
    378: "DATA_TYPE_CANNOT_HAVE_ARGUMENTS",
    386: "NO_COMMON_TYPE",
    421: "CANNOT_ADD_DIFFERENT_AGGREGATE_STATES",
    438: "DATA_TYPE_CANNOT_BE_PROMOTED",
    455: "SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY",
    527: "NO_SUITABLE_FUNCTION_IMPLEMENTATION",
    645: "NUMBER_OF_DIMENSIONS_MISMATCHED",
  },
  /** Aggregates where the query may not have them, or columns outside them where it must. */
  aggregation: {
    184: "ILLEGAL_AGGREGATION",
    215: "NOT_AN_AGGREGATE",
  },
  /** Clauses used in a way the engine does not support, or on a table that does not support them. */
  clauses: {
    121: "UNSUPPORTED_JOIN_KEYS",
    125: "INCORRECT_RESULT_OF_SCALAR_SUBQUERY",
    141: "SAMPLING_NOT_SUPPORTED", // SAMPLE on a table without a sampling key
    181: "ILLEGAL_FINAL",
    182: "ILLEGAL_PREWHERE",
    264: "INCOMPATIBLE_TYPE_OF_JOIN",
    403: "INVALID_JOIN_ON_EXPRESSION",
    440: "INVALID_LIMIT_EXPRESSION",
    475: "INVALID_WITH_FILL_EXPRESSION",
    476: "WITH_TIES_WITHOUT_ORDER_BY",
    498: "LIMIT_BY_WITH_TIES_IS_NOT_SUPPORTED",
  },
  /** Values the query asks the engine to read as another type ('error' < 1.5, 'x' = [1], toUUID('x')). */
  values: {
    6: "CANNOT_PARSE_TEXT",
    25: "CANNOT_PARSE_ESCAPE_SEQUENCE", // a LIKE pattern ending in a lone backslash
    26: "CANNOT_PARSE_QUOTED_STRING", // '[o' read as an array of strings: its elements are unquoted
    27: "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
    32: "ATTEMPT_TO_READ_AFTER_EOF", // '' read as a number
    38: "CANNOT_PARSE_DATE",
    41: "CANNOT_PARSE_DATETIME",
    72: "CANNOT_PARSE_NUMBER",
    117: "INCORRECT_DATA", // base64Decode('!!!')
    130: "CANNOT_READ_ARRAY_FROM_TEXT",
    376: "CANNOT_PARSE_UUID",
    441: "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING",
    467: "CANNOT_PARSE_BOOL",
    563: "CANNOT_READ_MAP_FROM_TEXT",
    675: "CANNOT_PARSE_IPV4",
    676: "CANNOT_PARSE_IPV6",
  },
  /** Values out of what a function or type can take, or that it cannot compute with. */
  ranges: {
    11: "POSITION_OUT_OF_BOUND",
    12: "PARAMETER_OUT_OF_BOUND", // a quantile level outside [0, 1]
    69: "ARGUMENT_OUT_OF_BOUND", // range(10000000000), tupleElement(t, 5)
    124: "INCORRECT_ELEMENT_OF_SET", // a tuple looked for among values or tuples of another size
    127: "ILLEGAL_INDEX",
    128: "TOO_LARGE_ARRAY_SIZE",
    131: "TOO_LARGE_STRING_SIZE",
    135: "ZERO_ARRAY_OR_TUPLE_INDEX",
    153: "ILLEGAL_DIVISION", // intDiv by zero
    190: "SIZES_OF_ARRAYS_DONT_MATCH",
    321: "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE",
    407: "DECIMAL_OVERFLOW", // "Numeric overflow", e.g. a hash added to a DateTime
  },
  /** Texts a function reads as a pattern, format, charset or other little language, and refuses. */
  patterns: {
    346: "CANNOT_CONVERT_CHARSET",
    360: "CANNOT_CREATE_CHARSET_CONVERTER",
    427: "CANNOT_COMPILE_REGEXP", // match(x, '(')
    447: "HYPERSCAN_CANNOT_SCAN_TEXT",
    490: "CANNOT_FORMAT_DATETIME",
    621: "CANNOT_NORMALIZE_STRING",
  },
  /** The query itself asks to fail: throwIf, aggThrow. */
  thrown: {
    395: "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO",
    503: "AGGREGATE_FUNCTION_THROW",
  },
  /** Features the service's engine settings do not allow a query. */
  disallowed: {
    344: "SUPPORT_IS_DISABLED",
    446: "FUNCTION_NOT_ALLOWED",
    721: "DEPRECATED_FUNCTION",
  },
  /** Limits a query is held to (settings, the storage's, the policies' byte allowance), which this one asks past. */
  limits: {
    158: "TOO_MANY_ROWS", // max_rows_to_read
    161: "TOO_MANY_COLUMNS",
    165: "TOO_MANY_TEMPORARY_COLUMNS",
    166: "TOO_MANY_TEMPORARY_NON_CONST_COLUMNS",
    191: "SET_SIZE_LIMIT_EXCEEDED", // max_rows_in_set
    241: "MEMORY_LIMIT_EXCEEDED", // max_memory_usage of the query (Snuba: 400)
    307: "TOO_MANY_BYTES", // max_bytes_to_read, e.g. a policy's allowance
    396: "TOO_MANY_ROWS_OR_BYTES", // max_result_rows / max_result_bytes
  },
} as const satisfies Record<string, Record<number, string>>;

/** Every code where the query is at fault, with the engine's name for it. */
export const QUERY_FAULT_CODES: ReadonlyMap<number, string> = new Map(
  Object.values(QUERY_FAULTS).flatMap((group) => Object.entries(group).map(([code, name]) => [Number(code), name] as const)),
);

export function httpStatusForClickHouseCode(code: number): number {
  return QUERY_FAULT_CODES.has(code) ? 400 : 500;
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
  const message = readableEngineMessage(reason instanceof Error ? reason.message : String(reason));
  return new QueryServiceError("columnstore", message || "the columnstore failed the query", {
    code,
    extra,
    httpStatus: httpStatusForClickHouseCode(code),
    cause: reason,
  });
}
