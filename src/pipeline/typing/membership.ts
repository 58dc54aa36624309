/**
 * IN and NOT IN: the sets ClickHouse cannot build from some values (a UUID's, an IP's, a
 * DateTime's, a map's), the values a column read as another type cannot hold, a tuple computed
 * per row as a set, and a container looked for on the left.
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { CLASS_NAMES, elementClass, VARIANTS, variantWhat, type ArgumentClass } from "../argument-classes.js";
import { literalClass, integerShapeOf, TUPLE_VARIANT, MIXED_VARIANT, ARRAY_FAMILIES, CONTAINER_VARIANT_AT, VARIANT_FAMILIES, MAP_VARIANT_AT, IPV4_VARIANT, IPV6_VARIANT, UINT128_VARIANT, IP_VARIANTS, NESTED_VARIANT, isArrayTyped, isDateLike, type Typed } from "./typed-values.js";
import { describe, nameOf, list, typeName } from "./messages.js";
import { isArrayCall } from "./array-types.js";
import { foldedSetValue, isClockCall } from "../literal-texts.js";
import { TUPLE_ARITHMETIC, isTupleCall } from "./arithmetic-types.js";

/** The classes on the left of IN whose cast of a list's values refuses what `=` refuses (judgePerRowList). */
export const PER_ROW_LIST_LEFT: ReadonlySet<ArgumentClass> = new Set(["uint8", "int64", "float64", "datetime", "uint32", "uuid"]);

/** A column type whose set ClickHouse cannot build from values of some classes: what the column is, what it converts to, what to write instead, and the classes refused (code 48). */
interface UnconvertibleSet {
  readonly column: string;
  readonly to: string;
  readonly instead: string;
  readonly refused: ReadonlySet<ArgumentClass>;
}

export const UUID_SET: UnconvertibleSet = { column: "a UUID column", to: "a UUID", instead: "compare with a UUID string ('…')", refused: new Set(["uint8", "uint32", "int64", "float64", "datetime"]) };
/**
 * Per variant index, the IP columns' sets (Nullable, as the entities store them). An IPv4 takes
 * the unsigned integers it is stored as; the int64 class is an Int64 (refused) or a UInt64
 * (taken), so only floats, DateTimes and UUIDs are known to be refused. An IPv6 takes no number.
 */
const UNCONVERTIBLE_VARIANT_SETS: readonly (UnconvertibleSet | undefined)[] = VARIANTS.map((variant) =>
  variant === "nullableIPv4"
    ? { column: "an IPv4 column", to: "an IPv4", instead: "compare with an address written as text ('1.2.3.4')", refused: new Set<ArgumentClass>(["float64", "datetime", "uuid"]) }
    : variant === "nullableIPv6"
      ? { column: "an IPv6 column", to: "an IPv6", instead: "compare with an address written as text ('::1')", refused: new Set<ArgumentClass>(["uint8", "uint32", "int64", "float64", "datetime", "uuid"]) }
      : undefined,
);

/** The set a column of this type makes on the right of IN, where some classes cannot be converted to it; else undefined. */
export function unconvertibleSet(t: Typed): UnconvertibleSet | undefined {
  if (t.cls === "uuid") return UUID_SET;
  return t.variant >= 0 ? UNCONVERTIBLE_VARIANT_SETS[t.variant] : undefined;
}

/**
 * A call or subscript computed per row whose value is a scalar: of a class that is no array or
 * state, a scalar variant (a Date, a DateTime64), or one of some such classes (`deleted IN now()`,
 * a UInt8 or a Nullable one: `'id:1' IN (deleted IN now())` is compared as `=`, code 53; seed 33).
 */
export function scalarPerRow(node: Expression, t: Typed): boolean {
  if (t.constant !== false) return false;
  if (t.cls !== null) return t.cls !== "aggregateState" && computedScalar(node, t);
  if (node.kind !== "function" && node.kind !== "subscript") return false;
  // Not AND, OR, xor or NOT, which the analyzer folds where an operand decides (`or(1, s IN
  // now())` is the constant 1: `s IN or(1, …)` is a set of it, taken).
  if (t.variant < 0) return t.arrayOf === undefined && t.alternatives !== undefined && !(node.kind === "function" && FOLDED_LOGIC.has(node.name)) && t.alternatives.every((one) => one.cls !== null && one.cls !== "aggregateState" && elementClass(one.cls) === null);
  return !CONTAINER_VARIANT_AT[t.variant]! && t.variant !== MIXED_VARIANT;
}

