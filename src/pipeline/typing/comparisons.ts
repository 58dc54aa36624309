/**
 * What comparisons refuse whatever the rows: tuples of two sizes, an IPv4 beside a float or a
 * signed integer, arrays of Variants of other families, an array beside a scalar, a string that
 * does not read as the type it is compared with; and the constants a call reads while the query
 * is planned (a text converted, an index of 0).
 */
import { atPosition as at, invalidQuery } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { CLASS_NAMES, VARIANTS, variantWhat, type ArgumentClass } from "../argument-classes.js";
import { STRING_READ_AS, TEXT_CONVERSIONS, constantText, foldedSetValue, writtenAsArray, unreadableAsComparedDateTime, type ColumnTexts, type StringReading } from "../literal-texts.js";
import { integerShapeOfLiteral, integerShapeOfTypeName, integerTypeName, wholeWithinIntegers } from "../integer-types.js";
import { integerShapeOf, TUPLE_VARIANT, MIXED_ARRAY_VARIANT, ARRAY_VARIANT_AT, familyOf, IPV4_VARIANT, isArrayTyped, type Typed } from "./typed-values.js";
import { describe, nameOf, typeName } from "./messages.js";
import { SCALAR_CLASSES } from "./function-facts.js";
import { isBranch, type ValueOf } from "./branch-types.js";
import { isArrayCall, ARRAY_VARIANT_ELEMENT } from "./array-types.js";
import { isTupleCall } from "./arithmetic-types.js";

export const COMPARISONS = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals", "in", "notIn"]);

/** The comparisons of two values (not IN, whose right side is a set of values). */
export const VALUE_COMPARISONS: ReadonlySet<string> = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"]);

/** The classes of one value (not an array or an aggregate state): what ClickHouse never compares with an array. */
export const SCALAR_VALUE_CLASSES: ReadonlySet<ArgumentClass> = new Set(SCALAR_CLASSES.filter((cls) => cls !== "aggregateState"));

/**
 * `array(a, b) = x` with x of a scalar class: ClickHouse compares an array only with an array, or
 * with a text it reads as one (`'[1, 2]'`). Beside a number, a DateTime, a UUID, a Boolean or a
 * string computed per row the two have no common type (codes 43, 386), and a constant text that
 * does not start with `[` fails to convert (code 130), whatever the array's elements and the rows
 * (test/pipeline/array-comparisons.test.ts holds this to the engine). Judged on the `array(...)`
 * call itself, whose elements may have no class the pass knows (`array(NULL)`, `array(tags, 1)`).
 */
/**
 * `tuple(a) >= tuple(b, c)`: ClickHouse compares tuples element by element, and only tuples of
 * one size (code 43 otherwise, whatever the elements); greatest and least find no common type for
 * two of them (`greatest(tuple(a, b, c), tuple(d))`, code 386, a NULL or more arguments beside).
 */
export function refuseTuplesOfTwoSizes(name: string, args: readonly Expression[]): void {
  for (let i = 0; i < args.length; i++)
    for (let j = i + 1; j < args.length; j++) {
      const [left, right] = [args[i]!, args[j]!];
      if (isTupleCall(left) && isTupleCall(right) && left.args.length !== right.args.length) refuseTupleSizes(name, left, right);
    }
}

function refuseTupleSizes(name: string, left: Extract<Expression, { kind: "function" }>, right: Extract<Expression, { kind: "function" }>): never {
  throw invalidQuery(
    `${describe(left)}${at(left.position)} is a tuple of ${left.args.length} and ${describe(right)}${at(right.position)} one of ${right.args.length}: ${nameOf(name)} compares tuples only of one size`,
    right.position ?? left.position,
  );
}

/**
 * `ip_address_v4 <= span_op_breakdowns[k]`, `1.5e-7 >= ip_address_v4`, `greatest(ip, -1)`: an
 * IPv4 compared with a float or a signed integer is converted to it, which ClickHouse cannot do
 * (code 48): at once beside a constant, on the first row beside a column. An unsigned integer is
 * taken; one of unknown exact type is left alone. An engine test holds it.
 */
export function refuseIPv4BesideFloatOrSigned(name: string, args: readonly Expression[], types: readonly Typed[]): void {
  const ipAt = types.findIndex((t) => t.variant === IPV4_VARIANT);
  if (ipAt < 0) return;
  const otherAt = types.findIndex(isFloatOrSigned);
  if (otherAt < 0) return;
  throwIPv4ConvertedTo(name, args[ipAt]!, args[otherAt]!, types[otherAt]!, "");
}

