/**
 * What the typing pass knows of a value (Typed): its class, constness and nullability, or for a
 * type without a class its variant (a tuple, a map, an IP, a Date, an array variant, an `if`'s
 * Variant). One shared object per kind, so typing a query allocates none; and the families values
 * fall into, which decide where ClickHouse finds a common type.
 */
import { ARGUMENT_CLASSES, elementClass, variantOfTypeName, isArrayVariant, VARIANTS, variantSamples, type ArgumentClass } from "../argument-classes.js";
import { UINT32_SHAPE, UINT8_SHAPE, integerShapeOfTypeName, wholeWithinIntegers, type IntegerShape, type NumberShape } from "../integer-types.js";

/**
 * The class of a literal as ClickHouse types it: the smallest integer type that holds it
 * (0..255 is UInt8, 256..65535 UInt16, -1 Int8, ...), a float otherwise.
 */
export function literalClass(value: unknown, digits?: string): ArgumentClass | null {
  if (typeof value === "string") return "string";
  // An integer past 2^53 is printed as its digits, which the engine types exactly: 2^64 - 1 is
  // still a UInt64 and -2^63 an Int64, though JavaScript's nearest numbers lie past their ends.
  if (digits !== undefined) return wholeWithinIntegers(digits) ? "int64" : "float64";
  if (typeof value === "boolean") return "bool";
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  if (!Number.isInteger(value)) return "float64";
  if (value >= 0 && value <= 255) return "uint8";
  // The SQL has the number as JavaScript writes it (formatNumber): 2^64 and beyond, and -2^63
  // and below, come out past UInt64's and Int64's ends (or in exponent form) and are Float64.
  if (value >= 2 ** 64 || value <= -(2 ** 63)) return "float64";
  // ClickHouse types a literal by the smallest type that holds it: Int8..Int64, UInt16 and
  // UInt64 are Int64's class, UInt32 its own (see classOfTypeName).
  return value > 0xffff && value <= 0xffffffff ? "uint32" : "int64";
}

export interface Typed {
  readonly cls: ArgumentClass | null;
  /** The class's index in ARGUMENT_CLASSES (-1 for none): pairs are looked up by number. */
  readonly index: number;
  /** True: a constant to ClickHouse; false: a column; null: cannot tell. */
  readonly constant: boolean | null;
  /** Nullable(cls): judged only on the refusals probed with a Nullable argument. */
  readonly nullable: boolean;
  /** A type without a class that has its own probed refusals (index in VARIANTS, -1 for none): an array variant, a tuple, a map, ... */
  readonly variant: number;
  /**
   * A Variant made by `if`, `multiIf`, `ifNull` or `coalesce` (the mixed variant): each branch's
   * class, plain, as the engine applies a function to it; a call is refused where it refuses
   * any, as rows may hold each (unless `pickedOnce`). Without a variant: the classes the value
   * may be, one of which it is (numbersWithBool); a call is refused only where none is taken.
   */
  readonly alternatives?: readonly Typed[];
  /** A mixed variant whose branch a constant condition picks once for all rows (`if(FALSE, a, b)`): every row holds the same alternative. */
  readonly pickedOnce?: boolean;
  /** Of such a variant, the alternative every row holds, where the pass knows which branch is picked (`if(NULL, a, b)` picks b). */
  readonly picked?: Typed;
  /**
   * Of a mixed variant, the alternatives its rows may hold where they are fewer than its type's
   * (`coalesce(if(c, s, 5), now())`: a Variant(DateTime, String, UInt8) whose first value is never
   * NULL, so no row holds the DateTime); else every alternative may be a row's.
   */
  readonly held?: readonly Typed[];
  /** Of a mixed array made of values of known families (`array(title, 1)`): each element's alternative in its Variant, in order (null: a NULL element). */
  readonly elements?: readonly (Typed | null)[];
  /** A mixed variant that is such an array's element (`array(title, 1)[n]`), not an `if`'s or a `coalesce`'s: named so in refusals. */
  readonly fromElements?: true;
  /** An array whose element type the pass cannot name (NULLS_ARRAY, NULLABLE_NUMBERS_ARRAY): what it is, in refusals; it is one of its alternatives. */
  readonly arrayOf?: string;
  /**
   * Of such an array, its alternatives hold every element type it may hold between them (arrays of
   * numbers): judged by them even where what another argument takes depends on its elements
   * (`'a' IN array(granularity)`), not left to the engine as an array of NULLs is.
   */
  readonly alternativesSpanElements?: true;
  /** A Nullable no row holds a value of (a constant condition picks an `if`'s NULL branch): refusals made only on a row's value do not happen. */
  readonly holdsNoValue?: true;
  /** Of such an array, its elements' type where the pass knows it (aggregate states, arrays): arithmetic done element by element is judged on it (judgeArrayElements). */
  readonly elementType?: Typed;
  /** Of the integer class, its exact type where the pass knows it (integer-types.ts): greatest and least turn on it. */
  readonly integer?: IntegerShape;
  /** Of an aggregate state column, its declared type (`AggregateFunction(sum,Float64)`, spaces removed): two states of different types have no common type. */
  readonly state?: string;
  /** Of an array of integers, its elements' exact type where the pass knows it (`tags.key` on metrics, an Array(UInt64)): two such arrays are compared in their elements' common type (refuseArraysOfIntegersWithoutCommonType). */
  readonly elementInteger?: IntegerShape;
}

