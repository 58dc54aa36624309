/**
 * Syntax tree -> MQL text, the way snuba-sdk prints it (facts §A1.4): every binary formula in
 * parentheses, conditions joined by AND, strings double-quoted, `by (a, b)`. Parsing the output
 * gives the same tree back (the property tests check it).
 */
import type { Filter, MqlExpression, Timeseries } from "./mql-ast.js";

const OPERATOR_SYMBOL = { plus: "+", minus: "-", multiply: "*", divide: "/" } as const;

function quoteMqlString(value: string): string {
  return `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`;
}

function printNumber(value: number): string {
  // MQL numbers have no sign or exponent: a negative literal is written as a negation.
  return value < 0 ? `-${printNumber(-value)}` : String(value);
}

function printParams(params: readonly (number | string)[] | null): string {
  if (params === null) return "";
  return `(${params.map((p) => (typeof p === "number" ? printNumber(p) : quoteMqlString(p))).join(", ")})`;
}

function printFilter(filter: Filter, nested = false): string {
  if (filter.kind !== "condition") {
    const joined = filter.args.map((arg) => printFilter(arg, true)).join(filter.kind === "and" ? " AND " : " OR ");
    return nested ? `(${joined})` : joined;
  }
  const prefix = filter.negated ? "!" : "";
  if (filter.list) return `${prefix}${filter.key}:[${filter.values.map(quoteMqlString).join(", ")}]`;
  const value = filter.values[0] ?? "";
  return `${prefix}${filter.key}:${quoteMqlString(filter.wildcard ? `${value}*` : value)}`;
}

function printTimeseries(series: Timeseries): string {
  const metric = series.metric.mri ?? series.metric.publicName ?? "";
  let text = `${series.aggregate}${printParams(series.params)}(${metric})`;
  if (series.filters.length > 0) text += `{${series.filters.map((f) => printFilter(f, true)).join(" AND ")}}`;
  if (series.groupBy.length > 0) text += ` by (${series.groupBy.join(", ")})`;
  return text;
}

export function printMql(expression: MqlExpression): string {
  switch (expression.kind) {
    case "timeseries":
      return printTimeseries(expression);
    case "arithmetic":
      return `(${printMql(expression.left)} ${OPERATOR_SYMBOL[expression.operator]} ${printMql(expression.right)})`;
    case "call":
      if (expression.name === "negate" && expression.params === null && expression.args.length === 1) {
        return `-${printMql(expression.args[0]!)}`;
      }
      return `${expression.name}${printParams(expression.params)}(${expression.args.map(printMql).join(", ")})`;
    case "number":
      return printNumber(expression.value);
    case "string":
      return quoteMqlString(expression.value);
  }
}