/**
 * `has(array(duration / 2), ip_address_v4)`, `ip_address_v4 IN array(toInt32(x), y)`: looked up
 * among floats or signed integers, an IPv4 is converted to their type as it is when compared
 * with one (refuseIPv4BesideFloatOrSigned, code 48). The elements are those the pass knows (an
 * array of floats, of narrow integers, an array variant); an Array(Int64) or Array(UInt64) is
 * left alone. An engine test holds it.
 */
export function refuseIPv4AmongFloatsOrSigned(name: string, array: Expression, arrayType: Typed, sought: Expression, soughtType: Typed): void {
  if (soughtType.variant !== IPV4_VARIANT) return;
  const elements = arrayType.elementType ?? (arrayType.variant >= 0 && ARRAY_VARIANT_AT[arrayType.variant] ? ARRAY_VARIANT_ELEMENT[arrayType.variant] : null);
  if (elements && isFloatOrSigned(elements)) throwIPv4ConvertedTo(name, sought, array, elements, "the elements of ");
}

function isFloatOrSigned(t: Typed): boolean {
  return t.variant < 0 && (t.cls === "float64" || integerShapeOf(t)?.signed === true);
}

function throwIPv4ConvertedTo(name: string, ip: Expression, other: Expression, otherType: Typed, among: "" | "the elements of "): never {
  const what = otherType.cls === "float64" ? "a float" : `an ${integerTypeName(integerShapeOf(otherType)!)}`;
  const verb = among === "" ? "compares it with" : "looks for it among";
  throw invalidQuery(
    `${describe(ip)}${at(ip.position)} is an IPv4, and ${nameOf(name)} ${verb} ${among}${describe(other)}${at(other.position)}, ${among === "" ? what : `each ${what}`}: ClickHouse cannot convert an IPv4 to ${what}; compare it with an unsigned integer or an address written as text ('1.2.3.4')`,
    other.position ?? ip.position,
  );
}

/**
 * `if(c, ip_address_v4, 0.5)`: an `if` or `multiIf` returning an IPv4 beside a float or a signed
 * integer returns their common type (a Float64, an Int64), and ClickHouse cannot convert the IPv4
 * to it (code 48) on a row that takes that branch, where a constant condition picks it (`if(2,
 * ip_address_v4, 0.5)`; seed 20) or a condition read per row may. A branch no row takes (`if(0, ip,
 * 0.5)`) is never converted. An engine test holds it (integer-types.test.ts).
 */
export function refuseIPv4AmongBranches(name: string, args: readonly Expression[], types: readonly Typed[], nullAt: (node: Expression) => boolean, valueOf: ValueOf): void {
  if (args.length < 3 || args.length % 2 === 0) return;
  let ipAt = -1;
  let otherAt = -1;
  for (let i = 1; i < args.length; i++) {
    if (!isBranch(i, args.length) || nullAt(args[i]!)) continue;
    if (types[i]!.variant === IPV4_VARIANT && ipAt < 0) ipAt = i;
    else if (isFloatOrSigned(types[i]!) && otherAt < 0) otherAt = i;
  }
  if (ipAt < 0 || otherAt < 0 || !mayBeTaken(args, ipAt, nullAt, valueOf)) return;
  const [ip, other] = [args[ipAt]!, args[otherAt]!];
  const what = types[otherAt]!.cls === "float64" ? "a float" : `an ${integerTypeName(integerShapeOf(types[otherAt]!)!)}`;
  throw invalidQuery(
    `${describe(ip)}${at(ip.position)} is an IPv4, and ${name} may return it beside ${describe(other)}${at(other.position)}, ${what}: its branches take their common type, and ClickHouse cannot convert an IPv4 to ${what}; convert the address (IPv4NumToString(…), toUInt32(…)) or the other branch`,
    ip.position ?? other.position,
  );
}

/** Whether a row may take branch `at` of an `if` or `multiIf`: no constant condition before it picks another, and its own is no constant false or NULL. */
function mayBeTaken(args: readonly Expression[], at: number, nullAt: (node: Expression) => boolean, valueOf: ValueOf): boolean {
  const constantTruth = (condition: Expression): boolean | null => {
    if (nullAt(condition)) return false;
    const value = valueOf(condition);
    return typeof value === "number" || typeof value === "boolean" ? value !== 0 && value !== false : null;
  };
  for (let i = 0; i < at - 1; i += 2) if (constantTruth(args[i]!) === true) return false;
  return at === args.length - 1 || constantTruth(args[at - 1]!) !== false;
}