/** A class's index in ARGUMENT_CLASSES. */
export const CLASS_INDEX: ReadonlyMap<ArgumentClass, number> = new Map(ARGUMENT_CLASSES.map((cls, index) => [cls, index]));

/** One shared object per (class, constness, nullability): typing a query allocates none. */
const TYPED: ReadonlyMap<ArgumentClass | null, readonly Typed[]> = new Map(
  [...ARGUMENT_CLASSES, null].map((cls) => {
    const index = cls === null ? -1 : CLASS_INDEX.get(cls)!;
    const variants: Typed[] = [];
    // `integer` present (undefined) on every one: the integer-typed values then share these objects' shape, which keeps the walk's property reads monomorphic.
    for (const nullable of [false, true]) for (const constant of [true, false, null]) variants.push({ cls, index, constant, nullable: nullable && cls !== null, variant: -1, integer: undefined });
    return [cls, variants] as const;
  }),
);
/** Where a value of this constness sits in the per-constness tables (true, false, null). */
export function constnessIndex(constant: boolean | null): number {
  return constant === true ? 0 : constant === false ? 1 : 2;
}

export function typed(cls: ArgumentClass | null, constant: boolean | null, nullable = false): Typed {
  return TYPED.get(cls)![(nullable ? 3 : 0) + (constnessIndex(constant))]!;
}
export const UNKNOWN = typed(null, null);

/** Per integer type of the integer class, as for TYPED: one shared object per constness and nullability. */
const INTEGER_TYPED: ReadonlyMap<IntegerShape, readonly Typed[]> = new Map(
  [1, 2, 4, 8].flatMap((bytes) => [`Int${bytes * 8}`, `UInt${bytes * 8}`]).flatMap((name) => {
    const integer = integerShapeOfTypeName(name)!;
    const variants: Typed[] = [];
    for (const nullable of [false, true]) for (const constant of [true, false, null]) variants.push({ ...typed("int64", constant, nullable), integer });
    return [[integer, variants] as const];
  }),
);

/** A value of an integer type: a UInt8 and a UInt32 are classes of their own, the other types the integer class's, with their exact type. */
export function integerTyped(integer: IntegerShape, constant: boolean | null, nullable = false): Typed {
  if (integer === UINT8_SHAPE) return typed("uint8", constant, nullable);
  if (integer === UINT32_SHAPE) return typed("uint32", constant, nullable);
  return INTEGER_TYPED.get(integer)![(nullable ? 3 : 0) + constnessIndex(constant)]!;
}

/** The exact integer type of a plain-class integer (a Bool is a UInt8), or null where the pass does not know it. */
export function integerShapeOf(t: Typed): IntegerShape | null {
  if (t.variant >= 0 || t.alternatives !== undefined) return null;
  if (t.cls === "uint8" || t.cls === "bool") return UINT8_SHAPE;
  if (t.cls === "uint32") return UINT32_SHAPE;
  return t.cls === "int64" ? (t.integer ?? null) : null;
}

