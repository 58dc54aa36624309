/**
 * What the parameters of a parametric aggregate (`quantile(0.95)(x)`, `topK(10)(x)`) must be:
 * the engine reads them once, when it builds the aggregate, so each must be a constant, and the
 * functions that take a level or a size read it as a number of their own range. A parameter
 * that breaks these fails the query whatever the data (codes 36, 70, 12, 69, 2), so the typing
 * pass refuses it at its position instead. test/pipeline/aggregate-parameters.test.ts holds
 * each rule to the embedded engine.
 */
import type { Expression } from "../query/ast.js";
import { constantNumberOf, isNowCall } from "./literal-texts.js";

/** Functions whose every parameter is a level between 0 and 1 (`quantiles(0.5, 0.9)`), with their -If and -Merge forms. */
const LEVEL_FUNCTION = /^(quantile|median)/;

/**
 * Functions whose first parameter is how many values to keep or buckets to make. `topK` takes
 * any number from 1 to 2^24 - 1 (a fraction is rounded down); the others a whole number from 1.
 */
const SIZE_FUNCTIONS: ReadonlyMap<string, { readonly whole: boolean; readonly max: number }> = new Map([
  ["topK", { whole: false, max: 16_777_215 }],
  ["topKWeighted", { whole: false, max: 16_777_215 }],
  // At most 250 bins (code 12).
  ["histogram", { whole: true, max: 250 }],
  ["groupArray", { whole: true, max: Number.MAX_SAFE_INTEGER }],
  ["groupUniqArray", { whole: true, max: Number.MAX_SAFE_INTEGER }],
]);

/** The function without its -If combinator, where the parameters mean the same. */
function baseName(name: string): string {
  return name.endsWith("If") ? name.slice(0, -2) : name;
}

/** What the typing pass knows of a parameter's type (a constant computed by a call): its kind, and how a message names it. */
export interface ComputedParameter {
  readonly kind: "text" | "float" | "uuid";
  readonly what: string;
}

/**
 * Why the engine refuses a constant computed as this kind of value for this parameter, or null
 * (each held to the engine by test/pipeline/aggregate-parameters.test.ts): a text or an array
 * where a number is read (`quantile(greatest('staging'))`, code 70; seed 35); a float where a
 * whole number is (`groupArray(plus(2.5, 2.5))`, code 36), where a literal's `5.0` is printed `5`;
 * a UUID for a size or a load factor, where a level reads it as a number.
 */
function computedProblem(name: string, index: number, computed: ComputedParameter): string | null {
  if (!readsNumber(name, index)) return null;
  const level = LEVEL_FUNCTION.test(name);
  const size = index === 0 ? SIZE_FUNCTIONS.get(baseName(name)) : undefined;
  const refused = computed.kind === "text" || (computed.kind === "float" && size?.whole === true) || (computed.kind === "uuid" && !level);
  if (!refused) return null;
  return `is ${computed.what}, and must be ${level ? "a number (a level between 0 and 1, such as 0.95)" : size?.whole ? "a whole number, such as 10" : "a number, such as 10"}`;
}

/** Whether the engine reads this parameter of the function as a number: a level, a size, topK's load factor. */
function readsNumber(name: string, index: number): boolean {
  const base = baseName(name);
  return LEVEL_FUNCTION.test(name) || (index === 0 && SIZE_FUNCTIONS.has(base)) || (index === 1 && (base === "topK" || base === "topKWeighted"));
}

/** The most values topK keeps, its size times its load factor (ClickHouse's TOP_K_MAX_SIZE). */
const TOP_K_MAX_SIZE = 16_777_215;

/**
 * A parameter's value as the engine reads a number parameter, else null: a literal's (TRUE and
 * FALSE as 1 and 0), or `now()`'s, a DateTime read as its seconds since 1970 (`topK(now())` keeps
 * more values than topK can: code 69; seed 20).
 */
function numberOf(param: Expression): number | null {
  if (isNowCall(param)) return Math.floor(Date.now() / 1000);
  if (param.kind !== "literal") return constantNumberOf(param);
  return typeof param.value === "number" ? param.value : typeof param.value === "boolean" ? Number(param.value) : null;
}

/** Whether the engine's reading of a parameter is known here: a literal, `now()`, or a number computed from values written out (constantNumberOf). */
function readable(param: Expression): boolean {
  return param.kind === "literal" || isNowCall(param) || constantNumberOf(param) !== null;
}

/**
 * topK's and topKWeighted's parameters after the size: a load factor, read as a whole number
 * from 1 (a fraction rounded down) whose product with the size is at most TOP_K_MAX_SIZE (codes
 * 70 for a text or a NULL, 69 out of range); then the word 'counts', which adds each value's count
 * to the result (code 36 for another text, 170 for a number). Null where these hold, or for a
 * parameter that is no literal nor `now()` (a constant computed otherwise is left to the engine).
 */
function topKProblem(index: number, param: Expression, params: readonly Expression[]): string | null {
  if (index > 2) return "is one too many: topK takes at most three (the size, the load factor and 'counts')";
  if (!readable(param)) return null;
  if (index === 2) return param.kind === "literal" && param.value === "counts" ? null : "must be the word 'counts' (the count of each value in the result), or left out";
  const factor = numberOf(param);
  const size = numberOf(params[0]!);
  const most = size !== null && size >= 1 ? Math.floor(TOP_K_MAX_SIZE / Math.floor(size)) : TOP_K_MAX_SIZE;
  if (factor !== null && Math.trunc(factor) >= 1 && Math.trunc(factor) <= most) return null;
  return `is the load factor, and must be a number from 1 to ${most} (a fraction is rounded down${most < TOP_K_MAX_SIZE ? `; its product with the size at most ${TOP_K_MAX_SIZE}` : ""}), such as 3`;
}

/**
 * Why the engine refuses this parameter, as the end of a sentence ("must be a constant, ..."),
 * or null. `constant` is the typing pass's verdict on it: false when it reads a column; `params`
 * are all the call's parameters (topK's load factor is judged with its size); `computed` is what
 * the typing pass knows of its type.
 */
export function parameterProblem(name: string, index: number, param: Expression, constant: boolean | null, params: readonly Expression[] = [param], computed: ComputedParameter | null = null): string | null {
  if (param.kind === "lambda" || constant === false) return "must be a constant: the engine reads it once, not per row";
  const base = baseName(name);
  // quantile, median and their kinds take one level; quantiles(…) takes several (code 42; seed 38).
  if (index > 0 && LEVEL_FUNCTION.test(name) && !name.startsWith("quantiles")) return `is one too many: ${name} takes one level; quantiles(${params.map(() => "…").join(", ")}) takes several`;
  if (param.kind !== "literal" && computed !== null) {
    const problem = computedProblem(name, index, computed);
    if (problem !== null) return problem;
  }
  if (index > 0 && (base === "topK" || base === "topKWeighted")) return topKProblem(index, param, params);
  if (!readable(param)) return null;
  const number = numberOf(param);
  if (LEVEL_FUNCTION.test(name)) {
    return number !== null && number >= 0 && number <= 1 ? null : "must be a level between 0 and 1, such as 0.95";
  }
  const size = index === 0 ? SIZE_FUNCTIONS.get(base) : undefined;
  if (size === undefined) return null;
  // TRUE and FALSE are read as 1 and 0, as for a level.
  const ok = number !== null && number >= 1 && number <= size.max && (!size.whole || Number.isInteger(number));
  return ok ? null : `must be ${size.whole ? "a whole number" : "a number"} from 1${size.max < Number.MAX_SAFE_INTEGER ? ` to ${size.max}` : ""}, such as 10`;
}
