/**
 * The types of `if`, `multiIf`, `ifNull` and `coalesce` from their branches: a common type where
 * the engine finds one (numbers' by their exact types), else a Variant of each family's
 * alternative (the mixed variant), and how a call given such a Variant is judged per alternative,
 * as each row may hold any of them.
 */
import { atPosition as at, QueryServiceError, type TextPosition } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { ARRAY_VARIANT_SAMPLES, NULLABLE_CLASSES, VARIANTS, type ArgumentClass } from "../argument-classes.js";
import { UINT32_SHAPE, UINT8_SHAPE, commonTypeProblem, integerCommonType, type IntegerShape, type NumberShape } from "../integer-types.js";
import { typed, integerTyped, integerShapeOf, numberShapeOf, NULLABLE_STRINGS_VARIANT, MIXED_VARIANT, BRANCH_FAMILIES, VARIANT_FAMILIES, PLAIN_VARIANT, familyOf, variantTyped, mayHoldNull, isArrayTyped, NUMBER_CLASSES, NULLABLE_NUMBER_CLASSES, isContainer, IPV4_VARIANT, uint128CommonType, type Typed } from "./typed-values.js";
import { describe, list, typeName } from "./messages.js";
import { UINT8_CONDITION_ALTERNATIVES } from "./conditions.js";


/**
 * The family of an `if`'s branch: a tuple is one of its own (`if(c, tuple(x), x)` is a
 * Variant(Tuple(UInt64), UInt64)), judged as the probe's tuple whatever its size; so are the
 * array variants and a UInt128 (BRANCH_VARIANT_FAMILIES).
 */
function branchFamilyOf(t: Typed): string | undefined {
  if (t.variant >= 0) return BRANCH_VARIANT_FAMILIES[t.variant];
  // An array known as one of a few (`array(span_op_breakdowns[k], 1.5)`, an array of Nullable
  // numbers): their family, where they share one (`if(c, array(d, 1.5), message)` is a
  // Variant(Array(Nullable(Float64)), String); seed 38).
  if (t.cls === null && t.alternatives !== undefined && t.alternatives.every(isArrayTyped)) {
    const families = new Set(t.alternatives.map(branchFamilyOf));
    return families.size === 1 ? [...families][0] : undefined;
  }
  return familyOf(t);
}

/**
 * Per variant index, its family among an `if`'s branches: a tuple's own; a map's, of strings or
 * of numbers; an array variant the family of the arrays of its elements (`if(c, exception_frames.abs_path, sdk_name)` is a
 * Variant(Array(Nullable(String)), String); an Array(Float64) and an array of integers have a
 * common type); a UInt128 its own, which has a common type with numbers (branchesType leaves
 * those untyped); the scalar variants' (VARIANT_FAMILIES).
 */
const BRANCH_VARIANT_FAMILIES: readonly (string | undefined)[] = VARIANTS.map((variant, index) => {
  if (variant === "tuple" || variant === "uint128") return variant;
  if (variant === "nullableStrings") return BRANCH_FAMILIES.arrayString;
  if (["nullableUInt8", "nullableUInt16", "nullableUInt32", "float64s", "float32s", "uint8s", "bools"].includes(variant)) return BRANCH_FAMILIES.arrayNumber;
  if (variant === "uuids") return "array of UUIDs";
  if (variant === "datetimes") return "array of DateTimes";
  // Maps have a common type within strings or numbers (a Map(String, Int64) and one of Bools make
  // a Map(String, Int64)) and none across (`if(c, attributes_bool, project_id)` is a
  // Variant(Map(String, Bool), UInt64); with a Map(String, String), a Variant of the two).
  if (variant === "mapStrings") return "map of strings";
  if (variant.startsWith("map")) return "map of numbers";
  // An IP has a common type with no other family (`if(c, ip_address_v4, title)` is a
  // Variant(IPv4, String)), an IPv4 but with numbers (branchesType leaves those untyped).
  if (variant === "nullableIPv4" || variant === "nullableIPv6") return variant;
  // An array of a Variant (`array(use_case_id, 2)`) has a common type with no other value, arrays
  // of one type included (`if(c, array(s, 2), length(s))` is a Variant(Array(Variant(String,
  // UInt8)), UInt64): ORDER BY refuses it, code 44; seed 13).
  if (variant === "mixedArray") return "array of a Variant";
  // A Nested column read whole (`tags`, an Array(Tuple(key String, value String))) has a common
  // type with no scalar (`multiIf(100, 'sentry', tags)` is a Variant(Array(Tuple(...)), String); seed 15).
  if (variant === "nested") return "array of tuples";
  return VARIANT_FAMILIES[index];
});

/**
 * A Variant's alternative for a value of this family already met as `known` (undefined the first
 * time): its own class or variant, plain; where two of one family differ (a UInt8 and a Float64,
 * a DateTime and a Date), a type the pass does not know.
 */
