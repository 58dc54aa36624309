/**
 * The exact integer types behind the typing pass's integer classes. The class "an integer"
 * (int64) holds Int8 to Int64, UInt16 and UInt64 alike, and the probe tried it as an Int64; but
 * two of ClickHouse's rules turn on the width and the sign:
 *
 * - `greatest` and `least` of a 64-bit integer and a float refuse (code 43, or 386 past two
 *   arguments), where an Int32 or a UInt16 beside a float is a Float64;
 * - past two plain arguments (three or more, or a Nullable one), they compare in the arguments'
 *   least supertype, and a UInt64 and a signed integer have none (code 386), where two plain
 *   arguments are compared as an Int128.
 *
 * So the pass knows an integer's exact type where it is certain (a column, a literal, a
 * conversion, a count, integer arithmetic of known types) and judges those two rules on it. An
 * engine test holds every table and rule here to the embedded engine
 * (test/pipeline/integer-types.test.ts).
 */

/** An integer type by its sign and its size in bytes: UInt8 is { signed: false, bytes: 1 } (a Bool too). */
export interface IntegerShape {
  readonly signed: boolean;
  readonly bytes: 1 | 2 | 4 | 8;
}

const SHAPES: ReadonlyMap<string, IntegerShape> = new Map(
  ([1, 2, 4, 8] as const).flatMap((bytes) => [false, true].map((signed): [string, IntegerShape] => [`${signed ? "Int" : "UInt"}${bytes * 8}`, { signed, bytes }])),
);
/** One shared object per integer type. */
function shape(signed: boolean, bytes: 1 | 2 | 4 | 8): IntegerShape {
  return SHAPES.get(`${signed ? "Int" : "UInt"}${bytes * 8}`)!;
}
export const UINT8_SHAPE = shape(false, 1);
export const UINT32_SHAPE = shape(false, 4);
export const UINT64_SHAPE = shape(false, 8);

/** The type's name as ClickHouse writes it (`UInt64`). */
export function integerTypeName(integer: IntegerShape): string {
  return `${integer.signed ? "Int" : "UInt"}${integer.bytes * 8}`;
}

/** The integer type a type name is (`LowCardinality(Nullable(Int32))` is an Int32, a Bool a UInt8), or null. */
export function integerShapeOfTypeName(typeName: string): IntegerShape | null {
  let type = typeName.trim();
  for (let match = WRAPPED.exec(type); match; match = WRAPPED.exec(type)) type = match[1]!;
  return type === "Bool" ? UINT8_SHAPE : (SHAPES.get(type) ?? null);
}
const WRAPPED = /^(?:LowCardinality|Nullable)\((.*)\)$/;

/** Whether an integer's digits (`18446744073709551615`) lie within UInt64 or Int64, as the engine reads them. */
export function wholeWithinIntegers(digits: string): boolean {
  const whole = BigInt(digits);
  return whole >= -(2n ** 63n) && whole < 2n ** 64n;
}

/**
 * The type ClickHouse gives an integer literal: the smallest unsigned type that holds it, the
 * smallest signed one for a negative (literalClass sends the rest to Float64).
 */
export function integerShapeOfLiteral(value: number, digits?: string): IntegerShape | null {
  if (!Number.isInteger(value)) return null;
  // Past 2^53 the digits say it (literalClass): JavaScript's 2^64 may be the engine's 2^64 - 1.
  if (digits !== undefined) return !wholeWithinIntegers(digits) ? null : value >= 0 ? UINT64_SHAPE : shape(true, 8);
  if (value >= 0) return value <= 0xff ? shape(false, 1) : value <= 0xffff ? shape(false, 2) : value <= 0xffffffff ? shape(false, 4) : value < 2 ** 64 ? UINT64_SHAPE : null;
  return value >= -(2 ** 7) ? shape(true, 1) : value >= -(2 ** 15) ? shape(true, 2) : value >= -(2 ** 31) ? shape(true, 4) : value > -(2 ** 63) ? shape(true, 8) : null;
}

/** The next size up, as the sum or the product of two integers is (a 64-bit one stays 64-bit). */
function wider(bytes: 1 | 2 | 4 | 8): 1 | 2 | 4 | 8 {
  return bytes === 1 ? 2 : bytes === 2 ? 4 : 8;
}

/**
 * The type of integer arithmetic of two integers (ClickHouse's NumberTraits): a sum or a product
 * is one size up from the wider operand, signed where either is; a difference too, always
 * signed; an integer quotient has the dividend's size; a remainder the divisor's size, signed
 * (and one size up) where the dividend is. Null for any other function.
 */
export function integerArithmetic(name: string, left: IntegerShape, right: IntegerShape): IntegerShape | null {
  switch (name) {
    case "plus":
    case "multiply":
      return shape(left.signed || right.signed, wider(Math.max(left.bytes, right.bytes) as 1 | 2 | 4 | 8));
    case "minus":
      return shape(true, wider(Math.max(left.bytes, right.bytes) as 1 | 2 | 4 | 8));
    case "intDiv":
    case "intDivOrZero":
      return shape(left.signed || right.signed, left.bytes);
    case "modulo":
      return left.signed ? shape(true, wider(right.bytes)) : shape(false, right.bytes);
    default:
      return null;
  }
}

