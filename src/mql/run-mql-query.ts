/**
 * The MQL pipeline (spec §4.2): parse the MQL text, check its context, resolve metric and tag
 * names through the indexer mappings, translate to one SQL query; then the shared back end runs
 * it like any SnQL query.
 */
import type { IndexerMappings, MqlContext } from "./mql-context.js";
import { parseMql } from "./parse-mql.js";
import { popTotalsRow } from "./totals-row.js";
import { translateMql, type TranslatedMql } from "./translate-mql.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import type { PreparedQuery } from "../query/prepared-query.js";
import type { QueryRequest } from "../query/query-request.js";
import type { QueryResult } from "../query/query-result.js";
import { type PipelineContext, runPreparedQuery } from "../pipeline/run-prepared-query.js";
import { requireDataset } from "../datasets/require-dataset.js";
import { StageTimer } from "../query/stage-timer.js";

/** A query request whose `query` is MQL text, with its validated `mql_context`. */
export interface MqlQueryRequest extends QueryRequest {
  readonly mqlContext: MqlContext;
}

function toPrepared(translated: TranslatedMql): PreparedQuery {
  return {
    sql: translated.sql,
    columnNames: translated.columnNames,
    entity: translated.entity.name,
    storage: translated.storage,
    table: translated.storage.table,
    final: false,
    sample: null,
  };
}

/** Everything up to the SQL, in one call (what the bench measures). */
export function prepareMqlQuery(
  definitions: DefinitionLookup,
  dataset: string,
  query: string,
  context: MqlContext,
  storeMappings: IndexerMappings | null = null,
): PreparedQuery {
  return toPrepared(translateMql(parseMql(query), context, dataset, definitions, storeMappings));
}

export async function runMqlQuery(context: PipelineContext, request: MqlQueryRequest): Promise<QueryResult> {
  const timer = new StageTimer();
  requireDataset(context.definitions, request.dataset);
  const expression = parseMql(request.query);
  timer.mark("validate_schema");
  const prepared = toPrepared(translateMql(expression, request.mqlContext, request.dataset, context.definitions, context.storeIndexerMappings ?? null));
  timer.mark("prepare_query");
  return popTotalsRow(await runPreparedQuery(context, request, prepared, timer));
}