/** A number as greatest's and least's common-type rules see it (integer-types.ts), or null for a value of another kind. */
export function numberShapeOf(t: Typed): NumberShape | null {
  if (!isPlainNumber(t) || t.alternatives !== undefined) return null;
  return t.cls === "float64" ? "float" : (integerShapeOf(t) ?? "integer");
}
export const UNKNOWN_COLUMN = typed(null, false);
/** Per variant, as a constant, a column and either: no class, its own refusals (one shared object each). */
const VARIANT_TYPED: readonly (readonly Typed[])[] = VARIANTS.map((_, variant) => [true, false, null].map((constant) => ({ cls: null, index: -1, constant, nullable: false, variant })));
export const VARIANT_INDEX: ReadonlyMap<string, number> = new Map(VARIANTS.map((variant, index) => [variant, index]));
export const TUPLE_VARIANT = VARIANT_INDEX.get("tuple")!;
export const NULLABLE_STRINGS_VARIANT = VARIANT_INDEX.get("nullableStrings")!;
export const UUIDS_VARIANT = VARIANT_INDEX.get("uuids")!;
export const NESTED_VARIANT = VARIANT_INDEX.get("nested")!;
export const MIXED_ARRAY_VARIANT = VARIANT_INDEX.get("mixedArray")!;
export const MIXED_VARIANT = VARIANT_INDEX.get("mixed")!;
export const DATE_VARIANT = VARIANT_INDEX.get("date")!;
export const UINT128_VARIANT = VARIANT_INDEX.get("uint128")!;
/** The Date variants, Nullable or not. */
export const DATES: ReadonlySet<number> = new Set([DATE_VARIANT, VARIANT_INDEX.get("nullableDate")!]);
/** Per variant index: whether a result of an argument's type keeps it. */
/** Per variant index: whether it is an array, whose elements have no class. */
export const ARRAY_VARIANT_AT: readonly boolean[] = VARIANTS.map(isArrayVariant);
/** The class families `array(...)` finds no common type across: one of each makes an Array(Variant(...)). */
export const ARRAY_FAMILIES: Readonly<Partial<Record<ArgumentClass, string>>> = { string: "string", uuid: "uuid", datetime: "datetime", uint8: "number", int64: "number", float64: "number", uint32: "number", bool: "number" };
/** The families of scalar values in ARRAY_FAMILIES: strings, numbers, DateTimes, UUIDs. */
export const SCALAR_FAMILIES: ReadonlySet<string> = new Set(Object.values(ARRAY_FAMILIES));
/** Per variant index: whether it is a container (an array, a tuple or a map), which has no common type with a scalar. */
export const CONTAINER_VARIANT_AT: readonly boolean[] = VARIANTS.map((variant) => isArrayVariant(variant) || variant === "tuple" || variant.startsWith("map"));
/** The class families an `if`'s branches find no common type across: those of `array(...)`, arrays of each, and aggregate states. */
export const BRANCH_FAMILIES: Readonly<Partial<Record<ArgumentClass, string>>> = { ...ARRAY_FAMILIES, arrayString: "array of strings", arrayNumber: "array of numbers", aggregateState: "aggregate state" };
/**
 * Per variant index, the family of a scalar variant among those above: a Date and a DateTime64,
 * Nullable or not, are of the DateTimes' (`if(c, geo_city, timestamp_ms)` is a
 * Variant(DateTime64(3), String), `if(c, timestamp_ms, now())` a DateTime64). An IP is not: the
 * engine finds a common type of an IPv4 and a number.
 */
export const VARIANT_FAMILIES: readonly (string | undefined)[] = VARIANTS.map((variant) => (variant === "date" || variant === "nullableDate" || variant === "nullableDateTime64" ? "datetime" : undefined));

/** A DateTime, a Date or a DateTime64, Nullable or not. */
export function isDateLike(t: Typed): boolean {
  return t.cls === "datetime" || (t.variant >= 0 && VARIANT_FAMILIES[t.variant] === "datetime");
}
/** Per variant index, the variant it is as an alternative of a Variant, which holds no Nullable: a Nullable(Date) is a Date there. A DateTime64 stays the Nullable one, the only DateTime64 probed. */
export const PLAIN_VARIANT: readonly number[] = VARIANTS.map((variant, index) => (variant === "nullableDate" ? VARIANT_INDEX.get("date")! : index));

/** The family of a value for the common type of `if` branches, `coalesce` arguments and `array` elements, else undefined (a type the pass does not place). */
export function familyOf(t: Typed): string | undefined {
  if (t.variant >= 0) return VARIANT_FAMILIES[t.variant];
  return t.cls === null ? undefined : BRANCH_FAMILIES[t.cls];
}

export function variantTyped(variant: number, constant: boolean | null): Typed {
  return VARIANT_TYPED[variant]![constnessIndex(constant)]!;
}

/** A column of a variant's type (`exception_frames.in_app` is an Array(Nullable(UInt8)), `attributes_bool` a Map(String, Bool)), else undefined. */
export function variantColumn(typeName: string): Typed | undefined {
  const variant = variantOfTypeName(typeName);
  return variant === null ? undefined : variantTyped(VARIANT_INDEX.get(variant)!, false);
}

