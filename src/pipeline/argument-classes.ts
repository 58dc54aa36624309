/**
 * The argument classes the typing pass reasons with: eleven ClickHouse types that stand for the
 * values a query can pass a function. A column, literal or call is given a class only when its
 * type is certain; anything else (maps, tuples, dates, decimals, aggregate states, aliases,
 * computed columns) has none and is never refused. The table of what each function refuses
 * (probed-function-signatures.ts) was measured with one sample of each class.
 */

export const ARGUMENT_CLASSES = ["string", "uint8", "int64", "float64", "datetime", "arrayString", "arrayNumber", "uuid", "aggregateState", "uint32", "bool"] as const;

export type ArgumentClass = (typeof ARGUMENT_CLASSES)[number];

/** How a message names each class. */
export const CLASS_NAMES: Readonly<Record<ArgumentClass, string>> = {
  string: "a string",
  uint8: "a small integer (UInt8)",
  int64: "an integer",
  float64: "a float",
  datetime: "a datetime",
  arrayString: "an array of strings",
  arrayNumber: "an array of integers",
  uuid: "a UUID",
  aggregateState: "an aggregate state (AggregateFunction)",
  uint32: "an integer (UInt32)",
  bool: "a boolean (Bool)",
};

/**
 * How the probe (and the test that checks its table) writes each class: as a constant, and as
 * a column of that type in an empty table.
 */
export const CLASS_SAMPLES: Readonly<Record<ArgumentClass, { readonly constant: string; readonly column: string; readonly type: string }>> = {
  string: { constant: "'abc'", column: "c_string", type: "String" },
  uint8: { constant: "1", column: "c_uint8", type: "UInt8" },
  int64: { constant: "-5000000000", column: "c_int64", type: "Int64" },
  float64: { constant: "1.5", column: "c_float64", type: "Float64" },
  datetime: { constant: "toDateTime('2024-01-01 00:00:00', 'UTC')", column: "c_datetime", type: "DateTime('UTC')" },
  arrayString: { constant: "['a']", column: "c_array_string", type: "Array(String)" },
  arrayNumber: { constant: "[-5000000000]", column: "c_array_number", type: "Array(Int64)" },
  uuid: { constant: "toUUID('00000000-0000-0000-0000-000000000001')", column: "c_uuid", type: "UUID" },
  // One kind of state stands for all: functions other than -Merge treat every state alike, and
  // -Merge calls (which take only their own kind) are not judged on it (typing/judge.ts).
  aggregateState: { constant: "initializeAggregation('sumState', 1.5)", column: "c_aggregate_state", type: "AggregateFunction(sum, Float64)" },
  // UInt32 apart from the other integers: some functions take it alone among them (IPv4NumToString).
  uint32: { constant: "toUInt32(70000)", column: "c_uint32", type: "UInt32" },
  // TRUE and FALSE are Bool, which some functions take as a number and others do not (like, upper).
  bool: { constant: "true", column: "c_bool", type: "Bool" },
};

/**
 * Types that have no class, as the probe writes them: the types queries meet that the typing pass
 * cannot name. A refusal recorded as "robust" held with each of these beside it as well as with
 * every class, so the pass applies it even when another argument's type is unknown. NULL is not
 * among them: most functions answer NULL for a NULL argument without looking at the others, and
 * the pass never applies a robust refusal beside an argument that holds a NULL literal.
 */
