/**
 * Every setting Quarry reads from the environment, read once into one typed object.
 * The README's configuration table lists the same names and defaults.
 */
import { resolve } from "node:path";
import type { PolicyArgOverrides } from "../allocation-policies/policy-registry.js";
import { DEFAULT_EXECUTION_LIMITS, parseReferrerLimits, type ExecutionLimits } from "../execution/execution-limits.js";
import { DEFAULT_ENGINE_CONDITION_CACHE_BYTES, DEFAULT_ENGINE_EXPRESSION_CACHE_BYTES, DEFAULT_ENGINE_IDLE_THREADS } from "../clickhouse/client-factory.js";

export interface Settings {
  /** HTTP/1.1 + h2c port for JSON, Connect, gRPC and gRPC-Web. */
  readonly port: number;
  readonly host: string;
  /** chDB data directory (embedded mode). */
  readonly dataDir: string;
  /** A ClickHouse server over HTTP; when set, chDB is not used. */
  readonly clickhouseUrl: string | null;
  readonly clickhouseUser: string;
  readonly clickhousePassword: string;
  /** Rows the demo-data command writes by default. */
  readonly demoRows: number;
  readonly natsUrl: string | null;
  readonly kafkaBrokers: readonly string[];
  /** Adds `stats` to every response, not only debug ones. */
  readonly statsInResponse: boolean;
  readonly logLevel: "debug" | "info" | "warn" | "error";
  /** Result-cache entry lifetime (Snuba: 1 s); 0 turns the cache off (single-flight stays). */
  readonly cacheTtlMs: number;
  readonly cacheMaxBytes: number;
  /** ClickHouse time and memory limits, with per-referrer overrides. */
  readonly executionLimits: ExecutionLimits;
  /** Policy name -> args merged over every storage's YAML args (QUARRY_POLICY_OVERRIDES, JSON). */
  readonly policyOverrides: PolicyArgOverrides;
  readonly queryLogFlushIntervalMs: number;
  /** Whether `serve` runs the subscription scheduler (QUARRY_SCHEDULER, default on). */
  readonly scheduler: boolean;
  /** Windows older than this (seconds) are skipped, and failing ones no longer retried. */
  readonly subscriptionStaleSeconds: number;
  /** Subscription windows run at once by this node's executor. */
  readonly subscriptionConcurrency: number;
  /** Seconds every window waits after its end; null: each entity's `delay_seconds`. */
  readonly subscriptionDelaySeconds: number | null;
  /** Which clock subscriptions follow: their ingestion commit log or the wall clock (QUARRY_SUBSCRIPTION_CLOCK). */
  readonly subscriptionClock: "auto" | "commit_log" | "wall";
  /** Entity -> result topic, over the entities' `result_topic`. */
  readonly subscriptionTopics: Readonly<Record<string, string>>;
  /** Snuba's topic name -> the physical topic the ingestion consumers use instead (QUARRY_KAFKA_TOPICS). */
  readonly kafkaTopics: Readonly<Record<string, string>>;
  /** Snuba's consumer group name -> the group the ingestion consumers join instead (QUARRY_CONSUMER_GROUPS). */
  readonly consumerGroups: Readonly<Record<string, string>>;
  /** A query node's base URL, for roles without the engine (`subscriptions tail`). */
  readonly queryUrl: string;
  /** How long SIGTERM waits for requests, subscription runs and the query log before exiting. */
  readonly shutdownTimeoutMs: number;
  /** Quiet time after which the server gives freed memory back to the system; 0: never. */
  readonly idleMemoryReleaseMs: number;
  /**
   * Idle threads the embedded engine's global thread pool keeps (ClickHouse's
   * max_thread_pool_free_size, 1000 by default): each idle thread holds its stack and allocator
   * cache, so a burst that grew the pool kept its memory. Ignored with CLICKHOUSE_URL.
   */
  readonly engineIdleThreads: number;
  /**
   * Bytes the embedded engine's query condition cache may hold (ClickHouse's
   * query_condition_cache_size, 100 MiB by default): which granules of a part matched a filter,
   * one entry per part and distinct condition, so every new filter adds entries. Ignored with
   * CLICKHOUSE_URL.
   */
  readonly engineConditionCacheBytes: number;
  /** Bytes of JIT-compiled expressions the embedded engine keeps (compiled_expression_cache_size, 128 MiB by default). */
  readonly engineExpressionCacheBytes: number;
  /** This node's name in the scheduler cluster (QUARRY_NODE_ID; default host-pid). */
  readonly nodeId: string | null;
  /** A partition lease lasts this long without renewal (a dead node's partitions move after it). */
  readonly leaseMs: number;
  readonly leaseRenewMs: number;
  /** Prefix of the cluster's KV bucket names. */
  readonly natsBucketPrefix: string;
  /** Replicas per KV bucket; null: 3 on a NATS cluster, 1 on a lone server. */
  readonly natsReplicas: number | null;
  /** Port of a `quarry scheduler` node's /health and /metrics. */
  readonly schedulerPort: number;
  /** The storages whose ingestion consumers `serve` runs (QUARRY_CONSUMERS: names or `all`); empty: none. */
  readonly consumers: "all" | readonly string[];
  /** Batch and buffer limits of every ingestion consumer (docs/ingestion.md, "Configuration"). */
  readonly consumerBatching: { readonly maxBatchRows: number; readonly maxBatchTimeMs: number; readonly maxBufferedRows: number };
  /** Partitions of a source topic a consumer creates (an existing topic is left as it is). */
  readonly consumerSourcePartitions: number;
  /** The consumers' Kafka session timeout: how long a killed consumer's partitions wait before another takes them. */
  readonly consumerSessionTimeoutMs: number;
  /** A consumer that lags and has written nothing for this long makes /health answer 502. */
  readonly consumerStuckSeconds: number;
  /** Port of a `quarry consumer` process's /health and /metrics (0: any free port). */
  readonly consumerPort: number;
  /** The admin web UI's port (0: off) and address (local only unless told otherwise). */
  readonly adminPort: number;
  readonly adminHost: string;
}


