/**
 * The functions a query may call. SQL is printed from the AST, so a function name reaches
 * ClickHouse only when it is in this list: nothing a caller writes can name `file()`, `url()`,
 * `remote()` or other table functions, dictionaries or settings.
 */
const AGGREGATES = [
  "count", "countIf", "uniq", "uniqIf", "uniqExact", "uniqExactIf", "uniqCombined", "uniqCombined64", "uniqHLL12",
  "sum", "sumIf", "avg", "avgIf", "min", "minIf", "max", "maxIf", "any", "anyIf", "anyLast", "anyHeavy",
  "argMin", "argMax", "argMinIf", "argMaxIf", "groupArray", "groupUniqArray", "groupArrayIf", "groupUniqArrayIf",
  "quantile", "quantiles", "quantileIf", "quantilesIf", "quantileExact", "quantileTiming", "quantileTDigest",
  "quantilesTDigest", "quantileDeterministic", "median", "stddevPop", "stddevSamp", "varPop", "varSamp",
  "top", "topK", "topKWeighted", "histogram", "countDistinct", "avgWeighted", "corr", "covarPop",
  "sumMerge", "uniqCombined64Merge", "quantilesMerge", "minMerge", "maxMerge", "avgMerge", "countMerge",
  // what Sentry's query builders add (trends, weighted percentiles, array aggregates)
  "uniqMerge", "simpleLinearRegression", "quantileTDigestWeighted", "quantilesTDigestWeighted", "quantileExactWeighted",
  "sumArray", "maxArray", "minArray", "avgArray", "anyLastIf", "medianIf", "stddevSampIf", "varSampIf", "covarSamp",
];

const SCALARS = [
  // comparison, logic, arithmetic (what the operators become)
  "equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals", "in", "notIn", "like", "notLike",
  "ilike", "notILike", "isNull", "isNotNull", "and", "or", "not", "xor", "plus", "minus", "multiply", "divide",
  "intDiv", "modulo", "negate", "abs", "rand", "identity", "if", "multiIf", "ifNull", "nullIf", "coalesce", "assumeNotNull",
  "toNullable", "isFinite", "isInfinite", "isNaN", "ifNotFinite", "greatest", "least",
  // constructors
  "tuple", "array", "tupleElement",
  // math
  "round", "floor", "ceil", "trunc", "sqrt", "exp", "log", "log2", "log10", "pow", "power", "sign",
  // strings
  "length", "lower", "upper", "concat", "substring", "trim", "trimLeft", "trimRight", "startsWith", "endsWith",
  "position", "positionCaseInsensitive", "match", "extract", "replaceAll", "replaceOne", "replaceRegexpAll",
  "replaceRegexpOne", "splitByChar", "splitByString", "empty", "notEmpty", "toString", "lowerUTF8", "upperUTF8",
  "lengthUTF8", "leftPad", "rightPad", "reverse", "multiSearchAny", "hasToken",
  "substringUTF8", "positionUTF8", "positionCaseInsensitiveUTF8", "multiSearchFirstIndex", "multiSearchAnyCaseInsensitive",
  "multiMatchAny", "toValidUTF8", "trimBoth", "transform",
  // arrays
  "has", "hasAny", "hasAll", "indexOf", "arrayElement", "arrayJoin", "arrayExists", "arrayAll", "arrayFilter",
  "arrayMap", "arraySlice", "arrayConcat", "arrayDistinct", "arrayReduce", "arraySum", "arrayMax", "arrayMin",
  "arrayCount", "arrayUniq", "arrayStringConcat", "arraySort", "arrayReverse", "arrayFirst", "arrayLast",
  "arrayPushBack", "arrayPushFront", "arrayEnumerate", "arrayZip", "arrayCompact", "arrayIntersect", "arrayFlatten",
  "arrayAvg", "arrayCumSum", "arrayDifference", "arrayFirstIndex", "mapKeys", "mapValues", "mapContains",
  // type conversion
  "toInt8", "toInt16", "toInt32", "toInt64", "toUInt8", "toUInt16", "toUInt32", "toUInt64", "toFloat32", "toFloat64",
  "toDecimal64", "toUUID", "toUUIDOrNull", "toIntervalSecond", "toIntervalMinute", "toIntervalHour",
  "toIntervalDay", "reinterpretAsUInt64", "cityHash64", "hex", "unhex", "IPv4NumToString", "IPv6NumToString",
  "toInt64OrNull", "toUInt64OrNull", "toFloat64OrNull", "toInt64OrZero", "toUInt64OrZero", "toFloat64OrZero",
  "IPv4StringToNum", "IPv6StringToNum", "toIPv4", "toIPv6", "isIPv4String", "isIPv6String",
  "xxHash64", "sipHash64", "murmurHash3_32", "murmurHash3_64", "bitAnd", "bitOr", "bitXor", "intDivOrZero", "moduloOrZero",
  // dates
  "toDateTime", "toDate", "toStartOfMinute", "toStartOfFiveMinutes", "toStartOfFifteenMinutes",
  "toStartOfTenMinutes", "toStartOfHour", "toStartOfDay", "toStartOfWeek", "toStartOfMonth", "toStartOfQuarter",
  "toStartOfYear", "toStartOfInterval", "toMonday", "toUnixTimestamp", "toYear", "toMonth", "toDayOfWeek",
  "toDayOfMonth", "toHour", "toMinute", "toSecond", "now", "today", "dateDiff", "addSeconds", "addMinutes",
  "addHours", "addDays", "subtractSeconds", "subtractMinutes", "subtractHours", "subtractDays", "formatDateTime",
  "toYYYYMMDD", "toYYYYMM", "toDateTime64", "toDayOfYear", "toQuarter", "toISOWeek", "toTimeZone",
  "parseDateTimeBestEffort", "parseDateTimeBestEffortOrNull",
];

/** The aggregate functions, including -If/-Merge combinators, used to refuse them in WHERE. */
export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set(AGGREGATES);

export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([...AGGREGATES, ...SCALARS]);

/**
 * Names Snuba's allow-list takes that this ClickHouse has no function for (every call is code 46,
 * UNKNOWN_FUNCTION): refused while the query is validated, with what to write instead.
 */
export const FUNCTIONS_THE_ENGINE_LACKS: ReadonlyMap<string, string> = new Map([
  ["first", "any(x)"],
  ["last", "anyLast(x)"],
  ["emptyIfNull", "ifNull(x, '')"],
]);

export function isAllowedFunction(name: string): boolean {
  return ALLOWED_FUNCTIONS.has(name);
}
