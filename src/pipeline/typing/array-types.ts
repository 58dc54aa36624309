/**
 * The types of arrays: `array(...)` of its elements' common type (or an array of a Variant), the
 * arrays the pass names only as one of those the probe tried (of NULLs, of arrays, of values of
 * no class), their elements where known, and whether a call's other arguments are judged by them.
 */
import type { Expression } from "../../query/ast.js";
import { ARGUMENT_CLASSES, ARRAY_VARIANT_SAMPLES, ARRAY_VARIANTS, classOfTypeName, elementClass, nullableClassOfTypeName, VARIANTS, type ArgumentClass } from "../argument-classes.js";
import { UINT32_SHAPE, UINT8_SHAPE, integerCommonType } from "../integer-types.js";
import type { ArgumentTyping } from "../argument-types.js";
import { constnessIndex, typed, integerTyped, integerShapeOf, UNKNOWN_COLUMN, VARIANT_INDEX, TUPLE_VARIANT, NULLABLE_STRINGS_VARIANT, UUIDS_VARIANT, NESTED_VARIANT, MIXED_ARRAY_VARIANT, MIXED_VARIANT, ARRAY_VARIANT_AT, SCALAR_FAMILIES, CONTAINER_VARIANT_AT, VARIANT_FAMILIES, familyOf, variantTyped, FLOAT64S_VARIANT, FLOAT32S_VARIANT, isPlainNumber, BOOLS_VARIANT, UINT8S_VARIANT, IP_VARIANTS, IPV6_VARIANT, type Typed } from "./typed-values.js";
import { NO_POSITIONS, type FunctionFacts } from "./function-facts.js";
import { alternativeOf, branchType, shapesConflict, isBranch, mixedTyped, pickedBranch, numbersCommonTyped, type ValueOf } from "./branch-types.js";

/** An array (an array variant or an `array(...)` call) whose elements may be of the class `cls` (unknown elements may). */
export function mayHoldElementsOf(typing: ArgumentTyping, node: Expression, t: Typed, cls: ArgumentClass): boolean {
  let element: Typed | null;
  if (t.variant >= 0) {
    if (!ARRAY_VARIANT_AT[t.variant]!) return false;
    element = ARRAY_VARIANT_ELEMENT[t.variant] ?? null;
  } else if (isArrayCall(node)) {
    element = node.args.length > 0 ? typing.visit(node.args[0]!) : null;
  } else return false;
  return element === null || element.cls === null || element.cls === cls;
}

/** `array(a, ...)` whose elements are arrays or aggregate states: no sample of the probe's is such an array. */
/**
 * An `array(...)` whose elements the probe never tried beside a value of class `cls` (an array or
 * a state): arrays of arrays beside an array (`has(array(tags.key), tags.key)`), arrays of
 * states beside a state, arrays of NULLs beside either. An array of arrays beside a state is no such thing (`array(tags.key, s) = state`, code 43).
 */
export function arrayOfUntried(typing: ArgumentTyping, node: Expression, t: Typed, cls: ArgumentClass): boolean {
  // An array of arrays made otherwise (`groupArray(tags.key)`) beside an array.
  if (t.arrayOf === ARRAYS_OF_ARRAYS[0]!.arrayOf) return cls !== "aggregateState";
  if (t.arrayOf !== undefined && UNTRIED_ARRAYS.has(t.arrayOf)) return true;
  if (node.kind !== "function" || node.name !== "array" || node.args.length === 0) return false;
  // An array of NULLs holds elements of any type (`has(array(NULL), tags.key)` is taken).
  if (node.args.every((arg) => typing.isNothing(arg))) return true;
  const element = typing.visit(node.args[0]!);
  if (cls === "aggregateState") return element.cls === "aggregateState";
  return element.cls !== null ? elementClass(element.cls) !== null : element.variant >= 0 && ARRAY_VARIANT_AT[element.variant]!;
}

/** The array variants that are one type each (not the Nested or mixed arrays, which stand for families of types). */
const ONE_TYPE_ARRAY_VARIANT_AT: readonly boolean[] = VARIANTS.map((variant) => ARRAY_VARIANT_SAMPLES[variant] !== undefined);

/**
 * `concat(exception_stacks.mechanism_handled, exception_frames.in_app)`: a function that keeps
 * the type of two arrays of one class keeps that of two arrays of one array variant (an
 * Array(Nullable(UInt8)) here). An engine test holds it for each such function and variant.
 */