function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`setting ${name} must be a non-negative integer, got '${raw}'`);
  }
  return value;
}

function jsonObject(env: NodeJS.ProcessEnv, name: string): Record<string, Record<string, unknown>> {
  const raw = env[name];
  if (raw === undefined || raw === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (reason) {
    throw new Error(`setting ${name} is not valid JSON: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`setting ${name} must be a JSON object`);
  return parsed as Record<string, Record<string, unknown>>;
}

function stringMap(env: NodeJS.ProcessEnv, name: string): Record<string, string> {
  const parsed = jsonObject(env, name) as Record<string, unknown>;
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== "string" || value === "") throw new Error(`setting ${name}: the value of '${key}' must be a non-empty string`);
  }
  return parsed as Record<string, string>;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? "").toLowerCase();
  if (raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new Error(`setting ${name} must be on or off, got '${env[name]}'`);
}

function consumerSelection(env: NodeJS.ProcessEnv): "all" | string[] {
  const raw = (env.QUARRY_CONSUMERS ?? "").trim();
  if (raw.toLowerCase() === "all") return "all";
  return raw.split(",").map((name) => name.trim()).filter(Boolean);
}

function subscriptionClock(env: NodeJS.ProcessEnv): "auto" | "commit_log" | "wall" {
  const raw = (env.QUARRY_SUBSCRIPTION_CLOCK ?? "").trim().toLowerCase();
  if (raw === "") return "auto";
  if (raw === "auto" || raw === "commit_log" || raw === "wall") return raw;
  throw new Error(`setting QUARRY_SUBSCRIPTION_CLOCK must be commit_log, wall or auto, got '${env.QUARRY_SUBSCRIPTION_CLOCK}'`);
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  return ["1", "true", "yes", "on"].includes((env[name] ?? "").toLowerCase());
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const logLevel = (env.LOG_LEVEL ?? "info") as Settings["logLevel"];
  if (!["debug", "info", "warn", "error"].includes(logLevel)) {
    throw new Error(`setting LOG_LEVEL must be one of debug, info, warn, error, got '${logLevel}'`);
  }
  return {
    port: integer(env, "PORT", 1218),
    host: env.HOST || "127.0.0.1",
    dataDir: resolve(env.QUARRY_DATA_DIR || "./data"),
    clickhouseUrl: env.CLICKHOUSE_URL || null,
    clickhouseUser: env.CLICKHOUSE_USER || "default",
    clickhousePassword: env.CLICKHOUSE_PASSWORD || "",
    demoRows: integer(env, "QUARRY_DEMO_ROWS", 1_000_000),
    natsUrl: env.NATS_URL || null,
    kafkaBrokers: (env.KAFKA_BROKERS || "").split(",").map((s) => s.trim()).filter(Boolean),
    statsInResponse: flag(env, "STATS_IN_RESPONSE"),
    logLevel,
    cacheTtlMs: integer(env, "QUARRY_CACHE_TTL_MS", 1000),
    cacheMaxBytes: integer(env, "QUARRY_CACHE_MAX_BYTES", 64 * 1024 * 1024),
    executionLimits: {
      maxExecutionTimeSeconds: integer(env, "QUARRY_MAX_EXECUTION_TIME", DEFAULT_EXECUTION_LIMITS.maxExecutionTimeSeconds),
      maxMemoryUsageBytes: integer(env, "QUARRY_MAX_MEMORY_USAGE", DEFAULT_EXECUTION_LIMITS.maxMemoryUsageBytes),
      maxResultRows: integer(env, "QUARRY_MAX_RESULT_ROWS", DEFAULT_EXECUTION_LIMITS.maxResultRows),
      maxResultBytes: integer(env, "QUARRY_MAX_RESULT_BYTES", DEFAULT_EXECUTION_LIMITS.maxResultBytes),
      byReferrer: env.QUARRY_LIMITS_BY_REFERRER ? parseReferrerLimits("setting QUARRY_LIMITS_BY_REFERRER", env.QUARRY_LIMITS_BY_REFERRER) : {},
    },
    policyOverrides: jsonObject(env, "QUARRY_POLICY_OVERRIDES"),
    queryLogFlushIntervalMs: Math.max(1, integer(env, "QUARRY_QUERYLOG_FLUSH_MS", 1000)),
    scheduler: onOff(env, "QUARRY_SCHEDULER", true),
    subscriptionStaleSeconds: Math.max(1, integer(env, "QUARRY_SUBSCRIPTION_STALE_SECONDS", 900)),
    subscriptionConcurrency: Math.max(1, integer(env, "QUARRY_SUBSCRIPTION_CONCURRENCY", 8)),
    subscriptionDelaySeconds: env.QUARRY_SUBSCRIPTION_DELAY_SECONDS ? integer(env, "QUARRY_SUBSCRIPTION_DELAY_SECONDS", 0) : null,
    subscriptionTopics: stringMap(env, "QUARRY_SUBSCRIPTION_TOPICS"),
    subscriptionClock: subscriptionClock(env),
    kafkaTopics: stringMap(env, "QUARRY_KAFKA_TOPICS"),
    consumerGroups: stringMap(env, "QUARRY_CONSUMER_GROUPS"),
    shutdownTimeoutMs: integer(env, "QUARRY_SHUTDOWN_TIMEOUT_MS", 5000),
    idleMemoryReleaseMs: integer(env, "QUARRY_IDLE_MEMORY_RELEASE_MS", 10_000),
    engineIdleThreads: Math.max(0, integer(env, "QUARRY_ENGINE_IDLE_THREADS", DEFAULT_ENGINE_IDLE_THREADS)),
    engineConditionCacheBytes: integer(env, "QUARRY_ENGINE_CONDITION_CACHE_BYTES", DEFAULT_ENGINE_CONDITION_CACHE_BYTES),
    engineExpressionCacheBytes: integer(env, "QUARRY_ENGINE_EXPRESSION_CACHE_BYTES", DEFAULT_ENGINE_EXPRESSION_CACHE_BYTES),
    queryUrl: env.QUARRY_QUERY_URL || `http://${env.HOST || "127.0.0.1"}:${integer(env, "PORT", 1218)}`,
    nodeId: env.QUARRY_NODE_ID || null,
    leaseMs: Math.max(500, integer(env, "QUARRY_LEASE_MS", 5000)),
    leaseRenewMs: Math.max(100, integer(env, "QUARRY_LEASE_RENEW_MS", 1000)),
    natsBucketPrefix: env.QUARRY_NATS_BUCKET_PREFIX || "quarry",
    natsReplicas: env.QUARRY_NATS_REPLICAS ? Math.max(1, integer(env, "QUARRY_NATS_REPLICAS", 1)) : null,
    schedulerPort: integer(env, "QUARRY_SCHEDULER_PORT", 1228),
    consumers: consumerSelection(env),
    consumerBatching: {
      maxBatchRows: Math.max(1, integer(env, "QUARRY_CONSUMER_MAX_BATCH_ROWS", 50_000)),
      maxBatchTimeMs: Math.max(1, integer(env, "QUARRY_CONSUMER_MAX_BATCH_TIME_MS", 2000)),
      maxBufferedRows: Math.max(1, integer(env, "QUARRY_CONSUMER_MAX_BUFFERED_ROWS", 100_000)),
    },
    consumerSourcePartitions: Math.max(1, integer(env, "QUARRY_CONSUMER_SOURCE_PARTITIONS", 1)),
    consumerSessionTimeoutMs: Math.max(6000, integer(env, "QUARRY_CONSUMER_SESSION_TIMEOUT_MS", 10_000)),
    consumerStuckSeconds: Math.max(1, integer(env, "QUARRY_CONSUMER_STUCK_SECONDS", 60)),
    consumerPort: integer(env, "QUARRY_CONSUMER_PORT", 1238),
    adminPort: integer(env, "ADMIN_PORT", 1219),
    adminHost: env.ADMIN_HOST || "127.0.0.1",
  };
}