/**
 * True for a value the SQL computes with a call (a function, or a subscript, which reads
 * `arrayElement`) and whose class is a scalar one. A tuple or an `array(...)` call has no class
 * here: the caller has set it aside as a set of values.
 */
export function computedScalar(node: Expression, t: Typed): boolean {
  if (t.cls === null || elementClass(t.cls) !== null) return false;
  return node.kind === "subscript" || node.kind === "function";
}

/** Arithmetic with a NULL and a value read per row (`transaction_status + NULL`): a Nullable(Nothing) the engine computes per row, not a NULL literal it folds. */
function arithmeticNull(node: Expression, t: Typed, isNothing: (node: Expression) => boolean): boolean {
  return node.kind === "function" && TUPLE_ARITHMETIC.has(node.name) && t.constant === false && node.args.some(isNothing) && isNothing(node);
}

/**
 * `(transaction_status + trace_sampled) IN tuple(http_method, partition)` on discover, whose
 * trace_sampled is NULL (seed 36): a NULL computed per row looked for in a list of values read per
 * row. ClickHouse converts the list's values to the left's type, a Nullable(Nothing), which it
 * does from a number (a UInt128 too) or an IPv4 but not from a string, a map, a DateTime, a Date, a UUID, an IPv6, an
 * array or a tuple (code 70, whatever the rows). A list of one value, or holding a NULL, is
 * taken, unless the value is an array or an aggregate state.
 */
export function refuseListValuesForComputedNull(name: string, left: Expression, leftType: Typed, values: readonly Expression[], valueTypes: readonly Typed[], isNothing: (node: Expression) => boolean): void {
  if (!arithmeticNull(left, leftType, isNothing)) return;
  // An array or an aggregate state is refused there alone and beside a NULL too.
  const scalars = values.length >= 2 && !values.some(isNothing);
  const at_ = valueTypes.findIndex((t) => isArrayTyped(t) || t.cls === "aggregateState" || (scalars && (t.variant >= 0 ? t.variant !== IPV4_VARIANT && t.variant !== UINT128_VARIANT && t.variant !== MIXED_VARIANT : t.cls !== null && NOT_TO_NOTHING.has(t.cls))));
  if (at_ < 0) return;
  const value = values[at_]!;
  throw invalidQuery(
    `${describe(left)}${at(left.position)} is a NULL computed per row (a Nullable(Nothing)), and ${nameOf(name)} reads ${describe(value)}${at(value.position)}, ${typeName(valueTypes[at_]!)} in its list, as that type: ClickHouse converts no ${typeName(valueTypes[at_]!).replace(/^an? /, "")} to it; drop the arithmetic with NULL`,
    left.position ?? value.position,
  );
}

/** The classes whose values ClickHouse cannot convert to a Nothing (numbers and Booleans it can). */
const NOT_TO_NOTHING: ReadonlySet<ArgumentClass> = new Set(["string", "datetime", "uuid"]);

/** See the call site: arithmetic with a NULL and a value read per row, looked for in a column of states. */
export function refuseArithmeticNullInStates(name: string, left: Expression, right: Expression, leftType: Typed, isNothing: (node: Expression) => boolean): void {
  if (!arithmeticNull(left, leftType, isNothing)) return;
  throw invalidQuery(
    `${describe(left)}${at(left.position)} is a NULL computed per row, and ${nameOf(name)} looks for it in ${describe(right)}${at(right.position)}, a column of aggregate states: ClickHouse reads that column as a Nullable of its type, and no Nullable holds an aggregate state; drop the arithmetic with NULL`,
    left.position ?? right.position,
  );
}

/**
 * A tuple computed per row on the right of IN by anything but a `tuple(…)` call (`NULL IN
 * greatest(tuple(offset, 2))`, `x IN coalesce(tuple(a, 1))`): not a list ClickHouse reads per row,
 * which only a `tuple(…)` call is, nor a constant set or a table, the only sets it takes (code 1,
 * whatever the rows). An engine test holds it (computed-tuple-sets.test.ts).
 */