/**
 * Two arrays of a Variant compared (`array(s, x IN y, '%a%') = array(profiler_id, c, s)`, an
 * Array(Variant(String, UInt8)) and an Array(Variant(String, UInt8, UUID)); seed 14): ClickHouse
 * compares arrays of a Variant only with arrays of the same Variant (code 43). Where the elements'
 * families differ, so do the Variants; the same families may still hold other exact types
 * (a UInt8 and a UInt16), which stays with the engine. An engine test holds it.
 */
export function refuseMixedArraysOfOtherFamilies(name: string, args: readonly Expression[], types: readonly Typed[]): void {
  const [left, right] = types as [Typed, Typed];
  if (left.variant !== MIXED_ARRAY_VARIANT || right.variant !== MIXED_ARRAY_VARIANT || left.elements === undefined || right.elements === undefined) return;
  const familiesOf = (t: Typed): Set<string | undefined> => new Set(t.elements!.flatMap((element) => (element === null ? [] : [familyOf(element)])));
  const leftFamilies = familiesOf(left);
  const rightFamilies = familiesOf(right);
  if (leftFamilies.has(undefined) || rightFamilies.has(undefined)) return;
  const [a, b] = args as [Expression, Expression];
  if (leftFamilies.size === rightFamilies.size && [...leftFamilies].every((family) => rightFamilies.has(family))) {
    refuseMixedArraysOfOtherTypes(name, a, left, b, right);
    return;
  }
  const plural = (family: string | undefined): string => (family === "datetime" ? "DateTimes" : family === "uuid" ? "UUIDs" : family!.startsWith("array of ") ? `arrays of ${family!.slice(9)}` : `${family}s`);
  const what = (families: Set<string | undefined>): string => [...families].map(plural).join(" and ");
  throw invalidQuery(
    `${describe(a)}${at(a.position)} is an array of ${what(leftFamilies)} (an Array(Variant(...))) and ${describe(b)}${at(b.position)} one of ${what(rightFamilies)}: ${nameOf(name)} compares arrays of a Variant only with arrays of the same Variant; compare arrays of one type`,
    b.position ?? a.position,
  );
}

/**
 * Two `array(…)` calls of a Variant of the same families compared: their Variants differ where one
 * holds an exact type written out (a Bool, a text, a number with a fraction: a Float64) that no
 * element of the other can be (`array(use_case_id, 0.95) <= array(use_case_id, FALSE)`, an
 * Array(Variant(Float64, String)) and an Array(Variant(Bool, String)), code 43; seed 42). An
 * element that is no literal may be any type of its family (a text column a String, a
 * LowCardinality(String) or a FixedString), but a condition or an integer of known type
 * (exactElementType), and a float is no integer (mayBeExactly). An engine test holds it.
 */
function refuseMixedArraysOfOtherTypes(name: string, a: Expression, left: Typed, b: Expression, right: Typed): void {
  if (!isArrayCall(a) || !isArrayCall(b)) return;
  type Call = Extract<Expression, { kind: "function" }>;
  const absent = (from: Call, fromTypes: Typed, other: Call, otherTypes: Typed): string | null => {
    for (let i = 0; i < from.args.length; i++) {
      const exact = exactElementType(from.args[i]!, fromTypes.elements![i]);
      if (exact === null) continue;
      const family = familyOf(fromTypes.elements![i]!);
      const possible = other.args.some((element, k) => {
        const t = otherTypes.elements![k];
        if (t === null || t === undefined) return false;
        const otherExact = exactElementType(element, t);
        return otherExact !== null ? otherExact === exact : mayBeExactly(t, exact, family);
      });
      if (!possible) return exact;
    }
    return null;
  };
  const leftOnly = absent(a, left, b, right);
  const rightOnly = leftOnly === null ? absent(b, right, a, left) : null;
  if (leftOnly === null && rightOnly === null) return;
  const [holder, other] = leftOnly !== null ? [a, b] : [b, a];
  throw invalidQuery(
    `${describe(holder)}${at(holder.position)} is an array of a Variant holding a ${leftOnly ?? rightOnly}, and ${describe(other)}${at(other.position)} one of a Variant that cannot hold one: ${nameOf(name)} compares arrays of a Variant only with arrays of the same Variant; compare arrays of one type`,
    b.position ?? a.position,
  );
}