/**
 * The type of a function of one integer: `abs` is the unsigned type of its size (`abs` of an
 * Int64 is a UInt64), `negate` a signed one, one size up from an unsigned (a UInt16 is negated
 * to an Int32, a UInt64 to an Int64). Null for any other function.
 */
export function integerOfOne(name: string, integer: IntegerShape): IntegerShape | null {
  switch (name) {
    case "abs":
      return shape(false, integer.bytes);
    case "negate":
      return integer.signed ? integer : shape(true, wider(integer.bytes));
    default:
      return null;
  }
}

/** A DateTime minus a DateTime is a number of seconds, a Date minus a Date one of days: an Int32. */
export const DATETIME_DIFFERENCE = shape(true, 4);

/**
 * Functions whose result is always the same integer type of the integer class, measured: every
 * function the probe found always an integer of that class, but `arraySum` and `sumArray`,
 * whose result follows the array's elements (ELEMENT_DEPENDENT_INTEGER_RESULTS).
 */
export const FIXED_INTEGER_RESULTS: ReadonlyMap<string, IntegerShape> = new Map([
  ...["cityHash64", "count", "countDistinct", "countIf", "indexOf", "length", "lengthUTF8", "multiSearchFirstIndex", "murmurHash3_64", "position", "positionCaseInsensitive", "positionCaseInsensitiveUTF8", "positionUTF8", "reinterpretAsUInt64", "sipHash64", "toUInt64", "toUInt64OrZero", "uniq", "uniqCombined", "uniqCombined64", "uniqExact", "uniqExactIf", "uniqHLL12", "uniqIf", "xxHash64"].map((name) => [name, UINT64_SHAPE] as const),
  ["sign", shape(true, 1)],
  ["toInt8", shape(true, 1)],
  ["toInt16", shape(true, 2)],
  ["toInt32", shape(true, 4)],
  ["toInt64", shape(true, 8)],
  ["toInt64OrZero", shape(true, 8)],
  ["toUInt16", shape(false, 2)],
  ["toDayOfYear", shape(false, 2)],
  ["toYear", shape(false, 2)],
]);

/** Functions of a fixed integer class whose exact type follows the array they are given: no fixed type. */
export const ELEMENT_DEPENDENT_INTEGER_RESULTS: ReadonlySet<string> = new Set(["arraySum", "sumArray"]);

/**
 * The type greatest and least give integers of known types (a Bool is a UInt8): the widest
 * unsigned, the widest signed, or, of both, a signed type wide enough for both (a UInt32 and an
 * Int8 are an Int64). Null for a UInt64 beside a signed integer (an Int128 of two plain
 * arguments, refused past two).
 */
export function integerCommonType(integers: readonly IntegerShape[]): IntegerShape | null {
  let signedBytes = 0;
  let unsignedBytes = 0;
  for (const integer of integers) {
    if (integer.signed) signedBytes = Math.max(signedBytes, integer.bytes);
    else unsignedBytes = Math.max(unsignedBytes, integer.bytes);
  }
  if (signedBytes === 0) return unsignedBytes === 0 ? null : shape(false, unsignedBytes as 1 | 2 | 4 | 8);
  if (unsignedBytes === 0) return shape(true, signedBytes as 1 | 2 | 4 | 8);
  if (unsignedBytes === 8) return null;
  return shape(true, Math.max(signedBytes, wider(unsignedBytes as 1 | 2 | 4 | 8)) as 1 | 2 | 4 | 8);
}

/** A number as the common-type rules see it: an integer of a known type, a float, or a number of the integer class whose type the pass does not know. */
export type NumberShape = IntegerShape | "float" | "integer";

/** Why two numbers have no common type in greatest or least, or null where they have one. */
export type CommonTypeProblem = "64-bit integer beside a float" | "UInt64 beside a signed integer";

/**
 * Whether greatest or least finds a common type for two of its numbers: a 64-bit integer and a
 * float never (no float holds every 64-bit integer); a UInt64 and a signed integer not where the
 * call goes through the least supertype (`bySupertype`: three arguments or more, or a Nullable
 * one), as no signed type of 64 bits holds every UInt64. Where a shape is not known, no problem.
 */
export function commonTypeProblem(first: NumberShape, second: NumberShape, bySupertype: boolean): CommonTypeProblem | null {
  if (first === "integer" || second === "integer") return null;
  if (first === "float" || second === "float") {
    const other = first === "float" ? second : first;
    return other !== "float" && other.bytes === 8 ? "64-bit integer beside a float" : null;
  }
  if (!bySupertype) return null;
  const unsigned64 = (s: IntegerShape) => !s.signed && s.bytes === 8;
  return (unsigned64(first) && second.signed) || (unsigned64(second) && first.signed) ? "UInt64 beside a signed integer" : null;
}
