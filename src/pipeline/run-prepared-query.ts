/**
 * The back end every query language shares (spec §1, after prepare_query): admit the query under
 * the storage's allocation policies, execute it, and build the response. Front ends call this
 * with the timer they started, so `timing.marks_ms` covers the whole request.
 */
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { QueryServiceError } from "../errors/query-service-error.js";
import { executeSql } from "../execution/execute-sql.js";
import { DEFAULT_MAX_THREADS, passthroughAllowance } from "../execution/quota-allowance.js";
import type { PreparedQuery } from "./prepared-query.js";
import type { QueryRequest } from "./query-request.js";
import type { QueryResult, QueryStats } from "./query-result.js";
import type { StageTimer } from "./stage-timer.js";

export interface PipelineContext {
  readonly definitions: DefinitionLookup;
  readonly columnstore: ColumnstoreClient;
  /** Adds stats to every response (STATS_IN_RESPONSE). */
  readonly statsInResponse: boolean;
}

export async function runPreparedQuery(
  context: PipelineContext,
  request: QueryRequest,
  prepared: PreparedQuery,
  timer: StageTimer,
): Promise<QueryResult> {
  const { storage } = prepared;
  const maxThreads = request.consistent ? 1 : DEFAULT_MAX_THREADS;
  const quotaAllowance = passthroughAllowance(storage.name, maxThreads);

  if (request.dryRun) {
    return { data: [], meta: [], timing: timer.toTiming(), quota_allowance: quotaAllowance, sql: prepared.sql };
  }

  const settings: Record<string, string | number> = { ...storage.querySettings, max_threads: maxThreads };
  if (request.consistent) settings.load_balancing = "in_order";
  const baseStats = (): QueryStats => ({
    columnstore_table: prepared.table,
    final: prepared.final,
    sample: prepared.sample,
    consistent: request.consistent,
    result_rows: 0,
    result_cols: 0,
    query_id: "",
    referrer: request.tenantIds.referrer,
    max_threads: maxThreads,
    cache_status: "bypass",
    rows_read: 0,
    bytes_read: 0,
  });
  let execution;
  try {
    execution = await executeSql(context.columnstore.client, prepared.sql, { columnNames: prepared.columnNames, settings });
  } catch (reason) {
    timer.mark("execute");
    const error = QueryServiceError.from(reason);
    if (error.type === "columnstore") {
      Object.assign(error.extra, { timing: timer.toTiming(), stats: baseStats(), sql: prepared.sql, quota_allowance: quotaAllowance });
    }
    throw error;
  }
  timer.mark("execute");

  const result: QueryResult = {
    data: execution.data,
    meta: execution.meta,
    timing: timer.toTiming(),
    quota_allowance: quotaAllowance,
  };
  if (execution.totals) result.totals = execution.totals;
  if (request.debug || context.statsInResponse) {
    result.stats = {
      ...baseStats(),
      result_rows: execution.data.length,
      result_cols: execution.meta.length,
      query_id: execution.queryId,
      rows_read: execution.rowsRead,
      bytes_read: execution.bytesRead,
    };
  }
  if (request.debug) result.sql = prepared.sql;
  return result;
}
