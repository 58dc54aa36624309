/**
 * The SnQL pipeline, stage by stage (spec §1): parse the query text, validate it against the
 * definitions, translate it to SQL on its storage; then the shared back end runs it.
 */
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { frontEndKey } from "../cache/prepared-query-memo.js";
import { implicitBackend } from "../pipeline/query-backend.js";
import { writtenNames, type WrittenNames } from "../query/written-names.js";
import { parseSnql } from "./parse-snql.js";
import type { QueryRequest } from "../query/query-request.js";
import type { PreparedQuery } from "../query/prepared-query.js";
import type { QueryResult } from "../query/query-result.js";
import { type PipelineContext, runPreparedQuery } from "../pipeline/run-prepared-query.js";
import { translateSnql } from "./translation.js";
import { primaryEntityName, primaryStorage, validateSnqlQuery, type ValidatedSnql } from "./validation.js";
import { requireDataset } from "../datasets/require-dataset.js";
import { StageTimer } from "../query/stage-timer.js";

/** Parse, validate and translate: everything before execution (what `dry_run` and the bench run). */
export function prepareSnqlQuery(definitions: DefinitionLookup, text: string, turbo: boolean, timer?: StageTimer): PreparedQuery {
  const validated = validateSnqlQuery(parseSnql(text), definitions);
  timer?.mark("validate_schema");
  const prepared = prepareValidatedSnql(validated, turbo, () => writtenNames(parseSnql(text)));
  timer?.mark("prepare_query");
  return prepared;
}

/** Translation of an already validated query (subscriptions validate once and translate per window). */
export function prepareValidatedSnql(validated: ValidatedSnql, turbo: boolean, names?: () => WrittenNames): PreparedQuery {
  const built = translateSnql(validated, { turbo });
  // Spelled out rather than `{ ...built, ... }`: entity, join and subquery SQL come from
  // different object literals, and spreading such a polymorphic object takes V8's slow path.
  return {
    sql: built.sql,
    columnNames: built.columnNames,
    table: built.table,
    sample: built.sample,
    final: built.final,
    entity: primaryEntityName(validated),
    storage: primaryStorage(validated),
    // Parses the text again when the engine fails the query: a memoised query keeps its text
    // (no larger than the memo's key), not a tree several times that size.
    writtenNames: names,
  };
}

export async function runSnqlQuery(context: PipelineContext, request: QueryRequest): Promise<QueryResult> {
  const timer = new StageTimer();
  requireDataset(context.definitions, request.dataset);
  // The front end is pure: a repeated query reuses its PreparedQuery (src/cache/prepared-query-memo.ts).
  const memo = (context.backend ?? implicitBackend(context.columnstore)).frontEndMemo;
  const prepared = memo.prepare(frontEndKey("snql", request.dataset, request.query, [request.turbo]), timer, ["validate_schema", "prepare_query"], () =>
    prepareSnqlQuery(context.definitions, request.query, request.turbo, timer),
  );
  return runPreparedQuery(context, request, prepared, timer);
}
