/**
 * ClickHouse limits every query runs under, so that no single query can exhaust the engine: a
 * time limit, a memory limit (sized from the machine), and result limits in rows and bytes, with
 * per-referrer overrides (Snuba's `query_settings_by_referrer`, facts §3.1). Precedence, lowest
 * first: these defaults, the storage's `query_settings`, the referrer's settings; then the
 * threads the allocation policies granted. A query over a limit fails with a typed
 * `columnstore` error (241 memory, 159 time, 396 result size).
 */
import { totalmem } from "node:os";

export interface ReferrerLimits {
  readonly max_execution_time?: number;
  readonly max_memory_usage?: number;
  readonly max_result_rows?: number;
  readonly max_result_bytes?: number;
}

export interface ExecutionLimits {
  /** Seconds; 0 leaves ClickHouse's default (no limit). */
  readonly maxExecutionTimeSeconds: number;
  /** Bytes; 0 leaves ClickHouse's default. */
  readonly maxMemoryUsageBytes: number;
  /** Rows and bytes of one result; 0 leaves ClickHouse's default (no limit). */
  readonly maxResultRows: number;
  readonly maxResultBytes: number;
  readonly byReferrer: Readonly<Record<string, ReferrerLimits>>;
}

/**
 * A quarter of the machine's memory: several queries can run at once (the concurrency policy
 * allows 22 per organization) and the process holds caches and buffers besides.
 */
export function defaultMaxMemoryUsage(machineBytes = totalmem()): number {
  return Math.floor(machineBytes / 4);
}

export const DEFAULT_EXECUTION_LIMITS: ExecutionLimits = {
  maxExecutionTimeSeconds: 30,
  maxMemoryUsageBytes: defaultMaxMemoryUsage(),
  // Far above any answer a caller reads as JSON (the default LIMIT is 1,000), low enough that a
  // LIMIT 1000000000 BY ... or an ARRAY JOIN explosion cannot fill the server's memory. The
  // bytes bound is also how long the main thread may spend reading one answer: in the
  // 1,000,000-input fuzz run, /health went unanswered for seconds while resident memory jumped
  // by 1-1.5 GB, which a result near the former 256 MiB bound explains (read and parsed here).
  maxResultRows: 1_000_000,
  maxResultBytes: 32 * 1024 * 1024,
  byReferrer: {},
};

const LIMIT_NAMES = new Set(["max_execution_time", "max_memory_usage", "max_result_rows", "max_result_bytes"]);

/** Parses `{"<referrer>": {"max_execution_time": 5, "max_memory_usage": 1e9}}`, refusing anything else. */
export function parseReferrerLimits(source: string, text: string): Record<string, ReferrerLimits> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (reason) {
    throw new Error(`${source} is not valid JSON: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`${source} must be a JSON object of referrer -> limits`);
  const out: Record<string, ReferrerLimits> = {};
  for (const [referrer, limits] of Object.entries(parsed as Record<string, unknown>)) {
    if (limits === null || typeof limits !== "object" || Array.isArray(limits)) throw new Error(`${source}.${referrer} must be an object`);
    for (const [name, value] of Object.entries(limits as Record<string, unknown>)) {
      if (!LIMIT_NAMES.has(name)) throw new Error(`${source}.${referrer}.${name} is not a known limit; use ${[...LIMIT_NAMES].join(", ")}`);
      if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > 1e15) {
        throw new Error(`${source}.${referrer}.${name} must be a positive number, got ${JSON.stringify(value)}`);
      }
    }
    out[referrer] = limits as ReferrerLimits;
  }
  return out;
}

export function executionSettings(
  limits: ExecutionLimits,
  storageSettings: Readonly<Record<string, string | number>>,
  referrer: string,
): Record<string, string | number> {
  const settings: Record<string, string | number> = {};
  if (limits.maxExecutionTimeSeconds > 0) settings.max_execution_time = limits.maxExecutionTimeSeconds;
  if (limits.maxMemoryUsageBytes > 0) settings.max_memory_usage = limits.maxMemoryUsageBytes;
  if (limits.maxResultRows > 0) settings.max_result_rows = limits.maxResultRows;
  if (limits.maxResultBytes > 0) settings.max_result_bytes = limits.maxResultBytes;
  Object.assign(settings, storageSettings, limits.byReferrer[referrer]);
  return settings;
}
