/**
 * Snuba's `_array_column_conditions`: a condition on an Array column (or a Nested sub-column,
 * `exception_stacks.type`, `tags.key`) compares each element. Positive operators hold when any
 * element matches, `arrayExists(x -> assumeNotNull(op(x, rhs)), col)`; negative ones when every
 * element does, `arrayAll(...)`. Columns the query ARRAY JOINs are single values and stay as
 * they are. Also Snuba's shorthand `arrayExists(col, '<op>', value)` (`_array_join_transformation`).
 */
import type { EntityDefinition } from "../datasets/definition-types.js";
import { memoizePerDefinition } from "../query/memoize-per-definition.js";
import { nullColumns } from "./null-columns.js";
import { nestedColumnParts } from "./nested-columns.js";
import { mapExpression, queryExpressions, visitExpression, type Expression, type LogicalQuery } from "../query/ast.js";

const ANY_ELEMENT = new Set(["equals", "greater", "greaterOrEquals", "less", "lessOrEquals", "in", "like", "isNull"]);
const EVERY_ELEMENT = new Set(["notEquals", "notIn", "notLike", "isNotNull"]);

/** Operators that, with an array column on the left, compare its elements (in conditions). */
export function comparesElements(operator: string): boolean {
  return ANY_ELEMENT.has(operator) || EVERY_ELEMENT.has(operator);
}
const ELEMENT = "x";