export function alternativeOf(known: Typed | undefined, t: Typed, constant: boolean | null): Typed {
  const plain = t.variant >= 0 ? variantTyped(PLAIN_VARIANT[t.variant]!, constant) : typed(t.cls, constant);
  return known === undefined || (known.cls === plain.cls && known.variant === plain.variant) ? plain : typed(null, constant);
}

/** Whether argument i of an `if` or `multiIf` of `count` arguments is a branch (a value it may return): `multiIf(c1, a1, c2, a2, else)`. */
export function isBranch(i: number, count: number): boolean {
  return i > 0 && (i % 2 === 1 || i === count - 1);
}

/** A branch's type as its family is judged: a condition of unknown Nullability (`s IN now()`) is a UInt8 there. */
export function branchType(t: Typed): Typed {
  return t.alternatives !== undefined && UINT8_CONDITION_ALTERNATIVES.has(t.alternatives) ? typed("uint8", t.constant) : t;
}

/** The value of a literal, or of a column its entity maps to one (`group_id` is 0 on discover); else undefined. */
export type ValueOf = (node: Expression) => unknown;

/**
 * The branch an `if` or `multiIf` picks for every row, where its conditions say so: each one
 * NULL (a Nothing), a FALSE or a 0 is passed over, the first TRUE or other number picks its
 * branch, and the else branch is picked when every one is passed over. -1 where a condition is
 * computed per row first.
 */
/**
 * A Variant's picked alternative as the engine holds it: a value of the Variant's column, read per
 * row, not a constant it converts (`c_uint32 = if(0, 1, '5')` compares a UInt32 with the String
 * alternative, code 386, where `c_uint32 = '5'` reads the text as a number; seed 33).
 */
function heldInVariant(alternative: Typed): Typed {
  return alternative.constant === false ? alternative : { ...alternative, constant: false };
}

/** A Variant of these alternatives whose rows hold what `variant`'s rows hold (the value picked, or the first that is never NULL). */
function heldFrom(variant: Typed, alternatives: Typed[], constant: boolean | null): Typed {
  return { ...variant, constant, alternatives, ...(variant.picked === undefined ? { held: heldAlternatives(variant) } : {}) };
}

/**
 * An `if`'s Variant of these alternatives. Where its conditions pick one branch for every row
 * (`pickedOnce`), the rows hold that branch's alternative (`picked`), or, where the branch is a
 * NULL (`if(0, if(c, s, 5), NULL)`), no value at all: a call of it is judged as of a value no row
 * holds (judgeHoldingNoValue; `… = event_id` is answered, NULL).
 */
export function mixedTyped(alternatives: Typed[], constant: boolean | null, pickedOnce: boolean, picked: Typed | undefined, picksNull: boolean): Typed {
  return {
    cls: null,
    index: -1,
    constant,
    nullable: false,
    variant: MIXED_VARIANT,
    alternatives,
    ...(pickedOnce ? { pickedOnce } : {}),
    ...(picked ? { picked: heldInVariant(picked) } : {}),
    ...(picksNull ? { holdsNoValue: true as const } : {}),
  };
}

export function pickedBranch(args: readonly Expression[], nullAt: (node: Expression) => boolean, valueOf: ValueOf): number {
  for (let i = 0; i < args.length - 1; i += 2) {
    const condition = args[i]!;
    if (nullAt(condition)) continue;
    const value = valueOf(condition);
    if (typeof value !== "number" && typeof value !== "boolean") return -1;
    if (value === 0 || value === false) continue;
    return i + 1;
  }
  return args.length - 1;
}

/**
 * The type of an `if` or `multiIf` from its branches (a NULL branch aside), where the probe's
 * rule (`if`'s two branches agreeing) does not say it; else null.
 * - Branches of two families with no common type (strings, numbers, DateTimes, UUIDs, arrays of
 *   strings or of numbers, aggregate states; Nullable or not): ClickHouse makes their common
 *   type a Variant (`if(c, now(), 3)` is a Variant(DateTime, UInt8)), the mixed variant, with
 *   each family's class as an alternative.
 * - Branches of one scalar class beside a NULL branch: that class, Nullable (`if(c, NULL, 'a')`
 *   is a Nullable(String)); so are `multiIf`'s branches of one class (Nullable if any is).
 * A branch of unknown type says nothing. `ifNull` and `coalesce` are coalesceType's.
 */
/** Whether an `if`'s or `multiIf`'s branches are all arrays of strings, some of Nullable ones. */
function branchesNullableStringArrays(args: readonly Expression[], types: readonly Typed[]): boolean {
  let nullable = false;
  for (let i = 1; i < args.length; i++) {
    if (!isBranch(i, args.length)) continue;
    const t = types[i]!;
    if (t.variant === NULLABLE_STRINGS_VARIANT) nullable = true;
    else if (t.cls !== "arrayString" || t.variant >= 0) return false;
  }
  return nullable;
}