export function sameArraysType(facts: FunctionFacts, args: readonly Typed[], constant: boolean | null): Typed | null {
  if (!facts.keepsArrayType || args.length !== 2) return null;
  const variant = args[0]!.variant;
  return variant >= 0 && variant === args[1]!.variant && ONE_TYPE_ARRAY_VARIANT_AT[variant]! ? variantTyped(variant, constant) : null;
}

/** Whether a value is an array or a map (of any elements), which a Nullable cannot hold. */
function isArrayOrMap(t: Typed): boolean {
  if (t.cls === "arrayString" || t.cls === "arrayNumber" || t.arrayOf !== undefined) return true;
  return t.variant >= 0 && (ARRAY_VARIANT_AT[t.variant]! || VARIANTS[t.variant]!.startsWith("map"));
}

export function isArrayCall(node: Expression): node is Extract<Expression, { kind: "function" }> {
  return node.kind === "function" && node.name === "array";
}

/**
 * `array(a, b, ...)`: an Array of its elements' common type. Typed only where every element
 * has the same class and nullability, and the class is one whose common type is itself: strings
 * make an Array(String), strings of which any is Nullable an Array(Nullable(String)), UUIDs an
 * Array(UUID), UInt8s an Array(UInt8), DateTimes an Array(DateTime). Other numbers' common type
 * depends on the exact element types: Array(Float32), and for a signed and an unsigned 64-bit
 * integer an Array(Variant(Int64, UInt64)); with a float literal it is a Float64. Elements of
 * two families with no common type (strings, numbers, DateTimes, UUIDs) make an
 * Array(Variant(...)), the mixed-array variant.
 */