export function refuseComputedTupleSet(name: string, set: Expression, position: TextPosition | undefined): never {
  throw invalidQuery(
    `${describe(set)}${at(set.position)} is a tuple computed per row, and ${nameOf(name)} looks in it: ClickHouse looks in a constant list, a list written as tuple(…), or a subquery, not in a tuple computed by another function; write the values as tuple(…)`,
    set.position ?? position,
  );
}

/** `if(1, a, b)`, `if(NULL, a, b)`: an `if` whose condition is a literal, which ClickHouse's analyzer replaces with the branch it picks. */
export function isLiteralIf(node: Expression): boolean {
  return node.kind === "function" && node.name === "if" && node.args.length === 3 && node.args[0]!.kind === "literal";
}

/** The logical functions the analyzer folds where a constant operand decides them. */
const FOLDED_LOGIC: ReadonlySet<string> = new Set(["and", "or", "xor", "not"]);

/** The classes whose set of constants takes no UUID (code 53). */
const UUID_REFUSING_SETS: ReadonlySet<ArgumentClass> = new Set(["uint8", "uint32", "int64", "float64", "bool", "datetime"]);

/** The classes a UUID's set of constants cannot hold: what a UUID column's set refuses, and Booleans (`event_id IN 3`, `event_id IN TRUE`). */
const NOT_UUID_VALUES: ReadonlySet<ArgumentClass> = new Set([...UUID_SET.refused, "bool"]);

/**
 * A UUID or an IP looked for in a column (`x IN column`): ClickHouse reads the column as values
 * of the left's type made Nullable, and cannot convert some types to it (code 48, whatever the
 * rows, Nullable or not): to a UUID no number, Boolean, DateTime, Date or IP; to an IPv4 no
 * float, signed integer, DateTime, Date or UUID (the unsigned integers it is stored as are
 * taken; the int64 class may be a UInt64, refused only where known signed); to an IPv6 no
 * number, DateTime, Date or UUID. A string is parsed per row. An engine test holds it.
 */
interface ReadAs {
  readonly what: string;
  readonly plural: string;
  readonly instead: string;
  readonly cannotRead: (column: Typed) => boolean;
}

const READ_AS_UUID: ReadAs = { what: "a UUID", plural: "UUIDs", instead: UUID_SET.instead, cannotRead: (t) => isDateLike(t) || IP_VARIANTS.has(t.variant) || (t.variant < 0 && t.cls !== null && NOT_UUID_VALUES.has(t.cls)) };
const READ_AS_IPV4: ReadAs = {
  what: "an IPv4",
  plural: "IPv4s",
  instead: UNCONVERTIBLE_VARIANT_SETS[IPV4_VARIANT]!.instead,
  cannotRead: (t) => isDateLike(t) || (t.variant < 0 && (t.cls === "uuid" || t.cls === "float64" || integerShapeOf(t)?.signed === true)),
};
const READ_AS_IPV6: ReadAs = {
  what: "an IPv6",
  plural: "IPv6s",
  instead: UNCONVERTIBLE_VARIANT_SETS[IPV6_VARIANT]!.instead,
  cannotRead: (t) => isDateLike(t) || (t.variant < 0 && t.cls !== null && (t.cls === "uuid" || ARRAY_FAMILIES[t.cls] === "number")),
};

export function readAsOf(sought: Typed): ReadAs | undefined {
  if (sought.variant < 0) return sought.cls === "uuid" ? READ_AS_UUID : undefined;
  return sought.variant === IPV4_VARIANT ? READ_AS_IPV4 : sought.variant === IPV6_VARIANT ? READ_AS_IPV6 : undefined;
}
/** The variants that take no float in their set of constants: the Dates and DateTime64s, of the DateTimes' family (`toDate(timestamp) IN 1.5`). */
const NO_FLOAT_SET_VARIANTS: ReadonlySet<number> = new Set(VARIANTS.flatMap((_, index) => (VARIANT_FAMILIES[index] === "datetime" ? [index] : [])));

/**
 * `timestamp IN 1.5`, `timestamp IN (1, -1)`, `event_id IN 3`: ClickHouse converts each value of
 * a set of constants to the left's type while it plans the query, and fails the query where one
 * does not convert (code 53, whatever the rows). A DateTime takes no float and no negative
 * integer, a Date or a DateTime64 no float, a UUID no number, Boolean, Date or DateTime, a Map
 * no scalar at all, an IP what its column's set refuses (UNCONVERTIBLE_VARIANT_SETS). Judged on
 * the values written as literals (in a list or alone), on a constant computed alone
 * (`toFloat64(1)`) and on the clock's calls, in a set of constants or not (`event_id IN now()`, `attributes_bool IN tuple(today(), x)`: codes 53, 48, 43); an integer of
 * the int64 class computed so may be an Int64 (refused beside a DateTime) or a UInt64 (taken),
 * and is left alone.
 */
