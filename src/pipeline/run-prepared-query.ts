/**
 * The back end every query language shares (spec §1, after prepare_query; facts §3.1):
 *   rate_limit  the storage's allocation policies admit, throttle or refuse the query
 *   cache_get   a stored result, or a running identical execution to wait for (single-flight)
 *   execute     ClickHouse runs the SQL under the granted threads and the execution limits
 *   cache_set   the result is stored for identical queries
 * then the response is built and one query-log row is queued (never awaited). Front ends call
 * this with the timer they started, so `timing.marks_ms` covers the whole request. A front end
 * whose answer is built from the rows (the RPC's time series) passes its builder, so a refusal
 * the builder raises is the query's one logged outcome rather than a second row after a success.
 */
import { admitFromCache, admitQuery, passthroughQuotaAllowance, type Admission } from "../allocation-policies/admit-query.js";
import { DEFAULT_POLICY_MAX_THREADS } from "../allocation-policies/policy-base.js";
import { cacheKey } from "../cache/cache-key.js";
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { locatedEngineError } from "../query/engine-error-position.js";
import { QueryServiceError } from "../errors/query-service-error.js";
import { executeSql, type ExecutionResult } from "../execution/execute-sql.js";
import { executionSettings } from "../execution/execution-limits.js";
import { implicitBackend, type QueryBackend } from "./query-backend.js";
import { markImmutable } from "../execution/result-values.js";
import { buildQueryLogRow, markRecorded, type QueryLogFacts } from "../query-log/build-query-log-row.js";
import type { PreparedQuery } from "../query/prepared-query.js";
import type { QueryRequest } from "../query/query-request.js";
import type { QueryResult, QueryStats } from "../query/query-result.js";
import type { StageTimer } from "../query/stage-timer.js";

export interface PipelineContext {
  readonly definitions: DefinitionLookup;
  readonly columnstore: ColumnstoreClient;
  /** Adds stats to every response (STATS_IN_RESPONSE). */
  readonly statsInResponse: boolean;
  /** Policies, cache, query log, metrics; a context without one gets a private default (no query log). */
  readonly backend?: QueryBackend;
  /**
   * Indexer ids of the data this store holds (the demo data's, on a demo store), for MQL requests
   * that send no `indexer_mappings`; absent: such requests are refused.
   */
  readonly storeIndexerMappings?: Readonly<Record<string, number | string>>;
}

/** Snuba's `sql` for a query refused before it ran. */
const NO_SQL_RUN = "no sql run";

function record(backend: QueryBackend, facts: QueryLogFacts): void {
  backend.queryLog?.record(buildQueryLogRow(facts));
  if (facts.error) markRecorded(facts.error);
}

