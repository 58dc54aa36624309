/**
 * A call's result type: its class fixed for the function or following its arguments' as the probe
 * saw it, Nullable where a Nullable argument wraps it, an array variant's element, a fold over
 * three or more arguments, the exact integer type where known, and the calls a NULL makes a Nothing.
 */
import type { Expression } from "../../query/ast.js";
import { ARGUMENT_CLASSES, NULLABLE_CLASSES, VARIANTS as VARIANTS_BY_INDEX, elementClass, keepsPlainResult, type ArgumentClass } from "../argument-classes.js";
import { DATETIME_DIFFERENCE, FIXED_INTEGER_RESULTS, integerArithmetic, integerOfOne } from "../integer-types.js";
import { CLASS_INDEX, constnessIndex, typed, integerTyped, integerShapeOf, VARIANT_INDEX, TUPLE_VARIANT, MIXED_VARIANT, DATES, ARRAY_VARIANT_AT, ARRAY_FAMILIES, CONTAINER_VARIANT_AT, VARIANT_FAMILIES, variantTyped, VARIANT_MAY_BE_NULL, NULLABLE_VARIANT_OF, FLOAT64S_VARIANT, type Typed } from "./typed-values.js";
import { classResultKey, functionFacts, type FunctionFacts } from "./function-facts.js";
import { sameArraysType, ARRAYS_OF_UNNAMED, arrayOfUnnamed, ARRAYS_OF_STATES, arrayOfClass, ARRAY_VARIANT_ELEMENT, isNumberArray } from "./array-types.js";
import { TUPLE_ARITHMETIC, keptArithmeticType } from "./arithmetic-types.js";

/**
 * A call's result: its class fixed for the function or following its arguments' (ResultRule),
 * Nullable when an argument is and the probe saw the result wrapped so (nullableResults), plain
 * when it saw a Nullable argument leave it so (plainResults).
 */
/** Result classes of numbers, or arrays of them: of an array of floats, a Float64 where the probe's arrays of integers gave an integer. */
const NUMBER_RESULTS: ReadonlySet<ArgumentClass | null> = new Set(ARGUMENT_CLASSES.filter((cls) => ARRAY_FAMILIES[cls] === "number" || cls === "arrayNumber"));

/** What stands for a row chooser's value of no class that holds no NULL (resultTyped): a plain class, which the `from` rule ignores. */
const CHOSEN_BY = typed("uint8", false);
const CHOSEN_BY_NULLABLE = typed("uint8", false, true);