/** How many aggregate state types an `if`'s or `multiIf`'s branches hold, where every branch is a state of a known type (else 0). */
function branchStates(args: readonly Expression[], types: readonly Typed[], nullAt: (node: Expression) => boolean): number {
  const seen = new Set<string>();
  for (let i = 1; i < args.length; i++) {
    if (!isBranch(i, args.length) || nullAt(args[i]!)) continue;
    const state = types[i]!.state;
    if (state === undefined) return 0;
    seen.add(state);
  }
  return seen.size;
}

export function branchesType(args: readonly Expression[], types: readonly Typed[], constant: boolean | null, nullAt: (node: Expression) => boolean, valueOf: ValueOf): Typed | null {
  if (args.length < 3 || args.length % 2 === 0) return null;
  // A constant condition, or one the storage computes as NULL (which picks the else branch for
  // every row), picks a branch once for all rows.
  const pickedOnce = types.some((t, i) => !isBranch(i, args.length) && (t.constant === true || nullAt(args[i]!)));
  // A branch that is itself a Variant (`if(c, if(d, s, 5), now())`) makes the `if` one too, of
  // every branch's alternatives (Variant(DateTime, String, UInt8); seed 35).
  if (args.some((arg, i) => isBranch(i, args.length) && types[i]!.variant === MIXED_VARIANT && !nullAt(arg))) {
    const branches = args.flatMap((arg, i) => (isBranch(i, args.length) && !nullAt(arg) ? [types[i]!] : []));
    const branch = pickedOnce ? pickedBranch(args, nullAt, valueOf) : -1;
    const merged = mergedVariant(branches, constant);
    // Where the conditions pick a Variant branch for every row, the rows hold what it holds.
    if (branch >= 0 && types[branch]!.variant === MIXED_VARIANT) return heldFrom(types[branch]!, merged.all, constant);
    // A Variant holds two numbers of different types as two alternatives (Variant(String, UInt16,
    // UInt8)): the branch picked is held as its own type.
    const picked = branch >= 0 && !nullAt(args[branch]!) ? alternativeOf(undefined, branchType(types[branch]!), constant === false ? false : null) : undefined;
    return { ...mixedTyped(merged.all, constant, pickedOnce, picked, branch >= 0 && nullAt(args[branch]!)), ...(merged.held ? { held: merged.held } : {}) };
  }
  // Numbers of known types with no common type (a 64-bit integer and a float, a UInt64 and a
  // signed integer): a Variant of each plain type, a NULL or a Nullable branch among them too
  // (`multiIf(c, greatest(span_id, project_id), 1e23)` is a Variant(Float64, UInt64), `if(c, u, -1)`
  // of a UInt64 u a Variant(Int8, UInt64)). An engine test holds it.
  const numbers = numbersWithoutCommonType(args, types, nullAt);
  if (numbers !== null) {
    const branch = pickedOnce ? pickedBranch(args, nullAt, valueOf) : -1;
    const picked = branch >= 0 ? numbers.find((alternative) => sameNumberType(alternative, types[branch]!)) : undefined;
    return mixedTyped(numbers, constant, pickedOnce, picked, branch >= 0 && nullAt(args[branch]!));
  }
  // Aggregate states of two types (`if(100, sum, avg)` on metrics_distributions): a Variant of
  // them, even where a constant condition picks one (GROUP BY refuses it, code 44; seed 23).
  const states = branchStates(args, types, nullAt);
  if (states > 1) {
    return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives: [typed("aggregateState", constant === false ? false : null)], ...(pickedOnce ? { pickedOnce } : {}) };
  }
  // A UInt128 beside unsigned integers (`if(item_type, 1000, item_id)`) is a UInt128, as
  // greatest makes one (LIKE refuses it, code 43; seed 39). A NULL branch leaves it to the rules below.
  if (!args.some((arg, i) => isBranch(i, args.length) && nullAt(arg))) {
    const wide = uint128CommonType(args.flatMap((_, i) => (isBranch(i, args.length) ? [types[i]!] : [])), constant);
    if (wide !== null) return wide;
  }
  // Numbers of known types and IPv4s with a common type: that type, where no constant condition
  // picks a branch (below, a NULL branch so picked holds no value). A constant condition among
  // numbers alone leaves the type the common one (`if(2, 1.5, duration)` is a Float64, which
  // `ip_address_v4 / …` refuses, code 43; seed 27): the engine folds the call, not its type.
  if (!pickedOnce || !args.some((arg, i) => isBranch(i, args.length) && nullAt(arg))) {
    const common = numberBranchesType(args, types, nullAt, constant);
    if (common !== null) return common;
  }
  // Branches all of one variant of one exact type (`if(c, attributes_int, attributes_int)`, a
  // Map(String, Int64)): that type (`… NOT IN attributes_float[k]` is code 43; seed 42).
  const exact = oneExactVariant(args, types, nullAt);
  if (exact >= 0) return variantTyped(exact, constant);
  // The common case, `if(c, a, b)` of one class (a NULL has none), is the probe's agreeing rule: no map.
  if (args.length === 3 && types[1]!.cls !== null && types[1]!.cls === types[2]!.cls && types[1]!.variant < 0 && types[2]!.variant < 0) return null;
  // Per family, its alternative: an alternative is a column of its own when the Variant is one,
  // else either; two classes of one family (`multiIf(c, 1, d, 1.5, 'a')`) have a common type the
  // pass does not know (of no class).
  const alternativeConstant = constant === false ? false : null;
  const byFamily = new Map<string, Typed>();
  let nulls = 0;
  let nullable = false;
  // A condition of unknown Nullability (`s IN now()`, a UInt8 or a Nullable one) is a number
  // beside another family (`multiIf(c, 'a', s IN now())` is a Variant(String, UInt8)); of one
  // family with others, its Nullability is not known, nor is the type.
  let conditions = false;
  // The classes of the branches (for numbers of several classes, below).
  const classes = new Set<ArgumentClass | null>();
  for (let i = 1; i < args.length; i++) {
    if (!isBranch(i, args.length)) continue;
    if (nullAt(args[i]!)) {
      nulls++;
      continue;
    }
    const t = branchType(types[i]!);
    if (t !== types[i]) conditions = true;
    classes.add(t.cls);
    const family = branchFamilyOf(t);
    if (family === undefined) return null;
    if (t.nullable) nullable = true;
    const known = byFamily.get(family);
    byFamily.set(family, alternativeOf(known, t, alternativeConstant));
  }
  // A UInt128 and a number have a common type (a UInt128, an Int256) or none: no type. So do an
  // IPv4 and a number (numberBranchesType's, where it knows it).
  if (byFamily.has("number") && (byFamily.has("uint128") || byFamily.has("nullableIPv4"))) return null;
  const [only] = byFamily.values();
  // A NULL branch beside arrays, of which no Nullable exists, makes a Variant of the one
  // (`if(c, NULL, array(dist))` is a Variant(Array(Nullable(String)))), judged per alternative as
  // two families are (`… * group_ids` is code 43); so does one beside a map. Not a tuple (a
  // Nullable(Tuple) exists), nor a state (refused by the engine, a Nullable of none).
  if (byFamily.size > 1 || (nulls > 0 && byFamily.size === 1 && only!.cls !== "aggregateState" && isContainer(only!))) {
    const branch = pickedOnce ? pickedBranch(args, nullAt, valueOf) : -1;
    const family = branch >= 0 && !nullAt(args[branch]!) ? branchFamilyOf(branchType(types[branch]!)) : undefined;
    const picked = family !== undefined ? byFamily.get(family) : undefined;
    return mixedTyped([...byFamily.values()], constant, pickedOnce, picked, branch >= 0 && nullAt(args[branch]!));
  }
  // Numbers of several classes (`if(c, 1000, x != y)`, a UInt16): one of the number classes,
  // Nullable where a branch is or may be NULL; as numbersWithBool. Not a 64-bit integer beside a
  // float, which have no common type (a Variant(Float64, Int64)). An engine test holds it.
  if (only !== undefined && only.cls === null && byFamily.has("number") && !(classes.has("int64") && classes.has("float64"))) {
    const numbers = nullable || nulls > 0 ? NULLABLE_NUMBER_CLASSES : NUMBER_CLASSES;
    return { cls: null, index: -1, constant, nullable: false, variant: -1, alternatives: alternativeConstant === null ? numbers : numbers.map((t) => ({ ...t, constant: alternativeConstant })) };
  }
  // Arrays of strings, some of Nullable ones (`if(0, exception_frames.filename, contexts.key)`):
  // an Array(Nullable(String)), compared with an array of numbers by no one (code 43; seed 24).
  if (nulls === 0 && byFamily.size === 1 && branchesNullableStringArrays(args, types)) return variantTyped(NULLABLE_STRINGS_VARIANT, constant);
  if (conditions || only === undefined || only.cls === null || !NULLABLE_CLASSES.includes(only.cls) || (nulls === 0 && args.length === 3)) return null;
  // A constant condition picks its branch once for all rows. Where the pass knows the branch
  // picked holds values (`if(10, 'transaction', NULL)`), every row holds one: the Nullable,
  // judged as any (`… * 1.5` is refused, code 43). Where it picks the NULL branch
  // (`multiIf(100, NULL, x)`), the type is still the Nullable, and the engine judges it so
  // (`count() / if(1, NULL, s)` is code 43), but no row holds a value of it: the refusals the
  // engine makes only on a row's value (`s = x` where x holds a float) do not happen.
  if (nulls > 0 && types.some((t, i) => !isBranch(i, args.length) && t.constant === true)) {
    const branch = pickedBranch(args, nullAt, valueOf);
    if (branch < 0) return null;
    if (nullAt(args[branch]!)) return { ...typed(only.cls, constant, true), holdsNoValue: true };
  }
  return typed(only.cls, constant, nullable || nulls > 0);
}