export async function runPreparedQuery<Answer = QueryResult>(
  context: PipelineContext,
  request: QueryRequest,
  prepared: PreparedQuery,
  timer: StageTimer,
  buildAnswer: (result: QueryResult) => Answer = (result) => result as Answer,
): Promise<Answer> {
  const { storage } = prepared;
  if (request.dryRun) {
    const maxThreads = request.consistent ? 1 : DEFAULT_POLICY_MAX_THREADS;
    return buildAnswer({ data: [], meta: [], timing: timer.toTiming(), quota_allowance: passthroughQuotaAllowance(storage.name, maxThreads), sql: prepared.sql });
  }
  const backend = context.backend ?? implicitBackend(context.columnstore);
  const { metrics } = backend;
  const referrer = request.tenantIds.referrer;
  const logFacts = (overrides: Partial<QueryLogFacts>): QueryLogFacts => ({
    request,
    entity: prepared.entity,
    sql: prepared.sql,
    timing: timer.toTiming(),
    cacheStatus: "none",
    rowsRead: 0,
    bytesRead: 0,
    resultRows: 0,
    quotaAllowance: {},
    error: null,
    ...overrides,
  });

  const settings = executionSettings(backend.limits, storage.querySettings, referrer);
  if (request.consistent) settings.load_balancing = "in_order";
  // `consistent` queries always go to ClickHouse; others may be answered by the cache. The lookup
  // comes first (it is synchronous, so nothing changes before `run`) because a query the cache
  // answers costs ClickHouse nothing and is not counted by the policies.
  const key = request.consistent ? null : cacheKey(prepared.sql, settings);
  const cached = key === null ? null : backend.cache.lookup(key);

  // rate_limit
  const policies = backend.policies.forStorage(storage);
  let admission: Admission;
  try {
    admission = cached ? admitFromCache(policies, DEFAULT_POLICY_MAX_THREADS) : admitQuery(policies, request.tenantIds, Date.now());
  } catch (reason) {
    timer.mark("rate_limit");
    const error = QueryServiceError.from(reason);
    if (error.type === "rate-limited") {
      const rejectedBy = (error.extra.quota_allowance as { summary: { rejected_by: { policy?: string } } }).summary.rejected_by;
      metrics.policyDecisions.inc({ storage: storage.name, policy: rejectedBy.policy ?? "unknown", decision: "rejected" });
      Object.assign(error.extra, { timing: timer.toTiming(), sql: NO_SQL_RUN });
    }
    record(backend, logFacts({ timing: timer.toTiming(), quotaAllowance: error.extra.quota_allowance, error }));
    throw error;
  }
  timer.mark("rate_limit");
  if (admission.throttledBy) metrics.policyDecisions.inc({ storage: storage.name, policy: admission.throttledBy, decision: "throttled" });

  // Consistent queries run on one thread whatever the policies granted (facts §3.1).
  const maxThreads = request.consistent ? 1 : admission.maxThreads;
  admission.quotaAllowance.summary.threads_used = maxThreads;
  settings.max_threads = maxThreads;
  if (admission.maxBytesToRead > 0) settings.max_bytes_to_read = admission.maxBytesToRead;

  const stats: QueryStats = {
    columnstore_table: prepared.table,
    final: prepared.final,
    sample: prepared.sample,
    consistent: request.consistent,
    result_rows: 0,
    result_cols: 0,
    query_id: "",
    referrer,
    max_threads: maxThreads,
    cache_status: "bypass",
    rows_read: 0,
    bytes_read: 0,
  };

  // cache_get, execute, cache_set; `consistent` queries always go to ClickHouse.
  let executedHere = false;
  const execute = (): Promise<ExecutionResult> => {
    executedHere = true;
    return executeSql(context.columnstore.client, prepared.sql, { columnNames: prepared.columnNames, settings });
  };
  let execution: ExecutionResult;
  try {
    if (key === null) {
      execution = await execute();
      timer.mark("execute");
    } else if (cached) {
      stats.cache_status = cached.status;
      if (cached.status === "hit") {
        execution = await cached.value;
        timer.mark("cache_get");
      } else {
        timer.mark("cache_get");
        execution = await cached.value;
        timer.mark("execute");
      }
    } else {
      stats.cache_status = "miss";
      timer.mark("cache_get");
      execution = await backend.cache.run(key, execute);
      timer.mark("execute");
      // The result was stored when the execution settled, just before this point.
      timer.mark("cache_set");
    }
  } catch (reason) {
    if (!timer.hasMark("execute")) timer.mark("execute");
    metrics.cache.inc({ result: stats.cache_status });
    admission.settle({ ranOnColumnstore: executedHere, bytesScanned: 0 });
    let error = QueryServiceError.from(reason);
    if (error.type === "columnstore") {
      // Per request: a waiter shares the error of an identical SQL that another text produced, so
      // the position and the facts of this request go on a copy.
      if (prepared.writtenNames) error = locatedEngineError(error, prepared.writtenNames());
      if (executedHere) metrics.clickhouseErrors.inc({ code: String(error.code ?? -1) });
      error = error.withExtra({ timing: timer.toTiming(), stats, sql: prepared.sql, quota_allowance: admission.quotaAllowance });
    }
    record(backend, logFacts({ timing: timer.toTiming(), cacheStatus: stats.cache_status, quotaAllowance: admission.quotaAllowance, error }));
    throw error;
  }
  metrics.cache.inc({ result: stats.cache_status });
  if (key !== null) {
    // A cached result is shared by every response that hits it and never modified: its rows
    // are serialised once.
    markImmutable(execution.data);
    markImmutable(execution.meta);
  }
  // Only the request that ran the SQL read anything; hits and waiters are free (facts §7: quotas
  // count ClickHouse work).
  const rowsRead = executedHere ? execution.rowsRead : 0;
  const bytesRead = executedHere ? execution.bytesRead : 0;
  admission.settle({ ranOnColumnstore: executedHere, bytesScanned: bytesRead });

  const timing = timer.toTiming();
  const result: QueryResult = {
    data: execution.data,
    meta: execution.meta,
    timing,
    quota_allowance: admission.quotaAllowance,
  };
  if (execution.totals) result.totals = execution.totals;
  Object.assign(stats, {
    result_rows: execution.data.length,
    result_cols: execution.meta.length,
    query_id: execution.queryId,
    rows_read: rowsRead,
    bytes_read: bytesRead,
  });
  if (request.debug || context.statsInResponse) result.stats = stats;
  if (request.debug) result.sql = prepared.sql;
  const ranFacts = { timing, cacheStatus: stats.cache_status, rowsRead, bytesRead, resultRows: execution.data.length, quotaAllowance: admission.quotaAllowance };
  let answer: Answer;
  try {
    answer = buildAnswer(result);
  } catch (reason) {
    const error = QueryServiceError.from(reason);
    record(backend, logFacts({ ...ranFacts, error }));
    throw error;
  }
  record(backend, logFacts(ranFacts));
  return answer;
}