export function resultTyped(facts: FunctionFacts, args: readonly Typed[], constant: boolean | null, nodes?: readonly Expression[]): Typed {
  const signature = facts.signature;
  if (!signature) return typed(null, constant);
  // `count(x)`, `isNull(x)`: the same class whatever x is, NULL and Nullable too.
  if (keepsPlainResult(signature, args.length)) return typed(signature.result, constant);
  // `toDate(timestamp)` is a Date: probed with plain classes only, at the probed counts. A
  // Nullable argument makes it a Nullable(Date) where the probe saw it wrap the result. A Date or
  // a DateTime64 where a DateTime goes gives the same result (`toDate(toDate(timestamp))`, an
  // engine test holds it); a Nullable one, the Nullable result.
  if (signature.resultVariant !== null) {
    if (signature.counts[args.length] !== "probed") return typed(null, constant);
    let nullable = false;
    for (const arg of args) {
      const date = arg.cls === null && arg.variant >= 0 && VARIANT_FAMILIES[arg.variant] === "datetime";
      if (arg.cls === null && !date) return typed(null, constant);
      if (arg.nullable || (date && VARIANT_MAY_BE_NULL[arg.variant]!)) nullable = true;
    }
    if (!nullable) return variantTyped(VARIANT_INDEX.get(signature.resultVariant)!, constant);
    const wrapped = NULLABLE_VARIANT_OF[signature.resultVariant];
    return wrapped !== undefined && signature.nullableResults.includes(args.length) ? variantTyped(VARIANT_INDEX.get(wrapped)!, constant) : typed(null, constant);
  }
  // `if(c, a, b)`: the class of a and b when they agree, whatever c is (a NULL, Nullable or
  // unknown condition included: `if(NULL, 'a', 'b')` is a String), Nullable when a or b is.
  const rule = signature.result === null ? signature.results[args.length] : undefined;
  if (rule !== undefined && "agreeing" in rule) {
    const [a, b] = [args[rule.agreeing[0]], args[rule.agreeing[1]]];
    if (a === undefined || b === undefined || a.cls === null || a.cls !== b.cls || a.variant >= 0 || b.variant >= 0) return typed(null, constant);
    if (!a.nullable && !b.nullable) return typed(a.cls, constant);
    return NULLABLE_CLASSES.includes(a.cls) ? typed(a.cls, constant, true) : typed(null, constant);
  }
  // `groupUniqArray(timestamp)` is an Array(DateTime): an array of the argument's type, where the pass names one.
  // Of a Nullable argument, where the probe saw the result stay the plain call's (`groupArray`
  // skips NULLs): the same array.
  if (rule !== undefined && "arrayOf" in rule) {
    const of = args[rule.arrayOf];
    // Of a float literal (`groupUniqArray(0.000001)`), always a Float64: an Array(Float64).
    if (of !== undefined && of.cls === "float64" && nodes?.[rule.arrayOf]?.kind === "literal") return variantTyped(FLOAT64S_VARIANT, constant);
    // Of one of several types (a condition: a UInt8, Nullable or not, or a Bool), an array of
    // one of them, which the probed arrays do not all stand for (an Array(Bool)): no type.
    if (of === undefined || (of.variant < 0 && of.alternatives !== undefined)) return typed(null, constant);
    // Of a value the pass names no array for (an aggregate state, a map, a Date, an array
    // variant, a Variant: `groupUniqArray(value)` on metrics' states), still an array.
    if (of.cls === "aggregateState" && of.variant < 0) return ARRAYS_OF_STATES[constnessIndex(constant)]!;
    // Of a Date, a DateTime64 or an IP, its elements known: `1000 / groupUniqArray(timestamp_ms)`,
    // done element by element, is judged as a number divided by a DateTime64 (code 43).
    if (of.variant >= 0) return arrayOfUnnamed(of, constant);
    if (of.cls === null) return ARRAYS_OF_UNNAMED[constnessIndex(constant)]!;
    if (of.nullable && !signature.plainResults.includes(args.length)) return typed(null, constant);
    return arrayOfClass(of.cls, constant, of);
  }
  // `any(exception_frames.function)`, `arrayReverse(spans.exclusive_time_32)`: a result of an
  // argument's type keeps that argument's variant, where it may (variantKeptByResult).
  if (rule !== undefined && "from" in rule) {
    const from = args[rule.from];
    if (from !== undefined && from.variant >= 0 && facts.keepsVariant[from.variant]) return variantTyped(from.variant, constant);
  }
  // `arrayElement(error_ids, 1)` of an Array(UUID), `arrayMax` of an Array(DateTime): an array
  // variant's element type, where the pass names one, its other arguments of plain known classes.
  // An engine test holds it for every function of this rule and every array variant.
  if (rule !== undefined && "elementOf" in rule) {
    const of = args[rule.elementOf];
    if (of !== undefined && of.variant >= 0 && ARRAY_VARIANT_AT[of.variant]) {
      // Beside a Nullable argument (`arrayElement(exception_frames.filename, symbolicated_in_app)`,
      // a Nullable index), the element's Nullable, where one exists.
      const element = ARRAY_VARIANT_ELEMENT[of.variant];
      if (!element || args.some((arg, i) => i !== rule.elementOf && arg.cls === null)) return typed(null, constant);
      const besideNullable = args.some((arg, i) => i !== rule.elementOf && arg.nullable);
      if (besideNullable && !element.nullable && !NULLABLE_CLASSES.includes(element.cls!)) return typed(null, constant);
      return typed(element.cls, constant, element.nullable || besideNullable);
    }
  }
  // `argMax(sum, tuple(a, b))`: a choice of the row by a value of no class (a tuple, a Date, an
  // IP) leaves the result of the first argument's type, as a choice by a plain class does (the
  // state of `sum` here: `… * count()` is then state arithmetic, code 44); by one that may be NULL
  // (a Nullable DateTime64), as a Nullable class does: Nullable. An engine test holds it.
  if (facts.choosesRow && rule !== undefined && "from" in rule) {
    const choosing = (arg: Typed, i: number) => i !== rule.from && arg.cls === null && arg.variant >= 0 && arg.variant !== MIXED_VARIANT;
    if (args.some(choosing)) args = args.map((arg, i) => (choosing(arg, i) ? (VARIANT_MAY_BE_NULL[arg.variant] ? CHOSEN_BY_NULLABLE : CHOSEN_BY) : arg));
  }
  // The rules were probed on known types: an argument of unknown type may be anything, Nullable too.
  // A value of no class the function takes (a variant: a Date, an array of UUIDs, a tuple, an IP;
  // of two or more arguments, a Date only) gives a function of one fixed result class that class (`toStartOfDay(toDate(t))` is a
  // DateTime, `toString(tags.value * 2)` a String), Nullable with a variant that may hold a NULL
  // where the probe saw Nullable arguments wrap it. Not an if's Variant, whose result is made per
  // alternative, nor an array of floats given a function of numbers, whose sum is a Float64
  // where the probe's array of integers gave an integer. An engine test holds it for every such function and variant.
  const fixed = fixedScalarResultGiven(facts, args, constant) ?? sameArraysType(facts, args, constant);
  if (fixed !== null) return fixed;
  let nullables = 0;
  for (const arg of args) {
    if (arg.cls === null && !(signature.result !== null && (args.length === 1 ? arg.variant >= 0 && arg.variant !== MIXED_VARIANT && !(isNumberArray(arg) && NUMBER_RESULTS.has(signature.result)) : DATES.has(arg.variant)))) return typed(null, constant);
    if (arg.nullable || (arg.cls === null && VARIANT_MAY_BE_NULL[arg.variant]!)) nullables++;
  }
  const cls = plainResultClass(facts, args);
  // Probed with one Nullable argument at a time: `ifNull(a, b)` with both Nullable is Nullable.
  if (nullables === 0 || (nullables === 1 && signature.plainResults.includes(args.length))) return typed(cls, constant);
  // A row chosen by a Nullable value (`argMin(tags.key, sdk_name)`) of an array: the array as it
  // is, which no Nullable wraps. An engine test holds it.
  if (facts.choosesRow && rule !== undefined && "from" in rule && cls !== null && elementClass(cls) !== null && !args[rule.from]!.nullable) return typed(cls, constant);
  if (!signature.nullableResults.includes(args.length)) return typed(null, constant);
  return cls !== null && NULLABLE_CLASSES.includes(cls) ? typed(cls, constant, true) : typed(null, constant);
}