/**
 * Per variant index, whether the variant is one exact type (a map, an IP, an array of one element
 * type other than DateTime, whose time zone may differ): not a tuple, a Nested column, an array of
 * a Variant or a Variant, each of many types, nor a Date or DateTime64 (of several precisions).
 */
const EXACT_VARIANT_AT: readonly boolean[] = VARIANTS.map(
  (variant, index) => variant.startsWith("map") || variant === "nullableIPv4" || variant === "nullableIPv6" || (BRANCH_VARIANT_FAMILIES[index] !== undefined && ARRAY_VARIANT_SAMPLES[variant] !== undefined && variant !== "datetimes"),
);

/** The variant every branch is of (none NULL, each of one exact type, EXACT_VARIANT_AT), or -1. */
function oneExactVariant(args: readonly Expression[], types: readonly Typed[], nullAt: (node: Expression) => boolean): number {
  let found = -1;
  for (let i = 1; i < args.length; i++) {
    if (!isBranch(i, args.length)) continue;
    const t = types[i]!;
    if (nullAt(args[i]!) || t.variant < 0 || !EXACT_VARIANT_AT[t.variant] || t.alternatives !== undefined || (found >= 0 && t.variant !== found)) return -1;
    found = t.variant;
  }
  return found;
}

/**
 * The Variant of values some of which are Variants themselves (an `if`'s branches, a `coalesce`'s
 * arguments): each Variant's alternatives and each other value, one per family as branchesType
 * keeps them (`all`, its type); a value of no family the pass places is an alternative of unknown
 * type. `held` is what its rows may hold: of each Variant only what its rows hold (the branch
 * its conditions pick), or null where that is every alternative.
 */
