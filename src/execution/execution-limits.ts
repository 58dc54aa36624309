/**
 * ClickHouse limits every query runs under: a time limit and a memory limit, with per-referrer
 * overrides (Snuba's `query_settings_by_referrer`, facts §3.1). Precedence, lowest first: these
 * defaults, the storage's `query_settings`, the referrer's settings; then the threads the
 * allocation policies granted.
 */
export interface ReferrerLimits {
  readonly max_execution_time?: number;
  readonly max_memory_usage?: number;
}

export interface ExecutionLimits {
  /** Seconds; 0 leaves ClickHouse's default (no limit). */
  readonly maxExecutionTimeSeconds: number;
  /** Bytes; 0 leaves ClickHouse's default. */
  readonly maxMemoryUsageBytes: number;
  readonly byReferrer: Readonly<Record<string, ReferrerLimits>>;
}

export const DEFAULT_EXECUTION_LIMITS: ExecutionLimits = { maxExecutionTimeSeconds: 30, maxMemoryUsageBytes: 0, byReferrer: {} };

const LIMIT_NAMES = new Set(["max_execution_time", "max_memory_usage"]);

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
      if (!LIMIT_NAMES.has(name)) throw new Error(`${source}.${referrer}.${name} is not a known limit; use max_execution_time or max_memory_usage`);
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
  Object.assign(settings, storageSettings, limits.byReferrer[referrer]);
  return settings;
}