/**
 * `toNullable(x)`: x's type made Nullable, where a Nullable of it exists (a class of
 * NULLABLE_CLASSES, its integer type kept; a Date), else null. The probe compares plain types, so
 * it found no result rule for it; without this `upper(toNullable(level_number))` went untyped to
 * the engine (code 43). A value of several types (a Variant, a condition) is left to the probe's
 * refusals. An engine test holds it over every class.
 */
export function madeNullable(t: Typed, constant: boolean | null): Typed | null {
  if (t.alternatives !== undefined || t.holdsNoValue) return null;
  if (t.variant < 0 && t.cls !== null && NULLABLE_CLASSES.includes(t.cls)) return t.integer !== undefined ? integerTyped(t.integer, constant, true) : typed(t.cls, constant, true);
  if (t.cls !== null || t.variant < 0) return null;
  const wrapped = NULLABLE_VARIANT_OF[VARIANTS_BY_INDEX[t.variant]!];
  if (VARIANT_MAY_BE_NULL[t.variant]) return t.constant === constant ? t : variantTyped(t.variant, constant);
  return wrapped !== undefined ? variantTyped(VARIANT_INDEX.get(wrapped)!, constant) : null;
}

/**
 * A call given a value that is one of several types in every row (a condition of no known type,
 * a UInt8 or a Nullable one; numbers of several classes): its result is one of the results it
 * has for each (`greatest(x IN y)` is a UInt8 or a Nullable one, `toString(c)` a String). Where
 * the pass has no type for one of them, none. An engine test holds it over every probed function.
 */