function mergedVariant(values: readonly Typed[], constant: boolean | null): { all: Typed[]; held: Typed[] | null } {
  const alternativeConstant = constant === false ? false : null;
  const place = (each: readonly Typed[]): Typed[] => {
    const byFamily = new Map<string, Typed>();
    let unplaced = false;
    for (const t of each) {
      const family = branchFamilyOf(t);
      if (family === undefined) unplaced = true;
      else byFamily.set(family, alternativeOf(byFamily.get(family), t, alternativeConstant));
    }
    return unplaced ? [...byFamily.values(), typed(null, alternativeConstant)] : [...byFamily.values()];
  };
  const all = place(values.flatMap((value) => (value.variant === MIXED_VARIANT ? value.alternatives! : [branchType(value)])));
  const narrowed = values.some((value) => value.variant === MIXED_VARIANT && heldAlternatives(value) !== value.alternatives);
  return { all, held: narrowed ? place(values.flatMap((value) => (value.variant === MIXED_VARIANT ? heldAlternatives(value) : [branchType(value)]))) : null };
}

/**
 * The common type of numbers of known types (integer-types.ts): floats and integers of at most 32
 * bits a float (a 64-bit integer beside one has none), integers their common type. Null where
 * there is none, or where it is one byte beside a Bool, which may make it a Bool (numbersWithBool).
 */
function commonNumberTyped(integers: readonly IntegerShape[], float: boolean, bool: boolean, nullable: boolean, constant: boolean | null): Typed | null {
  if (float) return integers.some((integer) => integer.bytes === 8) ? null : typed("float64", constant, nullable);
  const common = integerCommonType(integers);
  if (common === null || (bool && common === UINT8_SHAPE)) return null;
  return integerTyped(common, constant, nullable);
}

/**
 * The branches of an `if` or `multiIf`, numbers each of a known type or IPv4s (a UInt32 to the
 * engine's common type; Nullable as the entities hold them), a NULL among them too: their common
 * type, Nullable where a branch is or may be NULL (`if(c, isNull(x), ip_address_v4)` is a
 * Nullable(UInt32)). Null where a branch is of another kind or an integer of unknown type, or
 * where every branch is an IPv4.
 */
function numberBranchesType(args: readonly Expression[], types: readonly Typed[], nullAt: (node: Expression) => boolean, constant: boolean | null): Typed | null {
  const branches: (Typed | null)[] = [];
  for (let i = 1; i < args.length; i++) if (isBranch(i, args.length)) branches.push(nullAt(args[i]!) ? null : types[i]!);
  // IPv4s alone are an IPv4.
  if (branches.every((t) => t === null || t.variant === IPV4_VARIANT)) return null;
  return numbersCommonTyped(branches, constant, true);
}

