/**
 * Arithmetic whose result keeps a kind the probe's class results do not give: a tuple's (element
 * by element), a Date's, an IP's, a 128-bit integer's, an array of numbers' or of integers of
 * known types; and the arithmetic ClickHouse refuses on an array of NULLs.
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { VARIANTS, type ArgumentClass } from "../argument-classes.js";
import { DATETIME_DIFFERENCE, UINT32_SHAPE, integerArithmetic, type IntegerShape } from "../integer-types.js";
import { constnessIndex, typed, integerTyped, integerShapeOf, VARIANT_INDEX, TUPLE_VARIANT, UINT128_VARIANT, ARRAY_FAMILIES, VARIANT_FAMILIES, variantTyped, VARIANT_MAY_BE_NULL, NULLABLE_VARIANT_OF, FLOAT64S_VARIANT, isPlainNumber, IPV4_VARIANT, IP_VARIANTS, DATES, isDateLike, type Typed } from "./typed-values.js";
import { describe, nameOf } from "./messages.js";
import { NULLS_ARRAY, isNumberArray } from "./array-types.js";
import { isClockCall } from "../literal-texts.js";

/** One element's operation of tuple arithmetic as a call of its own, at the arithmetic's position (arithmeticTupleOf). */
export function elementCall(name: string, left: Expression, right: Expression, position: TextPosition | undefined): Expression {
  return { kind: "function", name, args: [left, right], ...(position ? { position } : {}) };
}

export function elementBy(name: string, k: number, position: TextPosition | undefined): string {
  return `${nameOf(name)}${at(position)} works on a tuple element by element, and refuses element ${k + 1}:`;
}

/** The arithmetic ClickHouse does element by element on a tuple (tests hold the rule to the engine). */
export const TUPLE_ARITHMETIC: ReadonlySet<string> = new Set(["plus", "minus", "multiply", "divide", "intDiv", "intDivOrZero", "modulo"]);

/** Arithmetic a number and an array undergo element by element, in either order (not plus, minus, moduloOrZero: code 43). */
export const ELEMENT_WISE_ARITHMETIC: ReadonlySet<string> = new Set(["multiply", "divide", "intDiv", "intDivOrZero", "modulo", "positiveModulo"]);

export function isTupleCall(node: Expression): node is Extract<Expression, { kind: "function" }> {
  return node.kind === "function" && node.name === "tuple";
}

/**
 * `array(site) / measurements[cls]` on discover_transactions, which stores no `site`: arithmetic
 * on an array of NULLs is done element by element, on NULLs of no type, which ClickHouse refuses
 * (code 43), beside anything but a NULL (`array(NULL) + NULL` is a NULL). An engine test holds it.
 */
export function refuseArithmeticOnNulls(name: string, args: readonly Expression[], types: readonly Typed[], nothing: (node: Expression) => boolean): void {
  const arrayAt = NULLS_ARRAY.includes(types[0]!) ? 0 : NULLS_ARRAY.includes(types[1]!) ? 1 : -1;
  if (arrayAt < 0 || nothing(args[1 - arrayAt]!)) return;
  const array = args[arrayAt]!;
  throw invalidQuery(
    `${describe(array)}${at(array.position)} is an array of NULLs (an Array(Nullable(Nothing))), and ${nameOf(name)} works element by element on it: ClickHouse does no arithmetic on a NULL of no type`,
    array.position,
  );
}

/** A value the engine computes once per query: the clock's (`now()`), or a call of such values alone (`toDate(now())`). */
function computedOnce(node: Expression): boolean {
  if (node.kind === "literal" || node.kind === "datetime") return true;
  if (node.kind !== "function") return false;
  return node.args.length === 0 ? isClockCall(node) : node.args.every(computedOnce);
}

/** 2^63: a date moves by seconds (or days) counted in an Int64. */
const INT64_END = 2 ** 63;

/**
 * `99999999999999999999999 + now()`: a date computed once moved by a number computed once that
 * no Int64 holds (past 2^63 either way, an infinity) overflows while the query is planned (code
 * 407; seed 44), where a date read per row is taken (the engine wraps it). Judged on the number's
 * value as JavaScript holds it: one within a unit of 2^63 is left to the engine. An engine test
 * holds it (dates-moved-past-int64.test.ts).
 */
