/**
 * The long-lived parts of the back end, built once per server: allocation policies and their
 * counters, the result cache, the query-log writer, the metrics, and the execution limits.
 */
import { PolicyRegistry, type PolicyArgOverrides } from "../allocation-policies/policy-registry.js";
import { PreparedQueryMemo } from "../cache/prepared-query-memo.js";
import { ReadthroughCache } from "../cache/readthrough-cache.js";
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import { ServiceMetrics } from "../metrics/service-metrics.js";
import { DEFAULT_QUERY_LOG_OPTIONS, QueryLogWriter } from "../query-log/query-log-writer.js";
import type { ExecutionResult } from "../execution/execute-sql.js";
import { DEFAULT_EXECUTION_LIMITS, type ExecutionLimits } from "../execution/execution-limits.js";
import { stringifyResponse } from "../execution/result-values.js";

export interface BackendOptions {
  /** Policy name -> args merged over the YAML args of every storage (tests, benches, operators). */
  readonly policyOverrides?: PolicyArgOverrides;
  readonly cacheTtlMs?: number;
  readonly cacheMaxBytes?: number;
  readonly limits?: ExecutionLimits;
  /** False: no query log at all (tools that must not write). */
  readonly queryLog?: boolean;
  readonly queryLogFlushIntervalMs?: number;
  readonly queryLogBatchSize?: number;
  readonly queryLogMaxBufferedRows?: number;
  readonly queryLogMaxBufferedChars?: number;
  /** Where the query log says why it dropped rows or backs off (the server's log). */
  readonly log?: (line: string) => void;
}

const DEFAULT_CACHE_TTL_MS = 1000;
const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** The querylog storage's table. */
const QUERY_LOG_TABLE = "querylog_local";

/** A cached execution and its size, measured once when it is stored. */
function approximateSize(result: ExecutionResult): number {
  return stringifyResponse(result.data).length + stringifyResponse(result.meta).length + 256;
}

export class QueryBackend {
  readonly metrics = new ServiceMetrics();
  readonly policies: PolicyRegistry;
  readonly cache: ReadthroughCache<ExecutionResult>;
  /** Front ends memoise their PreparedQuery here (per server: it depends on the definitions). */
  readonly frontEndMemo = new PreparedQueryMemo();
  readonly queryLog: QueryLogWriter | null;
  readonly limits: ExecutionLimits;
  private readonly sweeper: NodeJS.Timeout;

  constructor(columnstore: ColumnstoreClient, options: BackendOptions = {}) {
    this.policies = new PolicyRegistry(options.policyOverrides ?? {});
    this.cache = new ReadthroughCache<ExecutionResult>(
      { ttlMs: options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS, maxBytes: options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES },
      approximateSize,
    );
    this.limits = options.limits ?? DEFAULT_EXECUTION_LIMITS;
    this.queryLog =
      options.queryLog === false
        ? null
        : new QueryLogWriter(columnstore.client, {
            ...DEFAULT_QUERY_LOG_OPTIONS,
            table: QUERY_LOG_TABLE,
            batchRows: options.queryLogBatchSize ?? DEFAULT_QUERY_LOG_OPTIONS.batchRows,
            flushIntervalMs: options.queryLogFlushIntervalMs ?? DEFAULT_QUERY_LOG_OPTIONS.flushIntervalMs,
            maxBufferedRows: options.queryLogMaxBufferedRows ?? DEFAULT_QUERY_LOG_OPTIONS.maxBufferedRows,
            maxBufferedChars: options.queryLogMaxBufferedChars ?? DEFAULT_QUERY_LOG_OPTIONS.maxBufferedChars,
            onWritten: (rows) => this.metrics.queryLogWritten.inc(rows),
            onDropped: (rows, reason) => this.metrics.queryLogDropped.inc({ reason }, rows),
            onFailure: () => this.metrics.queryLogFailures.inc(),
            ...(options.log ? { log: options.log } : {}),
          });
    // Expired results would otherwise stay until new ones push them out: after a burst of distinct
    // queries, up to the whole byte budget. The policies' per-tenant windows likewise, until
    // admissions come again.
    const ttl = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
    this.sweeper = setInterval(() => {
      this.cache.sweepExpired();
      this.policies.sweep(Date.now());
    }, Math.max(1000, ttl));
    this.sweeper.unref();
    this.metrics.addGauge("quarry_cache_bytes", "Bytes held by the result cache.", () => this.cache.bytes);
    this.metrics.addGauge("quarry_cache_entries", "Entries in the result cache.", () => this.cache.entries);
    this.metrics.addGauge("quarry_querylog_buffered_rows", "Query-log rows waiting to be written.", () => this.queryLog?.buffered ?? 0);
    this.metrics.addGauge("quarry_querylog_buffered_chars", "Characters of encoded query-log rows waiting to be written.", () => this.queryLog?.bufferedChars ?? 0);
  }

  /** Flushes the query log (for up to `deadlineMs`); call before closing the ClickHouse client. */
  async close(deadlineMs?: number): Promise<void> {
    clearInterval(this.sweeper);
    await this.queryLog?.close(deadlineMs);
  }
}

const implicitBackends = new WeakMap<ColumnstoreClient, QueryBackend>();

/** The backend of a context built without one (tools and tests): one per ClickHouse client. */
export function implicitBackend(columnstore: ColumnstoreClient): QueryBackend {
  let backend = implicitBackends.get(columnstore);
  if (!backend) {
    backend = new QueryBackend(columnstore, { queryLog: false });
    implicitBackends.set(columnstore, backend);
  }
  return backend;
}