/**
 * The exact type an element of an `array(…)` call is in its Variant, where nothing else can be:
 * a literal's (exactLiteralType), or a value computed of a class of one type (a condition's UInt8,
 * `round(span_id) IN 2` beside 0.95's Float64, code 43; seed 45), or an integer of known type.
 * Not a float or a text computed or read (a Float32, a FixedString may be one).
 */
function exactElementType(node: Expression, t: Typed | null | undefined): string | null {
  if (node.kind === "literal") return exactLiteralType(node);
  if (t === null || t === undefined || t.variant >= 0 || t.alternatives !== undefined) return null;
  if (t.cls === "uint8") return "UInt8";
  if (t.cls === "uint32") return "UInt32";
  if (t.cls === "uuid") return "UUID";
  if (t.cls === "bool") return "Bool";
  const integer = t.cls === "int64" ? integerShapeOf(t) : null;
  return integer === null ? null : integerTypeName(integer);
}

/**
 * Whether an element of no exact type the pass knows may be of this exact type: a float
 * (a Float32 or a Float64) no integer, an integer of unknown width no float, else any type of
 * its family (`measurements[lcp]` is no UInt8: `array(http_method, measurements[lcp]) =
 * array(10, 'error')`, code 43; seed 47).
 */
function mayBeExactly(t: Typed, exact: string, family: string | undefined): boolean {
  if (exact === "Float64") return t.cls === "float64";
  if (exact === "Bool") return t.cls === "bool";
  if (integerShapeOfTypeName(exact) !== null) return t.cls === "int64";
  return familyOf(t) === family;
}

/**
 * The exact type the engine gives a literal as Quarry writes it: a Bool, a String, a Float64 (a
 * number with a fraction), a whole number's integer type (`10.0` is written `10`, a UInt8; one
 * past 2^64 a Float64, left alone); else null.
 */
function exactLiteralType(node: Expression): string | null {
  if (node.kind !== "literal") return null;
  if (typeof node.value === "boolean") return "Bool";
  if (typeof node.value === "string") return "String";
  if (typeof node.value !== "number" || !Number.isFinite(node.value)) return null;
  if (!Number.isInteger(node.value)) return "Float64";
  const integer = integerShapeOfLiteral(node.value, node.digits);
  return integer === null ? null : integerTypeName(integer);
}

/**
 * `toNullable(level) = tuple(1)`, `multiIf(TRUE, NULL, organization_id) >= tuple(user_email, 1)`: a
 * Nullable value of a class other than a string compared with a tuple is refused while the query
 * is planned (code 43; seed 36), as the value alone is (the probe compared plain values only). A
 * Nullable string is read as a tuple per row (code 386 on a row holding one), and a NULL compared
 * with anything is a NULL.
 */
export function refuseNullableBesideTuple(name: string, args: readonly Expression[], types: readonly Typed[], isNothing: (node: Expression) => boolean): void {
  const tupleAt = types[0]!.variant === TUPLE_VARIANT ? 0 : types[1]!.variant === TUPLE_VARIANT ? 1 : -1;
  if (tupleAt < 0) return;
  const [tuple, value] = [args[tupleAt]!, args[1 - tupleAt]!];
  const t = types[1 - tupleAt]!;
  if (!t.nullable || t.variant >= 0 || t.alternatives !== undefined || t.cls === null || t.cls === "string" || !SCALAR_VALUE_CLASSES.has(t.cls) || isNothing(value)) return;
  throw invalidQuery(
    `${describe(value)}${at(value.position)} is ${CLASS_NAMES[t.cls]} (Nullable) and ${describe(tuple)}${at(tuple.position)} a tuple: ${nameOf(name)} compares a tuple only with a tuple`,
    value.position ?? tuple.position,
  );
}

/** The functions that look a value up among an array's elements: `has(array, value)`, ... */
export const ELEMENT_LOOKUPS: ReadonlySet<string> = new Set(["has", "indexOf", "countEqual"]);

