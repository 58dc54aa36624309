/**
 * SQL for AggregateFunction columns, derived from the column's exact type so the state always
 * matches it: `AggregateFunction(quantiles(0.5, 0.9), Float64)` is filled with
 * `arrayReduce('quantilesState(0.5, 0.9)', <Float64 array>)`.
 */
import { splitTopLevel } from "./generator-plan.js";

export interface AggregateFunctionType {
  /** `quantiles`, `sum`, `argMax`... */
  readonly name: string;
  /** The parameters as written in the type (`0.5, 0.75`), '' when none. */
  readonly parameters: string;
  /** Argument types (`Float64`, `UInt64`, `DateTime`). */
  readonly argumentTypes: readonly string[];
}

/** Parses `AggregateFunction(...)`; null for any other type. */
export function parseAggregateFunctionType(type: string): AggregateFunctionType | null {
  const match = /^AggregateFunction\((.*)\)$/s.exec(type.trim());
  if (!match?.[1]) return null;
  const [functionPart, ...argumentTypes] = splitTopLevel(match[1]).map((part) => part.trim());
  if (!functionPart) return null;
  const fn = /^(\w+)(?:\((.*)\))?$/s.exec(functionPart);
  if (!fn?.[1]) return null;
  return { name: fn[1], parameters: fn[2] ?? "", argumentTypes };
}

function withParameters(name: string, parameters: string): string {
  return parameters === "" ? name : `${name}(${parameters})`;
}

/**
 * The state of `type` over arrays: `argumentFor(type, index)` gives the array expression fed
 * as the index-th argument.
 */
export function stateFromArraysSql(type: AggregateFunctionType, argumentFor: (argumentType: string, index: number) => string): string {
  const fn = withParameters(`${type.name}State`, type.parameters);
  const args = type.argumentTypes.map((argumentType, index) => argumentFor(argumentType, index));
  return `arrayReduce('${fn}', ${args.join(", ")})`;
}
