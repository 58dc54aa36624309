/**
 * Snuba's `_array_column_conditions`: a condition on an Array column (or a Nested sub-column,
 * `exception_stacks.type`, `tags.key`) compares each element. Positive operators hold when any
 * element matches, `arrayExists(x -> ifNull(op(x, rhs), 0), col)`; negative ones when every
 * element does, `arrayAll(...)`. A test that is NULL (an element or the value is NULL) does not
 * pass: `ifNull`, not Snuba's `assumeNotNull`, as the engine cannot make a column of a NULL of
 * type Nothing (`x = startsWith(NULL, s)`, code 44) and `ifNull` takes one. Columns the query ARRAY JOINs are single values and stay as
 * they are. Also Snuba's shorthand `arrayExists(col, '<op>', value)` (`_array_join_transformation`).
 */
import type { EntityDefinition } from "../datasets/definition-types.js";
import { memoizePerDefinition } from "../datasets/memoize-per-definition.js";
import { nullColumns } from "../datasets/null-columns.js";
import { nestedColumnParts } from "../datasets/nested-columns.js";
import type { TextPosition } from "../errors/query-service-error.js";
import { mapExpression, queryExpressions, visitExpression, type Expression, type LogicalQuery } from "../query/ast.js";

const ANY_ELEMENT = new Set(["equals", "greater", "greaterOrEquals", "less", "lessOrEquals", "in", "like", "isNull"]);
const EVERY_ELEMENT = new Set(["notEquals", "notIn", "notLike", "isNotNull"]);
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
 * What the rewrite makes of one comparison in a condition, or null when it leaves the call as it is:
 * - `constant`: its answer whatever the rows, `every`: the column is one the entity lacks, a
 *   bare NULL in its SQL (discover's `exception_stacks.*` on transactions), which has no
 *   elements, so no element matches and every element does. Not a test over an empty array:
 *   `array()` is an Array(Nothing), and the engine cannot convert the compared value to Nothing
 *   (`NOT IN ('error')`, code 48).
 * - `elements`: the per-element test, `arrayExists` or `arrayAll`.
 */
export interface ElementComparison {
  readonly column: Extract<Expression, { kind: "column" }>;
  readonly every: boolean;
  readonly form: "constant" | "elements";
}

function elementComparison(
  node: Extract<Expression, { kind: "function" }>,
  entityOf: (entityAlias: string | undefined) => EntityDefinition | undefined,
  arrayJoined: ReadonlySet<string>,
): ElementComparison | null {
  const every = EVERY_ELEMENT.has(node.name);
  if (!every && !ANY_ELEMENT.has(node.name)) return null;
  const [column] = node.args;
  if (column?.kind !== "column" || (arrayJoined.size > 0 && arrayJoined.has(`${column.entityAlias ?? ""}.${column.name}`))) return null;
  const entity = entityOf(column.entityAlias);
  if (!entity || !arrayColumns(entity).has(column.name)) return null;
  return { column, every, form: nullColumns(entity).has(column.name) ? "constant" : "elements" };
}

/** `arrayExists(x -> ifNull(op(x, ...values), 0), column)`, or arrayAll: a NULL test passes no element. */
function elementTest(every: boolean, operator: string, values: readonly Expression[], column: Expression, position: { position?: TextPosition }): Expression {
  const element: Expression = { kind: "argument", name: ELEMENT };
  const test: Expression = { kind: "function", name: "ifNull", args: [{ kind: "function", name: operator, args: [element, ...values] }, { kind: "literal", value: 0 }] };
  return { kind: "function", name: every ? "arrayAll" : "arrayExists", args: [{ kind: "lambda", params: [ELEMENT], body: test }, column], ...position };
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
      const comparison = elementComparison(node, entityOf, arrayJoined);
      if (comparison === null) return node;
      changed = true;
      const { column, every, form } = comparison;
      const position = node.position ? { position: node.position } : {};
      if (form === "constant") return { kind: "literal", value: every, ...position };
      return elementTest(every, node.name, node.args.slice(1), column, position);
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

/** The comparison Snuba's `arrayExists(col, '<op>', value)` shorthand spells, or null where the call is not one. */
function arrayShorthandComparison(node: Expression): string | null {
  if (node.kind !== "function" || (node.name !== "arrayExists" && node.name !== "arrayAll") || node.args.length < 2 || node.args.length > 3) return null;
  const [column, operator, value] = node.args;
  if (operator?.kind !== "literal" || typeof operator.value !== "string" || column?.kind === "lambda") return null;
  const name = SHORTHAND_OPERATORS.get(operator.value);
  return name && (value === undefined) === name.startsWith("is") ? name : null;
}

/** `arrayExists(col, '=', 'v')` -> `arrayExists(x -> ifNull(equals(x, 'v'), 0), col)`; same for arrayAll. */
function expandShorthand(node: Expression): Expression {
  const name = arrayShorthandComparison(node);
  if (name === null || node.kind !== "function") return node;
  const [column, , value] = node.args;
  return elementTest(node.name === "arrayAll", name, value ? [value] : [], column!, node.position ? { position: node.position } : {});
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