/**
 * The common type of values each a number of a known type or a NULL (null), an IPv4 as a UInt32
 * where `ipv4AsUInt32` (an `if`'s branches): commonNumberTyped, Nullable where one is or a NULL is
 * among them, or as `nullableAs` says (a coalesce's). Null where a value is of another kind or an integer of unknown type.
 */
export function numbersCommonTyped(values: readonly (Typed | null)[], constant: boolean | null, ipv4AsUInt32: boolean, nullableAs?: boolean): Typed | null {
  const integers: IntegerShape[] = [];
  let float = false;
  let nullable = false;
  let bool = false;
  let allBool = true;
  for (const t of values) {
    if (t === null) {
      nullable = true;
      continue;
    }
    if (ipv4AsUInt32 && t.variant === IPV4_VARIANT) {
      integers.push(UINT32_SHAPE);
      nullable = true;
      allBool = false;
      continue;
    }
    const shape = numberShapeOf(t);
    if (shape === null || shape === "integer") return null;
    if (shape === "float") float = true;
    else integers.push(shape);
    if (t.nullable) nullable = true;
    if (t.cls === "bool") bool = true;
    else allBool = false;
  }
  // Booleans alone (a NULL beside): a Bool (`greatest(FALSE, NULL)` is a Nullable(Bool); seed 20).
  if (bool && allBool) return typed("bool", constant, nullableAs ?? nullable);
  return commonNumberTyped(integers, float, bool, nullableAs ?? nullable, constant);
}

/**
 * Whether numbers, each of a known type, hold two with no common type (commonTypeProblem, as
 * greatest past two arguments finds it): the engine makes a Variant of them. False where one is
 * no number or of an unknown exact type.
 */
export function shapesConflict(values: readonly Typed[]): boolean {
  const shapes: NumberShape[] = [];
  for (const t of values) {
    const shape = numberShapeOf(t);
    if (shape === null || shape === "integer") return false;
    shapes.push(shape);
  }
  return shapes.some((first, i) => shapes.some((second, j) => j > i && commonTypeProblem(first, second, true) !== null));
}

/** Two numbers of one type as a Variant holds them: one class, one exact integer type. */
function sameNumberType(a: Typed, b: Typed): boolean {
  return a.cls === b.cls && integerShapeOf(a) === integerShapeOf(b);
}

/**
 * The branches of an `if` or `multiIf`, numbers each of a known type, where two have no common
 * type (commonTypeProblem, as greatest past two arguments): each type once, as the Variant's
 * alternatives. Else null.
 */
function numbersWithoutCommonType(args: readonly Expression[], types: readonly Typed[], nullAt: (node: Expression) => boolean): Typed[] | null {
  const branches: Typed[] = [];
  for (let i = 1; i < args.length; i++) {
    if (!isBranch(i, args.length) || nullAt(args[i]!)) continue;
    branches.push(types[i]!);
  }
  return shapesConflict(branches) ? numberAlternatives(branches) : null;
}

/** Each number type among values once, as a Variant's alternatives. */
function numberAlternatives(values: readonly Typed[]): Typed[] {
  const alternatives: Typed[] = [];
  for (const value of values) {
    if (alternatives.some((known) => sameNumberType(known, value))) continue;
    // A Bool keeps its class (a Variant(Bool, Float64, Int64) holds a Bool, not a UInt8).
    const integer = value.cls === "bool" ? null : integerShapeOf(value);
    // Plain: a Variant holds a NULL beside its alternatives; a column where the Variant is one, else either.
    const constant = value.constant === false ? false : null;
    alternatives.push(integer !== null ? integerTyped(integer, constant) : typed(value.cls, constant));
  }
  return alternatives;
}

/**
 * The values an `ifNull` or `coalesce` may return, numbers each of a known type: a Variant of
 * each where two have no common type (`ifNull(n_int64, 0.5)` is a Variant(Float64, Int64)), else
 * their common type (`coalesce(abs(segment_id), FALSE)` of a Nullable(UInt16) is a UInt16; seed 19),
 * Nullable where the last is. Null where one is of another kind or an integer of unknown type.
 */
function coalescedNumbersType(kept: readonly Typed[], constant: boolean | null): Typed | null {
  if (shapesConflict(kept)) return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives: numberAlternatives(kept) };
  return numbersCommonTyped(kept, constant, false, kept[kept.length - 1]!.nullable);
}