export function arrayOf(all: readonly Typed[], constant: boolean | null, nullAt: readonly boolean[], nodes: readonly Expression[]): Typed {
  // A NULL element (a NULL, or a column the storage computes as one) makes the others Nullable:
  // `array(title, NULL)` is an Array(Nullable(String)), `array(title, NULL, 1)` a mixed array.
  const args = nullAt.includes(true) ? all.filter((_, i) => !nullAt[i]) : all;
  const withNull = args.length < all.length;
  const first = args[0];
  // Tuples (`array(tuple(offset, x))`) make an array of tuples, as a Nested column read whole is;
  // beside a NULL an array of Nullable tuples, which has no variant.
  if (first !== undefined && !withNull && args.every((arg) => arg.variant === TUPLE_VARIANT)) return variantTyped(NESTED_VARIANT, constant);
  // Only NULLs (`array(NULL, NULL)`, an Array(Nullable(Nothing))): an array of no known element (NULLS_ARRAY).
  if (first === undefined) return NULLS_ARRAY[constnessIndex(constant)]!;
  // A Variant among the elements (an `if`'s or a `coalesce`'s: `array(now(), coalesce(email, 0))`,
  // an Array(Variant(DateTime, String, UInt8)); alone too): an array of a Variant, whatever the
  // rest (ORDER BY refuses it, code 44; seed 16).
  if (args.some((arg) => arg.variant === MIXED_VARIANT)) return variantTyped(MIXED_ARRAY_VARIANT, constant);
  // Arrays or maps beside a NULL (`array(NULL, tags.key)`; `array(logger, tags.key)` on discover,
  // whose logger the storage computes as NULL): no Nullable holds a container, so the engine
  // makes an Array(Variant(...)) of them, even of arrays with a common type (`array([1], NULL,
  // [2.5])`), and GROUP BY refuses it (code 44; seed 22). Tuples beside a NULL are Nullable tuples.
  if (withNull && args.every(isArrayOrMap)) return variantTyped(MIXED_ARRAY_VARIANT, constant);
  // Elements of two families (`array(level, 10)`, `array(now(), 'a')`; an array or an aggregate
  // state beside a scalar, `array(use_case_id, max)` on metrics), Nullable or not: an array of a
  // Variant of them. So is a container of any kind (an array, a tuple, a map) beside a scalar:
  // `array(array(user, 'a'), 'b')` is an Array(Variant(Array(Nullable(String)), String)).
  // An element of unknown type beside them changes nothing: no type is common to two families
  // (`array(transaction_source, 1.5, substring(...))` is a mixed array too).
  const families = new Set<string>();
  let containers = false;
  // IPs (IPv4, IPv6) have a common type with none of the families but an IPv4 with numbers (an
  // IPv4 and a UInt32 make a UInt32): beside the others, and beside each other, a Variant
  // (`array(10, 100, ip_address_v6)` is an Array(Variant(IPv6, UInt8)); seed 35).
  const ips = new Set<number>();
  for (const arg of args) {
    // An array known only as one of several (`array(attributes_bool)`, an array of a map) is a container too (seed 14).
    if ((arg.variant >= 0 && CONTAINER_VARIANT_AT[arg.variant]) || arg.arrayOf !== undefined) {
      containers = true;
      continue;
    }
    if (IP_VARIANTS.has(arg.variant)) ips.add(arg.variant);
    // A condition of unknown Nullability (`now() NOT IN now()`) is a number here, as among an `if`'s branches.
    const family = familyOf(branchType(arg));
    if (family !== undefined) families.add(family);
  }
  if (ips.size > 0 && (!families.has("number") || ips.has(IPV6_VARIANT)) && (families.size > 0 || containers || ips.size > 1)) return variantTyped(MIXED_ARRAY_VARIANT, constant);
  // Numbers of known types two of which have no common type (a 64-bit integer and a float, a
  // UInt64 and a signed integer), Nullable or beside a NULL too: an Array(Variant(...)) of them
  // (`array(1.5, project_id)`, `array(u, -1)`), as an `if` of them is a Variant.
  if (!containers && families.size === 1 && families.has("number") && shapesConflict(args)) return variantTyped(MIXED_ARRAY_VARIANT, constant);
  // Numbers, some Nullable or beside a NULL: an array of Nullable numbers.
  if (!containers && families.size === 1 && families.has("number") && (withNull || args.some((arg) => arg.nullable)) && args.every((arg) => arg.variant < 0 && familyOf(arg) === "number")) {
    return NULLABLE_NUMBERS_ARRAY[constnessIndex(constant)]!;
  }
  if (families.size > 1 || (containers && [...families].some((family) => SCALAR_FAMILIES.has(family)))) {
    const mixed = variantTyped(MIXED_ARRAY_VARIANT, constant);
    // Every element of a known family: its Variant's alternatives are known (mixedElementType).
    if (containers || !args.every((arg) => familyOf(branchType(arg)) !== undefined)) return mixed;
    const alternativeConstant = constant === false ? false : null;
    return { ...mixed, elements: all.map((t, i) => (nullAt[i] ? null : alternativeOf(undefined, branchType(t), alternativeConstant))) };
  }
  // One value of no class, repeated or alone (`array(tags)`, `array(toDate(t))`, an IP, a map): an
  // array of values the pass names no array for, as an aggregate's array of it is (`'yes' LIKE
  // array(tags)` is refused, code 43), its elements known where they are a Date or an IP.
  if (first.cls === null && !withNull && first.variant >= 0 && first.variant !== MIXED_VARIANT && args.every((arg) => arg.variant === first.variant && arg.cls === null && !arg.nullable)) return arrayOfUnnamed(first, constant);
  if (first.cls === null) return typed(null, constant);
  // Strings, some Nullable: the common type is Nullable(String) (`array(title, user)`).
  if (args.every((arg) => arg.cls === "string" && arg.variant < 0) && (withNull || args.some((arg) => arg.nullable))) return variantTyped(NULLABLE_STRINGS_VARIANT, constant);
  // Numbers with a float literal among them (`array(0.5, 0, 0)`): an Array(Float64).
  if (!withNull && nodes.some((node, i) => node.kind === "literal" && all[i]!.cls === "float64") && all.every(widensToFloat64)) return variantTyped(FLOAT64S_VARIANT, constant);
  // Floats beside numbers a float holds (`array(attributes_float[k], server_sample_rate,
  // attributes_bool[b])`): an array of floats, one of an Array(Float64) and an Array(Float32).
  if (!withNull && args.some((arg) => arg.cls === "float64" && arg.variant < 0) && all.every(widensToFloat64)) return arrayOfClass("float64", constant);
  // Integers of known types, none Nullable: an array of their common type (`array(granularity,
  // org_id)` is an Array(UInt64)). A UInt64 and a signed integer have none: a Variant. A Bool is a
  // UInt8 here; where every element is one of the two, the engine keeps the first one's type
  // (`array(FALSE, 2)` is an Array(Bool), `array(2, FALSE)` an Array(UInt8)).
  if (!withNull && args.every((arg) => !arg.nullable && integerShapeOf(arg) !== null)) {
    const common = integerCommonType(args.map((arg) => integerShapeOf(arg)!));
    if (common === UINT8_SHAPE && first.cls === "bool") return arrayOfClass("bool", constant);
    if (common !== null) {
      const element = integerTyped(common, constant);
      return arrayOfClass(element.cls!, constant, element);
    }
  }
  // DateTimes or UUIDs, some Nullable or beside a NULL (`array(NULL, now())`, an
  // Array(Nullable(DateTime)), seed 12): no array variant names it. One of the arrays the probe
  // tried, refused only where every one is (`array(NULL, now()) - min(x)`, code 43), its elements
  // Nullable values of the class (`array(NULL, now()) * 2`, done element by element, is judged as
  // a Nullable DateTime times 2).
  const ofNullable = withNull || first.nullable ? ARRAYS_OF_NULLABLE.get(first.cls) : undefined;
  if (ofNullable !== undefined && args.every((arg) => arg.cls === first.cls && arg.variant < 0)) return ofNullable[constnessIndex(constant)]!;
  for (const arg of args) if (arg.cls !== first.cls || arg.nullable !== first.nullable || arg.variant !== first.variant) return typed(null, constant);
  // Integers of the int64 class of unknown types may be an Int64 and a UInt64, whose common type
  // is a Variant; one alone (`array(project_id)`) is an array of its own type, of the class as
  // classOfTypeName gives it.
  if (first.nullable || withNull || (first.cls === "int64" && args.length > 1)) return typed(null, constant);
  return arrayOfClass(first.cls, constant, first);
}

