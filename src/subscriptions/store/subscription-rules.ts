/**
 * The checks Snuba's entity subscription validators make on a stored query (facts B5.5), before
 * the window is added: it reads the subscription's own entity, selects at most N columns, uses
 * only the clauses the entity allows, leaves the time column to the scheduler, and (metrics)
 * pins every grouped column with a condition. Failures are `invalid_query`, as in Snuba.
 */
import type { EntityDefinition, SubscriptionSupport } from "../../datasets/definition-types.js";
import { invalidQuery } from "../../errors/query-service-error.js";
import { topLevelConjuncts, type Expression, type LogicalQuery } from "../../query/ast.js";

const COMPARISONS = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals", "in", "notIn"]);

function isColumn(expression: Expression | undefined, name: string): boolean {
  return expression?.kind === "column" && expression.name === name && expression.entityAlias === undefined;
}

function isIntegerLiteral(expression: Expression | undefined): boolean {
  return expression?.kind === "literal" && typeof expression.value === "number" && Number.isInteger(expression.value);
}

export function checkSubscriptionQuery(query: LogicalQuery, entity: EntityDefinition, support: SubscriptionSupport): void {
  if (query.from.kind !== "entity") {
    throw invalidQuery(`a subscription query reads one entity with MATCH (${entity.name}); this one reads a ${query.from.kind}`, query.from.position);
  }
  if (query.from.name !== entity.name) {
    throw invalidQuery(
      `the subscription is on entity ${entity.name} but its query reads MATCH (${query.from.name}); match the entity of the path`,
      query.from.position,
    );
  }
  if (query.selected.length > support.maxAggregations) {
    throw invalidQuery(
      support.maxAggregations === 1
        ? "A maximum of 1 aggregation is allowed in the select"
        : `A maximum of ${support.maxAggregations} aggregations are allowed in the select`,
    );
  }
  if (!support.allowGroupBy && query.groupBy.length > 0) throw invalidQuery("invalid clause groupby in subscription query");
  if (!support.allowHavingAndOrderBy) {
    if (query.having) throw invalidQuery("invalid clause having in subscription query");
    if (query.orderBy.length > 0) throw invalidQuery("invalid clause orderby in subscription query");
  }
  const timeColumn = entity.requiredTimeColumn;
  const conjuncts = topLevelConjuncts(query.where);
  if (timeColumn) {
    for (const condition of conjuncts) {
      if (condition.kind === "function" && COMPARISONS.has(condition.name) && isColumn(condition.args[0], timeColumn)) {
        throw invalidQuery(
          `Cannot have existing conditions on time field ${timeColumn}: the scheduler adds ${timeColumn} >= T - time_window AND ${timeColumn} < T to every run`,
          condition.position,
        );
      }
    }
  }
  if (support.groupByRequiresCondition) {
    for (const grouped of query.groupBy) {
      if (grouped.kind !== "column") continue;
      const pinned = conjuncts.some((condition) => {
        if (condition.kind !== "function" || !isColumn(condition.args[0], grouped.name)) return false;
        const value = condition.args[1];
        if (condition.name === "equals") return isIntegerLiteral(value);
        return condition.name === "in" && value?.kind === "function" && (value.name === "tuple" || value.name === "array");
      });
      if (!pinned) {
        throw invalidQuery(
          `Every field in groupby must have a corresponding condition in where clause. missing condition for field ${grouped.name}`,
          grouped.position,
        );
      }
    }
  }
}