export function refuseDateMovedPastInt64(name: string, args: readonly Expression[], types: readonly Typed[], valueOf: (node: Expression) => unknown): void {
  if ((name !== "plus" && name !== "minus") || types.length !== 2) return;
  const dateAt = types.findIndex((t, i) => isDateLike(t) && (t.constant === true || computedOnce(args[i]!)));
  if (dateAt < 0 || (name === "minus" && dateAt !== 0) || types[1 - dateAt]!.constant !== true) return;
  const amount = args[1 - dateAt]!;
  const value = valueOf(amount);
  if (typeof value !== "number" || !(Math.abs(value) > INT64_END)) return;
  throw invalidQuery(
    `${describe(amount)}${at(amount.position)} lies past 2^63, and ${nameOf(name)} moves ${describe(args[dateAt]!)}${at(args[dateAt]!.position)}, a date computed once, by it: ClickHouse counts the move in an Int64, which holds no such number, and fails the query (numeric overflow)`,
    amount.position,
  );
}

/**
 * Arithmetic with an IPv4 (`length(user_email) + ip_address_v4`, `ip - 1`) is integer arithmetic
 * on a UInt32, Nullable as the entities' IPv4 is: a Nullable(UInt64) here, which an -If
 * aggregate refuses as its condition (`uniqIf(0, length(s) + ip)`, code 43; seed 14). Null where
 * the other operand is not an integer of known type. An engine test holds the types
 * (integer-types.test.ts).
 */
export function ipv4ArithmeticType(name: string, args: readonly Typed[], constant: boolean | null): Typed | null {
  if (args.length !== 2 || (name !== "plus" && name !== "minus" && name !== "multiply") || (args[0]!.variant !== IPV4_VARIANT && args[1]!.variant !== IPV4_VARIANT)) return null;
  const [left, right] = args.map((t) => (t.variant === IPV4_VARIANT ? UINT32_SHAPE : integerShapeOf(t))) as [IntegerShape | null, IntegerShape | null];
  const integer = left !== null && right !== null ? integerArithmetic(name, left, right) : null;
  return integer === null ? null : integerTyped(integer, constant, true);
}

/**
 * Arithmetic with a tuple that stays a tuple, element by element: `n * tuple(a)` and `tuple(a) * n`
 * (tupleMultiplyByNumber), `tuple(a) / n`, `intDiv`, `intDivOrZero`, `modulo` with the tuple first,
 * and `tuple(a) + tuple(b)`, `tuple(a) - tuple(b)`; of a number that is not Nullable (a UInt128 too). Not the product
 * of two tuples (a dot product, a number), nor a DateTime minus a tuple (a DateTime). An engine
 * test holds it (a tuple there as a condition is code 43, fuzz 1:232590).
 */
function tupleArithmeticType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  const [left, right] = types as [Typed, Typed];
  const isTuple = (t: Typed) => t.variant === TUPLE_VARIANT;
  // A UInt128 (eap_items' ids) is a number as the classes are (`tuple(a, b) / item_id`).
  const isNumber = (t: Typed) => (t.variant < 0 ? t.cls !== null && ARRAY_FAMILIES[t.cls] === "number" : t.variant === UINT128_VARIANT);
  const elementWise =
    (isTuple(left) && isTuple(right) && (name === "plus" || name === "minus")) ||
    (isTuple(left) && isNumber(right) && name !== "plus" && name !== "minus") ||
    (isNumber(left) && isTuple(right) && name === "multiply");
  if (!elementWise) return null;
  // A Nullable number makes a Nullable(Tuple(...)): judged as the tuple it holds, which every
  // function that refuses a tuple refuses Nullable too (`toStartOfHour(tuple(a) / n)`, code 43;
  // seed 30; test/pipeline/nullable-tuples.test.ts holds it over every allowed function).
  const tuple = variantTyped(TUPLE_VARIANT, constant);
  return left.nullable || right.nullable ? { ...tuple, nullable: true } : tuple;
}

/**
 * A Date or a DateTime64 plus or minus a number of days or seconds (`toDate(t) - 1000`, `1 +
 * toDate(t)`; minus with the date first) is of the date's type, Nullable where the number is
 * (`toDate(t) - n` of a Nullable n is a Nullable(Date)). An engine test holds it.
 */
function dateArithmeticType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  if (name !== "plus" && name !== "minus") return null;
  const dateAt = types.findIndex((t) => t.variant >= 0 && VARIANT_FAMILIES[t.variant] === "datetime");
  if (dateAt < 0 || (name === "minus" && dateAt !== 0)) return null;
  const number = types[1 - dateAt]!;
  if (number.variant >= 0 || number.cls === null || ARRAY_FAMILIES[number.cls] !== "number") return null;
  const date = types[dateAt]!.variant;
  if (!number.nullable) return variantTyped(date, constant);
  const wrapped = VARIANT_MAY_BE_NULL[date] ? VARIANTS[date]! : NULLABLE_VARIANT_OF[VARIANTS[date]!];
  return wrapped === undefined ? null : variantTyped(VARIANT_INDEX.get(wrapped)!, constant);
}