export function refuseUnconvertibleSetValues(name: string, args: readonly Expression[], types: readonly Typed[], constantSet: boolean, typeOf: (node: Expression) => Typed): void {
  const left = types[0]!;
  const isDateTime = left.cls === "datetime";
  const isUuid = left.cls === "uuid";
  const isMap = left.variant >= 0 && MAP_VARIANT_AT[left.variant]!;
  const ipSet = left.variant >= 0 ? UNCONVERTIBLE_VARIANT_SETS[left.variant] : undefined;
  // An aggregate state takes no value (its literals are judgeComparedString's): nor the clock's (`value IN now()`, code 53).
  const isState = left.cls === "aggregateState" && left.variant < 0;
  // A number, a Boolean or a DateTime takes no UUID into its set (`deleted IN toUUID('…')`, code 53).
  const refusesUuid = left.variant < 0 && left.cls !== null && UUID_REFUSING_SETS.has(left.cls);
  const refusesFloat = isDateTime || NO_FLOAT_SET_VARIANTS.has(left.variant);
  if (!isUuid && !isMap && !ipSet && !isState && !refusesUuid && !refusesFloat) return;
  const set = args[1]!;
  const listed = set.kind === "function" && (set.name === "tuple" || set.name === "array");
  // Only the values the pass knows to be constants: a set of them, values written in a list
  // (read per row when a column is listed too, `event_id IN (1, trace_id)`, and refused alike),
  // or the clock's calls, which the engine computes once per query (`event_id IN now()`).
  if (!constantSet && !listed && !isClockCall(set)) return;
  const perRow = types[1]!.constant === false;
  for (const written of listed ? set.args : [set]) {
    // What the engine folds a constant value to: an `if` of literal conditions whose branches
    // have no common type (a Variant), the branch it picks, of its own type (`timestamp IN if(0,
    // now(), -1)` is `timestamp IN -1`, code 53); one of a common type keeps that type (`if(0,
    // 1.5, 1)` is the Float64 1). Listed, a branch's own type errs towards taking the value.
    const value = listed || (constantSet && types[1]!.variant === MIXED_VARIANT) ? foldedSetValue(written) : written;
    const folded = value !== written;
    const picked = folded && !listed ? types[1]!.picked : undefined;
    // A call listed (`tuple(toUUID('…'), …)`) is of the type the pass gives it, where a constant.
    const listedCall = listed && !folded && value.kind === "function" ? typeOf(value) : undefined;
    const cls = value.kind === "literal" ? literalClass(value.value, value.digits) : value.kind === "datetime" || isClockCall(value) ? "datetime" : picked !== undefined ? picked.cls : listedCall !== undefined ? (listedCall.constant === true && listedCall.variant < 0 ? listedCall.cls : null) : folded || listed ? null : types[1]!.cls;
    if (cls === null) continue;
    const negative = value.kind === "literal" && typeof value.value === "number" && value.value < 0 && cls !== "float64";
    // A DateTime's set takes no signed integer, whatever its value (`timestamp IN toInt8(1)`,
    // `timestamp IN minus(5, 1)`, code 53): a value computed once of a signed integer type.
    const computed = listedCall ?? (!folded && !listed ? types[1]! : undefined);
    const signed = negative || (computed !== undefined && value.kind === "function" && cls === "int64" && integerShapeOf(computed)?.signed === true);
    // A map's set holds maps: no number, Boolean or date converts to one (code 53); a text may
    // be a map written as one, judgeComparedString's.
    // An IP's set refuses its column's unconvertible classes, and an IPv6's a Boolean too; an
    // IPv4 takes a DateTime into a set of constants (`ipv4 IN now()`), refusing it only in a list
    // read per row (code 48), and refuses a negative integer. A DateTime or Date compares a list
    // read per row as `=` does, and takes a float or a negative integer there.
    const isIPv4 = left.variant === IPV4_VARIANT;
    const refused = isState
      ? isClockCall(value)
      : isMap
      ? cls !== "string"
      : isUuid
        ? NOT_UUID_VALUES.has(cls)
        : ipSet
          ? (ipSet.refused.has(cls) && (cls !== "datetime" || !isIPv4 || perRow)) || (isIPv4 ? negative : cls === "bool")
          : !perRow && ((refusesUuid && cls === "uuid") || (refusesFloat && (cls === "float64" || (isDateTime && signed))));
    if (!refused) continue;
    const compared = args[0]!;
    const what = left.cls !== null ? CLASS_NAMES[left.cls] : variantWhat(VARIANTS[left.variant]!);
    const pastUInt64 = value.kind === "literal" && typeof value.value === "number" && Number.isInteger(value.value) && cls === "float64";
    const valueWhat = negative ? "a negative integer" : signed && isDateTime ? "a signed integer" : pastUInt64 ? "an integer past UInt64's range (a Float64 to ClickHouse)" : isClockCall(value) && value.name !== "now" ? "a Date" : CLASS_NAMES[cls];
    throw invalidQuery(
      `${describe(value)}${at(value.position)} is ${valueWhat}, and ${nameOf(name)} looks for ${describe(compared)}${at(compared.position)}, ${what}${left.nullable ? " (Nullable)" : ""}, among its values: ClickHouse cannot convert ${valueWhat} to that type`,
      value.position ?? compared.position,
    );
  }
}

