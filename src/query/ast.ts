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
  readonly position?: TextPosition;
}

export interface LiteralNode {
  readonly kind: "literal";
  readonly value: LiteralValue;
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

export type Expression =
  | ColumnNode
  | LiteralNode
  | DateTimeLiteralNode
  | FunctionCallNode
  | CurriedFunctionCallNode
  | SubscriptNode;

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

export interface LogicalQuery {
  readonly from: EntitySource;
  /** BY expressions come first (Snuba prepends them to the output), then SELECT items. */
  readonly selected: readonly SelectedExpression[];
  readonly groupBy: readonly Expression[];
  readonly where: Expression | null;
  readonly having: Expression | null;
  readonly orderBy: readonly OrderByItem[];
  readonly limit: number;
  readonly offset: number;
  readonly granularity: number | null;
  readonly totals: boolean;
}

/** The top-level AND operands of a condition (the condition itself when it is not an AND). */
export function topLevelConjuncts(condition: Expression | null): Expression[] {
  if (!condition) return [];
  if (condition.kind === "function" && condition.name === "and") {
    return condition.args.flatMap((arg) => topLevelConjuncts(arg));
  }
  return [condition];
}

/** Every node of an expression tree, depth first. */
export function* walkExpression(expression: Expression): Generator<Expression> {
  yield expression;
  if (expression.kind === "function") {
    for (const arg of expression.args) yield* walkExpression(arg);
  } else if (expression.kind === "curried") {
    for (const param of expression.params) yield* walkExpression(param);
    for (const arg of expression.args) yield* walkExpression(arg);
  }
}