/** Conversions (`toDateTime`, `toString`, `toStartOfDay`): some take a Variant whole (resultOfVariant). */
export const CONVERSION = /^to[A-Z]/;

/** The aggregates that return one of the values of their first argument, of its type (tupleValueOf). */
export const ROW_VALUE_AGGREGATES: ReadonlySet<string> = new Set(["min", "max", "any", "anyLast", "anyHeavy", "argMin", "argMax", "minIf", "maxIf", "anyIf", "anyLastIf", "argMinIf", "argMaxIf"]);

/** The functions the walk types by their branches or their first non-NULL value (branchesType, coalesceType), not by resultTyped. */
export const BRANCHING_FUNCTIONS: ReadonlySet<string> = new Set(["if", "multiIf", "ifNull", "coalesce"]);

export function resultOfOneOf(name: string, facts: FunctionFacts, args: readonly Typed[], at: number, constant: boolean | null, nodes: readonly Expression[]): Typed | null {
  const results: Typed[] = [];
  const each = [...args];
  for (const alternative of args[at]!.alternatives!) {
    each[at] = alternative;
    const kept = TUPLE_ARITHMETIC.has(name) && each.length === 2 ? keptArithmeticType(name, each, constant) : null;
    const result = kept ?? resultTyped(facts, each, constant, nodes);
    if ((result.cls === null && result.variant < 0) || result.alternatives !== undefined) return null;
    if (!results.some((known) => known.cls === result.cls && known.nullable === result.nullable && known.variant === result.variant)) results.push(result);
  }
  if (results.length === 1) return results[0]!;
  return { cls: null, index: -1, constant, nullable: false, variant: -1, alternatives: results };
}

/**
 * `concat(attributes_bool[k], attributes_int)`, `item_id / 2`: a function whose result is one
 * fixed class for every scalar class (FunctionFacts.fixedScalarResult) has it given scalar values
 * of no class too (a tuple, a map, a UInt128, an IP, a Date), Nullable where one may hold a NULL
 * and the probe saw Nullable arguments wrap the result. Given an array only beside a scalar, where
 * the probe saw arrays of each class keep the class (`concat(user, exception_stacks.type)` is a
 * String; `concat` of arrays is an array); not two tuples, maps or arrays (joined into one), a tuple to arithmetic (a tuple), nor an if's
 * Variant (judged per alternative). An engine test holds it for every such
 * function, variant and position.
 */