export function refuseArrayBesideScalar(name: string, args: readonly Expression[], types: readonly Typed[], columns: ColumnTexts): void {
  for (let side = 0; side < 2; side++) {
    const array = args[side]!;
    const other = types[1 - side]!;
    const otherNode = args[1 - side]!;
    // An `array(…)` call, or an array whose element type the pass cannot name (`groupUniqArray(tags.key)`).
    const arrayOf = types[side]!.arrayOf;
    if ((!isArrayCall(array) && arrayOf === undefined) || other.cls === null || other.variant >= 0 || !SCALAR_VALUE_CLASSES.has(other.cls)) continue;
    if (other.cls === "string" && other.constant !== false) {
      const text = constantText(otherNode, columns);
      // No text reads as an array of aggregate states (code 43).
      if (text === null || (writtenAsArray(text) && types[side]!.elementType?.cls !== "aggregateState")) continue;
    }
    throw invalidQuery(
      `${describe(array)}${at(array.position)} is ${arrayOf ?? "an array"}, and ${nameOf(name)} compares it with ${describe(otherNode)}${at(otherNode.position)}, ${CLASS_NAMES[other.cls]}${other.nullable ? " (Nullable)" : ""}: ClickHouse compares an array only with an array, or with a text written as one ('[...]')`,
      array.position,
    );
  }
}

/**
 * `project_id = 'abc'`, `count() > 'x'`, `toStartOfHour(timestamp) IN ('yesterday')`: a string
 * compared with a value of a class is converted to that class, and one that does not read as such
 * fails the query (ClickHouse's codes 53, 72, 41, 376). With a plain value it fails whatever the
 * data, while the query is planned; with a Nullable one (`duration` on discover, the elements of
 * `exception_frames.lineno`) on the first row that holds a value: the query works only on rows
 * that are all NULL, where the comparison matches nothing anyway, so it is refused as well.
 * An aggregate state takes no value at all on the left of IN (`value IN ('x')` on
 * generic_metrics_counters, `min IN (3)`: code 53); `=` and `<` with one are refused as calls.
 */
export function judgeComparedString(name: string, args: readonly Expression[], types: readonly Typed[], computedSet: boolean, columns: ColumnTexts): void {
  const membership = name === "in" || name === "notIn";
  // `x IN set` converts the set to x's type, never x to the set's: `'x' IN 1` is taken. A value
  // computed per row there (`'x' IN abs(org_id)`) is compared as `=` compares, both ways.
  for (let side = membership && !computedSet ? 1 : 0; side < 2; side++) {
    const other = types[1 - side]!;
    const inSet = membership && side === 1;
    // Beside a state or an array (outside a condition, where the array's elements are compared),
    // a set takes no scalar at all (codes 53, 43).
    // An integer of the int64 class known to be unsigned (`user_hash`, a UInt64) reads a text as a
    // UInt8 does: `toString(-1000) = user_hash` is code 53 (seed 14).
    const unsigned = other.cls === "int64" && integerShapeOf(other)?.signed === false;
    const rule = inSet && other.cls === "aggregateState" ? STATE_SET : inSet && isArrayTyped(other) ? ARRAY_SET : STRING_READ_AS.get(unsigned ? "uint8" : (other.cls ?? VARIANTS[other.variant] ?? ""));
    // Beside a tuple, the values listed in a set may be read as one tuple of them (`t IN ('a', 1)`).
    if (!rule || (inSet && other.variant === TUPLE_VARIANT)) continue;
    // A lambda's parameter (an array's element): ClickHouse converts the text per element, only as
    // it runs the lambda, and Snuba's own tests compare one with a text it does not read as
    // (`equals(y, '05029609156d8133')` over spans.group, UInt64s in storage: test_suspect_spans_data).
    // Left to the engine.
    if (args[1 - side]!.kind === "argument") continue;
    const anyScalar = rule === STATE_SET || rule === ARRAY_SET;
    const arg = args[side]!;
    const listed = inSet && arg.kind === "function" && (arg.name === "tuple" || arg.name === "array");
    for (const written of listed ? (arg as { args: readonly Expression[] }).args : [arg]) {
      // A set's value is what the engine folds it to (an `if` of literal conditions, its branch).
      const value = inSet ? foldedSetValue(written) : written;
      // Beside a state or an array, any literal but a NULL, or a text computed from literals
      // (`value IN upper('production')` on metrics_sets, code 53: seed 13).
      const text = anyScalar && value.kind === "literal" ? (value.value !== null ? String(value.value) : null) : constantText(value, columns);
      // Compared with a DateTime (not listed in a set), a date no calendar has fails too, and so
      // do digits of a length the best-effort reading has no meaning for, and a trailing separator.
      if (text === null || (inSet && rule.readsInSet !== undefined ? rule.readsInSet(text) : rule.reads(text) && (inSet || other.cls !== "datetime" || !unreadableAsComparedDateTime(text)))) continue;
      const compared = args[1 - side]!;
      const what = other.cls !== null ? CLASS_NAMES[other.cls] : variantWhat(VARIANTS[other.variant]!);
      const folded = value.kind === "literal" ? "" : ` (the text '${text.length > 40 ? `${text.slice(0, 40)}…` : text}')`;
      throw invalidQuery(
        `${describe(value)}${at(value.position)}${folded} is not ${rule.what}, and ${nameOf(name)} compares it with ${describe(compared)}${at(compared.position)}, ${what}${other.nullable ? " (Nullable)" : ""}: ClickHouse cannot read it as one`,
        value.position,
      );
    }
    // A set computed from constants (`count NOT IN isNotNull(0)`, `value IN plus(1, 1)`; not a
    // NULL, of no type) is converted to the state's type as a literal is, and no value converts
    // (code 53; seed 24); a text is judged above, by its reading.
    const typedSet = types[side]!;
    if (inSet && rule === STATE_SET && !listed && arg.kind === "function" && typedSet.constant === true && (typedSet.cls !== null || typedSet.variant >= 0)) {
      const compared = args[1 - side]!;
      throw invalidQuery(
        `${describe(arg)}${at(arg.position)} is ${typeName(typedSet)}, not ${rule.what}, and ${nameOf(name)} looks for ${describe(compared)}${at(compared.position)}, ${CLASS_NAMES.aggregateState}, in it: ClickHouse cannot convert a value to an aggregate state`,
        arg.position,
      );
    }
  }
}

