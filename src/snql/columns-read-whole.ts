/**
 * Entity columns that a query can name but the storage does not hold as one column, so they
 * cannot be read whole:
 * - a column only the entity's aggregates read (`value` on metrics_distributions: `avg(value)`
 *   reads avgMerge(avg), `quantiles(0.5)(value)` quantilesMerge(percentiles), ...);
 * - a map split over hash buckets (`attributes_string` on eap_items: `attributes_string[k]` reads
 *   the bucket of k).
 * Written anywhere else, the SQL names a column the table lacks and ClickHouse fails (code 47,
 * UNKNOWN_IDENTIFIER); here it is an `invalid_query` at the column, saying how to read it.
 */
import type { EntityDefinition, StorageDefinition } from "../datasets/definition-types.js";
import { atPosition as at, invalidQuery } from "../errors/query-service-error.js";
import { queryExpressions, visitExpression, type Expression, type LogicalQuery } from "../query/ast.js";

interface ReadWhole {
  /** Column -> the aggregates that read it (their names, without the -If forms), for messages. */
  readonly aggregated: ReadonlyMap<string, readonly string[]>;
  /** Maps read only by key. */
  readonly byKey: ReadonlySet<string>;
}

const NOT_READ_WHOLE = new WeakMap<EntityDefinition, ReadWhole>();

function notReadWhole(entity: EntityDefinition, storage: StorageDefinition): ReadWhole {
  let known = NOT_READ_WHOLE.get(entity);
  if (known === undefined) {
    const stored = new Set(storage.columns.map((column) => column.name));
    const absent = (name: string) => !stored.has(name) && entity.columnMappers[name] === undefined && entity.timeBucketColumns[name] === undefined;
    const aggregated = new Map<string, string[]>();
    for (const mapper of entity.functionMappers ?? []) {
      if (!absent(mapper.argument) || mapper.from.endsWith("If")) continue;
      aggregated.set(mapper.argument, [...(aggregated.get(mapper.argument) ?? []), mapper.curried ? `${mapper.from}(…)(${mapper.argument})` : `${mapper.from}(${mapper.argument})`]);
    }
    const byKey = new Set(Object.entries(entity.subscriptables).flatMap(([name, sub]) => (sub.kind === "map" && sub.buckets !== undefined && absent(name) ? [name] : [])));
    known = { aggregated, byKey };
    NOT_READ_WHOLE.set(entity, known);
  }
  return known;
}

/**
 * Refuses a column of the entity that the storage cannot read whole, outside the calls that read
 * it. `aliases`: names the query declares, which stand for their definitions, not for columns.
 */
export function checkColumnsReadWhole(query: LogicalQuery, entity: EntityDefinition, storage: StorageDefinition, aliases: ReadonlyMap<string, Expression>): void {
  const { aggregated, byKey } = notReadWhole(entity, storage);
  if (aggregated.size === 0 && byKey.size === 0) return;
  // The first argument of a call the entity maps onto a stored state (`avg(value)`) is read by it.
  const readByMapper = new Set<Expression>();
  const mapped = new Set((entity.functionMappers ?? []).map((mapper) => `${mapper.from} ${mapper.argument}`));
  for (const expression of queryExpressions(query)) {
    visitExpression(expression, (node) => {
      if (node.kind !== "function" && node.kind !== "curried") return;
      const first = node.args[0];
      if (first?.kind === "column" && mapped.has(`${node.name} ${first.name}`)) readByMapper.add(first);
    });
  }
  for (const expression of queryExpressions(query)) {
    visitExpression(expression, (node) => {
      if (node.kind !== "column" || node.entityAlias !== undefined || readByMapper.has(node)) return;
      if (aliases.has(node.name) && !node.insideOwnAlias) return;
      const readers = aggregated.get(node.name);
      if (readers !== undefined) {
        throw invalidQuery(
          `column ${node.name}${at(node.position)} is not stored on entity '${entity.name}': only its aggregates read it, each from a stored state (${readers.join(", ")}, and their -If forms)`,
          node.position,
        );
      }
      if (byKey.has(node.name)) {
        throw invalidQuery(`column ${node.name}${at(node.position)} is a map that entity '${entity.name}' stores split by key: read one key as ${node.name}[key]`, node.position);
      }
    });
  }
}