/**
 * A date plus a tuple, either way round, or minus one with the date first, adds each element as
 * an interval (addTupleOfIntervals): `tuple(3, organization_id) + time` is a DateTime, which
 * `version_name != …` compares with a String (code 386; seed 26), and `toDate(t) + tuple(1, 2)` a
 * Date. Of a date that is not Nullable, and a tuple whose elements are not known: one written
 * out is added element by element, each step typed (dateByTupleOfIntervals), for a DateTime
 * element makes a number of the date. An engine test holds both.
 */
function dateTupleArithmeticType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  if (name !== "plus" && name !== "minus") return null;
  const isDate = (t: Typed) => !t.nullable && (t.variant >= 0 ? VARIANT_FAMILIES[t.variant] === "datetime" && !VARIANT_MAY_BE_NULL[t.variant] : t.cls === "datetime");
  const dateAt = isDate(types[0]!) ? 0 : isDate(types[1]!) ? 1 : -1;
  if (dateAt < 0 || types[1 - dateAt]!.variant !== TUPLE_VARIANT || (name === "minus" && dateAt !== 0)) return null;
  const date = types[dateAt]!;
  return date.constant === constant ? date : { ...date, constant };
}

/**
 * A Date minus a Date is a number of days, an Int32, Nullable where either is
 * (`toDate(t) - tuple(1, toDate(t))` ends in one, which `… < version_name` refuses, code 386; seed
 * 44). An engine test holds it (date-tuple-arithmetic.test.ts).
 */
function dateDifferenceType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  const [left, right] = types as [Typed, Typed];
  if (name !== "minus" || !DATES.has(left.variant) || !DATES.has(right.variant)) return null;
  return integerTyped(DATETIME_DIFFERENCE, constant, VARIANT_MAY_BE_NULL[left.variant]! || VARIANT_MAY_BE_NULL[right.variant]!);
}

/**
 * Integers of some width (ipArithmeticType): per Nullability and constness (constnessIndex), one
 * of the integer classes; of an IPv6, a UInt128 too (`ip_address_v6 * 2` is one, which `toIPv6`
 * takes and the integer classes' samples are not).
 */
const INTEGERS: readonly (readonly Typed[])[] = [false, true].map((nullable) =>
  [true, false, null].map((constant) => ({ cls: null, index: -1, constant, nullable: false, variant: -1, alternatives: (["uint8", "int64", "uint32"] as const).map((cls) => typed(cls, constant, nullable)) })),
);
const INTEGERS_OR_UINT128: readonly (readonly Typed[])[] = INTEGERS.map((byConstness) =>
  byConstness.map((integers) => ({ ...integers, alternatives: [...integers.alternatives!, variantTyped(UINT128_VARIANT, integers.constant)] })),
);

/**
 * `ip_address_v6 - 1`, `3 * ip_address_v4`: an IP and an integer (not a float, which the engine
 * refuses) make an integer whose width depends on the IP and the operation (an Int64, a UInt128,
 * an Int128, ...): one of the integer classes, refused only where each is, Nullable where the IP
 * or the integer may be (`… LIKE s`, code 43). An engine test holds it. Not `divide`, a Float64.
 */
function ipArithmeticType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  if (name === "divide") return null;
  const ipAt = types.findIndex((t) => IP_VARIANTS.has(t.variant));
  if (ipAt < 0) return null;
  const other = types[1 - ipAt]!;
  if (other.variant >= 0 || (other.cls !== "uint8" && other.cls !== "int64" && other.cls !== "uint32")) return null;
  const widths = types[ipAt]!.variant === IPV4_VARIANT ? INTEGERS : INTEGERS_OR_UINT128;
  return widths[other.nullable || VARIANT_MAY_BE_NULL[types[ipAt]!.variant] ? 1 : 0]![constnessIndex(constant)]!;
}

/**
 * Arithmetic on values of no class whose result keeps a kind the probe's class results do not
 * give: a tuple's (element by element), a date's (beside a number or a tuple), an IP's, a 128-bit integer's.
 */
export function keptArithmeticType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  return tupleArithmeticType(name, types, constant) ?? dateTupleArithmeticType(name, types, constant) ?? dateDifferenceType(name, types, constant) ?? dateArithmeticType(name, types, constant) ?? ipArithmeticType(name, types, constant) ?? wideIntegerArithmeticType(name, types, constant) ?? integerArraysArithmeticType(name, types, constant);
}

/**
 * `tags.key - tags.key` on metrics: two arrays of integers of known types added or subtracted
 * element by element are an array of the integer type the operation makes (an Array(Int64) of two
 * Array(UInt64)s), as integerArithmetic gives it for two integers. An engine test holds it.
 */
