/**
 * Lambdas: which functions take one and how (first, one parameter per array after it), what
 * a lambda's parameters are given (the arrays' elements), what its body may return, and what
 * may follow it.
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { ARGUMENT_CLASSES, CLASS_NAMES, elementClass, VARIANTS, variantWhat, type ProbedSignature } from "../argument-classes.js";
import { PROBED_FUNCTION_SIGNATURES } from "../probed-function-signatures.js";
import type { ArgumentTyping } from "../argument-types.js";
import { integerTyped, UNKNOWN_COLUMN, MIXED_VARIANT, ARRAY_VARIANT_AT, isUntyped, type Typed } from "./typed-values.js";
import { describe, nameOf, list, typeName } from "./messages.js";
import type { FunctionFacts } from "./function-facts.js";
import { isArrayCall, elementOf } from "./array-types.js";
import { ARRAY_SHORTHAND_OPERATORS, arrayShorthandComparison } from "../snql-array-conditions.js";

export const NO_PARAMETERS: ReadonlyMap<string, Typed> = new Map();

/** The functions of a lambda and arrays that return their first array, filtered, reordered or filled: of its type. */
export const ARRAY_KEEPING_LAMBDA_FUNCTIONS: ReadonlySet<string> = new Set(["arrayFilter", "arrayReverseFilter", "arraySort", "arrayReverseSort", "arrayFill", "arrayReverseFill"]);

/**
 * What a lambda's parameter is given: an element of the array at its place (elementOf, of its
 * exact integer type where the pass knows it, or the elements the pass knows of an array of
 * values of no class), read per element as a column is. An array the pass knows only as one of
 * several (an array of NULLs, of Nullable numbers), or a value that is no array, leaves it untyped.
 */
export function lambdaParameterType(array: Typed): Typed {
  if (array.elementType !== undefined) return { ...array.elementType, constant: false };
  const isArray = array.variant >= 0 ? ARRAY_VARIANT_AT[array.variant] : elementClass(array.cls) !== null;
  if (array.alternatives !== undefined || !isArray) return UNKNOWN_COLUMN;
  return array.elementInteger !== undefined ? integerTyped(array.elementInteger, false) : elementOf(array);
}

/** The functions that take a lambda, for messages. */
const LAMBDA_FUNCTIONS = [...PROBED_FUNCTION_SIGNATURES].filter(([, signature]) => signature.lambda).map(([name]) => name);

/** A lambda given to a function that takes none (`sumIf(value, (x) -> now())`: code 43, or 1 for an aggregate the entity maps to its -Merge form). */
export function refuseLambda(name: string, lambda: Expression, position: TextPosition | undefined): never {
  const lambdaPosition = lambda.position ?? position;
  throw invalidQuery(`${nameOf(name)}${at(position)} does not take a lambda (the one${at(lambdaPosition)}); functions that do: ${LAMBDA_FUNCTIONS.slice(0, 8).join(", ")}, ...`, lambdaPosition);
}

/**
 * `arrayFilter((x) -> now(), a)`, `arrayCount((k) -> toStartOfDay(timestamp), tags.value)`: a
 * lambda must return what the probe saw the function take from one (the engine refuses a column
 * there as a constant: its test holds both). The body is typed with the parameters bound to the
 * arrays' elements (inLambda); one that reads a parameter the pass cannot type is not judged.
 */
export function judgeLambdaBody(
  typing: ArgumentTyping,
  name: string,
  signature: ProbedSignature,
  lambda: Extract<Expression, { kind: "lambda" }>,
  arrays: readonly Typed[],
  position: TextPosition | undefined,
): void {
  if (signature.lambdaBodyRefused.length === 0) return;
  // An `array(…)` of anything, parameters too, is an array (`arrayFilter((k) -> array(k, k), a)`):
  // refused where arrays of strings and of integers both are.
  const anArray = isArrayCall(lambda.body) && signature.lambdaBodyRefused.includes("arrayString") && signature.lambdaBodyRefused.includes("arrayNumber");
  let what = "an array";
  if (!anArray) {
    // A body reading a parameter the pass cannot type may be of any class.
    const untyped = lambda.params.some((_, i) => arrays[i] === undefined || isUntyped(lambdaParameterType(arrays[i])));
    if (untyped && namesAny(lambda.body, lambda.params)) return;
    const body = typing.inLambda(lambda, arrays, () => typing.visit(lambda.body));
    // A Nullable of a refused class is refused as the class is (`arrayExists((k) -> multiIf(c,
    // geo_subdivision, t), a)` returns a Nullable(String): code 43); the test holds both.
    // A function that takes only conditions from its lambda (arrayExists, arrayFilter: a UInt8 or a
    // Bool) takes no value of a type without a class either (`arrayExists((x) -> toDate(x), a)`
    // returns a Date: code 43; seed 12). Not an `if` whose constant condition picks one branch.
    if (body.cls === null && body.variant >= 0 && !body.pickedOnce && takesOnlyConditions(signature)) what = typeName(body);
    else if (body.cls === null || !signature.lambdaBodyRefused.includes(body.cls)) return;
    else what = body.nullable ? `${CLASS_NAMES[body.cls]} (Nullable)` : CLASS_NAMES[body.cls];
  }
  const bodyPosition = lambda.body.position ?? position;
  const taken = ARGUMENT_CLASSES.filter((cls) => !signature.lambdaBodyRefused.includes(cls)).map((cls) => CLASS_NAMES[cls]);
  throw invalidQuery(
    `the lambda${at(position)} returns ${describe(lambda.body)}${at(bodyPosition)}, ${what}, and ${nameOf(name)} does not take a lambda that returns ${what}; it takes one that returns ${list(taken)}`,
    bodyPosition,
  );
}