/** Per variant index: whether a value of it may be NULL (a Nullable scalar variant, or a Variant, which holds NULLs of its own). */
export const VARIANT_MAY_BE_NULL: readonly boolean[] = VARIANTS.map((variant) => variantSamples(variant).some((sample) => sample.type.startsWith("Nullable(") || sample.type.startsWith("Variant(")));

/** Whether a value of this type may be NULL: Nullable, a variant that may be, or of unknown type. */
export function mayHoldNull(t: Typed): boolean {
  return t.nullable || (t.variant >= 0 ? VARIANT_MAY_BE_NULL[t.variant]! : t.cls === null);
}

export const DATETIME_CONSTANT = typed("datetime", true);

/** A value the pass names no class, variant or alternatives for. */
export function isUntyped(t: Typed): boolean {
  return t.cls === null && t.variant < 0 && t.alternatives === undefined;
}

/** A result variant's Nullable form, where the pass has one. */
export const NULLABLE_VARIANT_OF: Readonly<Record<string, string>> = { date: "nullableDate" };

export const FLOAT64S_VARIANT = VARIANT_INDEX.get("float64s")!;
export const FLOAT32S_VARIANT = VARIANT_INDEX.get("float32s")!;

/** A number of a known class (Nullable or not), not a variant. */
export function isPlainNumber(t: Typed): boolean {
  return t.variant < 0 && t.cls !== null && ARRAY_FAMILIES[t.cls] === "number";
}
export const BOOLS_VARIANT = VARIANT_INDEX.get("bools")!;
export const UINT8S_VARIANT = VARIANT_INDEX.get("uint8s")!;

/** The number classes (a UInt8, a 64-bit integer, a float, a UInt32, a Bool). */
export const NUMBER_CLASSES: readonly Typed[] = ARGUMENT_CLASSES.filter((cls) => ARRAY_FAMILIES[cls] === "number").map((cls) => typed(cls, null));
export const NULLABLE_NUMBER_CLASSES: readonly Typed[] = NUMBER_CLASSES.map((t) => typed(t.cls, null, true));

/** The map variants: with the arrays, what has no common type with a NULL. */
export const MAP_VARIANT_AT: readonly boolean[] = VARIANTS.map((variant) => variantSamples(variant).every((sample) => sample.type.startsWith("Map(")));

/** An array, a map or an aggregate state, of a class or a variant: no Nullable of it exists. */
export function isContainer(t: Typed): boolean {
  return t.variant >= 0 ? ARRAY_VARIANT_AT[t.variant]! || MAP_VARIANT_AT[t.variant]! : t.cls !== null && (elementClass(t.cls) !== null || t.cls === "aggregateState");
}

export const IPV4_VARIANT = VARIANT_INDEX.get("nullableIPv4")!;
/** The IP variants (the entities store them Nullable). */
export const IPV6_VARIANT = VARIANT_INDEX.get("nullableIPv6")!;
export const IP_VARIANTS: ReadonlySet<number> = new Set([IPV4_VARIANT, IPV6_VARIANT]);

export function isArrayTyped(t: Typed): boolean {
  return t.cls !== null ? elementClass(t.cls) !== null : t.variant >= 0 && isArrayVariant(VARIANTS[t.variant]!);
}

/** The unsigned classes a UInt128 is the common type with (`greatest(0, item_id)`). */
const UNDER_UINT128: ReadonlySet<ArgumentClass | null> = new Set(["uint8", "uint32", "bool"]);

/**
 * `greatest(0, item_id, item_type)`: the common type of UInt128s and unsigned integers (none
 * Nullable) is a UInt128. With a signed integer it is an Int256, with a float none (code 43):
 * no type. An engine test holds it.
 */
export function uint128CommonType(types: readonly Typed[], constant: boolean | null): Typed | null {
  let wide = false;
  for (const t of types) {
    if (t.variant === UINT128_VARIANT) wide = true;
    // An integer of the int64 class known unsigned (a UInt16, a UInt64) widens too (`greatest(downsampled_retention_days, item_id)`; seed 15).
    else if (t.variant >= 0 || t.nullable || !(UNDER_UINT128.has(t.cls) || (t.cls === "int64" && integerShapeOf(t)?.signed === false))) return null;
  }
  return wide ? variantTyped(UINT128_VARIANT, constant) : null;
}