function fixedScalarResultGiven(facts: FunctionFacts, args: readonly Typed[], constant: boolean | null): Typed | null {
  const fixed = facts.fixedScalarResult[args.length];
  if (fixed === undefined || fixed === null) return null;
  let variants = 0;
  let containers = 0;
  let nullable = false;
  for (const arg of args) {
    if (arg.variant >= 0) {
      if ((ARRAY_VARIANT_AT[arg.variant] && !facts.fixedBesideArrays[args.length]) || arg.variant === MIXED_VARIANT || (arg.variant === TUPLE_VARIANT && facts.tupleArithmetic)) return null;
      // Two tuples, maps or arrays are joined into one (`concat(tuple(a), tuple(b))` is a tuple).
      if (CONTAINER_VARIANT_AT[arg.variant] && ++containers > 1) return null;
      variants++;
      if (VARIANT_MAY_BE_NULL[arg.variant]) nullable = true;
    } else if (arg.cls === null || elementClass(arg.cls) !== null || arg.cls === "aggregateState") return null;
    else if (arg.nullable) nullable = true;
  }
  if (variants === 0) return null;
  if (!nullable) return typed(fixed, constant);
  return facts.signature!.nullableResults.includes(args.length) && NULLABLE_CLASSES.includes(fixed) ? typed(fixed, constant, true) : typed(null, constant);
}

function plainResultClass(facts: FunctionFacts, args: readonly Typed[]): ArgumentClass | null {
  const signature = facts.signature!;
  if (signature.result) return signature.result;
  const rule = signature.results[args.length];
  if (!rule) {
    // The class the probe saw for these arguments' classes (`title / 2` is not one: refused).
    const byClasses = facts.classResults[args.length];
    if (byClasses) return byClasses.get(classResultKey(args[0]!.index, args.length === 2 ? args[1]!.index : -1)) ?? null;
    return args.length > 2 ? foldedResultClass(facts, args) : null;
  }
  if ("from" in rule) return args[rule.from]?.cls ?? null;
  if ("elementOf" in rule) return elementClass(args[rule.elementOf]?.cls ?? null);
  // `agreeing` (`if(c, a, b)`) never reaches here: resultTyped judges it, the condition aside.
  return null;
}

/**
 * Three or more arguments of a function probed with results per pair of classes only
 * (`greatest`, `least`, `and`, `or`, `xor`, `concat`): the pair's result class folded over
 * the arguments, `greatest(a, b, c)` as `greatest(greatest(a, b), c)`, without Booleans. An
 * engine test holds the fold to every call of three classes the engine takes.
 */
function foldedResultClass(facts: FunctionFacts, args: readonly Typed[]): ArgumentClass | null {
  const byPair = facts.classResults[2];
  // A Bool first makes `greatest(TRUE, 1, 2)` a Bool where `greatest(TRUE, 1)` is a UInt8: no fold.
  if (!byPair || args.some((arg) => arg.cls === "bool")) return null;
  let cls: ArgumentClass | null = byPair.get(classResultKey(args[0]!.index, args[1]!.index)) ?? null;
  for (let k = 2; k < args.length && cls !== null; k++) cls = byPair.get(classResultKey(CLASS_INDEX.get(cls)!, args[k]!.index)) ?? null;
  return cls;
}

/** The folded result class of `name` called with plain columns of these classes (for the engine test); null where the fold says nothing. */
export function foldedResultClassOf(name: string, classes: readonly ArgumentClass[]): ArgumentClass | null {
  const facts = functionFacts(name);
  if (!facts.signature || facts.signature.result !== null || facts.signature.results[classes.length] || facts.classResults[classes.length]) return null;
  return foldedResultClass(facts, classes.map((cls) => typed(cls, false)));
}

/**
 * A call's integer result with its exact type where the pass knows it (integer-types.ts): a
 * function of one fixed type (`count()`, `toInt32(x)`), integer arithmetic of two integers of
 * known types (`offset - 3` is an Int64), a DateTime minus a DateTime (an Int32). The type decides
 * the class too: `u % -1` of a UInt64 is a UInt8, where the probe's Int64 gave an integer.
 */