/**
 * An array of NULLs (`array(NULL)`, an Array(Nullable(Nothing))): its element type is no class,
 * and the engine refuses it where it refuses both an array of strings and one of integers
 * (`array(NULL, NULL) - 1.5`, `array(NULL) LIKE s`, code 43): one of those two, refused only
 * when each is (an engine test holds it for every probed function beside each class). Not
 * where another argument is judged by the array's elements (`has(array(NULL), x)` takes any x).
 */
export const NULLS_ARRAY = oneOfArrays((constant) => [typed("arrayString", constant), typed("arrayNumber", constant)], "an array of NULLs (an Array(Nullable(Nothing)))");

/**
 * An array of numbers some of which may be NULL (`array(measurements[cls])`, `array(x, 10, NULL)`:
 * an Array(Nullable(Float64)) or of another Nullable number): one of the arrays of Nullable
 * integers the probe tried, refused only where each is (`array(x, 10, NULL) / 1000`, arithmetic
 * refuses Nullable elements, code 43; `user - array(NULL, 0.5)`). An engine test holds it with
 * arrays of Nullable floats, integers and Bools.
 */
const NULLABLE_NUMBERS_ARRAY = oneOfArrays(
  (constant) => ["nullableUInt8", "nullableUInt16", "nullableUInt32"].map((variant) => variantTyped(VARIANT_INDEX.get(variant)!, constant)),
  "an array of Nullable numbers",
  true,
);

/**
 * An array of arrays (`groupUniqArray(segment_names)`, an Array(Array(String))): no sample of the
 * probe's is one, and the engine refuses it where it refuses every array the probe tried (`count()
 * - groupUniqArray(a)`, code 43): one of them, refused only when each is. Not where another
 * argument is judged by its elements (`has(groupArray(a), b)`). An engine test holds it.
 */
const ARRAYS_OF_ARRAYS = oneOfArrays(probedArrays, "an array of arrays");

/**
 * An array of values the pass has no array for (`groupUniqArray(value)` of aggregate states, of a
 * map, a Date, an array variant, a Variant): one of the arrays the probe tried, as an array of
 * arrays is, refused only where every one is (`count() - groupUniqArray(value)`: code 43). Of
 * states, its elements are known (ARRAYS_OF_STATES): `0.95 * groupArray(last)`, done element by
 * element, is judged as a float times a state. Beside another argument judged by its elements,
 * never (its elements are unknown: arrayOfUntried). An engine test holds it.
 */
export const ARRAYS_OF_UNNAMED = oneOfArrays(probedArrays, "an array of values of a type the typing pass names no array for");

/** An array arrayMap makes of values of a scalar class whose exact type the pass does not know (a Nullable, one read per row): as ARRAYS_OF_UNNAMED. */
export const MAPPED_ARRAYS = oneOfArrays(probedArrays, "an array arrayMap makes (of values whose exact type the typing pass does not know)");

/**
 * The variants whose values an array of them may hold as its known elements (judgeArrayElements):
 * the Dates, DateTime64s and IPs, and the array variants, each of one exact type (an
 * Array(Array(Nullable(String))) holds Array(Nullable(String))s), arrays of tuples
 * (`array(tags)` on replays holds Nested columns read whole: `10 / array(tags)` divides a number
 * by arrays of tuples, code 43; seed 18), and arrays of mixed arrays (`1 /
 * groupUniqArray(array(level, measurements[cls]))` divides a number by Array(Variant(...))s, code
 * 43; seed 40).
 */
