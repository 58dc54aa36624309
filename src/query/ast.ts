/**
 * The logical query model: immutable nodes with a `kind` discriminant. The SnQL parser builds
 * it, validators read it, the translator maps it to storage columns and the ClickHouse
 * formatter prints it. Operators are function nodes (`equals`, `and`, `plus`, ...) as in Snuba,
 * so one visitor handles them all.
 */
import type { TextPosition } from "../errors/query-service-error.js";

export type LiteralValue = string | number | boolean | null;

export interface ColumnNode {
  readonly kind: "column";
  readonly name: string;
  /** Entity alias in join queries (`e.project_id`). */
  readonly entityAlias?: string;
  /**
   * The column itself although an alias of the same name exists: it stands inside that alias's
   * own definition (`toString(partition) AS partition`). Set by alias-resolution.ts.
   */
  readonly insideOwnAlias?: true;
  readonly position?: TextPosition;
}

export interface LiteralNode {
  readonly kind: "literal";
  readonly value: LiteralValue;
  /**
   * An integer as written, where `value` (a double) cannot hold it exactly (past 2^53: hashes,
   * UInt64 ids). SQL and SnQL print these digits, so the engine compares the number the caller sent.
   */
  readonly digits?: string;
  readonly position?: TextPosition;
}

/** A `toDateTime('...')` with a literal string, resolved to an instant (UTC, whole seconds). */
export interface DateTimeLiteralNode {
  readonly kind: "datetime";
  readonly epochSeconds: number;
  readonly position?: TextPosition;
}

export interface FunctionCallNode {
  readonly kind: "function";
  readonly name: string;
  readonly args: readonly Expression[];
  readonly alias?: string;
  readonly position?: TextPosition;
}

/** `quantile(0.95)(duration)`: parameters, then arguments. */
export interface CurriedFunctionCallNode {
  readonly kind: "curried";
  readonly name: string;
  readonly params: readonly Expression[];
  readonly args: readonly Expression[];
  readonly alias?: string;
  readonly position?: TextPosition;
}

/** `tags[key]`, `contexts[key]`. */
export interface SubscriptNode {
  readonly kind: "subscript";
  readonly column: string;
  readonly key: string;
  readonly entityAlias?: string;
  readonly position?: TextPosition;
}

/** `(`x`, `y`) -> f(`x`, `y`)`: only as a function argument. */
export interface LambdaNode {
  readonly kind: "lambda";
  readonly params: readonly string[];
  readonly body: Expression;
  readonly position?: TextPosition;
}

/** A lambda parameter referenced in its body (`` `x` ``). */
export interface LambdaArgumentNode {
  readonly kind: "argument";
  readonly name: string;
  readonly position?: TextPosition;
}

export type Expression =
  | ColumnNode
  | LiteralNode
  | DateTimeLiteralNode
  | FunctionCallNode
  | CurriedFunctionCallNode
  | SubscriptNode
  | LambdaNode
  | LambdaArgumentNode;

/** One item of the output: its user-facing name and the expression that computes it. */
export interface SelectedExpression {
  readonly name: string;
  readonly expression: Expression;
  /** An explicit `expr AS alias` on a column or subscript (functions carry their own alias). */
  readonly alias?: string;
}

export interface OrderByItem {
  readonly expression: Expression;
  readonly direction: "ASC" | "DESC";
}

export interface EntitySource {
  readonly kind: "entity";
  readonly name: string;
  readonly sample?: number;
  readonly position?: TextPosition;
}

/** `MATCH STORAGE(errors)`: a storage read directly, its columns as they are. */
export interface StorageSource {
  readonly kind: "storage";
  readonly name: string;
  readonly sample?: number;
  readonly position?: TextPosition;
}

/** One `(alias: entity)` node of a join. */
export interface JoinEntity {
  readonly alias: string;
  readonly entity: string;
  readonly sample?: number;
  readonly position?: TextPosition;
}

/** `(lhs) -[relationship]-> (rhs)`: a relationship the lhs entity's YAML declares. */
export interface JoinEdge {
  readonly lhs: string;
  readonly relationship: string;
  readonly rhs: string;
  readonly position?: TextPosition;
}

export interface JoinSource {
  readonly kind: "join";
  /** Every entity alias once, in order of first appearance (the left-most first). */
  readonly entities: readonly JoinEntity[];
  readonly edges: readonly JoinEdge[];
  readonly position?: TextPosition;
}

/** `MATCH { <query> }`: the outer query reads the inner query's output columns. */
export interface SubquerySource {
  readonly kind: "subquery";
  readonly query: LogicalQuery;
  readonly position?: TextPosition;
}

