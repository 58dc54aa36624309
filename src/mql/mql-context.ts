/**
 * Validates `mql_context` (facts §A2.2) field by field into a typed context. Messages name the
 * field (`mql_context.rollup.interval`) and say what would be accepted. Unlike Snuba, a UTC
 * offset in `start`/`end` is honoured (the spec asks for timestamps with an offset), start must
 * precede end, and the number of time buckets is bounded.
 */
import { QueryServiceError } from "../errors/query-service-error.js";
import { parseDateTimeLiteral } from "../query/datetime-literal.js";

const DEFAULT_MQL_LIMIT = 1000;
const MAX_MQL_LIMIT = 10_000;
/** (end − start) / interval may not exceed this: every bucket is a row per group. */
const MAX_TIME_BUCKETS = 30_000;
const VALID_GRANULARITIES: readonly number[] = [10, 60, 3600, 86400];

export type IndexerMappings = Readonly<Record<string, number | string>>;

export interface MqlContext {
  /** An entity to read, when the caller names one; otherwise the MRI's type chooses. */
  readonly entity: string | null;
  /** Epoch seconds, inclusive. */
  readonly start: number;
  /** Epoch seconds, exclusive. */
  readonly end: number;
  readonly granularity: number;
  /** Seconds per time bucket, or null for one row per group. */
  readonly interval: number | null;
  readonly withTotals: boolean;
  readonly orderBy: "ASC" | "DESC" | null;
  readonly orgIds: readonly number[];
  readonly projectIds: readonly number[];
  readonly useCaseId: string;
  /** Null when the caller sent none: the server's own indexer (the demo ids) answers. */
  readonly indexerMappings: IndexerMappings | null;
  readonly limit: number;
  readonly offset: number;
  readonly extrapolate: boolean;
}

function fail(message: string): never {
  throw new QueryServiceError("invalid_query", `MQL context: ${message}`);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function describe(value: unknown): string {
  return `${typeName(value)} ${JSON.stringify(value)?.slice(0, 60) ?? ""}`.trim();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function checkKeys(object: Record<string, unknown>, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) fail(`unknown field '${path}.${key}'; allowed fields: ${allowed.join(", ")}`);
  }
}

function requireObject(value: unknown, path: string, example: string): Record<string, unknown> {
  if (value === undefined) fail(`missing required field '${path}', e.g. ${example}`);
  if (!isObject(value)) fail(`'${path}' must be an object, got ${describe(value)}`);
  return value;
}

function optionalInteger(value: unknown, path: string, minimum: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) fail(`'${path}' must be an integer, got ${describe(value)}`);
  if (value < minimum) fail(`'${path}' must be at least ${minimum}, got ${value}`);
  return value;
}

function readTime(value: unknown, path: string): number {
  if (value === undefined) fail(`missing required field '${path}', e.g. "2024-05-01T00:00:00+00:00"`);
  if (typeof value !== "string" || value.trim() === "") fail(`'${path}' must be an ISO 8601 string such as "2024-05-01T00:00:00+00:00", got ${describe(value)}`);
  try {
    return parseDateTimeLiteral(value);
  } catch {
    return fail(`'${path}' is not a valid ISO 8601 timestamp: '${value.slice(0, 60)}' (expected e.g. "2024-05-01T00:00:00+00:00")`);
  }
}

function readIds(value: unknown, path: string): number[] {
  if (value === undefined) fail(`missing required field '${path}', e.g. [1]`);
  if (!Array.isArray(value) || value.length === 0 || !value.every((id) => typeof id === "number" && Number.isSafeInteger(id) && id >= 0)) {
    fail(`'${path}' must be a non-empty list of non-negative integers, got ${describe(value)}`);
  }
  return value as number[];
}

function readWithTotals(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (value === "True" || value === true) return true;
  if (value === "False" || value === false) return false;
  return fail(`'mql_context.rollup.with_totals' must be "True" or "False" (or a boolean, or null), got ${describe(value)}`);
}

function readMappings(value: unknown): IndexerMappings | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) fail(`'mql_context.indexer_mappings' must be an object of string -> integer id, got ${describe(value)}`);
  for (const key in value) {
    const id = value[key];
    const valid = (typeof id === "number" && Number.isSafeInteger(id) && id >= 0) || (typeof id === "string" && id !== "");
    if (!valid) fail(`'mql_context.indexer_mappings["${key}"]' must be a non-negative integer id (or a string to look up again), got ${describe(id)}`);
  }
  return value as IndexerMappings;
}