export const OTHER_TYPE_SAMPLES: Readonly<Record<string, { readonly constant: string; readonly column: string; readonly type: string }>> = {
  date: { constant: "toDate('2024-01-01')", column: "o_date", type: "Date" },
  decimal: { constant: "toDecimal64(1.5, 4)", column: "o_decimal", type: "Decimal(18, 4)" },
  ipv4: { constant: "toIPv4('1.2.3.4')", column: "o_ipv4", type: "IPv4" },
  ipv6: { constant: "toIPv6('::1')", column: "o_ipv6", type: "IPv6" },
  map: { constant: "map('a', 'b')", column: "o_map", type: "Map(String, String)" },
  tuple: { constant: "tuple('a', 1)", column: "o_tuple", type: "Tuple(String, UInt8)" },
  arrayFloat: { constant: "[1.5]", column: "o_array_float", type: "Array(Float64)" },
  datetime64: { constant: "toDateTime64('2024-01-01 00:00:00', 3, 'UTC')", column: "o_datetime64", type: "DateTime64(3, 'UTC')" },
  nullableString: { constant: "toNullable('abc')", column: "o_nullable_string", type: "Nullable(String)" },
  // Arrays whose elements no array class names, as functions return them (`groupArray(timestamp)`):
  // `has(a, now())` takes a DateTime beside the first, so no refusal "beside any type" says otherwise.
  arrayDateTime: { constant: "[toDateTime('2024-01-01 00:00:00', 'UTC')]", column: "o_array_datetime", type: "Array(DateTime('UTC'))" },
  arrayUuid: { constant: "[toUUID('00000000-0000-0000-0000-000000000001')]", column: "o_array_uuid", type: "Array(UUID)" },
  arrayDate: { constant: "[toDate('2024-01-01')]", column: "o_array_date", type: "Array(Date)" },
};

/**
 * Array types the entities have that no class names, as the probe writes them: arrays of
 * Nullable values, of floats, of UUIDs (`exception_frames.in_app`, `measurements.value`). Each
 * is judged on its own refusals, probed at the positions where an array class is refused
 * (`countIf(exception_frames.module)`, `plus(1, measurements.value)`); beside it the other
 * arguments are judged as beside a type without a class. A test holds the entities' array
 * types to this list.
 */
export const ARRAY_VARIANT_SAMPLES: Readonly<Record<string, { readonly constant: string; readonly column: string; readonly type: string }>> = {
  nullableStrings: { constant: "CAST(['a'] AS Array(Nullable(String)))", column: "v_nullable_strings", type: "Array(Nullable(String))" },
  nullableUInt8: { constant: "CAST([1] AS Array(Nullable(UInt8)))", column: "v_nullable_uint8", type: "Array(Nullable(UInt8))" },
  nullableUInt16: { constant: "CAST([1] AS Array(Nullable(UInt16)))", column: "v_nullable_uint16", type: "Array(Nullable(UInt16))" },
  nullableUInt32: { constant: "CAST([1] AS Array(Nullable(UInt32)))", column: "v_nullable_uint32", type: "Array(Nullable(UInt32))" },
  float64s: { constant: "CAST([1.5] AS Array(Float64))", column: "v_float64s", type: "Array(Float64)" },
  float32s: { constant: "CAST([1.5] AS Array(Float32))", column: "v_float32s", type: "Array(Float32)" },
  uuids: { constant: "CAST(['00000000-0000-0000-0000-000000000001'] AS Array(UUID))", column: "v_uuids", type: "Array(UUID)" },
  // Not stored by any entity, but what `array(...)` of small integers and `groupArray` of
  // UInt8s and DateTimes return (`array(startsWith(a, b))`, `groupUniqArray(timestamp)`).
  uint8s: { constant: "CAST([1] AS Array(UInt8))", column: "v_uint8s", type: "Array(UInt8)" },
  // What `array(...)` of Bools (or of a Bool first beside UInt8s: `array(FALSE, 2)`) and
  // `groupArray` of Bools return. Not an Array(UInt8): the engine finds no common type of its
  // elements and strings (`array(FALSE, 2) = array('a')` is code 43), where a Bool alone reads one.
  bools: { constant: "CAST([true] AS Array(Bool))", column: "v_bools", type: "Array(Bool)" },
  datetimes: { constant: "CAST([toDateTime('2024-01-01 00:00:00', 'UTC')] AS Array(DateTime('UTC')))", column: "v_datetimes", type: "Array(DateTime('UTC'))" },
};

export type ArrayVariant = keyof typeof ARRAY_VARIANT_SAMPLES;

/** The array variants in a fixed order (the first of VARIANTS). */
export const ARRAY_VARIANTS: readonly ArrayVariant[] = Object.keys(ARRAY_VARIANT_SAMPLES);

const VARIANT_OF_TYPE: ReadonlyMap<string, ArrayVariant> = new Map(Object.entries(ARRAY_VARIANT_SAMPLES).map(([variant, sample]) => [sample.type, variant]));

