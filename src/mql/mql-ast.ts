/**
 * The MQL syntax tree after parsing. Filters and `by` written on a parenthesised formula are
 * already pushed down to every timeseries inside it (as Snuba does), so only timeseries carry
 * them; the translator never has to look up the tree for inherited conditions.
 */
import type { TextPosition } from "../errors/query-service-error.js";

/** `key:value`, `!key:value`, `key:[a, b]`, `key:abc*` (a prefix match). */
export interface TagCondition {
  readonly kind: "condition";
  readonly key: string;
  readonly negated: boolean;
  /** One value, or the members of an IN list. */
  readonly values: readonly string[];
  readonly list: boolean;
  /** The single value is a prefix (`abc*`). */
  readonly wildcard: boolean;
  readonly position?: TextPosition;
}

export interface FilterGroup {
  readonly kind: "and" | "or";
  readonly args: readonly Filter[];
}

export type Filter = TagCondition | FilterGroup;

/** An MRI (`d:transactions/duration@millisecond`) or a public name (`transaction.duration`). */
export interface MetricName {
  readonly mri?: string;
  readonly publicName?: string;
  readonly position?: TextPosition;
}

/** `agg(metric){filters} by (keys)` and curried `quantiles(0.5)(metric)`. */
export interface Timeseries {
  readonly kind: "timeseries";
  readonly aggregate: string;
  /** Curried parameters, or null for a plain aggregate. */
  readonly params: readonly (number | string)[] | null;
  readonly metric: MetricName;
  /** Conditions, implicitly ANDed. */
  readonly filters: readonly Filter[];
  readonly groupBy: readonly string[];
  readonly position?: TextPosition;
}

export type ArithmeticOperator = "plus" | "minus" | "multiply" | "divide";

/** `a + b`, `a * b`… between timeseries, formulas and numbers. */
export interface Arithmetic {
  readonly kind: "arithmetic";
  readonly operator: ArithmeticOperator;
  readonly left: MqlExpression;
  readonly right: MqlExpression;
  /** The operator's. */
  readonly position?: TextPosition;
}

/** A scalar function over a timeseries: `round(sum(m), 2)`, `-sum(m)` (negate), `f(p)(ts, 1)`. */
export interface FunctionCall {
  readonly kind: "call";
  readonly name: string;
  readonly params: readonly (number | string)[] | null;
  readonly args: readonly MqlExpression[];
  readonly position?: TextPosition;
}

export interface NumberLiteral {
  readonly kind: "number";
  readonly value: number;
  readonly position?: TextPosition;
}

export interface StringLiteral {
  readonly kind: "string";
  readonly value: string;
  readonly position?: TextPosition;
}

export type MqlExpression = Timeseries | Arithmetic | FunctionCall | NumberLiteral | StringLiteral;

/** Every timeseries of an expression, left to right. */
export function timeseriesOf(expression: MqlExpression): Timeseries[] {
  switch (expression.kind) {
    case "timeseries":
      return [expression];
    case "arithmetic":
      return [...timeseriesOf(expression.left), ...timeseriesOf(expression.right)];
    case "call":
      return expression.args.flatMap(timeseriesOf);
    default:
      return [];
  }
}