export type QuerySource = EntitySource | StorageSource | JoinSource | SubquerySource;

/** `LIMIT n BY a, b`: at most n rows per distinct (a, b). */
export interface LimitBy {
  readonly limit: number;
  readonly columns: readonly Expression[];
}

/** Where some clauses are in the query text, for messages about them. */
export interface ClausePositions {
  readonly granularity?: TextPosition;
  readonly totals?: TextPosition;
}

export interface LogicalQuery {
  readonly from: QuerySource;
  /** BY expressions come first (Snuba prepends them to the output), then SELECT items. */
  readonly selected: readonly SelectedExpression[];
  readonly groupBy: readonly Expression[];
  readonly where: Expression | null;
  readonly having: Expression | null;
  readonly orderBy: readonly OrderByItem[];
  /** `ARRAY JOIN` columns (absent or empty: none). */
  readonly arrayJoin?: readonly Expression[];
  readonly limitBy?: LimitBy | null;
  /** null only in subqueries without LIMIT (Snuba applies the default to the outer query only). */
  readonly limit: number | null;
  readonly offset: number;
  readonly granularity: number | null;
  readonly totals: boolean;
  readonly position?: ClausePositions;
}

/** The top-level AND operands of a condition (the condition itself when it is not an AND). */
export function topLevelConjuncts(condition: Expression | null, into: Expression[] = []): Expression[] {
  if (!condition) return into;
  if (condition.kind === "function" && condition.name === "and") {
    for (const arg of condition.args) topLevelConjuncts(arg, into);
  } else {
    into.push(condition);
  }
  return into;
}

/**
 * Calls `visit` on every node, depth first, with the lambda parameters bound around it. A plain
 * callback rather than a generator: validation runs it on every node of every query.
 */
export function visitExpression(
  expression: Expression,
  visit: (node: Expression, bound: readonly string[]) => void,
  bound: readonly string[] = [],
): void {
  visit(expression, bound);
  switch (expression.kind) {
    case "function":
      for (const arg of expression.args) visitExpression(arg, visit, bound);
      break;
    case "curried":
      for (const param of expression.params) visitExpression(param, visit, bound);
      for (const arg of expression.args) visitExpression(arg, visit, bound);
      break;
    case "lambda":
      visitExpression(expression.body, visit, [...bound, ...expression.params]);
      break;
    default:
      break;
  }
}

/** Rebuilds an expression bottom-up, `map` applied to every node after its children. */
export function mapExpression(expression: Expression, map: (node: Expression) => Expression): Expression {
  switch (expression.kind) {
    case "function":
      return map({ ...expression, args: expression.args.map((arg) => mapExpression(arg, map)) });
    case "curried":
      return map({
        ...expression,
        params: expression.params.map((param) => mapExpression(param, map)),
        args: expression.args.map((arg) => mapExpression(arg, map)),
      });
    case "lambda":
      return map({ ...expression, body: mapExpression(expression.body, map) });
    default:
      return map(expression);
  }
}

/**
 * The query level with every clause's expressions replaced by `map` (the SELECT items by
 * `mapSelected` when it is given: it also sees the item, e.g. its alias). Subqueries untouched.
 */
export function mapClauses(
  query: LogicalQuery,
  map: (expression: Expression) => Expression,
  mapSelected: (expression: Expression, item: SelectedExpression) => Expression = map,
): LogicalQuery {
  return {
    ...query,
    selected: query.selected.map((item) => ({ ...item, expression: mapSelected(item.expression, item) })),
    groupBy: query.groupBy.map(map),
    ...(query.arrayJoin ? { arrayJoin: query.arrayJoin.map(map) } : {}),
    where: query.where ? map(query.where) : null,
    having: query.having ? map(query.having) : null,
    orderBy: query.orderBy.map((item) => ({ ...item, expression: map(item.expression) })),
    limitBy: query.limitBy ? { ...query.limitBy, columns: query.limitBy.columns.map(map) } : null,
  };
}

/** Every expression of one query level, in clause order (not those of a subquery). */
export function queryExpressions(query: LogicalQuery): Expression[] {
  // Pushed one by one: validation asks for this list several times per query, and the spread
  // form allocated an intermediate array per clause.
  const expressions: Expression[] = [];
  for (const item of query.selected) expressions.push(item.expression);
  for (const expression of query.groupBy) expressions.push(expression);
  if (query.arrayJoin) for (const expression of query.arrayJoin) expressions.push(expression);
  if (query.where) expressions.push(query.where);
  if (query.having) expressions.push(query.having);
  for (const item of query.orderBy) expressions.push(item.expression);
  if (query.limitBy) for (const expression of query.limitBy.columns) expressions.push(expression);
  return expressions;
}