/** Whether a function's lambda must return a condition: every class but a UInt8 and a Bool is refused there. */
function takesOnlyConditions(signature: ProbedSignature): boolean {
  return ARGUMENT_CLASSES.every((cls) => cls === "uint8" || cls === "bool" || signature.lambdaBodyRefused.includes(cls));
}

/** Whether an expression names a column called one of `names` (a lambda's parameters), at any depth. */
function namesAny(node: Expression, names: readonly string[]): boolean {
  switch (node.kind) {
    case "column":
      return node.entityAlias === undefined && names.includes(node.name);
    case "subscript":
      return node.entityAlias === undefined && names.includes(node.column);
    case "argument":
      return true;
    case "function":
      return node.args.some((arg) => namesAny(arg, names));
    case "curried":
      return node.params.some((param) => namesAny(param, names)) || node.args.some((arg) => namesAny(arg, names));
    case "lambda":
      return namesAny(node.body, names);
    default:
      return false;
  }
}

/** `arrayExists((x) -> ..., 10)`: what follows a lambda must be what the probe saw taken there (arrays). */
export function judgeAfterLambda(typing: ArgumentTyping, name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
  const rules = facts.afterLambda.get(args.length - 1);
  if (!rules) return;
  for (let i = 1; i < args.length; i++) {
    const t = types[i]!;
    // A NULL there is a bare one or a call of one (`now() * NULL`), of type Nothing (code 43).
    if (rules.arraysOnly[i - 1] && (t.nullable || typing.isNothing(args[i]!))) {
      const arg = args[i]!;
      const argPosition = arg.position ?? position;
      const what = t.nullable ? `${CLASS_NAMES[t.cls!]} (Nullable)` : typing.isBareNull(arg) ? "NULL" : "NULL (a call of a NULL)";
      throw invalidQuery(
        `${describe(arg)}${at(argPosition)} is ${what}, and ${nameOf(name)} takes only arrays after its lambda (argument ${i + 1}), and arrays are never NULL or Nullable`,
        argPosition,
      );
    }
    // A value of no class that is no array (a map, a tuple, a UInt128, a Date, an IP) where
    // only arrays are taken (`arrayMap(k -> k, attributes_int)`, code 43).
    if (rules.arraysOnly[i - 1] && t.cls === null && t.variant >= 0 && !ARRAY_VARIANT_AT[t.variant]! && t.variant !== MIXED_VARIANT) {
      const arg = args[i]!;
      const argPosition = arg.position ?? position;
      throw invalidQuery(`${describe(arg)}${at(argPosition)} is ${variantWhat(VARIANTS[t.variant]!)}, and ${nameOf(name)} takes only arrays after its lambda (argument ${i + 1})`, argPosition);
    }
    if (t.cls === null || t.nullable) continue;
    // Of unknown constness (`now()`, a call of no arguments), refused where both forms are.
    const refused = t.constant === null ? rules.constant[i - 1]!.has(t.cls) && rules.column[i - 1]!.has(t.cls) : (t.constant ? rules.constant : rules.column)[i - 1]!.has(t.cls);
    if (!refused) continue;
    const arg = args[i]!;
    const argPosition = arg.position ?? position;
    throw invalidQuery(
      `${describe(arg)}${at(argPosition)} is ${CLASS_NAMES[t.cls]}, and ${nameOf(name)} does not take ${CLASS_NAMES[t.cls]} after its lambda (argument ${i + 1}); it takes arrays there`,
      argPosition,
    );
  }
}

/**
 * A function that takes a lambda before arrays (`arrayMap(x -> …, a)`), given two arguments or
 * more, takes a lambda first: arrays alone there (`arraySum(a, b)`) or a value (`arrayMap(n, a)`)
 * are refused (code 43). The probe, trying classes, could not tell those counts. An engine test
 * holds it for every such function.
 */
export function refuseMissingLambda(node: Extract<Expression, { kind: "function" }>): void {
  const { name, args, position } = node;
  // A lambda elsewhere is refused where it stands (judgeLambdaArguments); Snuba's shorthand
  // `arrayExists(tags.value, '=', 'x')` is rewritten to a lambda before the SQL.
  if (args.length < 2 || args.some((arg) => arg.kind === "lambda") || arrayShorthandComparison(node) !== null) return;
  const first = args[0]!;
  const operator = args[1]!;
  if ((name === "arrayExists" || name === "arrayAll") && operator.kind === "literal" && typeof operator.value === "string") {
    throw invalidQuery(`${describe(operator)}${at(operator.position ?? position)} is no operator of Snuba's ${name}(column, '<op>', value) shorthand: it takes ${list(ARRAY_SHORTHAND_OPERATORS.map((op) => `'${op}'`))} (IS NULL and IS NOT NULL without a value)`, operator.position ?? position);
  }
  throw invalidQuery(
    `${describe(first)}${at(first.position ?? position)} is no lambda, and ${nameOf(name)} given ${args.length} arguments takes one first, then arrays: ${name}(x -> …, array)`,
    first.position ?? position,
  );
}