/**
 * `toDate('production')`: a conversion function given a text that cannot be read as its type
 * fails the query while ClickHouse plans it (code 38), whatever the rows.
 */
export function judgeConvertedText(name: string, args: readonly Expression[], columns: ColumnTexts): void {
  const rule = TEXT_CONVERSIONS.get(name);
  const value = args[0];
  if (rule === undefined || value === undefined) return;
  const text = constantText(value, columns);
  if (text === null || rule.reads(text)) return;
  throw invalidQuery(`${describe(value)}${at(value.position)} is not ${rule.what}: ${name} cannot read it as one`, value.position);
}

/** The LIKE family: their second argument is a pattern, where a backslash escapes the next character. */
const LIKE_PATTERNS: ReadonlySet<string> = new Set(["like", "notLike", "ilike", "notILike"]);

/**
 * `environment LIKE '\\'`: a pattern that ends in a backslash escaping nothing (an odd run of
 * them at its end) fails the query (code 25) on the first row, or while the query is planned of a
 * constant (seed 31, which answered a 500). Over no rows the engine answers; refused here
 * whatever the rows, as the other rules of a row's reading are.
 */
export function refuseUnendedLikeEscape(name: string, args: readonly Expression[], columns: ColumnTexts): void {
  const pattern = args[1];
  if (!LIKE_PATTERNS.has(name) || args.length !== 2 || pattern === undefined) return;
  const text = constantText(pattern, columns);
  if (text === null || !text.endsWith("\\")) return;
  const trailing = text.length - text.replace(/\\+$/, "").length;
  if (trailing % 2 === 0) return;
  throw invalidQuery(
    `${describe(pattern)}${at(pattern.position)} ends in a backslash that escapes nothing, and ${nameOf(name)} reads a backslash in its pattern as escaping the next character: ClickHouse fails on the pattern; end it with two backslashes to match a backslash itself`,
    pattern.position,
  );
}

/** Functions whose second argument counts from 1, and what it counts in. */
const ONE_BASED_INDEX: ReadonlyMap<string, string> = new Map([
  ["arrayElement", "an array's elements"],
  ["substring", "a string's characters"],
  ["substringUTF8", "a string's characters"],
]);

/**
 * `arrayElement(tags.key, 0)`, `substring(message, FALSE, 1)`: an index of 0 fails the query
 * while it is planned (code 135), whatever the rows, where the array or string is read per row
 * (of a constant one the engine computes the call first, and takes 0). So does a column its
 * entity maps to 0 (`arrayElement(group_ids, group_id)` on discover), and a float a string's
 * index truncates to 0 (`substring(s, 0.5, 1)`). So does a Nullable string, on the first row
 * that holds a value (`substring(environment, 1.5e-7, …)` on discover_events, seed 18): only
 * where every row is NULL does the engine answer, with NULLs.
 */