const KNOWN_ELEMENT_VARIANT_AT: readonly boolean[] = VARIANTS.map(
  (variant, index) =>
    VARIANT_FAMILIES[index] === "datetime" || variant === "nullableIPv4" || variant === "nullableIPv6" || variant === "uint128" || ARRAY_VARIANT_SAMPLES[variant] !== undefined || index === NESTED_VARIANT || index === MIXED_ARRAY_VARIANT,
);

/**
 * An array of values of a variant (ARRAYS_OF_UNNAMED), its elements known where they are a Date,
 * a DateTime64, an IP (`1000 / groupUniqArray(timestamp_ms)`), a UInt128 (`avg(TRUE) *
 * groupUniqArray(item_id)`, a Float64 times UInt128s, code 43; seed 26) or an array variant
 * (`transaction_hash / array(array(transaction_name, geo_city))`, code 43 for a UInt64 divided by
 * an Array(Nullable(String)), element by element).
 */
export function arrayOfUnnamed(of: Typed, constant: boolean | null): Typed {
  const arrays = ARRAYS_OF_UNNAMED[constnessIndex(constant)]!;
  return KNOWN_ELEMENT_VARIANT_AT[of.variant] ? { ...arrays, elementType: variantTyped(of.variant, false) } : arrays;
}

/**
 * Arrays of the classes whose Nullable values no array variant holds (an `array(…)` of them beside
 * a NULL: arrayOf), per class: one of the arrays the probe tried, as ARRAYS_OF_UNNAMED is, its
 * elements known.
 */
const ARRAYS_OF_NULLABLE: ReadonlyMap<ArgumentClass | null, readonly Typed[]> = new Map(
  (["datetime", "uuid"] as const).map((cls) => [cls, oneOfArrays(probedArrays, `an Array(Nullable(${cls === "datetime" ? "DateTime" : "UUID"}))`).map((t) => ({ ...t, elementType: typed(cls, false, true) }))]),
);

/** What the arrays whose elements the probe never tried beside anything are called (arrayOfUntried): unnamed, arrayMap's, of Nullable DateTimes or UUIDs. */
const UNTRIED_ARRAYS: ReadonlySet<string> = new Set([ARRAYS_OF_UNNAMED, MAPPED_ARRAYS, ...ARRAYS_OF_NULLABLE.values()].map((arrays) => arrays[0]!.arrayOf!));

/** The same, knowing its elements are aggregate states (`groupUniqArray(last)`): `0.95 * groupUniqArray(last)` is judged as `0.95 * last` (judgeArrayElements). */
export const ARRAYS_OF_STATES = withElements(ARRAYS_OF_UNNAMED, "aggregateState");

/** An array of arrays of each array class (`groupUniqArray(tags.key)`): `2 * groupUniqArray(tags.key)` is judged as `2 * tags.key`. */
const ARRAYS_OF_ARRAYS_OF: ReadonlyMap<ArgumentClass, readonly Typed[]> = new Map(ARGUMENT_CLASSES.filter((cls) => elementClass(cls) !== null).map((cls) => [cls, withElements(ARRAYS_OF_ARRAYS, cls)]));

/** Per constness, `arrays` knowing their elements are columns of class `cls`. */
function withElements(arrays: readonly Typed[], cls: ArgumentClass): readonly Typed[] {
  return arrays.map((t) => ({ ...t, elementType: typed(cls, false) }));
}

/** Every array the probe tried: of strings, of integers, and each array variant. */
function probedArrays(constant: boolean | null): Typed[] {
  return [typed("arrayString", constant), typed("arrayNumber", constant), ...ARRAY_VARIANTS.map((variant) => variantTyped(VARIANT_INDEX.get(variant)!, constant))];
}

/** Per constness, an array whose element type the pass cannot name: one of `alternatives`, called `what` in refusals (alternativesSpanElements: see Typed). */
function oneOfArrays(alternatives: (constant: boolean | null) => Typed[], what: string, spanElements = false): readonly Typed[] {
  return [true, false, null].map((constant) => ({ cls: null, index: -1, constant, nullable: false, variant: -1, alternatives: alternatives(constant), arrayOf: what, ...(spanElements ? { alternativesSpanElements: true as const } : {}) }));
}

