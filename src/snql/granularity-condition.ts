/**
 * Entity processing for pre-aggregated (metrics) entities: their tables hold every rollup
 * (10 s, 1 min, 1 h, 1 day) side by side, so a query must read exactly one or it counts each
 * value several times. As Snuba's granularity processors do, this adds `granularity = <stored>`
 * for the largest rollup that divides the query's GRANULARITY (or the entity's default).
 */
import { invalidQuery } from "../errors/query-service-error.js";
import type { EntityDefinition } from "../datasets/definition-types.js";
import { topLevelConjuncts, type Expression, type LogicalQuery } from "../query/ast.js";

const GRANULARITY_COLUMN = "granularity";

function namesGranularity(condition: Expression): boolean {
  return condition.kind === "function" && condition.args[0]?.kind === "column" && condition.args[0].name === GRANULARITY_COLUMN;
}

export function applyGranularityCondition(query: LogicalQuery, entity: EntityDefinition): LogicalQuery {
  if (entity.granularities.length === 0) return query;
  const explicit = topLevelConjuncts(query.where).some(namesGranularity);
  if (explicit) {
    if (query.granularity !== null) {
      throw invalidQuery("Granularities cannot be specified in both the GRANULARITY clause and WHERE clause.", query.position?.granularity);
    }
    return query;
  }
  const requested = query.granularity ?? entity.defaultGranularity ?? 60;
  let chosen = -1;
  entity.granularities.forEach((seconds, index) => {
    if (requested % seconds === 0 && (chosen < 0 || seconds > entity.granularities[chosen]!)) chosen = index;
  });
  if (chosen < 0) {
    throw invalidQuery(
      `Granularity must be multiple of one of (${entity.granularities.join(", ")}): ${requested} seconds is not`,
      query.position?.granularity ?? query.from.position,
    );
  }
  const stored = entity.storedGranularities?.[chosen] ?? entity.granularities[chosen]!;
  const condition: Expression = {
    kind: "function",
    name: "equals",
    args: [
      { kind: "column", name: GRANULARITY_COLUMN },
      { kind: "literal", value: stored },
    ],
  };
  const where: Expression = query.where ? { kind: "function", name: "and", args: [query.where, condition] } : condition;
  return { ...query, where };
}