/** The entity's Array columns and the sub-columns of its Nested columns. */
const arrayColumns = memoizePerDefinition((entity: EntityDefinition): ReadonlySet<string> => {
  const names = new Set<string>();
  const nested = nestedColumnParts(entity);
  for (const column of entity.columns) {
    if (/^Array\(/.test(column.type)) names.add(column.name);
    for (const part of nested.get(column.name) ?? []) names.add(part);
  }
  return names;
});

/**
 * Whether a comparison in a condition with this column on its left compares the column's
 * elements: an Array column or a Nested column's sub-column (`tags.key = 'a'`), not a Nested
 * column read whole (`tags`), which is compared as one value.
 */
export function comparedByElements(entity: EntityDefinition, columnName: string): boolean {
  return arrayColumns(entity).has(columnName);
}

/** A NULL literal, or a column its entity lacks (a bare NULL in its SQL). */
function isNull(node: Expression, entityOf: (entityAlias: string | undefined) => EntityDefinition | undefined): boolean {
  if (node.kind === "literal") return node.value === null;
  if (node.kind !== "column") return false;
  const entity = entityOf(node.entityAlias);
  return entity !== undefined && nullColumns(entity).has(node.name);
}

/**
 * Rewrites the WHERE and HAVING conditions on array columns. `entityOf` names the entity of a
 * column (by its entity alias in a join).
 */
function applyArrayColumnConditions(
  query: LogicalQuery,
  entityOf: (entityAlias: string | undefined) => EntityDefinition | undefined,
): LogicalQuery {
  const arrayJoined = new Set((query.arrayJoin ?? []).flatMap((node) => (node.kind === "column" ? [`${node.entityAlias ?? ""}.${node.name}`] : [])));
  let changed = false;
  const rewrite = (condition: Expression): Expression =>
    mapExpression(condition, (node) => {
      if (node.kind !== "function") return node;
      const every = EVERY_ELEMENT.has(node.name);
      if (!every && !ANY_ELEMENT.has(node.name)) return node;
      const [column, ...rest] = node.args;
      if (column?.kind !== "column" || arrayJoined.has(`${column.entityAlias ?? ""}.${column.name}`)) return node;
      const entity = entityOf(column.entityAlias);
      if (!entity || !arrayColumns(entity).has(column.name)) return node;
      changed = true;
      // A column this entity lacks is a bare NULL in its SQL (discover's `exception_stacks.*` on
      // transactions): it has no elements, so no element matches and every element does, which
      // is the answer. Not a test over an empty array: `array()` is an Array(Nothing), and the
      // engine cannot convert the compared value to Nothing (`NOT IN ('error')`, code 48).
      const position = node.position ? { position: node.position } : {};
      if (nullColumns(entity).has(column.name)) return { kind: "literal", value: every, ...position };
      // Compared with NULL (`exception_frames.lineno >= NULL`, or a column this entity lacks:
      // `spans.exclusive_time_32 >= exception_frames.function` on discover_transactions), each
      // element's test is NULL, which no element passes: none matches, and every element does
      // only in an empty array. Written as the per-element test, the engine refuses it once the
      // array has an element (a NULL of type Nothing, code 44).
      if (rest.length === 1 && isNull(rest[0]!, entityOf)) {
        return every ? { kind: "function", name: "empty", args: [column], ...position } : { kind: "literal", value: false, ...position };
      }
      const element: Expression = { kind: "argument", name: ELEMENT };
      const test: Expression = { kind: "function", name: "assumeNotNull", args: [{ ...node, args: [element, ...rest] }] };
      return {
        kind: "function",
        name: every ? "arrayAll" : "arrayExists",
        args: [{ kind: "lambda", params: [ELEMENT], body: test }, column],
        ...position,
      };
    });
  const where = query.where ? rewrite(query.where) : null;
  const having = query.having ? rewrite(query.having) : null;
  return changed ? { ...query, where, having } : query;
}

/** SnQL operators as Snuba's `arrayExists(col, '<op>', value)` shorthand spells them. */
const SHORTHAND_OPERATORS: ReadonlyMap<string, string> = new Map([
  ["=", "equals"], ["!=", "notEquals"], ["<", "less"], ["<=", "lessOrEquals"], [">", "greater"], [">=", "greaterOrEquals"],
  ["IN", "in"], ["NOT IN", "notIn"], ["LIKE", "like"], ["NOT LIKE", "notLike"], ["IS NULL", "isNull"], ["IS NOT NULL", "isNotNull"],
]);

/** `arrayExists(col, '=', 'v')` -> `arrayExists(x -> assumeNotNull(equals(x, 'v')), col)`; same for arrayAll. */
function expandShorthand(node: Expression): Expression {
  if (node.kind !== "function" || (node.name !== "arrayExists" && node.name !== "arrayAll") || node.args.length < 2 || node.args.length > 3) return node;
  const [column, operator, value] = node.args;
  if (operator?.kind !== "literal" || typeof operator.value !== "string" || column?.kind === "lambda") return node;
  const name = SHORTHAND_OPERATORS.get(operator.value);
  if (!name || (value === undefined) !== name.startsWith("is")) return node;
  const element: Expression = { kind: "argument", name: ELEMENT };
  const test: Expression = { kind: "function", name: "assumeNotNull", args: [{ kind: "function", name, args: value ? [element, value] : [element] }] };
  return { ...node, args: [{ kind: "lambda", params: [ELEMENT], body: test }, column!] };
}

function applyArrayShorthand(query: LogicalQuery): LogicalQuery {
  const expand = (expression: Expression) => mapExpression(expression, expandShorthand);
  return {
    ...query,
    selected: query.selected.map((item) => ({ ...item, expression: expand(item.expression) })),
    where: query.where ? expand(query.where) : null,
    having: query.having ? expand(query.having) : null,
  };
}

/**
 * Both rewrites, each only when the query needs it: one look over the query decides, since
 * most queries need neither and rebuilding their trees would be wasted work.
 */
export function applyArrayRewrites(
  query: LogicalQuery,
  entityOf: (entityAlias: string | undefined) => EntityDefinition | undefined,
): LogicalQuery {
  let shorthand = false;
  let conditions = false;
  for (const expression of queryExpressions(query)) {
    visitExpression(expression, (node) => {
      if (node.kind !== "function") return;
      const first = node.args[0];
      if ((node.name === "arrayExists" || node.name === "arrayAll") && first?.kind !== "lambda") shorthand = true;
      if (first?.kind === "column" && (ANY_ELEMENT.has(node.name) || EVERY_ELEMENT.has(node.name))) {
        const entity = entityOf(first.entityAlias);
        if (entity && arrayColumns(entity).has(first.name)) conditions = true;
      }
    });
  }
  const expanded = shorthand ? applyArrayShorthand(query) : query;
  return conditions ? applyArrayColumnConditions(expanded, entityOf) : expanded;
}
