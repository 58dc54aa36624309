/**
 * The SnQL pipeline, stage by stage (spec §1): parse the query text, validate it against the
 * entity, translate it to SQL on the entity's storage, execute it, answer. Each stage is timed.
 */
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import { buildSql } from "../clickhouse/sql-builder.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { QueryServiceError } from "../errors/query-service-error.js";
import { executeSql } from "../execution/execute-sql.js";
import { DEFAULT_MAX_THREADS, passthroughAllowance } from "../execution/quota-allowance.js";
import { parseSnql } from "../snql/parse-snql.js";
import { validateEntityQuery } from "./entity-validation.js";
import { applyGranularityCondition } from "./granularity-condition.js";
import type { QueryRequest } from "./query-request.js";
import type { QueryResult, QueryStats } from "./query-result.js";
import { StageTimer } from "./stage-timer.js";

/** Snuba's turbo sampling rate. */
export const TURBO_SAMPLE_RATE = 0.1;

export interface PipelineContext {
  readonly definitions: DefinitionLookup;
  readonly columnstore: ColumnstoreClient;
  /** Adds stats to every response (STATS_IN_RESPONSE). */
  readonly statsInResponse: boolean;
}

export function requireDataset(definitions: DefinitionLookup, name: string): void {
  if (!definitions.dataset(name)) {
    throw new QueryServiceError("invalid_query", `dataset '${name}' does not exist`, { httpStatus: 404 });
  }
}

export async function runSnqlQuery(context: PipelineContext, request: QueryRequest): Promise<QueryResult> {
  const timer = new StageTimer();
  requireDataset(context.definitions, request.dataset);
  const logical = parseSnql(request.query);
  const validated = validateEntityQuery(logical, context.definitions);
  timer.mark("validate_schema");

  const entity = validated.entity;
  const storage = context.definitions.storage(entity.readableStorage);
  if (!storage) throw new QueryServiceError("internal_server_error", `entity '${entity.name}' names a missing storage '${entity.readableStorage}'`);
  const processed = applyGranularityCondition(logical, entity);
  const built = buildSql(processed, entity, storage, new Set(validated.aliases.keys()), {
    defaultSample: request.turbo ? TURBO_SAMPLE_RATE : null,
  });
  const maxThreads = request.consistent ? 1 : DEFAULT_MAX_THREADS;
  const quotaAllowance = passthroughAllowance(storage.name, maxThreads);
  timer.mark("prepare_query");

  if (request.dryRun) {
    return { data: [], meta: [], timing: timer.toTiming(), quota_allowance: quotaAllowance, sql: built.sql };
  }

  const settings: Record<string, string | number> = { ...storage.querySettings, max_threads: maxThreads };
  if (request.consistent) settings.load_balancing = "in_order";
  const baseStats = (): QueryStats => ({
    columnstore_table: built.table,
    final: built.final,
    sample: built.sample,
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
    execution = await executeSql(context.columnstore.client, built.sql, { columnNames: built.columnNames, settings });
  } catch (reason) {
    timer.mark("execute");
    const error = QueryServiceError.from(reason);
    if (error.type === "columnstore") {
      Object.assign(error.extra, { timing: timer.toTiming(), stats: baseStats(), sql: built.sql, quota_allowance: quotaAllowance });
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
  if (request.debug) result.sql = built.sql;
  return result;
}