/**
 * Whether what another position of a call takes is matched against the elements of the array at
 * `at` (`has(a, x)`, `indexOf(a, x)`): arrays of strings and of integers are both taken there,
 * and what the other position takes depends on which. Not `a - x`, which takes no array of
 * strings; nor `a = m` of a scalar of no class (a map, a tuple, a UInt128, a Date, an IP) where
 * every scalar is refused beside every array (scalarsBesideArrays): the array is compared whole,
 * whatever its elements.
 */
export function elementsDecide(facts: FunctionFacts, types: readonly Typed[], at: number): boolean {
  const count = types.length;
  const refused = facts.signature?.refused[count]?.column?.[at] ?? [];
  if (refused.includes("arrayString") || refused.includes("arrayNumber")) return false;
  const dependent = facts.elementDependent[count] ?? NO_POSITIONS;
  const scalarsTaken = facts.scalarsBesideArrays[count] ?? NO_POSITIONS;
  for (let j = 0; j < count; j++) {
    if (j === at || !dependent.has(at * 8 + j)) continue;
    // A scalar of no class (a map, a tuple, a UInt128, a Date, an IP). One of a class is left to
    // the comparison's own rule, which says so plainly (refuseArrayBesideScalar).
    const t = types[j]!;
    const scalarVariant = t.variant >= 0 && !ARRAY_VARIANT_AT[t.variant]! && t.variant !== MIXED_VARIANT;
    if (!scalarVariant || scalarsTaken.has(at * 8 + j)) return true;
  }
  return false;
}

/**
 * An element of a mixed array whose elements' alternatives are known (`array(group_ids, TRUE,
 * site)[n]`, `arrayJoin(array(title, 1))`): a Variant of one alternative per family, as an `if`
 * of those branches is, held per row (the engine fails the query on a row holding one a call
 * refuses, and only there). A constant index (`arrayElement(…, 2)`, from the end when negative)
 * picks one element for every row; out of range, or a NULL element, no row holds a value: no class.
 */
export function mixedElementType(array: Typed, index: Expression | undefined, constant: boolean | null): Typed {
  const elements = array.elements!;
  const alternativeConstant = constant === false ? false : null;
  const byFamily = new Map<string, Typed>();
  for (const element of elements) {
    if (element === null) continue;
    const family = familyOf(element)!;
    byFamily.set(family, alternativeOf(byFamily.get(family), element, alternativeConstant));
  }
  const variant: Typed = { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives: [...byFamily.values()], fromElements: true };
  if (index?.kind !== "literal" || typeof index.value !== "number" || !Number.isInteger(index.value)) return variant;
  const k = index.value > 0 ? index.value - 1 : elements.length + index.value;
  const element = k >= 0 && k < elements.length ? elements[k] : null;
  if (element === null || element === undefined) return typed(null, constant);
  return { ...variant, pickedOnce: true, picked: byFamily.get(familyOf(element)!)! };
}

/**
 * An array of values of one class, where the pass names its type: of strings, of 64-bit (or
 * 16-bit) integers, of UInt8s, Bools, DateTimes or UUIDs; of UInt32s, arrays or states, one of
 * some arrays, its elements known; of floats, one of an Array(Float64) and an Array(Float32)
 * (the two share a class, their arrays do not).
 */
export function arrayOfClass(cls: ArgumentClass, constant: boolean | null, element?: Typed): Typed {
  if (cls === "string") return typed("arrayString", constant);
  if (cls === "int64") {
    // Of integers of at most 32 bits (`array(retention_days)`, an Array(UInt16)): one of an
    // Array(Int64) and an Array(UInt8), its elements known, as an Array(UInt32) is. Beside an
    // array of floats the engine takes it where it refuses an Array(Int64) (code 386).
    const shape = element === undefined ? null : integerShapeOf(element);
    if (shape !== null && shape.bytes <= 4) return { ...UINT32_ARRAYS[constnessIndex(constant)]!, arrayOf: "an array of integers of at most 32 bits", elementType: integerTyped(shape, false), elementInteger: shape };
    return shape !== null ? { ...typed("arrayNumber", constant), elementInteger: shape } : typed("arrayNumber", constant);
  }
  if (elementClass(cls) !== null) return ARRAYS_OF_ARRAYS_OF.get(cls)![constnessIndex(constant)]!;
  const variant = ARRAY_OF_VARIANT[cls];
  if (variant !== undefined) return variantTyped(variant, constant);
  // An Array(UInt32), which the probe did not try: one of the arrays it tried, its elements known
  // (`'a' IN array(granularity)` is refused, code 386).
  if (cls === "uint32") return UINT32_ARRAYS[constnessIndex(constant)]!;
  if (cls === "float64") return FLOAT_ARRAYS[constnessIndex(constant)]!;
  // Of aggregate states (`array(count)` on metrics), as an aggregate's array of them is.
  if (cls === "aggregateState") return ARRAYS_OF_STATES[constnessIndex(constant)]!;
  return typed(null, constant);
}