const CONTEXT_FIELDS = ["entity", "start", "end", "rollup", "scope", "indexer_mappings", "limit", "offset", "extrapolate"];
const ROLLUP_FIELDS = ["granularity", "interval", "with_totals", "orderby"];
const SCOPE_FIELDS = ["org_ids", "project_ids", "use_case_id"];

export function readMqlContext(value: unknown): MqlContext {
  if (value === undefined) {
    throw new QueryServiceError(
      "invalid_query",
      "'mql_context' is required: send {\"start\", \"end\", \"rollup\": {\"granularity\", \"interval\"}, \"scope\": {\"org_ids\", \"project_ids\", \"use_case_id\"}}",
    );
  }
  if (!isObject(value)) fail(`'mql_context' must be an object, got ${describe(value)}`);
  checkKeys(value, "mql_context", CONTEXT_FIELDS);

  const entity = value.entity;
  if (entity !== undefined && entity !== null && (typeof entity !== "string" || entity === "")) {
    fail(`'mql_context.entity' must be an entity name, got ${describe(entity)}`);
  }
  const start = readTime(value.start, "mql_context.start");
  const end = readTime(value.end, "mql_context.end");
  if (start >= end) fail(`'mql_context.start' (${value.start as string}) must be before 'mql_context.end' (${value.end as string})`);

  const rollup = requireObject(value.rollup, "mql_context.rollup", '{"granularity": 60, "interval": 3600}');
  checkKeys(rollup, "mql_context.rollup", ROLLUP_FIELDS);
  const granularity = optionalInteger(rollup.granularity, "mql_context.rollup.granularity", 1);
  if (granularity === null) fail("missing required field 'mql_context.rollup.granularity', one of 10, 60, 3600, 86400");
  if (!VALID_GRANULARITIES.includes(granularity)) {
    fail(`granularity '${granularity}' is not valid, must be one of (${VALID_GRANULARITIES.join(", ")})`);
  }
  const interval = optionalInteger(rollup.interval, "mql_context.rollup.interval", 0) || null;
  if (interval !== null) {
    if (interval < Math.max(10, granularity)) {
      fail(`interval ${interval} must be greater than or equal to granularity ${granularity} (and at least 10 seconds)`);
    }
    const buckets = Math.ceil((end - start) / interval);
    if (buckets > MAX_TIME_BUCKETS) {
      fail(`an interval of ${interval} s over ${end - start} s would make ${buckets} time buckets; at most ${MAX_TIME_BUCKETS} are allowed: use a larger interval or a shorter range`);
    }
  }
  const orderBy = rollup.orderby ?? null;
  if (orderBy !== null && orderBy !== "ASC" && orderBy !== "DESC") fail(`'mql_context.rollup.orderby' must be either 'ASC' or 'DESC', got ${describe(orderBy)}`);
  if (orderBy !== null && interval !== null) fail("orderby is not supported when interval is specified");

  const scope = requireObject(value.scope, "mql_context.scope", '{"org_ids": [1], "project_ids": [1], "use_case_id": "transactions"}');
  checkKeys(scope, "mql_context.scope", SCOPE_FIELDS);
  const useCaseId = scope.use_case_id;
  if (useCaseId === undefined || useCaseId === null) fail("missing required field 'mql_context.scope.use_case_id', e.g. \"transactions\", \"spans\", \"custom\" or \"sessions\"");
  if (typeof useCaseId !== "string" || useCaseId === "") fail(`'mql_context.scope.use_case_id' must be a non-empty string, got ${describe(useCaseId)}`);

  const limit = optionalInteger(value.limit, "mql_context.limit", 0) || DEFAULT_MQL_LIMIT;
  if (limit > MAX_MQL_LIMIT) fail(`queries cannot have a limit higher than ${MAX_MQL_LIMIT} (mql_context.limit is ${limit})`);
  const offset = optionalInteger(value.offset, "mql_context.offset", 0) ?? 0;
  const extrapolate = value.extrapolate ?? false;
  if (typeof extrapolate !== "boolean") fail(`'mql_context.extrapolate' must be a boolean, got ${describe(extrapolate)}`);

  return {
    entity: (entity as string | null | undefined) ?? null,
    start,
    end,
    granularity,
    interval,
    withTotals: readWithTotals(rollup.with_totals),
    orderBy,
    orgIds: readIds(scope.org_ids, "mql_context.scope.org_ids"),
    projectIds: readIds(scope.project_ids, "mql_context.scope.project_ids"),
    useCaseId,
    indexerMappings: readMappings(value.indexer_mappings),
    limit,
    offset,
    extrapolate,
  };
}