/** The array variant a type is (as `formatClickHouseType` writes it; an Array(DateTime) in any time zone), else null. */
export function arrayVariantOfTypeName(typeName: string): ArrayVariant | null {
  const type = typeName.trim();
  return VARIANT_OF_TYPE.get(type) ?? (/^Array\(DateTime(?:\('[^']*'\))?\)$/.test(type) ? "datetimes" : null);
}

/**
 * Types without a class that queries meet and that are judged as a whole: tuples a query builds
 * (`tuple(a, b)`), the EAP entity's maps, its UInt128 ids, the Nullable IPs and DateTime64s of
 * the events entities, Dates, and two kinds of array (a Nested column read whole, a mixed
 * array). Each is judged on its own refusals, as an array variant is. A variant with several
 * samples is refused only where the engine refused every one of them: a tuple of numbers takes
 * arithmetic a tuple with a string does not, a tuple of strings is a set `title IN` takes.
 * `prefix`: a variant that stands for a family of types is every type that starts so (its
 * samples are a few of them); the others are exactly their one sample's type. `array`: the
 * variant is an array, whose elements have no class.
 */
export const SCALAR_VARIANT_SAMPLES: Readonly<
  Record<string, { readonly what: string; readonly prefix?: string; readonly array?: true; readonly samples: readonly { readonly constant: string; readonly column: string; readonly type: string }[] }>
> = {
  tuple: {
    what: "a tuple",
    prefix: "Tuple(",
    samples: [
      { constant: "tuple('a', 1)", column: "s_tuple_mixed", type: "Tuple(String, UInt8)" },
      { constant: "tuple(1, 2)", column: "s_tuple_numbers", type: "Tuple(UInt8, UInt8)" },
      { constant: "tuple('a', 'b')", column: "s_tuple_strings", type: "Tuple(String, String)" },
    ],
  },
  mapStrings: { what: "a Map(String, String)", samples: [{ constant: "map('a', 'b')", column: "s_map_strings", type: "Map(String, String)" }] },
  mapFloats: { what: "a Map(String, Float64)", samples: [{ constant: "CAST(map('a', 1.5) AS Map(String, Float64))", column: "s_map_floats", type: "Map(String, Float64)" }] },
  mapInts: { what: "a Map(String, Int64)", samples: [{ constant: "CAST(map('a', 1) AS Map(String, Int64))", column: "s_map_ints", type: "Map(String, Int64)" }] },
  mapBools: { what: "a Map(String, Bool)", samples: [{ constant: "CAST(map('a', true) AS Map(String, Bool))", column: "s_map_bools", type: "Map(String, Bool)" }] },
  uint128: { what: "a UInt128", samples: [{ constant: "toUInt128(1)", column: "s_uint128", type: "UInt128" }] },
  nullableIPv4: { what: "an IPv4 (Nullable)", samples: [{ constant: "toNullable(toIPv4('1.2.3.4'))", column: "s_nullable_ipv4", type: "Nullable(IPv4)" }] },
  nullableIPv6: { what: "an IPv6 (Nullable)", samples: [{ constant: "toNullable(toIPv6('::1'))", column: "s_nullable_ipv6", type: "Nullable(IPv6)" }] },
  nullableDateTime64: { what: "a DateTime64 (Nullable)", samples: [{ constant: "toNullable(toDateTime64('2024-01-01 00:00:00', 3))", column: "s_nullable_datetime64", type: "Nullable(DateTime64(3))" }] },
  // No entity stores one, but functions return it (`toDate(timestamp)`, `toMonday(...)`): see `resultVariant`.
  date: { what: "a Date", samples: [{ constant: "toDate('2024-01-01')", column: "s_date", type: "Date" }] },
  // What those return for a Nullable argument (`toDate(received)` on a Nullable(DateTime)).
  nullableDate: { what: "a Date (Nullable)", samples: [{ constant: "toNullable(toDate('2024-01-01'))", column: "s_nullable_date", type: "Nullable(Date)" }] },
  // A Nested column read whole (`tags`, `contexts`, `measurements`, `exception_stacks`): an
  // array of named tuples, whatever its fields. An array, but judged as a whole like the types
  // above, in the shapes the entities have (string pairs, a float value, the metrics' three
  // fields, Nullable fields); its elements have no class.
  nested: {
    what: "an array of tuples (as a Nested column read whole is)",
    prefix: "Array(Tuple(",
    array: true,
    samples: [
      { constant: "CAST([('a', 'b')] AS Array(Tuple(key String, value String)))", column: "s_nested_strings", type: "Array(Tuple(key String, value String))" },
      { constant: "CAST([('a', 1.5)] AS Array(Tuple(key String, value Float64)))", column: "s_nested_float", type: "Array(Tuple(key String, value Float64))" },
      { constant: "CAST([(1, 2, 'a')] AS Array(Tuple(key UInt64, indexed_value UInt64, raw_value String)))", column: "s_nested_metric_tags", type: "Array(Tuple(key UInt64, indexed_value UInt64, raw_value String))" },
      { constant: "CAST([(NULL, 1)] AS Array(Tuple(type Nullable(String), handled Nullable(UInt8))))", column: "s_nested_nullable", type: "Array(Tuple(type Nullable(String), handled Nullable(UInt8)))" },
    ],
  },
  // `array(...)` of elements with no common type (a string and a number, a DateTime and a
  // string, ...): the engine makes an array of a Variant of them (`use_variant_as_common_type`
  // is on in chDB), where ClickHouse servers by default refuse the array itself. Judged as a
  // whole like a Nested column; its elements have no class.
  mixedArray: {
    what: "an array of mixed types (an Array(Variant(...)))",
    prefix: "Array(Variant(",
    array: true,
    samples: [
      { constant: "array('a', 1)", column: "s_mixed_string_number", type: "Array(Variant(String, UInt8))" },
      { constant: "array(toDateTime('2024-01-01 00:00:00', 'UTC'), 1)", column: "s_mixed_datetime_number", type: "Array(Variant(DateTime, UInt8))" },
      { constant: "array(toDateTime('2024-01-01 00:00:00', 'UTC'), 'a')", column: "s_mixed_datetime_string", type: "Array(Variant(DateTime, String))" },
      { constant: "array(toUUID('00000000-0000-0000-0000-000000000001'), 'a')", column: "s_mixed_string_uuid", type: "Array(Variant(String, UUID))" },
    ],
  },
  // An `if` or `multiIf` whose branches have no common type (`if(c, now(), 3)`, `if(c, tags.key,
  // 'a')`): the engine makes a Variant of them, which aggregates such as `max` and `argMin`'s key
  // refuse outright. Each sample holds a NULL: the engine applies most functions to each
  // alternative the rows hold, so a value would add refusals that only rows of that alternative
  // make; with none, only what the engine refuses on the type alone is learnt.
  mixed: {
    what: "a value of mixed types (a Variant: its branches have no common type)",
    prefix: "Variant(",
    samples: [
      { constant: "CAST(NULL AS Variant(String, UInt8))", column: "s_variant_string_number", type: "Variant(String, UInt8)" },
      { constant: "CAST(NULL AS Variant(DateTime('UTC'), UInt8))", column: "s_variant_datetime_number", type: "Variant(DateTime('UTC'), UInt8)" },
      { constant: "CAST(NULL AS Variant(DateTime('UTC'), String))", column: "s_variant_datetime_string", type: "Variant(DateTime('UTC'), String)" },
      { constant: "CAST(NULL AS Variant(String, UUID))", column: "s_variant_string_uuid", type: "Variant(String, UUID)" },
      { constant: "CAST(NULL AS Variant(Array(UInt8), DateTime('UTC')))", column: "s_variant_array_datetime", type: "Variant(Array(UInt8), DateTime('UTC'))" },
      { constant: "CAST(NULL AS Variant(Array(String), Array(UInt8)))", column: "s_variant_arrays", type: "Variant(Array(String), Array(UInt8))" },
    ],
  },
};

/**
 * Every variant in a fixed order, the array variants first: the pass refers to them by index,
 * and the probe's table by name (never a class's name: a test holds them apart).
 */
export const VARIANTS: readonly string[] = [...ARRAY_VARIANTS, ...Object.keys(SCALAR_VARIANT_SAMPLES)];

/** A variant's samples: an array variant has one, a scalar variant one or more. */
export function variantSamples(variant: string): readonly { readonly constant: string; readonly column: string; readonly type: string }[] {
  const array = ARRAY_VARIANT_SAMPLES[variant];
  return array ? [array] : (SCALAR_VARIANT_SAMPLES[variant]?.samples ?? []);
}

/** How a message names a variant's type: "an Array(Float64)", "a tuple". */
export function variantWhat(variant: string): string {
  const array = ARRAY_VARIANT_SAMPLES[variant];
  // An Array(DateTime) in any time zone (the sample's is UTC).
  return array ? `an ${array.type.replace(/DateTime\('[^']*'\)/, "DateTime")}` : SCALAR_VARIANT_SAMPLES[variant]!.what;
}

const SCALAR_VARIANT_OF_TYPE: ReadonlyMap<string, string> = new Map(
  Object.entries(SCALAR_VARIANT_SAMPLES)
    .filter(([, { prefix }]) => prefix === undefined)
    .map(([variant, { samples }]) => [samples[0]!.type, variant]),
);

const VARIANT_PREFIXES: readonly (readonly [string, string])[] = Object.entries(SCALAR_VARIANT_SAMPLES).flatMap(([variant, { prefix }]) => (prefix === undefined ? [] : [[prefix, variant] as const]));

/** Whether a variant is an array (its elements have no class): the array variants, a Nested column read whole, a mixed array. */
export function isArrayVariant(variant: string): boolean {
  return ARRAY_VARIANT_SAMPLES[variant] !== undefined || SCALAR_VARIANT_SAMPLES[variant]?.array === true;
}

/** The variant a type is (as `formatClickHouseType` writes it): an array variant, a tuple type, an array of tuples or of a Variant, or a scalar variant's type; else null. */
export function variantOfTypeName(typeName: string): string | null {
  const type = typeName.trim();
  for (const [prefix, variant] of VARIANT_PREFIXES) if (type.startsWith(prefix)) return variant;
  return arrayVariantOfTypeName(type) ?? SCALAR_VARIANT_OF_TYPE.get(type) ?? null;
}

/**
 * The functions whose result is their argument's type (a `from` result rule) but without the
 * NULLs it may hold: `assumeNotNull` and `coalesce` of a Nullable(IPv4) are an IPv4,
 * `arrayDistinct` of an Array(Nullable(String)) drops its NULLs.
 */
const STRIPS_NULLS: ReadonlySet<string> = new Set(["assumeNotNull", "coalesce", "ifNull", "arrayDistinct", "arrayIntersect"]);

/**
 * Whether a call of `name` whose result is its argument's type (a `from` result rule: `any(x)`,
 * `arrayReverse(x)`) returns this variant when given it. Never a Variant, whose alternatives the
 * engine applies such functions to one by one; a variant holding NULLs unless the function
 * strips them (STRIPS_NULLS). An engine test calls each such function with every variant.
 */
export function variantKeptByResult(name: string, variant: string): boolean {
  const samples = variantSamples(variant);
  if (samples.some((sample) => sample.type.startsWith("Variant("))) return false;
  return !STRIPS_NULLS.has(name) || samples.every((sample) => !sample.type.includes("Nullable("));
}

/** The classes a Nullable type can wrap (arrays and aggregate states cannot be Nullable). */
export const NULLABLE_CLASSES: readonly ArgumentClass[] = ["string", "uint8", "int64", "float64", "datetime", "uuid", "uint32", "bool"];

/** A class's sample wrapped in Nullable, for the refusals that also hold on Nullable arguments. */
export function nullableSample(cls: ArgumentClass): { readonly constant: string; readonly column: string; readonly type: string } | null {
  if (!NULLABLE_CLASSES.includes(cls)) return null;
  const plain = CLASS_SAMPLES[cls];
  return { constant: `toNullable(${plain.constant})`, column: `n_${cls}`, type: `Nullable(${plain.type})` };
}

/**
 * The probe's table of one row (and the test's that checks the table): each column holds its
 * sample's constant, never a NULL, so that a call over columns is computed as well as analysed.
 * `probe`, of the same columns, stays empty: a call over it is only analysed.
 */
export const PROBE_ROW_TABLE = "probe_row";

/** The statements that make the two probe tables (`probe`, empty, and PROBE_ROW_TABLE) of a column per sample. */
export function probeTableStatements(samples: readonly { readonly constant: string; readonly column: string; readonly type: string }[]): string[] {
  const columns = samples.map((sample) => `${sample.column} ${sample.type}`).join(", ");
  return [
    `CREATE TABLE probe (${columns}) ENGINE = Memory`,
    `CREATE TABLE ${PROBE_ROW_TABLE} (${columns}) ENGINE = Memory`,
    `INSERT INTO ${PROBE_ROW_TABLE} (${samples.map((sample) => sample.column).join(", ")}) SELECT ${samples.map((sample) => sample.constant).join(", ")}`,
  ];
}

/**
 * How a call's arguments are written: all constants, all columns, or, for two arguments, one of
 * each (ClickHouse converts a constant to a column's type where it would refuse two columns).
 */
export type CallForm = "constant" | "column" | "constantColumn" | "columnConstant";

/** Per form: all constants and all columns always; the mixed forms for two-argument calls. */
export type ByForm<T> = { readonly constant: T; readonly column: T } & { readonly [form in "constantColumn" | "columnConstant"]?: T };

/** What the probe learnt of one argument count: refused outright, probed (classes known), or unknown (no sample fitted). */
export type ArgumentCount = "refused" | "probed" | "unknown";

/**
 * How a call's result class follows its arguments', as every accepted probe call showed:
 * - `from`: the class of that argument (`any(x)`);
 * - `elementOf`: the class of that array argument's elements (`arrayElement(a, i)`);
 * - `agreeing`: the class of those two arguments when they have the same one (`if(c, a, b)`);
 * - `arrayOf`: an array of that argument's type (`groupArray(x)`, `topK(x)`).
 */
export type ResultRule = { readonly from: number } | { readonly elementOf: number } | { readonly agreeing: readonly [number, number] } | { readonly arrayOf: number };

/** Per allowed function, what the engine refused when probed (see the probe script). */
export interface ProbedSignature {
  /** Per argument count (0 to 4; counts above are never judged). */
  readonly counts: Readonly<Partial<Record<number, ArgumentCount>>>;
  /**
   * Per probed argument count, per position: the classes refused there whatever the other
   * arguments, when every argument is a constant and when every argument is a column (the
   * engine refuses some columns where it takes constants, and the other way round).
   */
  readonly refused: Readonly<Partial<Record<number, ByForm<readonly (readonly ArgumentClass[])[]>>>>;
  /**
   * Per probed argument count from 2: the refusals above that also held with each other position
   * taking a type without a class (OTHER_TYPE_SAMPLES), as constants and as columns.
   */
  readonly robust: Readonly<Partial<Record<number, { readonly constant: readonly (readonly ArgumentClass[])[]; readonly column: readonly (readonly ArgumentClass[])[] }>>>;
  /** Per probed argument count from 2: the robust refusals that also held with a NULL at each other position. */
  readonly besideNull: Readonly<Partial<Record<number, { readonly constant: readonly (readonly ArgumentClass[])[]; readonly column: readonly (readonly ArgumentClass[])[] }>>>;
  /**
   * Per probed argument count: the refusals that also held with the argument Nullable (the
   * others as in an accepted call). The engine takes some Nullable arguments it refuses plain.
   */
  readonly nullable: Readonly<Partial<Record<number, { readonly constant: readonly (readonly ArgumentClass[])[]; readonly column: readonly (readonly ArgumentClass[])[] }>>>;
  /**
   * Per probed argument count from 2: the Nullable refusals above that also held with a NULL at
   * each other position (the rest as in an accepted call).
   */
  readonly nullableBesideNull: Readonly<Partial<Record<number, { readonly constant: readonly (readonly ArgumentClass[])[]; readonly column: readonly (readonly ArgumentClass[])[] }>>>;
  /**
   * Per probed argument count: pairs of classes each taken at its position but refused together
   * ("i j classI classJ", positions from 0), as constants and as columns.
   */
  readonly pairs: Readonly<Partial<Record<number, ByForm<readonly string[]>>>>;
  /** Per probed argument count: how the result's class follows the arguments' (when no `result`). */
  readonly results: Readonly<Partial<Record<number, ResultRule>>>;
  /** Takes a lambda before its arrays (the higher-order array functions). */
  readonly lambda: boolean;
  /** Takes a lambda with no array after it. */
  readonly lambdaAlone: boolean;
  /**
   * For a function that takes a lambda, per number of arguments after it (1 or 2, the lambda
   * taking as many parameters): the classes refused at each of those positions, as constants
   * and as columns, whatever the lambda's body.
   */
  readonly afterLambda: Readonly<Partial<Record<number, { readonly constant: readonly (readonly ArgumentClass[])[]; readonly column: readonly (readonly ArgumentClass[])[] }>>>;
  /**
   * For a function that takes a lambda: the classes it refuses the lambda to return, a constant
   * or a column alike (`arrayFilter(x -> now(), a)`: a filter's lambda returns a UInt8).
   */
  readonly lambdaBodyRefused: readonly ArgumentClass[];
  /** The result's class, when every accepted call gave the same one. */
  readonly result: ArgumentClass | null;
  /**
   * Per probed argument count: the positions where a NULL is refused (a type error whatever the
   * other arguments, as `has(NULL, 'x')` is: its first argument must be an array).
   */
  readonly nullRefused: Readonly<Partial<Record<number, readonly number[]>>>;
  /**
   * Per number of parameters (0 to MAX_CURRIED_PARAMETERS) in a curried call
   * (`quantiles(0.5, 0.9)(duration)`): "refused" when every call with that many failed on the
   * parameters or the count whatever the arguments (`quantiles()(x)`, `sum(1)(x)`), else the
   * argument counts (0 to 4) refused with them (`topK(5)(a, b)`). Only what differs from taking
   * every count is written.
   */
  readonly curried: Readonly<Partial<Record<number, "refused" | readonly number[]>>>;
  /**
   * The probed argument counts where a Nullable argument makes the result Nullable(the plain
   * call's result), whichever argument it is (ClickHouse's default for most functions:
   * `concat(email, 'x')` is Nullable(String) when `email` is). Elsewhere (`if` with a Nullable
   * condition, `ifNull`) the result of a call with a Nullable argument has no class.
   */
  readonly nullableResults: readonly number[];
  /** The probed argument counts where a Nullable argument leaves the result as the plain call's (`ifNull(user, 'x')` is a String). */
  readonly plainResults: readonly number[];
  /**
   * Per probed argument count, per position: the variants (VARIANTS) refused there, as constants
   * and as columns, the other arguments as in an accepted call. An array variant is tried where
   * an array class is refused (for two or more arguments, robustly); a scalar variant where any
   * class is, and for two or more arguments it must also have been refused with each other
   * position taking each type without a class and each of its own samples (`tuple(1, 2) +
   * tuple(3, 4)` is taken).
   */
  readonly variants: Readonly<Partial<Record<number, { readonly constant: readonly (readonly string[])[]; readonly column: readonly (readonly string[])[] }>>>;
  /**
   * Per probed argument count from 2: the variants of `variants` still refused, with every
   * sample, with a NULL at each other position in turn, as `besideNull` is for classes
   * (`multiIf(spans.exclusive_time_32, NULL, 1)`: a condition is a UInt8 whatever the branches).
   */
  readonly variantsBesideNull: ProbedSignature["variants"];
  /**
   * Per probed argument count: the refused pairs (as in `pairs`) still refused with one of the
   * two Nullable, "i j classI classJ n" with n the Nullable one's position, or with both, "i j
   * classI classJ both", the other arguments as in an accepted call (`trace_sampled <=
   * event_id`: Nullable(UInt8) and UUID).
   */
  readonly nullablePairs: Readonly<Partial<Record<number, ByForm<readonly string[]>>>>;
  /**
   * Per probed argument count: the refused pairs still refused with a variant in place of one of
   * the two classes (an array variant in place of an array class, a scalar variant in place of
   * any), "i j first second" with the variant's name for that class, the other arguments as in
   * an accepted call (`has(spans.exclusive_time_32, 'x')`, `tuple(1, 'a') = 5`); "i j first
   * second n" where it was still refused with the class at position n Nullable
   * (`ip_address_v6 > exception_main_thread`: Nullable(IPv6) and Nullable(UInt8)).
   */
  readonly variantPairs: Readonly<Partial<Record<number, ByForm<readonly string[]>>>>;
  /**
   * Per probed argument count from 3: the refused pairs (as in `pairs`) still refused with each
   * other position taking, in turn, each type without a class and a NULL (`greatest('x', 1, c)`:
   * no common type whatever c is).
   */
  readonly robustPairs: Readonly<Partial<Record<number, ByForm<readonly string[]>>>>;
  /**
   * Per argument count up to 2 without a result rule (`results`), for a function whose results
   * have more than one class: per result class, the tuples of argument classes ("a b") every
   * accepted call of which gave it (`divide` of two numbers is a Float64: "uint8 int64", ...).
   */
  readonly classResults: Readonly<Partial<Record<number, Readonly<Partial<Record<ArgumentClass, readonly string[]>>>>>>;
  /**
   * The variant every accepted call's result was, exactly, when no class fits it
   * (`toDate(x)` is a Date whatever x's class): the result of a call whose arguments all have
   * a plain class, at a probed count, is judged as that variant.
   */
  readonly resultVariant: string | null;
}

/**
 * A call whose result class is fixed (`result`) and which a Nullable argument leaves plain
 * (`plainResults`): count, uniq, isNull, ... A NULL argument leaves it plain too (`count(NULL)`
 * is a UInt64, not Nullable(Nothing)), or the engine refuses the call (`has(NULL, 1)`); the
 * signatures test holds the engine to that.
 */
export function keepsPlainResult(signature: ProbedSignature | undefined, count: number): signature is ProbedSignature & { readonly result: ArgumentClass } {
  return signature !== undefined && signature.result !== null && signature.plainResults.includes(count) && !signature.nullableResults.includes(count);
}

/** Argument counts the probe checks for being refused (more are never judged). */
export const MAX_COUNTED_ARGUMENTS = 4;

/** Parameter counts of curried calls the probe tried (more are never judged). */
export const MAX_CURRIED_PARAMETERS = 3;

/** 0, 1, ..., max: the counts a message lists. */
export function countsUpTo(max: number, from = 0): number[] {
  return Array.from({ length: max - from + 1 }, (_, i) => from + i);
}

/** Allowed functions the probe leaves out (none now: `tuple` is probed for its lambdas). */
export const UNPROBED_FUNCTIONS: ReadonlySet<string> = new Set<string>();

/** The class a Nullable type wraps (`Nullable(String)`, `LowCardinality(Nullable(String))`), else null. */
export function nullableClassOfTypeName(typeName: string): ArgumentClass | null {
  let type = typeName.trim();
  for (let match = WRAPPER.exec(type); match; match = WRAPPER.exec(type)) type = match[1]!;
  const inner = /^Nullable\((.*)\)$/.exec(type)?.[1];
  if (inner === undefined) return null;
  const cls = classOfTypeName(inner);
  return cls !== null && NULLABLE_CLASSES.includes(cls) ? cls : null;
}

/** The class of an array class's elements (Array(Int64)'s are Int64), else null. */
export function elementClass(cls: ArgumentClass | null): ArgumentClass | null {
  return cls === "arrayString" ? "string" : cls === "arrayNumber" ? "int64" : null;
}

const WRAPPER = /^LowCardinality\((.*)\)$/;

/**
 * The class of a ClickHouse type name, or null when it has none. LowCardinality wraps a class
 * without changing it. Nullable has none: the engine takes some calls on a Nullable column that
 * it refuses on the plain type (`100 = nullable_string` analyses, `100 = string` is code 386).
 */
export function classOfTypeName(typeName: string): ArgumentClass | null {
  let type = typeName.trim();
  for (let match = WRAPPER.exec(type); match; match = WRAPPER.exec(type)) type = match[1]!;
  if (type === "String" || /^FixedString\(\d+\)$/.test(type)) return "string";
  if (type === "UInt8") return "uint8";
  if (type === "UInt32") return "uint32";
  if (type === "Bool") return "bool";
  if (/^(?:Int(?:8|16|32|64)|UInt(?:16|64))$/.test(type)) return "int64";
  if (type === "Float32" || type === "Float64") return "float64";
  if (type === "DateTime" || /^DateTime\('[^']*'\)$/.test(type)) return "datetime";
  if (type === "UUID") return "uuid";
  if (type.startsWith("AggregateFunction(")) return "aggregateState";
  const element = /^Array\((.*)\)$/.exec(type)?.[1];
  if (element !== undefined) {
    const inner = classOfTypeName(element);
    if (inner === "string") return "arrayString";
    if (inner === "int64") return "arrayNumber";
  }
  return null;
}