/**
 * The type of `ifNull(a, b)` or `coalesce(a, ...)`, where the probe's rule does not say it; else
 * null. ClickHouse skips a NULL argument, and every argument after the first that cannot be NULL:
 * its value is returned there (`ifNull(now(), tags)` is a DateTime, `coalesce(s, 1.5)` a String).
 * Of the arguments left:
 * - one: its type, as it is (`coalesce(NULL, 'a')` is a String);
 * - of two families with no common type (a Nullable(String) and a Float64): a Variant, as `if`
 *   makes of such branches (`coalesce(location, 1.5)` is a Variant(Float64, String)), the mixed
 *   variant with each family's class as an alternative;
 * - of two classes of one family (numbers): no class;
 * - else (one class, or a type the pass does not know) the probe's rule.
 */
export function coalesceType(args: readonly Expression[], types: readonly Typed[], constant: boolean | null, nullAt: (node: Expression) => boolean): Typed | null {
  // A value of one of several types (a condition of unknown Nullability, a UInt8 or a
  // Nullable(UInt8)): the type made of each, where they are one (`coalesce(a NOT IN b, 2)` is a
  // UInt8 either way).
  const oneOf = types.findIndex((t) => t.alternatives !== undefined && t.variant < 0 && t.cls === null);
  if (oneOf >= 0) {
    const each = types[oneOf]!.alternatives!.map((alternative) => coalesceType(args, types.map((t, i) => (i === oneOf ? alternative : t)), constant, nullAt));
    const [first] = each;
    if (first === null || first === undefined || first.alternatives !== undefined) return null;
    return each.every((t) => t !== null && t.alternatives === undefined && t.cls === first.cls && t.nullable === first.nullable && t.variant === first.variant) ? first : null;
  }
  const kept: Typed[] = [];
  for (let i = 0; i < args.length; i++) {
    if (nullAt(args[i]!)) continue;
    kept.push(types[i]!);
    if (!mayHoldNull(types[i]!)) break;
  }
  const picked = pickedVariantFirst(kept, constant);
  if (picked !== null) return picked;
  // Every argument a NULL (`ifNull(logger, version)` on discover, which stores neither): a Nothing, the probe's rule.
  if (kept.length === 0) return null;
  if (kept.length === 1) return kept[0]!;
  const numbers = coalescedNumbersType(kept, constant);
  if (numbers !== null) return numbers;
  // A Variant among them (`coalesce(if(c, s, 5), 'x')`) makes a Variant of every one's types. Its
  // rows are judged by the values up to the first Variant: one that holds no NULL (the pass does
  // not know which do) leaves nothing to the values after it.
  const firstVariant = kept.findIndex((t) => t.variant === MIXED_VARIANT);
  if (firstVariant === 0) return heldFrom(kept[0]!, mergedVariant(kept, constant).all, constant);
  if (firstVariant > 0) {
    const upToVariant = mergedVariant(kept.slice(0, firstVariant + 1), constant);
    return { ...mixedTyped(mergedVariant(kept, constant).all, constant, false, undefined, false), held: upToVariant.held ?? upToVariant.all };
  }

  const alternativeConstant = constant === false ? false : null;
  const byFamily = new Map<string, Typed>();
  for (const t of kept) {
    // The families of an `if`'s branches: a tuple, a map, an IP, a UInt128 and the array
    // variants are of their own (`ifNull(trace_id, tuple(0.5, platform))` is a Variant(Tuple(...), UUID)).
    const family = branchFamilyOf(t);
    if (family === undefined) return null;
    const known = byFamily.get(family);
    byFamily.set(family, alternativeOf(known, t, alternativeConstant));
  }
  // As among an `if`'s branches, a UInt128 or an IPv4 beside a number: no type (branchesType).
  if (byFamily.has("number") && (byFamily.has("uint128") || byFamily.has("nullableIPv4"))) return null;
  if (byFamily.size > 1) return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives: [...byFamily.values()] };
  // Numbers of two classes have a common type the pass does not know (`ifNull(n_uint8, i)` is an
  // Int64, `ifNull(n_int64, f)` a Variant(Float64, Int64)): no class.
  const [only] = byFamily.values();
  if (only !== undefined && only.cls === null && only.variant < 0) return typed(null, constant);
  // Values of one class that is one type (`ifNull(geo_region, username)`, two Nullable(String)s):
  // that type, Nullable when the last one kept is (the probe saw one Nullable argument at a time).
  // A class of numbers stands for several types (a UInt64 and an Int64 are both int64s), whose
  // common type the class does not say.
  const cls = kept[0]!.cls;
  if (cls !== null && ONE_TYPE_CLASSES.has(cls) && kept.every((t) => t.cls === cls && t.variant < 0)) return typed(cls, constant, kept[kept.length - 1]!.nullable);
  return null;
}

