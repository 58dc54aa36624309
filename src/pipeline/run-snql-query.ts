/**
 * The SnQL pipeline, stage by stage (spec §1): parse the query text, validate it against the
 * entity, translate it to SQL on the entity's storage; then the shared back end runs it.
 */
import { buildSql } from "../clickhouse/sql-builder.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { QueryServiceError } from "../errors/query-service-error.js";
import { parseSnql } from "../snql/parse-snql.js";
import { validateEntityQuery } from "./entity-validation.js";
import { applyGranularityCondition } from "./granularity-condition.js";
import type { QueryRequest } from "./query-request.js";
import type { PreparedQuery } from "./prepared-query.js";
import type { QueryResult } from "./query-result.js";
import { type PipelineContext, runPreparedQuery } from "./run-prepared-query.js";
import { StageTimer } from "./stage-timer.js";

/** Snuba's turbo sampling rate. */
export const TURBO_SAMPLE_RATE = 0.1;

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
  timer.mark("prepare_query");
  const prepared: PreparedQuery = { ...built, entity: entity.name, storage };
  return runPreparedQuery(context, request, prepared, timer);
}