/**
 * Whether a Float64 is the common type of this value and a Float64: a float, a UInt8, UInt32 or
 * Bool, an integer literal of at most 32 bits. Not an Int64 or UInt64, which a Float64 cannot
 * hold exactly: the engine makes a Variant of the two. The int64 class may be either: where the
 * pass knows the exact type (an Int32, a literal of at most 32 bits), it is known to be narrower.
 */
function widensToFloat64(t: Typed): boolean {
  if (t.variant >= 0 || t.nullable) return false;
  if (t.cls === "float64" || t.cls === "uint8" || t.cls === "uint32" || t.cls === "bool") return true;
  return t.cls === "int64" && (integerShapeOf(t)?.bytes ?? 8) <= 4;
}

/**
 * Per variant index, the elements of an array variant whose element type has a class, as a
 * column: an Array(Nullable(String))'s are Nullable strings, an Array(Float32)'s floats, an
 * Array(UUID)'s UUIDs. A Nested column's tuples and a mixed array's Variant have none (null).
 */
export const ARRAY_VARIANT_ELEMENT: readonly (Typed | null)[] = VARIANTS.map((variant) => {
  const element = /^Array\((.*)\)$/.exec(ARRAY_VARIANT_SAMPLES[variant]?.type ?? "")?.[1];
  if (element === undefined) return null;
  // A Nested column read whole holds tuples (`arrayElement(tags, org_id) <= 3` compares a
  // Tuple(key UInt64, value UInt64) with a number, code 43; seed 24).
  if (element.startsWith("Tuple(")) return variantTyped(TUPLE_VARIANT, false);
  const nullable = nullableClassOfTypeName(element);
  if (nullable !== null) return typed(nullable, false, true);
  const cls = classOfTypeName(element);
  return cls === null ? null : typed(cls, false);
});

/** An array column's elements: `group_ids = 100` in a condition compares each one. */
export function elementOf(t: Typed): Typed {
  // An array variant's elements are judged as their class where they have one
  // (`exception_frames.module = timestamp` compares Nullable strings with a DateTime); a Nested
  // column's tuples and a mixed array's Variant have none. Any other variant (a map, a tuple, a
  // Nullable IP) is no array: it stands for itself.
  if (t.variant >= 0) return ARRAY_VARIANT_AT[t.variant] ? (ARRAY_VARIANT_ELEMENT[t.variant] ?? UNKNOWN_COLUMN) : t;
  const element = elementClass(t.cls);
  return element === null ? t : typed(element, false);
}
const ARRAY_OF_VARIANT: Readonly<Partial<Record<ArgumentClass, number>>> = { uint8: VARIANT_INDEX.get("uint8s")!, bool: VARIANT_INDEX.get("bools")!, datetime: VARIANT_INDEX.get("datetimes")!, uuid: UUIDS_VARIANT };

/** An array of numbers none of which is Nullable: an array-of-integers column, an Array(Float64), Array(Float32) or Array(Bool), an Array(UInt32), or one of the arrays of numbers (NUMBER_ARRAYS). */
export function isNumberArray(t: Typed): boolean {
  // Of one of some types: NUMBER_ARRAYS, or an array of numbers of a known class (an Array(UInt32)).
  if (t.variant < 0 && t.arrayOf !== undefined) return t.arrayOf === NUMBER_ARRAYS[0]!.arrayOf || (t.elementType !== undefined && isPlainNumber(t.elementType));
  // An Array(UInt8) too (`span_id * array(100) >= x`, an array of numbers compared with a number: code 43; seed 40).
  return t.variant < 0 ? t.cls === "arrayNumber" : t.variant === FLOAT64S_VARIANT || t.variant === FLOAT32S_VARIANT || t.variant === BOOLS_VARIANT || t.variant === UINT8S_VARIANT;
}

/**
 * A product of numbers element by element whose element type depends on the operands' exact
 * types (`[1, 2] * 1` is an Array(UInt16), `quantilesTDigest(0.5, 0.9)(x) * 1000` an
 * Array(Float64)): an array of numbers, none Nullable, one of those the probe tried, refused only
 * where each is (`count() + 1000 * quantiles(0.5, 0.9)(x)`: plus takes no array, code 43). An
 * engine test holds the engine's type of each such product to an array of numbers.
 */