export function refuseZeroIndex(name: string, args: readonly Expression[], types: readonly Typed[], valueOf: ValueOf, holdsNumber: (node: Expression, t: Typed) => boolean): void {
  const counts = ONE_BASED_INDEX.get(name);
  const index = args[1];
  const t = types[0];
  if (counts === undefined || index === undefined || t === undefined) return;
  const value = valueOf(index);
  const zero = value === 0 || value === false || (name !== "arrayElement" && typeof value === "number" && Math.trunc(value) === 0);
  if (!zero) return;
  // A length read per row (`u`) or a NULL makes the engine check nothing while it plans, and
  // answer (`substring(s, 0, u)` is taken, rows or not). A constant number computed (`abs(3)`,
  // `multiIf(10, 5, NULL)`) is checked as one written out (seed 18); a Nullable one on the first row.
  if (args.length > 2 && !holdsNumber(args[2]!, types[2]!)) return;
  if (t.constant !== false || !(name === "arrayElement" ? isArrayTyped(t) : t.cls === "string")) return;
  const what = index.kind === "literal" ? describe(index) : index.kind === "function" ? `${describe(index)} (0: ${index.args[0]?.kind === "column" ? "its column" : "its argument"} is never NULL)` : `${describe(index)} (0 on this entity)`;
  const when = t.nullable ? " on the first row that holds a value" : "";
  throw invalidQuery(`${what}${at(index.position)} is index 0, and ${nameOf(name)} counts ${counts} from 1: ClickHouse refuses 0${when}; the first is 1`, index.position);
}

/** 2^63: an Int64 holds up to one less, down to its negative. */
const INT64_END = 2 ** 63;

/**
 * `substring(s, project_id, 18446744073709551616)`: where the offset is read per row, the length
 * is converted to an Int64 for each row, and one that converts to Int64's least value is taken
 * for an overflow and fails the query on the first row (code 69; seeds 26 and 27). So do a float
 * on or past either end of Int64 (2^64 written out is one), and the integers 2^63 (a UInt64 that
 * wraps there) and -2^63. So do they of a constant string at a constant offset, which the engine
 * computes while it plans the query, whatever the rows. Only a string read per row at a constant
 * offset takes the length whole, and is answered. A length computed from constants is left to the
 * engine.
 */
export function refuseOverflowingLength(name: string, args: readonly Expression[], types: readonly Typed[], valueOf: ValueOf): void {
  if ((name !== "substring" && name !== "substringUTF8") || args.length !== 3 || types[0]?.cls !== "string") return;
  // A string read per row with a constant offset is cut once for all rows, the length taken whole.
  const perRow = types[1]!.constant === false;
  if (!perRow && !(types[0].constant === true && types[1]!.constant === true)) return;
  const length = args[2]!;
  const value = valueOf(length);
  if (typeof value !== "number") return;
  // An integer past 2^53 is printed as its digits, which the engine reads exactly where they fit
  // an integer type; the number here is only the nearest float.
  const digits = length.kind === "literal" && length.digits !== undefined && wholeWithinIntegers(length.digits) ? BigInt(length.digits) : undefined;
  const overflows = digits !== undefined ? digits === BigInt(INT64_END) || digits === -BigInt(INT64_END) : types[2]?.cls === "float64" && (value >= INT64_END || value <= -INT64_END);
  if (!overflows) return;
  const when = !perRow ? "while it plans the query" : types[0].nullable || types[1]!.nullable ? "on the first row that holds a value" : "on the first row";
  const reads = perRow ? "with an offset read per row" : "of constants";
  throw invalidQuery(
    `${describe(length)}${at(length.position)} is a length that converts to Int64's least value, and ${nameOf(name)} ${reads} takes that for an overflow: ClickHouse fails the query ${when}; give a length within ±9223372036854775807`,
    length.position,
  );
}

/** No literal reads as an aggregate state: a state is compared only with another state. */
const STATE_SET: StringReading = { reads: () => false, what: "an aggregate state" };
/** Nor as an array: a set looked in for an array holds arrays (`tags.key IN (array('a'))`). */
const ARRAY_SET: StringReading = { reads: () => false, what: "an array" };
