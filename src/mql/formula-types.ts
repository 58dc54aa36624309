/**
 * The typing pass for MQL formulas. A formula's arithmetic and scalar functions reach ClickHouse
 * as written (`sum(m) * abs("keep")`, `negate(0.5, 0.5)`, `"a" - count(m)`), so without this a
 * wrong argument type or count is ClickHouse's error (codes 43, 42, 386) instead of an
 * `invalid_query` at the argument's position.
 *
 * The formula is judged by the pass SnQL queries go through (src/pipeline/argument-types.ts), not
 * by rules of its own: it is rebuilt as a SnQL expression in which each timeseries is a column of
 * the type its aggregate gives (`sum` of a counter is a Float64, `count` of a distribution a
 * UInt64, `quantiles(0.5, 0.9)` an Array(Float64)). A timeseries whose type is not known here (a
 * histogram) is a column of no class, which the pass never refuses. A test holds every
 * aggregate's type to the engine's DESCRIBE of the SQL Quarry prints for it.
 */
import { parseClickHouseType } from "../datasets/clickhouse-type.js";
import { columnsEntity } from "../datasets/columns-entity.js";
import type { EntityDefinition } from "../datasets/definition-types.js";
import { checkExpressionArgumentTypes } from "../pipeline/argument-types.js";
import type { Expression } from "../query/ast.js";
import type { MqlExpression, Timeseries } from "./mql-ast.js";
import { printMql } from "./print-mql.js";

/** The value types a timeseries can have that the typing pass can name: one column of each. */
const VALUE_TYPES = ["Float64", "Float32", "UInt64", "Int64", "Array(Float64)", "Array(Float32)"] as const;

/** An entity whose columns are the value types, named after them: what a formula's timeseries are read as. */
const FORMULA_VALUES: EntityDefinition = columnsEntity(
  "an MQL formula",
  VALUE_TYPES.map((type) => ({ name: type, type })),
);

/** Aggregate states whose merged value is the (first) type they aggregate: `maxMerge` of `AggregateFunction(max, Float64)`. */
const KEEPS_ARGUMENT_TYPE = new Set(["min", "max", "any", "anyLast", "argMin", "argMax"]);

/** State column type -> its merged type: the entities declare a few dozen, each parsed once, not per query. */
const MERGED_STATE_TYPES = new Map<string, string | null>();

/**
 * The type of `<f>Merge(state)` for a state column of this type (`AggregateFunction(sum, UInt64)`
 * merges to a UInt64), or null where it is not one of the types above (a histogram).
 */
export function mergedStateType(stateType: string): string | null {
  let merged = MERGED_STATE_TYPES.get(stateType);
  if (merged === undefined) {
    merged = parseMergedStateType(stateType);
    MERGED_STATE_TYPES.set(stateType, merged);
  }
  return merged;
}

function parseMergedStateType(stateType: string): string | null {
  const type = parseClickHouseType(stateType);
  if (type.kind !== "aggregate_function" || type.simple) return null;
  const first = type.args[0];
  const argument = first?.kind === "scalar" && first.params.length === 0 ? first.name : null;
  const func = type.func;
  if (func === "count" || func.startsWith("uniq")) return "UInt64";
  if (func === "avg" || func === "avgWeighted") return "Float64";
  if (func === "sum") {
    if (argument === null) return null;
    if (/^UInt\d+$/.test(argument)) return "UInt64";
    if (/^Int\d+$/.test(argument)) return "Int64";
    return argument.startsWith("Float") ? "Float64" : null;
  }
  if (KEEPS_ARGUMENT_TYPE.has(func)) return argument;
  // The t-digest keeps Float32 centroids; the exact-ish default sampler answers in Float64.
  if (func === "quantiles") return "Array(Float64)";
  if (func.startsWith("quantilesTDigest")) return "Array(Float32)";
  return null;
}

/** The value type of an array's elements (`Array(Float64)` -> `Float64`), for `quantiles(q)` with one level. */
export function elementType(type: string | null): string | null {
  return type === null ? null : (/^Array\((.*)\)$/.exec(type)?.[1] ?? null);
}

/**
 * Judges the formula's calls as the SnQL typing pass judges a query's. `valueType(series)` is the
 * type of a timeseries' value (null: not known, never refused). Throws `invalid_query`.
 */
export function checkFormulaTypes(expression: MqlExpression, valueType: (series: Timeseries) => string | null): void {
  // A lone timeseries calls nothing of its own (its aggregate is checked where it is resolved).
  if (expression.kind === "timeseries") return;
  checkExpressionArgumentTypes(formulaExpression(expression, valueType), FORMULA_VALUES);
}

function formulaExpression(expression: MqlExpression, valueType: (series: Timeseries) => string | null): Expression {
  switch (expression.kind) {
    case "timeseries":
      // A type with no column here reads as an unknown column: it has no class.
      return { kind: "column", name: valueType(expression) ?? "unknown", label: `the timeseries ${printMql({ ...expression, filters: [], groupBy: [] })}`, position: expression.position };
    case "arithmetic":
      return {
        kind: "function",
        name: expression.operator,
        args: [formulaExpression(expression.left, valueType), formulaExpression(expression.right, valueType)],
        position: expression.position,
      };
    case "call": {
      const args = expression.args.map((arg) => formulaExpression(arg, valueType));
      if (expression.params === null) return { kind: "function", name: expression.name, args, position: expression.position };
      const params = expression.params.map((value): Expression => ({ kind: "literal", value, position: expression.position }));
      return { kind: "curried", name: expression.name, params, args, position: expression.position };
    }
    case "number":
    case "string":
      return { kind: "literal", value: expression.value, position: expression.position };
  }
}