export const NUMBER_ARRAYS = oneOfArrays(
  (constant) => [typed("arrayNumber", constant), ...["float64s", "float32s", "uint8s"].map((variant) => variantTyped(VARIANT_INDEX.get(variant)!, constant))],
  "an array of numbers whose type depends on the operands' exact types",
  true,
);

/**
 * An Array(UInt32) (`array(granularity)`, `groupUniqArray(toUInt32(x))`), which the probe did not
 * try: its elements lie between an Array(UInt8)'s and an Array(Int64)'s, so it is refused where
 * both are, its elements too (`'a' IN array(granularity)`, code 386). An engine test holds it.
 */
const UINT32_ARRAYS = withElements(oneOfArrays((constant) => [typed("arrayNumber", constant), variantTyped(VARIANT_INDEX.get("uint8s")!, constant)], "an Array(UInt32)", true), "uint32").map((t) => ({ ...t, elementInteger: UINT32_SHAPE }));

/**
 * An array of floats (`array(server_sample_rate * 2)`, `groupArray(duration / 1000)`): an
 * Array(Float64) or an Array(Float32), as the float class is either; refused where both are, its
 * elements too (`array(0.5) = attributes_int`, code 43). An engine test holds it.
 */
const FLOAT_ARRAYS = withElements(oneOfArrays((constant) => ["float64s", "float32s"].map((variant) => variantTyped(VARIANT_INDEX.get(variant)!, constant)), "an array of floats", true), "float64");

/** The exact type of an array of numbers' elements where the pass knows it (an array-of-integers column's, an Array(Float64)'s, Array(Float32)'s or Array(UInt8)'s), as a number; else null. */
function numberElementOf(t: Typed): Typed | null {
  if (t.variant === FLOAT64S_VARIANT || t.variant === FLOAT32S_VARIANT) return typed("float64", false);
  if (t.variant === UINT8S_VARIANT) return integerTyped(UINT8_SHAPE, false);
  return t.variant < 0 && t.cls === "arrayNumber" && t.alternatives === undefined && t.elementInteger !== undefined ? integerTyped(t.elementInteger, false) : null;
}

/** Two arrays of numbers of one exact type, as a Variant holds them. */
function sameArrayType(a: Typed, b: Typed): boolean {
  return a.variant === b.variant && a.cls === b.cls && a.elementInteger === b.elementInteger;
}

/**
 * An `if` or `multiIf` whose branches are arrays of numbers of known element types, of two types
 * or more (one type is that type, branchesType's), none NULL (a NULL beside arrays is
 * branchesType's Variant):
 * - where two element types have no common type (an Array(UInt64) and an Array(Float32) or an
 *   Array(Int64)), a Variant of the arrays, each refused where it is (`duration + if(c,
 *   group_ids, spans.exclusive_time_32)`, code 43; seed 45);
 * - else an array of the elements' common type (`if(c, a_uint64, a_uint8)` is an Array(UInt64),
 *   which plus takes beside no number).
 * Even where a constant condition picks a branch: the engine folds the call, not its type. Null
 * for any other branches. An engine test holds it (number-array-branches.test.ts).
 */
export function numberArrayBranchesType(args: readonly Expression[], types: readonly Typed[], constant: boolean | null, nullAt: (node: Expression) => boolean, valueOf: ValueOf): Typed | null {
  if (args.length < 3 || args.length % 2 === 0) return null;
  const arrays: Typed[] = [];
  const elements: Typed[] = [];
  for (let i = 1; i < args.length; i++) {
    if (!isBranch(i, args.length)) continue;
    const element = nullAt(args[i]!) ? null : numberElementOf(types[i]!);
    if (element === null) return null;
    elements.push(element);
    if (!arrays.some((known) => sameArrayType(known, types[i]!))) arrays.push({ ...types[i]!, constant: types[i]!.constant === false ? false : null });
  }
  if (arrays.length < 2) return null;
  if (!shapesConflict(elements)) {
    const common = numbersCommonTyped(elements, false, false);
    return common === null || common.cls === null ? null : arrayOfClass(common.cls, constant, common);
  }
  const pickedOnce = types.some((t, i) => !isBranch(i, args.length) && (t.constant === true || nullAt(args[i]!)));
  const branch = pickedOnce ? pickedBranch(args, nullAt, valueOf) : -1;
  const picked = branch >= 0 ? arrays.find((alternative) => sameArrayType(alternative, types[branch]!)) : undefined;
  return mixedTyped(arrays, constant, pickedOnce, picked, false);
}
