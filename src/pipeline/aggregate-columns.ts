/**
 * The columns an entity computes with an aggregate (`sessions` on sessions is
 * `sumMerge(sessions_state)`): in a query they are aggregates, refused in WHERE and BY and
 * inside another aggregate, as an aggregate function written out would be.
 */
import { AGGREGATE_FUNCTIONS } from "../clickhouse/function-allow-list.js";
import type { EntityDefinition } from "../datasets/definition-types.js";
import { memoizePerDefinition } from "../query/memoize-per-definition.js";

/** Column name -> its SQL, for the columns an entity maps to an aggregate expression. */
export const aggregateColumns = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, string> => {
  const columns = new Map<string, string>();
  for (const [name, mapper] of Object.entries(entity.columnMappers)) {
    if (mapper.kind !== "expression") continue;
    const outer = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(/.exec(mapper.sql)?.[1];
    if (outer !== undefined && (AGGREGATE_FUNCTIONS.has(outer) || outer.endsWith("Merge"))) columns.set(name, mapper.sql);
  }
  return columns;
});