export function withIntegerType(name: string, args: readonly Typed[], result: Typed): Typed {
  if (result.variant >= 0 || result.alternatives !== undefined || (result.cls !== "int64" && result.cls !== "uint8" && result.cls !== "uint32")) return result;
  let integer = FIXED_INTEGER_RESULTS.get(name) ?? null;
  if (integer === null && args.length === 2) {
    const [left, right] = args as [Typed, Typed];
    const [leftShape, rightShape] = [integerShapeOf(left), integerShapeOf(right)];
    if (leftShape !== null && rightShape !== null) integer = integerArithmetic(name, leftShape, rightShape);
    else if (name === "minus" && left.cls === "datetime" && right.cls === "datetime" && left.variant < 0 && right.variant < 0) integer = DATETIME_DIFFERENCE;
  }
  if (integer === null && args.length === 1) {
    const shape = integerShapeOf(args[0]!);
    if (shape !== null) integer = integerOfOne(name, shape);
  }
  return integer === null ? result : integerTyped(integer, result.constant, result.nullable);
}

/**
 * A call of one argument that the engine makes a Nullable(Nothing) of when its argument is one
 * (`upper(culprit)` where the storage computes `culprit` as NULL): a function whose result the
 * probe saw made Nullable by a Nullable argument (ClickHouse's default handling of NULLs). An
 * engine test holds every such function to it.
 */
export function nothingOfNullArgument(name: string, count: number): boolean {
  if (count !== 1) return false;
  const facts = functionFacts(name);
  return !facts.aggregate && facts.signature !== undefined && facts.signature.nullableResults.includes(1);
}

/** Functions the engine makes a Nullable(Nothing) of when an argument is one, whatever the others (isNothing). */
export const NOTHING_OF_NULL: ReadonlySet<string> = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals", "plus", "minus", "multiply", "divide", "not"]);

/**
 * The functions whose call of two arguments, one of them a NULL (or a Nothing), is a Nothing
 * whatever the other (`like(NULL, title)`, `concat(NULL, 1)`, `substring(s, NULL)`): measured
 * on the engine, which an engine test holds this list to exactly.
 */
export const NOTHING_OF_NULL_PAIR: ReadonlySet<string> = new Set([
  "addDays", "addHours", "addMinutes", "addSeconds", "arrayConcat", "arrayElement", "arrayIntersect", "arrayStringConcat", "arrayUniq", "arrayZip", "bitAnd", "bitOr", "bitXor", "ceil", "cityHash64", "concat", "endsWith", "extract", "floor", "formatDateTime", "hasAll", "hasAny", "hasToken", "ilike", "intDiv", "intDivOrZero", "leftPad", "like", "match", "modulo", "moduloOrZero", "multiMatchAny", "multiSearchAny", "multiSearchAnyCaseInsensitive", "multiSearchFirstIndex", "murmurHash3_32", "murmurHash3_64", "notILike", "notLike", "parseDateTimeBestEffort", "parseDateTimeBestEffortOrNull", "position", "positionCaseInsensitive", "positionCaseInsensitiveUTF8", "positionUTF8", "pow", "power", "rightPad", "round", "sipHash64", "splitByString", "startsWith", "substring", "substringUTF8", "subtractDays", "subtractHours", "subtractMinutes", "subtractSeconds", "toDate", "toDateTime", "toDateTime64", "toDayOfWeek", "toDecimal64", "toStartOfWeek", "toString", "toUnixTimestamp", "trim", "trimBoth", "trimLeft", "trimRight", "trunc", "xor", "xxHash64",
]);

/** The same of three arguments, one of them a NULL (`substring(NULL, 1, 2)`, `replaceAll(s, NULL, 'x')`): measured on the engine, held to it exactly by the same test. */
export const NOTHING_OF_NULL_TRIPLE: ReadonlySet<string> = new Set([
  "arrayConcat", "arrayIntersect", "arraySlice", "arrayUniq", "arrayZip", "cityHash64", "concat", "leftPad", "murmurHash3_32", "murmurHash3_64", "position", "positionCaseInsensitive", "positionCaseInsensitiveUTF8", "positionUTF8", "replaceAll", "replaceOne", "replaceRegexpAll", "replaceRegexpOne", "rightPad", "sipHash64", "splitByString", "substring", "substringUTF8", "xor", "xxHash64",
]);
