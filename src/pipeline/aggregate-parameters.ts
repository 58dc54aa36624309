/**
 * What the parameters of a parametric aggregate (`quantile(0.95)(x)`, `topK(10)(x)`) must be:
 * the engine reads them once, when it builds the aggregate, so each must be a constant, and the
 * functions that take a level or a size read it as a number of their own range. A parameter
 * that breaks these fails the query whatever the data (codes 36, 70, 12, 69, 2), so the typing
 * pass refuses it at its position instead. test/pipeline/aggregate-parameters.test.ts holds
 * each rule to the embedded engine.
 */
import type { Expression } from "../query/ast.js";

/** Functions whose every parameter is a level between 0 and 1 (`quantiles(0.5, 0.9)`), with their -If and -Merge forms. */
const LEVEL_FUNCTION = /^(quantile|median)/;

/**
 * Functions whose first parameter is how many values to keep or buckets to make. `topK` takes
 * any number from 1 to 2^24 - 1 (a fraction is rounded down); the others a whole number from 1.
 */
const SIZE_FUNCTIONS: ReadonlyMap<string, { readonly whole: boolean; readonly max: number }> = new Map([
  ["topK", { whole: false, max: 16_777_215 }],
  ["topKWeighted", { whole: false, max: 16_777_215 }],
  ["histogram", { whole: true, max: Number.MAX_SAFE_INTEGER }],
  ["groupArray", { whole: true, max: Number.MAX_SAFE_INTEGER }],
  ["groupUniqArray", { whole: true, max: Number.MAX_SAFE_INTEGER }],
]);

/** The function without its -If combinator, where the parameters mean the same. */
function baseName(name: string): string {
  return name.endsWith("If") ? name.slice(0, -2) : name;
}

/**
 * Why the engine refuses this parameter, as the end of a sentence ("must be a constant, ..."),
 * or null. `constant` is the typing pass's verdict on it: false when it reads a column.
 */
export function parameterProblem(name: string, index: number, param: Expression, constant: boolean | null): string | null {
  if (param.kind === "lambda" || constant === false) return "must be a constant: the engine reads it once, not per row";
  if (param.kind !== "literal") return null;
  const value = param.value;
  const number = typeof value === "number" ? value : typeof value === "boolean" ? Number(value) : null;
  if (LEVEL_FUNCTION.test(name)) {
    return number !== null && number >= 0 && number <= 1 ? null : "must be a level between 0 and 1, such as 0.95";
  }
  const size = index === 0 ? SIZE_FUNCTIONS.get(baseName(name)) : undefined;
  if (size === undefined) return null;
  // TRUE and FALSE are read as 1 and 0, as for a level.
  const ok = number !== null && number >= 1 && number <= size.max && (!size.whole || Number.isInteger(number));
  return ok ? null : `must be ${size.whole ? "a whole number" : "a number"} from 1${size.max < Number.MAX_SAFE_INTEGER ? ` to ${size.max}` : ""}, such as 10`;
}
