/**
 * Entity processing and translation of a validated SnQL query into one SQL statement, for every
 * source: an entity (granularity condition, basic-function processors), a storage read as it
 * is, a join, or a subquery (translated inside out).
 */
import { buildJoinSql } from "../clickhouse/join-sql.js";
import { buildSql, type BuiltSql, type SqlBuildOptions } from "../clickhouse/sql-builder.js";
import { buildSubquerySql } from "../clickhouse/subquery-sql.js";
import { applyGranularityCondition } from "./granularity-condition.js";
import { applyArrayRewrites } from "./array-conditions.js";
import type { ValidatedSnql } from "./validation.js";

/** Snuba's turbo sampling rate. */
export const TURBO_SAMPLE_RATE = 0.1;

export interface TranslationOptions {
  /** Sample at TURBO_SAMPLE_RATE where the query has no SAMPLE, and skip FINAL. */
  readonly turbo: boolean;
}

export function translateSnql(validated: ValidatedSnql, options: TranslationOptions): BuiltSql {
  const build: SqlBuildOptions = {
    defaultSample: options.turbo ? TURBO_SAMPLE_RATE : null,
    turbo: options.turbo,
    basicFunctions: true,
  };
  switch (validated.kind) {
    case "entity": {
      const entity = validated.entity;
      const processed = applyGranularityCondition(applyArrayRewrites(validated.query, () => entity), entity);
      return buildSql(processed, entity, validated.storage, validated.aliases, build);
    }
    case "storage":
      return buildSql(validated.query, validated.entity, validated.storage, validated.aliases, { ...build, basicFunctions: false });
    case "join": {
      const query = applyArrayRewrites(validated.query, (alias) => (alias === undefined ? undefined : validated.entities.get(alias)));
      return buildJoinSql({ ...validated, query }, build);
    }
    case "subquery":
      return buildSubquerySql(validated.query, translateSnql(validated.inner, options), validated.aliases);
  }
}