/**
 * `ifNull(if(NULL, 'a', arr), now())` (seed 14): an `if`'s Variant whose conditions pick, for
 * every row, a branch that holds no NULL is never NULL, so each row of the ifNull holds that
 * branch too. ClickHouse types the ifNull as the Variant of every argument's type
 * (Variant(Array(String), DateTime, String)), and judges a call on each row's; so is it judged
 * here, on the branch picked. Else null.
 */
function pickedVariantFirst(kept: readonly Typed[], constant: boolean | null): Typed | null {
  const [first] = kept;
  if (first === undefined || first.variant !== MIXED_VARIANT || first.picked === undefined || first.picked.nullable || first.fromElements) return null;
  const alternatives = [...first.alternatives!];
  const families = new Set(alternatives.map(branchFamilyOf));
  // The other arguments' types are alternatives too, named in refusals; no row holds them.
  for (const t of kept.slice(1)) {
    const family = branchFamilyOf(t);
    if (family === undefined || families.has(family) || t.alternatives !== undefined) continue;
    families.add(family);
    alternatives.push(alternativeOf(undefined, t, constant === false ? false : null));
  }
  return { ...first, constant, alternatives };
}

/** How a refusal of a call of an if's or coalesce's Variant starts: the Variant, and the alternative whose rows fail. */
export function rowsHoldingPrefix(mixed: Expression, mixedType: Typed, refused: Typed, position: TextPosition | undefined): string {
  const variant = `${describe(mixed)}${at(mixed.position ?? position)} is a Variant of ${list(mixedType.alternatives!.map(typeName))} (${noCommonType(mixedType)}), and`;
  if (mixedType.picked !== undefined) return `${variant} ${mixedType.fromElements ? "its index picks the element" : "its conditions pick the branch"} of ${typeName(refused)} for every row:`;
  return `${variant} ClickHouse fails the query on any row that holds ${typeName(refused)}:`;
}

/** Why a mixed variant is one: what has no common type. */
export function noCommonType(t: Typed): string {
  if (t.fromElements) return "the array's elements have no common type";
  return t.alternatives!.length === 1 ? "a NULL branch beside an array, of which no Nullable exists" : "its branches have no common type";
}

/** The classes whose values are of one ClickHouse type (LowCardinality aside), so that two of them have it as their common type. */
const ONE_TYPE_CLASSES: ReadonlySet<ArgumentClass> = new Set(["string", "datetime", "uuid", "bool", "uint8", "uint32"]);

/**
 * Judges a call with each alternative in turn in the place `at` (`judgeWith` throws a refusal):
 * the first refusal, where "any" alternative is refused (each may be a row's) or "every" one is
 * (the value is one of them); else undefined.
 */
export function refusalOfAlternatives(
  alternatives: readonly Typed[],
  types: readonly Typed[],
  at: number,
  refusedBy: "any" | "every",
  judgeWith: (each: readonly Typed[]) => void,
): { readonly alternative: Typed; readonly error: QueryServiceError } | undefined {
  let refused: { readonly alternative: Typed; readonly error: QueryServiceError } | undefined;
  for (const alternative of alternatives) {
    const each = types.slice();
    each[at] = alternative;
    try {
      judgeWith(each);
      if (refusedBy === "every") return undefined;
    } catch (error) {
      if (!(error instanceof QueryServiceError)) throw error;
      refused ??= { alternative, error };
    }
  }
  return refused;
}

/** Whether a judgement refuses (throws a query error), without saying why. */
export function refuses(judgement: () => void): boolean {
  try {
    judgement();
    return false;
  } catch (error) {
    if (error instanceof QueryServiceError) return true;
    throw error;
  }
}

/** The alternatives a value's rows may hold: the branch picked for every row where the pass knows it, else each. */
export function heldAlternatives(t: Typed): readonly Typed[] {
  return t.picked !== undefined ? [t.picked] : (t.held ?? t.alternatives!);
}

/** Whether a row may hold any of a value's alternatives (an `if`'s or a `coalesce`'s Variant whose branch is not picked once), or every row the one picked. */
export function perRowAlternatives(t: Typed): boolean {
  return t.variant === MIXED_VARIANT && (t.pickedOnce !== true || t.picked !== undefined);
}

/**
 * The position of the argument a call is judged per alternative of (judgeAlternatives), else -1:
 * the one argument with known alternatives, or of two, the one held per row (the other is then
 * judged as one of its own inside each: `if(c, 1000, x) = if(d, 3, 'a')`). Three: none (judged
 * on the mixed variant's refusals alone).
 */
export function mixedArgument(types: readonly Typed[]): number {
  let found = -1;
  let second = -1;
  for (let i = 0; i < types.length; i++) {
    if (types[i]!.alternatives === undefined) continue;
    if (found < 0) found = i;
    else if (second < 0) second = i;
    else return -1;
  }
  return second >= 0 && perRowAlternatives(types[second]!) && !perRowAlternatives(types[found]!) ? second : found;
}