/** What a tuple or an array is, in a refusal: its class or variant where the pass has one, else what the call makes. */
export function containerWhat(node: Expression, t: Typed): string {
  if (isVariantOfArrays(t)) return `a Variant of ${list(t.alternatives!.map(typeName))} alone`;
  if (t.cls !== null) return CLASS_NAMES[t.cls];
  if (t.variant >= 0) return variantWhat(VARIANTS[t.variant]!);
  return isTupleCall(node) ? "a tuple" : "an array";
}

/** A tuple or an array, typed so or written as a `tuple(…)` or `array(…)` call the pass has no type for. */
export function isContainerValue(node: Expression, t: Typed): boolean {
  return t.variant === TUPLE_VARIANT || isArrayTyped(t) || isArrayCall(node) || isTupleCall(node) || isVariantOfArrays(t) || isOneOfArrays(t);
}

/** A value known as one of some arrays (`offset * spans.exclusive_time_32`, an array of numbers of the operands' exact type; seed 40). */
function isOneOfArrays(t: Typed): boolean {
  return t.variant < 0 && t.alternatives !== undefined && t.alternatives.length > 0 && t.alternatives.every(isArrayTyped);
}

/**
 * An `if`'s Variant of arrays alone: a NULL branch beside an array (`if(NULL, NULL, arr)` on
 * discover, where the condition and a branch are columns of the other half; seed 15), or arrays
 * of two families (a Variant(Array(String), Array(UUID))). ClickHouse looks for one on the left
 * of IN as for an array: in no value computed per row or once (`… IN now()`, code 53), nor in a
 * column (code 43). An engine test holds it.
 */
function isVariantOfArrays(t: Typed): boolean {
  return t.variant === MIXED_VARIANT && t.fromElements !== true && t.alternatives !== undefined && t.alternatives.length > 0 && t.alternatives.every(isArrayTyped);
}

/**
 * `tags IN (url)` on discover_transactions, which stores no `url`: an array of tuples (a Nested
 * column read whole) looked for among NULLs alone, ClickHouse refuses (code 43; seed 51), where an
 * array of another type, or a tuple, is answered (not found). A list with any other value is
 * answered too. An engine test holds it (nested-in-nulls.test.ts).
 */
export function refuseNestedInNulls(name: string, left: Expression, leftType: Typed, set: Expression, isNothing: (node: Expression) => boolean): void {
  if (leftType.variant !== NESTED_VARIANT) return;
  const values = isTupleCall(set) ? set.args : [set];
  if (values.length === 0 || !values.every(isNothing)) return;
  throw invalidQuery(
    `${describe(left)}${at(left.position)} is an array of tuples, and ${nameOf(name)} looks for it among NULLs alone (${describe(set)}${at(set.position)}): ClickHouse builds no set of arrays of tuples from a NULL; leave the condition out, or list an array of tuples`,
    set.position ?? left.position,
  );
}