function integerArraysArithmeticType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  if (name !== "plus" && name !== "minus") return null;
  const [left, right] = types as [Typed, Typed];
  if (left.elementInteger === undefined || right.elementInteger === undefined || left.variant >= 0 || right.variant >= 0) return null;
  const elementInteger = integerArithmetic(name, left.elementInteger, right.elementInteger);
  return elementInteger === null ? null : { ...typed("arrayNumber", constant), elementInteger };
}

/** The operations that keep a 128-bit integer one (wideIntegerArithmeticType); not `divide` (a Float64) nor `modulo` (as narrow as its divisor). */
const WIDE_INTEGER_ARITHMETIC: ReadonlySet<string> = new Set(["plus", "minus", "multiply", "intDiv"]);

/**
 * `item_id + 1`, `(ip_address_v6 - 1) * 2`: a UInt128 and an integer (or another UInt128) make a
 * UInt128 or an Int128 (`item_id - 1`), typed as the UInt128 the probe tried: a test holds the
 * probe's outright refusals of a UInt128 to an Int128's (`(item_id - 1) LIKE 'a'` is code 43).
 * Beside a Nullable integer the result is a Nullable, of which the pass has no type.
 */
function wideIntegerArithmeticType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  if (!WIDE_INTEGER_ARITHMETIC.has(name)) return null;
  const wideAt = types.findIndex((t) => t.variant === UINT128_VARIANT);
  if (wideAt < 0) return null;
  const other = types[1 - wideAt]!;
  const integer = other.variant === UINT128_VARIANT || (other.variant < 0 && !other.nullable && other.alternatives === undefined && other.cls !== null && INTEGER_CLASSES.has(other.cls));
  return integer ? variantTyped(UINT128_VARIANT, constant) : null;
}

/** The classes of integers (a Bool is a UInt8). */
const INTEGER_CLASSES: ReadonlySet<ArgumentClass> = new Set(["uint8", "int64", "uint32", "bool"]);

/**
 * `2 / measurements.value`, `tags.key * 0.95`: a number and an array of numbers are divided or
 * multiplied element by element, into an array. Typed where its elements are certainly Float64s:
 * a division (always a Float64), a product with a float literal (a Float64, wider than any
 * element), or a product of Float64s. Elsewhere the element type depends on the exact types (`[1, 2] * 1` is an
 * Array(UInt16)): one of the arrays of numbers (NUMBER_ARRAYS). An engine test holds both to the engine's result types.
 */
export function arrayArithmeticType(name: string, nodes: readonly Expression[], types: readonly Typed[], constant: boolean | null): Typed | null {
  const arrayAt = numberArrayBesideNumber(types);
  if (arrayAt < 0) return null;
  const other = types[1 - arrayAt]!;
  const otherNode = nodes[1 - arrayAt]!;
  const floatLiteral = otherNode.kind === "literal" && other.cls === "float64";
  // An Array(Float64) times any number is one too (`measurements.value * deleted`).
  const float64s = types[arrayAt]!.variant === FLOAT64S_VARIANT;
  return name === "divide" || floatLiteral || float64s ? variantTyped(FLOAT64S_VARIANT, constant) : null;
}

/** `3 * tags.value`, `quantilesTDigest(0.5, 0.9)(x) * 1000`: a product of a number and an array of numbers, none Nullable, that the probe's class results do not type (NUMBER_ARRAYS). */
export function isNumbersProduct(name: string, types: readonly Typed[]): boolean {
  return name === "multiply" && types.length === 2 && numberArrayBesideNumber(types) >= 0;
}

/**
 * `tags.value + array(100)`, `array(f) - array(2.5)`: two arrays of numbers, none Nullable, added
 * or subtracted element by element, which the probe's class results do not type beyond two
 * arrays of integers: an array of numbers whose element type depends on theirs (an Array(UInt64),
 * an Array(Float64), an Array(UInt16) of two Array(Bool)s): NUMBER_ARRAYS (seed 42: `tags.value +
 * array(100) + now()` is code 43). An engine test holds the engine's type of each such sum.
 */
export function isNumberArraysSum(name: string, types: readonly Typed[]): boolean {
  return (name === "plus" || name === "minus") && types.length === 2 && isNumberArray(types[0]!) && isNumberArray(types[1]!);
}

/**
 * Of two operands, the position of an array of numbers (isNumberArray) beside a number of a known
 * class, else -1. The number may be Nullable: it makes no Nullable elements (`[1] * toNullable(2)`
 * is an Array(UInt16)).
 */
function numberArrayBesideNumber(types: readonly Typed[]): number {
  const arrayAt = isNumberArray(types[0]!) ? 0 : isNumberArray(types[1]!) ? 1 : -1;
  return arrayAt >= 0 && isPlainNumber(types[1 - arrayAt]!) ? arrayAt : -1;
}
