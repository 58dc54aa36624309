/**
 * The part of the typing pass that looks inside expressions: every function call's argument
 * count and argument types are judged against what the engine itself refuses
 * (probed-function-signatures.ts, measured on the embedded engine), so a call ClickHouse would
 * refuse with a type error (code 43) or a wrong argument count (42) is an `invalid_query` at
 * the argument's position instead.
 *
 * Conservative by construction: an argument is given a class only when its type is certain
 * (a literal, a column of a plain type, a call whose result class is known, an alias of one of
 * these), and a call's classes are judged only when every argument has one — the probe's
 * refusals hold "whatever the other arguments", but only among the classes it tried. A query
 * this lets through may still fail in ClickHouse; one it refuses would have.
 */
import type { TextPosition } from "../errors/query-service-error.js";
import { atPosition as at, invalidQuery, QueryServiceError } from "../errors/query-service-error.js";
import type { EntityDefinition, FunctionMapper } from "../datasets/definition-types.js";
import { formatClickHouseType, parseClickHouseType } from "../datasets/clickhouse-type.js";
import { memoizePerDefinition } from "../query/memoize-per-definition.js";
import { queryExpressions, type Expression, type LogicalQuery } from "../query/ast.js";
import { ARGUMENT_CLASSES, ARRAY_VARIANT_SAMPLES, ARRAY_VARIANTS, CLASS_NAMES, MAX_COUNTED_ARGUMENTS, MAX_CURRIED_PARAMETERS, NULLABLE_CLASSES, countsUpTo, classOfTypeName, elementClass, keepsPlainResult, nullableClassOfTypeName, variantOfTypeName, isArrayVariant, VARIANTS, variantKeptByResult, variantWhat, variantSamples, type ArgumentClass, type CallForm, type ProbedSignature } from "./argument-classes.js";
import { PROBED_FUNCTION_SIGNATURES } from "./probed-function-signatures.js";
import { comparedByElements, comparesElements, elementComparison, type ElementComparison } from "./snql-array-conditions.js";
import { STRING_READ_AS, TEXT_CONVERSIONS, constantText, unreadableAsComparedDateTime, type ColumnTexts, type StringReading } from "./literal-texts.js";
import { parameterProblem } from "./aggregate-parameters.js";
import { DATETIME_DIFFERENCE, FIXED_INTEGER_RESULTS, UINT32_SHAPE, UINT8_SHAPE, commonTypeProblem, integerArithmetic, integerCommonType, integerOfOne, integerShapeOfLiteral, integerShapeOfTypeName, integerTypeName, type IntegerShape, type NumberShape } from "./integer-types.js";
import { nullColumns } from "./null-columns.js";
import { aggregateColumns } from "./aggregate-columns.js";
import { AGGREGATE_FUNCTIONS } from "../clickhouse/function-allow-list.js";
import { DATE_BUCKET_GRANULARITY } from "../clickhouse/expression-printer.js";

type EntityOf = (entityAlias: string | undefined) => EntityDefinition | undefined;

/** How the operators a query writes are named in messages (`plus (+)`). */
const OPERATOR_SYMBOLS: Readonly<Record<string, string>> = {
  plus: "+", minus: "-", multiply: "*", divide: "/", equals: "=", notEquals: "!=", less: "<", greater: ">",
  lessOrEquals: "<=", greaterOrEquals: ">=", like: "LIKE", notLike: "NOT LIKE", in: "IN", notIn: "NOT IN", and: "AND", or: "OR",
};

/** The names of an entity's columns as the storage holds them: its columns, and each Nested column's sub-columns (`tags.key`). */
const storedColumnNames = memoizePerDefinition((entity: EntityDefinition): ReadonlySet<string> => {
  const names = new Set<string>();
  for (const column of entity.columns) {
    names.add(column.name);
    const type = parseClickHouseType(column.type);
    if (type.kind === "nested") for (const field of type.fields) names.add(`${column.name}.${field.name}`);
  }
  return names;
});

/** Column name -> its type as a column, from the entity's column types (Nested sub-columns are arrays). */
const columnTypes = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, Typed> => {
  const classes = new Map<string, Typed>();
  for (const column of entity.columns) {
    const type = parseClickHouseType(column.type);
    if (type.kind === "nested") {
      // Read whole (`tags`), an array of tuples.
      classes.set(column.name, variantTyped(NESTED_VARIANT, false));
      for (const field of type.fields) {
        const typeName = `Array(${formatClickHouseType(field.type)})`;
        const cls = classOfTypeName(typeName);
        const variant = cls ? undefined : variantColumn(typeName);
        if (cls) classes.set(`${column.name}.${field.name}`, classTyped(cls, typeName, false));
        else if (variant) classes.set(`${column.name}.${field.name}`, variant);
      }
      continue;
    }
    const cls = classOfTypeName(column.type);
    const variant = cls ? undefined : variantColumn(formatClickHouseType(type));
    if (cls) classes.set(column.name, classTyped(cls, column.type, false));
    else if (variant) classes.set(column.name, variant);
    const wrapped = nullableClassOfTypeName(column.type);
    if (wrapped) classes.set(column.name, classTyped(wrapped, column.type, false, true));
  }
  // A column mapped to an expression has its declared type: a test holds every declared type
  // to the engine's type of what the storage computes (test/pipeline/column-types.test.ts). One
  // mapped to another of the entity's columns has that column's type (`spans.exclusive_time` is
  // read from `spans.exclusive_time_32`, an Array(Float32)). A literal is the literal's type, a
  // constant.
  for (const [name, mapper] of Object.entries(entity.columnMappers)) {
    if (mapper.kind === "column") {
      const target = classes.get(mapper.column);
      if (target) classes.set(name, target);
      continue;
    }
    if (mapper.kind !== "literal") continue;
    const cls = literalClass(mapper.value);
    if (cls) classes.set(name, typed(cls, true));
    else classes.delete(name);
  }
  return classes;
});

/** Subscriptable name -> the type of one of its values (`tags[k]` is a String, `measurements[k]` a Nullable(Float64)). */
const subscriptTypes = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, Typed> => {
  const types = new Map<string, Typed>();
  for (const [name, definition] of Object.entries(entity.subscriptables)) {
    if (definition.valueType === undefined) continue;
    const cls = classOfTypeName(definition.valueType);
    const wrapped = cls ? null : nullableClassOfTypeName(definition.valueType);
    if (cls || wrapped) types.set(name, classTyped((cls ?? wrapped)!, definition.valueType, false, wrapped !== null));
  }
  return types;
});


/** A value of a type name's class: of the integer class, with its exact type (`Int32`). */
function classTyped(cls: ArgumentClass, typeName: string, constant: boolean | null, nullable = false): Typed {
  if (cls === "arrayNumber") {
    const element = /^Array\((.*)\)$/.exec(typeName.trim())?.[1];
    const elementInteger = element === undefined ? null : integerShapeOfTypeName(element);
    return elementInteger !== null ? { ...typed(cls, constant, nullable), elementInteger } : typed(cls, constant, nullable);
  }
  if (cls === "aggregateState") return { ...typed(cls, constant, nullable), state: typeName.replace(/\s+/g, "") };
  const integer = cls === "int64" ? integerShapeOfTypeName(typeName) : null;
  return integer !== null ? integerTyped(integer, constant, nullable) : typed(cls, constant, nullable);
}

/** What the walk asks of an entity, gathered once per definition (one lookup per query and entity). */
interface EntityFacts {
  /** Column name -> its type as a column (absent: no class). */
  readonly columns: ReadonlyMap<string, Typed>;
  /** Subscriptable name -> the type of one value (absent: no class). */
  readonly subscripts: ReadonlyMap<string, Typed>;
  readonly functionMappers: EntityDefinition["functionMappers"];
  /** Columns the storage computes as a bare NULL (type Nullable(Nothing)). */
  readonly nullColumns: ReadonlySet<string>;
  /** Columns the storage computes with an aggregate (`sessions` is `sumMerge(sessions_state)`): never in WHERE. */
  readonly aggregateColumns: ReadonlyMap<string, string>;
}

const entityFacts = memoizePerDefinition(
  (entity: EntityDefinition): EntityFacts => ({
    columns: columnTypes(entity),
    subscripts: subscriptTypes(entity),
    functionMappers: entity.functionMappers,
    nullColumns: nullColumns(entity),
    aggregateColumns: aggregateColumns(entity),
  }),
);

/** Nested subscriptables with string values and string keys (`tags`, `contexts`; not `measurements`, not metrics tags). */
export const stringSubscriptables = memoizePerDefinition((entity: EntityDefinition): ReadonlySet<string> => {
  const names = new Set<string>();
  for (const [name, type] of subscriptTypes(entity)) {
    const definition = entity.subscriptables[name]!;
    if (definition.kind === "nested" && !definition.integerKeys && type.cls === "string") names.add(name);
  }
  return names;
});

/**
 * The class of a literal as ClickHouse types it: the smallest integer type that holds it
 * (0..255 is UInt8, 256..65535 UInt16, -1 Int8, ...), a float otherwise.
 */
function literalClass(value: unknown): ArgumentClass | null {
  if (typeof value === "string") return "string";
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

interface Typed {
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
const CLASS_INDEX: ReadonlyMap<ArgumentClass, number> = new Map(ARGUMENT_CLASSES.map((cls, index) => [cls, index]));

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
function constnessIndex(constant: boolean | null): number {
  return constant === true ? 0 : constant === false ? 1 : 2;
}

function typed(cls: ArgumentClass | null, constant: boolean | null, nullable = false): Typed {
  return TYPED.get(cls)![(nullable ? 3 : 0) + (constnessIndex(constant))]!;
}
const UNKNOWN = typed(null, null);

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
function integerTyped(integer: IntegerShape, constant: boolean | null, nullable = false): Typed {
  if (integer === UINT8_SHAPE) return typed("uint8", constant, nullable);
  if (integer === UINT32_SHAPE) return typed("uint32", constant, nullable);
  return INTEGER_TYPED.get(integer)![(nullable ? 3 : 0) + constnessIndex(constant)]!;
}

/** The exact integer type of a plain-class integer (a Bool is a UInt8), or null where the pass does not know it. */
function integerShapeOf(t: Typed): IntegerShape | null {
  if (t.variant >= 0 || t.alternatives !== undefined) return null;
  if (t.cls === "uint8" || t.cls === "bool") return UINT8_SHAPE;
  if (t.cls === "uint32") return UINT32_SHAPE;
  return t.cls === "int64" ? (t.integer ?? null) : null;
}

/** A number as greatest's and least's common-type rules see it (integer-types.ts), or null for a value of another kind. */
function numberShapeOf(t: Typed): NumberShape | null {
  if (!isPlainNumber(t) || t.alternatives !== undefined) return null;
  return t.cls === "float64" ? "float" : (integerShapeOf(t) ?? "integer");
}
const UNKNOWN_COLUMN = typed(null, false);
const NO_PARAMETERS: ReadonlyMap<string, Typed> = new Map();
/** The classes on the left of IN whose cast of a list's values refuses what `=` refuses (judgePerRowList). */
const PER_ROW_LIST_LEFT: ReadonlySet<ArgumentClass> = new Set(["uint8", "int64", "float64", "datetime", "uint32", "uuid"]);
/** Per variant, as a constant, a column and either: no class, its own refusals (one shared object each). */
const VARIANT_TYPED: readonly (readonly Typed[])[] = VARIANTS.map((_, variant) => [true, false, null].map((constant) => ({ cls: null, index: -1, constant, nullable: false, variant })));
const VARIANT_INDEX: ReadonlyMap<string, number> = new Map(VARIANTS.map((variant, index) => [variant, index]));
const TUPLE_VARIANT = VARIANT_INDEX.get("tuple")!;
const NULLABLE_STRINGS_VARIANT = VARIANT_INDEX.get("nullableStrings")!;
const UUIDS_VARIANT = VARIANT_INDEX.get("uuids")!;
const NESTED_VARIANT = VARIANT_INDEX.get("nested")!;
const MIXED_ARRAY_VARIANT = VARIANT_INDEX.get("mixedArray")!;
const MIXED_VARIANT = VARIANT_INDEX.get("mixed")!;
const DATE_VARIANT = VARIANT_INDEX.get("date")!;
const UINT128_VARIANT = VARIANT_INDEX.get("uint128")!;
/** The Date variants, Nullable or not. */
const DATES: ReadonlySet<number> = new Set([DATE_VARIANT, VARIANT_INDEX.get("nullableDate")!]);
/** Per variant index: whether a result of an argument's type keeps it. */
/** Per variant index: whether it is an array, whose elements have no class. */
const ARRAY_VARIANT_AT: readonly boolean[] = VARIANTS.map(isArrayVariant);
/** The class families `array(...)` finds no common type across: one of each makes an Array(Variant(...)). */
const ARRAY_FAMILIES: Readonly<Partial<Record<ArgumentClass, string>>> = { string: "string", uuid: "uuid", datetime: "datetime", uint8: "number", int64: "number", float64: "number", uint32: "number", bool: "number" };
/** The families of scalar values in ARRAY_FAMILIES: strings, numbers, DateTimes, UUIDs. */
const SCALAR_FAMILIES: ReadonlySet<string> = new Set(Object.values(ARRAY_FAMILIES));
/** Per variant index: whether it is a container (an array, a tuple or a map), which has no common type with a scalar. */
const CONTAINER_VARIANT_AT: readonly boolean[] = VARIANTS.map((variant) => isArrayVariant(variant) || variant === "tuple" || variant.startsWith("map"));
/** The class families an `if`'s branches find no common type across: those of `array(...)`, arrays of each, and aggregate states. */
const BRANCH_FAMILIES: Readonly<Partial<Record<ArgumentClass, string>>> = { ...ARRAY_FAMILIES, arrayString: "array of strings", arrayNumber: "array of numbers", aggregateState: "aggregate state" };
/**
 * Per variant index, the family of a scalar variant among those above: a Date and a DateTime64,
 * Nullable or not, are of the DateTimes' (`if(c, geo_city, timestamp_ms)` is a
 * Variant(DateTime64(3), String), `if(c, timestamp_ms, now())` a DateTime64). An IP is not: the
 * engine finds a common type of an IPv4 and a number.
 */
const VARIANT_FAMILIES: readonly (string | undefined)[] = VARIANTS.map((variant) => (variant === "date" || variant === "nullableDate" || variant === "nullableDateTime64" ? "datetime" : undefined));
/** Per variant index, the variant it is as an alternative of a Variant, which holds no Nullable: a Nullable(Date) is a Date there. A DateTime64 stays the Nullable one, the only DateTime64 probed. */
const PLAIN_VARIANT: readonly number[] = VARIANTS.map((variant, index) => (variant === "nullableDate" ? VARIANT_INDEX.get("date")! : index));

/** The family of a value for the common type of `if` branches, `coalesce` arguments and `array` elements, else undefined (a type the pass does not place). */
function familyOf(t: Typed): string | undefined {
  if (t.variant >= 0) return VARIANT_FAMILIES[t.variant];
  return t.cls === null ? undefined : BRANCH_FAMILIES[t.cls];
}

/**
 * The family of an `if`'s branch: a tuple is one of its own (`if(c, tuple(x), x)` is a
 * Variant(Tuple(UInt64), UInt64)), judged as the probe's tuple whatever its size; so are the
 * array variants and a UInt128 (BRANCH_VARIANT_FAMILIES).
 */
function branchFamilyOf(t: Typed): string | undefined {
  return t.variant >= 0 ? BRANCH_VARIANT_FAMILIES[t.variant] : familyOf(t);
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
function alternativeOf(known: Typed | undefined, t: Typed, constant: boolean | null): Typed {
  const plain = t.variant >= 0 ? variantTyped(PLAIN_VARIANT[t.variant]!, constant) : typed(t.cls, constant);
  return known === undefined || (known.cls === plain.cls && known.variant === plain.variant) ? plain : typed(null, constant);
}

function variantTyped(variant: number, constant: boolean | null): Typed {
  return VARIANT_TYPED[variant]![constnessIndex(constant)]!;
}

/** A column of a variant's type (`exception_frames.in_app` is an Array(Nullable(UInt8)), `attributes_bool` a Map(String, Bool)), else undefined. */
function variantColumn(typeName: string): Typed | undefined {
  const variant = variantOfTypeName(typeName);
  return variant === null ? undefined : variantTyped(VARIANT_INDEX.get(variant)!, false);
}

/** Whether argument i of an `if` or `multiIf` of `count` arguments is a branch (a value it may return): `multiIf(c1, a1, c2, a2, else)`. */
function isBranch(i: number, count: number): boolean {
  return i > 0 && (i % 2 === 1 || i === count - 1);
}

/** A branch's type as its family is judged: a condition of unknown Nullability (`s IN now()`) is a UInt8 there. */
function branchType(t: Typed): Typed {
  return t.alternatives !== undefined && UINT8_CONDITION_ALTERNATIVES.has(t.alternatives) ? typed("uint8", t.constant) : t;
}

/** The value of a literal, or of a column its entity maps to one (`group_id` is 0 on discover); else undefined. */
type ValueOf = (node: Expression) => unknown;

/**
 * The branch an `if` or `multiIf` picks for every row, where its conditions say so: each one
 * NULL (a Nothing), a FALSE or a 0 is passed over, the first TRUE or other number picks its
 * branch, and the else branch is picked when every one is passed over. -1 where a condition is
 * computed per row first.
 */
function pickedBranch(args: readonly Expression[], nullAt: (node: Expression) => boolean, valueOf: ValueOf): number {
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

function branchesType(args: readonly Expression[], types: readonly Typed[], constant: boolean | null, nullAt: (node: Expression) => boolean, valueOf: ValueOf): Typed | null {
  if (args.length < 3 || args.length % 2 === 0) return null;
  // A constant condition, or one the storage computes as NULL (which picks the else branch for
  // every row), picks a branch once for all rows.
  const pickedOnce = types.some((t, i) => !isBranch(i, args.length) && (t.constant === true || nullAt(args[i]!)));
  // Numbers of known types with no common type (a 64-bit integer and a float, a UInt64 and a
  // signed integer): a Variant of each plain type, a NULL or a Nullable branch among them too
  // (`multiIf(c, greatest(span_id, project_id), 1e23)` is a Variant(Float64, UInt64), `if(c, u, -1)`
  // of a UInt64 u a Variant(Int8, UInt64)). An engine test holds it.
  const numbers = numbersWithoutCommonType(args, types, nullAt);
  if (numbers !== null) {
    const branch = pickedOnce ? pickedBranch(args, nullAt, valueOf) : -1;
    const picked = branch >= 0 ? numbers.find((alternative) => sameNumberType(alternative, types[branch]!)) : undefined;
    return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives: numbers, ...(pickedOnce ? { pickedOnce } : {}), ...(picked ? { picked } : {}) };
  }
  // Aggregate states of two types (`if(100, sum, avg)` on metrics_distributions): a Variant of
  // them, even where a constant condition picks one (GROUP BY refuses it, code 44; seed 23).
  const states = branchStates(args, types, nullAt);
  if (states > 1) {
    return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives: [typed("aggregateState", constant === false ? false : null)], ...(pickedOnce ? { pickedOnce } : {}) };
  }
  // Numbers of known types and IPv4s with a common type: that type, where no constant condition
  // picks a branch (below, a NULL branch so picked holds no value).
  if (!pickedOnce) {
    const common = numberBranchesType(args, types, nullAt, constant);
    if (common !== null) return common;
  }
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
    return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives: [...byFamily.values()], ...(pickedOnce ? { pickedOnce } : {}), ...(picked ? { picked } : {}) };
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
function numbersCommonTyped(values: readonly (Typed | null)[], constant: boolean | null, ipv4AsUInt32: boolean, nullableAs?: boolean): Typed | null {
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
function shapesConflict(values: readonly Typed[]): boolean {
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
 * A call given a value no row holds one of (`if(1, NULL, x)`, a Nullable of x's class): the
 * engine still refuses that class where it refuses it at its position with the argument
 * Nullable (`count() / if(1, NULL, s)`, code 43), judged here. Every other refusal of it (a
 * pair, a string converted to compare with it, a UUID `length` reads) is made on a row's
 * value, which no row holds: beyond this, the value is one of unknown type (in place, in
 * `types`). An engine test holds both.
 */
function judgeHoldingNoValue(typing: ArgumentTyping, name: string, facts: FunctionFacts, args: readonly Expression[], types: Typed[], position: TextPosition | undefined): void {
  const rules = facts.signature ? facts.counts[args.length] : undefined;
  const form = formIndex(types);
  const nothing = args.some((arg, i) => types[i]!.cls === null && typing.mayBeNothing(arg));
  const sets = rules === undefined ? undefined : nothing ? rules.nullableBesideNull[form] : rules.nullable[form];
  // Arithmetic judges its operands' types at analysis, pairs too (`tags[k] + multiIf(TRUE, NULL,
  // now())` is code 43 with no row read): judged with the Nullable as it is typed.
  if (TUPLE_ARITHMETIC.has(name) && facts.signature && !nothing) judge(typing, name, facts, args, types, position, false);
  // So does a comparison of two types of no text (`profiler_id = if(100, url, 1)` on discover,
  // whose url is NULL: a UUID and a Nullable(UInt8), code 43 with no row read; seed 17); a text
  // is converted only as a row's value is compared. Not a text looked for in an array column,
  // where the engine needs a common type of it and the elements first (`if(FALSE, dist, NULL)
  // NOT IN group_ids` on discover, a String and UInt64s: code 386 with no row read; seed 18).
  // (An `if` the analyzer folds first, a literal condition picking a NULL literal, is that NULL, looked for in anything.)
  const inArray = (name === "in" || name === "notIn") && args.length === 2 && isArrayTyped(types[1]!) && typing.readsColumnUnfolded(args[0]!, 0);
  if (args.length === 2 && (VALUE_COMPARISONS.has(name) || inArray) && facts.signature && !nothing && types.every((t) => t.cls !== null && (t.cls !== "string" || inArray) && t.variant < 0 && t.alternatives === undefined)) {
    judge(typing, name, facts, args, types, position, false);
  }
  for (let i = 0; i < types.length; i++) {
    if (!types[i]!.holdsNoValue) continue;
    if (sets && !(types[i]!.cls === "uuid" && UUID_LENGTHS.has(name))) refuseAt(name, args, types, i, sets[i]!, position);
    types[i] = NO_VALUE_COLUMN;
  }
}

/** The functions that refuse a UUID only as they read a row's value (`length(toNullable(event_id))` is code 43 on a row, taken on none). */
const UUID_LENGTHS: ReadonlySet<string> = new Set(["length", "lengthUTF8"]);

/** A value of unknown type that holds no row's value: judged as a NULL beside the others is (judge's `nothing`). */
const NO_VALUE_COLUMN: Typed = { cls: null, index: -1, constant: false, nullable: false, variant: -1 };

/** Per variant index: whether a value of it may be NULL (a Nullable scalar variant, or a Variant, which holds NULLs of its own). */
const VARIANT_MAY_BE_NULL: readonly boolean[] = VARIANTS.map((variant) => variantSamples(variant).some((sample) => sample.type.startsWith("Nullable(") || sample.type.startsWith("Variant(")));

/** Whether a value of this type may be NULL: Nullable, a variant that may be, or of unknown type. */
function mayHoldNull(t: Typed): boolean {
  return t.nullable || (t.variant >= 0 ? VARIANT_MAY_BE_NULL[t.variant]! : t.cls === null);
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
function coalesceType(args: readonly Expression[], types: readonly Typed[], constant: boolean | null, nullAt: (node: Expression) => boolean): Typed | null {
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
function rowsHoldingPrefix(mixed: Expression, mixedType: Typed, refused: Typed, position: TextPosition | undefined): string {
  const variant = `${describe(mixed)}${at(mixed.position ?? position)} is a Variant of ${list(mixedType.alternatives!.map(typeName))} (${noCommonType(mixedType)}), and`;
  if (mixedType.picked !== undefined) return `${variant} ${mixedType.fromElements ? "its index picks the element" : "its conditions pick the branch"} of ${typeName(refused)} for every row:`;
  return `${variant} ClickHouse fails the query on any row that holds ${typeName(refused)}:`;
}

/** Why a mixed variant is one: what has no common type. */
function noCommonType(t: Typed): string {
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
function refusalOfAlternatives(
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
function refuses(judgement: () => void): boolean {
  try {
    judgement();
    return false;
  } catch (error) {
    if (error instanceof QueryServiceError) return true;
    throw error;
  }
}

/** The alternatives a value's rows may hold: the branch picked for every row where the pass knows it, else each. */
function heldAlternatives(t: Typed): readonly Typed[] {
  return t.picked !== undefined ? [t.picked] : t.alternatives!;
}

/** Whether a row may hold any of a value's alternatives (an `if`'s or a `coalesce`'s Variant whose branch is not picked once), or every row the one picked. */
function perRowAlternatives(t: Typed): boolean {
  return t.variant === MIXED_VARIANT && (t.pickedOnce !== true || t.picked !== undefined);
}

/**
 * The position of the argument a call is judged per alternative of (judgeAlternatives), else -1:
 * the one argument with known alternatives, or of two, the one held per row (the other is then
 * judged as one of its own inside each: `if(c, 1000, x) = if(d, 3, 'a')`). Three: none (judged
 * on the mixed variant's refusals alone).
 */
function mixedArgument(types: readonly Typed[]): number {
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

/**
 * What judging one argument count needs, per form of the call. A form is indexed by each
 * argument's constness (0 constant, 1 column, 2 unknown): for two arguments `3 * first + second`;
 * for other counts 0 (all constants), 4 (all columns) or 8 (anything else). A form with an
 * unknown part gets only what every form it could be refused (the intersection).
 */
interface CountRules {
  /** Per form, per position: the classes refused there (null: none anywhere). */
  readonly refused: readonly (readonly ReadonlySet<ArgumentClass>[] | null)[];
  /** Per form, per position: the refusals that hold beside arguments of any type (robust). */
  readonly robust: readonly (readonly ReadonlySet<ArgumentClass>[] | null)[];
  /** Per form, per position: the robust refusals that also hold beside a NULL. */
  readonly besideNull: readonly (readonly ReadonlySet<ArgumentClass>[] | null)[];
  /** Per form, per position: the refusals that also hold with the argument Nullable. */
  readonly nullable: readonly (readonly ReadonlySet<ArgumentClass>[] | null)[];
  /** Per form, per position: the Nullable refusals that also hold beside a NULL. */
  readonly nullableBesideNull: readonly (readonly ReadonlySet<ArgumentClass>[] | null)[];
  /** Per form: the pairs refused together, by pairKey (null: none). */
  readonly pairs: readonly (ReadonlySet<number> | null)[];
  /** Per form, per position: the variants refused there (by name). */
  readonly variants: readonly (readonly ReadonlySet<string>[] | null)[];
  /** Per form, per position: the variants refused there beside a NULL (null: none). */
  readonly variantsBesideNull: readonly (readonly ReadonlySet<string>[] | null)[];
  /** Per form: the pairs refused with one of the two Nullable, by pairKey with its position (null: none). */
  readonly nullablePairs: readonly (ReadonlySet<number> | null)[];
  /** Per form: the pairs refused with a variant, by pairKey (null: none). */
  readonly variantPairs: readonly (ReadonlySet<number> | null)[];
  /** Per form: the pairs refused beside any type and a NULL at the other positions, by pairKey (null: none). */
  readonly robustPairs: readonly (ReadonlySet<number> | null)[];
}

/** The probed forms a form index could be (an unknown constness is either). */
function possibleForms(index: number, count: number): CallForm[] {
  if (count !== 2) return index === 0 ? ["constant"] : index === 4 ? ["column"] : ["constant", "column"];
  const either = (code: number): ("constant" | "column")[] => (code === 0 ? ["constant"] : code === 1 ? ["column"] : ["constant", "column"]);
  const forms: CallForm[] = [];
  for (const first of either(Math.floor(index / 3))) {
    for (const second of either(index % 3)) {
      forms.push(first === second ? first : first === "constant" ? "constantColumn" : "columnConstant");
    }
  }
  return forms;
}

function intersect<T>(sets: readonly ReadonlySet<T>[]): Set<T> {
  const [first, ...rest] = sets;
  return new Set([...(first ?? [])].filter((item) => rest.every((set) => set.has(item))));
}

/** Per position, the classes every one of these forms refuses there (a form not probed refuses nothing). */
function refusedAcross<T extends string>(count: number, byForm: Partial<Record<CallForm, readonly (readonly T[])[]>> | undefined, forms: readonly CallForm[]): ReadonlySet<T>[] | null {
  if (!byForm) return null;
  const positions = Array.from({ length: count }, (_, i) => intersect(forms.map((form) => new Set(byForm[form]?.[i] ?? []))));
  return positions.some((set) => set.size > 0) ? positions : null;
}

/** The pairs every one of these forms refuses, as keys (null: none). */
function pairsAcross(byForm: Partial<Record<CallForm, readonly string[]>> | undefined, forms: readonly CallForm[]): ReadonlySet<number> | null {
  if (!byForm) return null;
  const together = intersect(forms.map((form) => pairKeys(byForm[form] ?? [])));
  return together.size > 0 ? together : null;
}

function countRules(signature: ProbedSignature, count: number): CountRules {
  const refused: (ReadonlySet<ArgumentClass>[] | null)[] = [];
  const robust: (ReadonlySet<ArgumentClass>[] | null)[] = [];
  const besideNull: (ReadonlySet<ArgumentClass>[] | null)[] = [];
  const nullable: (ReadonlySet<ArgumentClass>[] | null)[] = [];
  const nullableBesideNull: (ReadonlySet<ArgumentClass>[] | null)[] = [];
  const pairs: (ReadonlySet<number> | null)[] = [];
  const variants: (ReadonlySet<string>[] | null)[] = [];
  const variantsBesideNull: (ReadonlySet<string>[] | null)[] = [];
  const nullablePairs: (ReadonlySet<number> | null)[] = [];
  const variantPairs: (ReadonlySet<number> | null)[] = [];
  const robustPairs: (ReadonlySet<number> | null)[] = [];
  for (let index = 0; index < 9; index++) {
    const forms = possibleForms(index, count);
    refused.push(refusedAcross(count, signature.refused[count], forms));
    // These were probed all-constant and all-column: a mixed call gets what both hold.
    const pure: CallForm[] = forms.length === 1 && (forms[0] === "constant" || forms[0] === "column") ? forms : ["constant", "column"];
    robust.push(refusedAcross(count, signature.robust[count], pure));
    besideNull.push(refusedAcross(count, signature.besideNull[count], pure));
    nullable.push(refusedAcross(count, signature.nullable[count], pure));
    nullableBesideNull.push(refusedAcross(count, signature.nullableBesideNull[count], pure));
    variants.push(refusedAcross<string>(count, signature.variants[count], pure));
    variantsBesideNull.push(refusedAcross<string>(count, signature.variantsBesideNull[count], pure));
    pairs.push(pairsAcross(signature.pairs[count], forms));
    nullablePairs.push(pairsAcross(signature.nullablePairs[count], forms));
    variantPairs.push(pairsAcross(signature.variantPairs[count], forms));
    robustPairs.push(pairsAcross(signature.robustPairs[count], forms));
  }
  return { refused, robust, besideNull, nullable, nullableBesideNull, pairs, variants, variantsBesideNull, nullablePairs, variantPairs, robustPairs };
}

/** The form index of a call (see CountRules). */
function constnessCode(t: Typed): number {
  return t.constant === true ? 0 : t.constant === false ? 1 : 2;
}

function formIndex(types: readonly Typed[]): number {
  if (types.length === 2) return constnessCode(types[0]!) * 3 + constnessCode(types[1]!);
  let constants = 0;
  let columns = 0;
  for (const t of types) {
    if (t.constant === true) constants++;
    else if (t.constant === false) columns++;
  }
  return constants === types.length ? 0 : columns === types.length ? 4 : 8;
}

/** The classes that are not arrays: a position that refuses every one of them takes arrays only. */
const SCALAR_CLASSES = ARGUMENT_CLASSES.filter((cls) => elementClass(cls) === null);

interface AfterLambdaRules {
  readonly constant: readonly ReadonlySet<ArgumentClass>[];
  readonly column: readonly ReadonlySet<ArgumentClass>[];
  /** Per position: every non-array class refused as constant and as column, so a NULL or a Nullable is too (arrays are never Nullable). */
  readonly arraysOnly: readonly boolean[];
}

/** The classes refused after a lambda, per number of arguments after it, as sets; absent where not probed. */
function afterLambdaRules(signature: ProbedSignature): ReadonlyMap<number, AfterLambdaRules> {
  const rules = new Map<number, AfterLambdaRules>();
  for (const [count, forms] of Object.entries(signature.afterLambda)) {
    const constant = forms!.constant.map((classes) => new Set(classes));
    const column = forms!.column.map((classes) => new Set(classes));
    const arraysOnly = constant.map((refused, i) => SCALAR_CLASSES.every((cls) => refused.has(cls) && column[i]!.has(cls)));
    rules.set(Number(count), { constant, column, arraysOnly });
  }
  return rules;
}

/** What the walk asks of a function name, looked up once per call. */
interface FunctionFacts {
  readonly signature: ProbedSignature | undefined;
  /** Per argument count 0..4. */
  readonly counts: readonly CountRules[];
  /** Per argument count 0..4: refused outright. */
  readonly refusedCounts: readonly boolean[];
  /** Per number of arguments after a lambda: the classes refused there. */
  readonly afterLambda: ReturnType<typeof afterLambdaRules>;
  /** An array column as first argument counts as its elements (`group_ids = 100`). */
  readonly comparesElements: boolean;
  /** An aggregate: its result is never a constant. */
  readonly aggregate: boolean;
  /** Per argument count 1..2: the result's class by the arguments' classes (classResultKey), where the probe found it per tuple. */
  readonly classResults: readonly (ReadonlyMap<number, ArgumentClass> | undefined)[];
  /**
   * Per argument count: `i * 8 + j` where position j's class is taken or not by what array stands
   * at i (the probe refused an array class at i together with a class j takes: `has(a, x)`).
   */
  readonly elementDependent: readonly ReadonlySet<number>[];
  /** Per argument count 0..4: scalarsBesideArrays. */
  readonly scalarsBesideArrays: readonly ReadonlySet<number>[];
  /** Per variant index: a result of an argument's type (a `from` rule) is that variant when the argument is (variantKeptByResult). */
  readonly keepsVariant: readonly boolean[];
  /** `argMax(x, by)`, `argMinIf(x, by, c)`: the other arguments only choose the row whose x is the result. */
  readonly choosesRow: boolean;
  /**
   * Per argument count 0..4: 0 where the result is an element of the first argument, an array
   * (`arrayElement(a, n)`, `arrayMax(a)`), else -1. Not `transform`'s third (the engine refuses
   * a `to` array of two families, code 43).
   */
  readonly elementOfAt: readonly number[];
  /**
   * Per argument count 0..2: the one class the probe saw for every tuple of classes that are
   * neither arrays nor states, where it is not carried from an argument (some such tuple has no
   * argument of it): `concat` is a String, `divide` a Float64. Else null.
   */
  readonly fixedScalarResult: readonly (ArgumentClass | null)[];
  /**
   * Per argument count 0..2: whether that class is also what the probe saw for an array beside a
   * scalar, either way round (`concat(s, a)` is a String; `n / a` is an array of numbers).
   */
  readonly fixedBesideArrays: readonly boolean[];
  /** Arithmetic a tuple undergoes element by element (TUPLE_ARITHMETIC): its result with a tuple is a tuple. */
  readonly tupleArithmetic: boolean;
  /** Of two arrays of one class, that class (`concat`, `greatest`): of two arrays of one array variant, that variant (sameArraysType). */
  readonly keepsArrayType: boolean;
}

/** The functions whose arguments after the first only choose a row (ROW_CHOOSERS in FunctionFacts). */
const ROW_CHOOSERS = /^arg(Max|Min)(If)?$/;

/** An array (an array variant or an `array(...)` call) whose elements may be of the class `cls` (unknown elements may). */
function mayHoldElementsOf(typing: ArgumentTyping, node: Expression, t: Typed, cls: ArgumentClass): boolean {
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
function arrayOfUntried(typing: ArgumentTyping, node: Expression, t: Typed, cls: ArgumentClass): boolean {
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

/** The position pairs where an array class was refused together with another class (FunctionFacts.elementDependent). */
function elementDependentPositions(signature: ProbedSignature, count: number): ReadonlySet<number> {
  const found = new Set<number>();
  for (const keys of Object.values(signature.pairs[count] ?? {})) {
    for (const key of keys ?? []) {
      const [i, j, a, b] = key.split(" ");
      if (elementClass(a as ArgumentClass) !== null) found.add(Number(i) * 8 + Number(j));
      if (elementClass(b as ArgumentClass) !== null) found.add(Number(j) * 8 + Number(i));
    }
  }
  return found;
}

/**
 * The position pairs `i * 8 + j` where the probe's columns took some scalar class at j beside
 * some array class at i (`has(a, 1)` of an array of integers): there the array's elements are
 * what a scalar is matched against. Elsewhere (`a = x`, `a < x`) a scalar is refused beside every
 * array: the array is compared whole.
 */
function scalarsBesideArrays(signature: ProbedSignature, count: number): ReadonlySet<number> {
  const found = new Set<number>();
  const refused = signature.refused[count]?.column;
  if (!refused) return found;
  const pairs = new Set(signature.pairs[count]?.column ?? []);
  for (let i = 0; i < count; i++)
    for (let j = 0; j < count; j++) {
      if (i === j) continue;
      const taken = SCALAR_CLASSES.some((b) =>
        (["arrayString", "arrayNumber"] as const).some((a) => !refused[i]!.includes(a) && !refused[j]!.includes(b) && !pairs.has(i < j ? `${i} ${j} ${a} ${b}` : `${j} ${i} ${b} ${a}`)),
      );
      if (taken) found.add(i * 8 + j);
    }
  return found;
}

/** FunctionFacts.keepsArrayType: the probe saw two arrays of strings give one, and two of integers one. */
function keepsArrayType(signature: ProbedSignature): boolean {
  const byResult = signature.classResults[2];
  return byResult !== undefined && (byResult.arrayString ?? []).includes("arrayString arrayString") && (byResult.arrayNumber ?? []).includes("arrayNumber arrayNumber");
}

/** The array variants that are one type each (not the Nested or mixed arrays, which stand for families of types). */
const ONE_TYPE_ARRAY_VARIANT_AT: readonly boolean[] = VARIANTS.map((variant) => ARRAY_VARIANT_SAMPLES[variant] !== undefined);

/**
 * `concat(exception_stacks.mechanism_handled, exception_frames.in_app)`: a function that keeps
 * the type of two arrays of one class keeps that of two arrays of one array variant (an
 * Array(Nullable(UInt8)) here). An engine test holds it for each such function and variant.
 */
function sameArraysType(facts: FunctionFacts, args: readonly Typed[], constant: boolean | null): Typed | null {
  if (!facts.keepsArrayType || args.length !== 2) return null;
  const variant = args[0]!.variant;
  return variant >= 0 && variant === args[1]!.variant && ONE_TYPE_ARRAY_VARIANT_AT[variant]! ? variantTyped(variant, constant) : null;
}

/** FunctionFacts.fixedScalarResult for one count. */
function fixedScalarResultOf(signature: ProbedSignature, count: number): ArgumentClass | null {
  const byResult = signature.classResults[count];
  if (!byResult) return null;
  let found: ArgumentClass | null = null;
  let carried = true;
  for (const [cls, tuples] of Object.entries(byResult) as [ArgumentClass, readonly string[]][]) {
    for (const tuple of tuples) {
      const classes = tuple.split(" ") as ArgumentClass[];
      if (classes.some((arg) => elementClass(arg) !== null || arg === "aggregateState")) continue;
      if (found !== null && found !== cls) return null;
      found = cls;
      if (!classes.includes(cls)) carried = false;
    }
  }
  return carried ? null : found;
}

/** FunctionFacts.fixedBesideArrays for one count: each array class beside each scalar class, at both positions, has the fixed scalar result. */
function fixedBesideArrays(signature: ProbedSignature, count: number): boolean {
  const fixed = fixedScalarResultOf(signature, count);
  if (fixed === null || count !== 2) return false;
  const byFixed = new Set(signature.classResults[count]![fixed]);
  const scalars = ARGUMENT_CLASSES.filter((cls) => elementClass(cls) === null && cls !== "aggregateState");
  return ARGUMENT_CLASSES.filter((cls) => elementClass(cls) !== null).every((array) => scalars.every((scalar) => byFixed.has(`${array} ${scalar}`) && byFixed.has(`${scalar} ${array}`)));
}

/** The number a tuple of one or two classes is looked up by in FunctionFacts.classResults. */
function classResultKey(first: number, second = -1): number {
  return (first + 1) * 32 + second + 1;
}

function classResultsOf(signature: ProbedSignature): (ReadonlyMap<number, ArgumentClass> | undefined)[] {
  return [0, 1, 2].map((count) => {
    const byResult = signature.classResults[count];
    if (!byResult) return undefined;
    const map = new Map<number, ArgumentClass>();
    for (const [cls, tuples] of Object.entries(byResult) as [ArgumentClass, readonly string[]][]) {
      for (const tuple of tuples) {
        const [first, second] = tuple.split(" ").map((name) => CLASS_INDEX.get(name as ArgumentClass)!);
        map.set(classResultKey(first!, second), cls);
      }
    }
    return map;
  });
}

/** A class's index, or a variant's after every class's: what pair keys number. */
const TYPE_INDEX: ReadonlyMap<string, number> = new Map([...CLASS_INDEX, ...VARIANTS.map((variant, i) => [variant, ARGUMENT_CLASSES.length + i] as const)]);
// pairKey packs a type's index in 6 bits.
if (TYPE_INDEX.size > 64) throw new Error(`${TYPE_INDEX.size} classes and variants: pairKey holds 64`);

function typeIndex(t: Typed): number {
  return t.variant >= 0 ? ARGUMENT_CLASSES.length + t.variant : t.index;
}

/** `nullableAt` of a pair whose two arguments are both Nullable. */
const BOTH_NULLABLE = 8;

/**
 * The number a refused pair is stored under: positions i < j below 8, the two types' indexes
 * (TYPE_INDEX, fewer than 64), and which of the two is Nullable (-1: neither, BOTH_NULLABLE: both).
 */
function pairKey(i: number, j: number, first: number, second: number, nullableAt = -1): number {
  return ((((i * 8 + j) * 64 + first) * 64 + second) * 10) + nullableAt + 1;
}

/** Keys of pairs as the probe writes them: "i j first second", and the Nullable position if any. */
function pairKeys(pairs: readonly string[]): Set<number> {
  const keys = new Set<number>();
  for (const pair of pairs) {
    const [i, j, first, second, nullableAt] = pair.split(" ");
    const nullable = nullableAt === undefined ? -1 : nullableAt === "both" ? BOTH_NULLABLE : Number(nullableAt);
    keys.add(pairKey(Number(i), Number(j), TYPE_INDEX.get(first!)!, TYPE_INDEX.get(second!)!, nullable));
  }
  return keys;
}

const FUNCTION_FACTS = new Map<string, FunctionFacts>();
const NO_POSITIONS: ReadonlySet<number> = new Set();

/**
 * Whether an aggregate with the -If combinator (`sumIf`) refuses `count` arguments because its
 * aggregate refuses one fewer: the combinator adds the condition, last, and the engine checks the
 * rest as the aggregate's own (`sumIf(x, c, 100)`: "Aggregate function sum requires single
 * argument", code 42). The probe cannot see it: with no class taking that count, it cannot tell a
 * refused count from one some type outside its classes would fit (a String condition is code 43
 * first), and marks it unknown. An engine test holds every such count to the engine.
 */
export function ifCombinatorRefusesCount(name: string, count: number): boolean {
  if (count < 1 || !name.endsWith("If") || !AGGREGATE_FUNCTIONS.has(name)) return false;
  const aggregate = name.slice(0, -"If".length);
  return AGGREGATE_FUNCTIONS.has(aggregate) && PROBED_FUNCTION_SIGNATURES.get(aggregate)?.counts[count - 1] === "refused";
}

function functionFacts(name: string): FunctionFacts {
  let facts = FUNCTION_FACTS.get(name);
  if (facts === undefined) {
    const signature = PROBED_FUNCTION_SIGNATURES.get(name);
    facts = {
      signature,
      counts: signature ? [0, 1, 2, 3, 4].map((count) => countRules(signature, count)) : [],
      refusedCounts: [0, 1, 2, 3, 4].map((count) => signature?.counts[count] === "refused" || ifCombinatorRefusesCount(name, count)),
      afterLambda: signature ? afterLambdaRules(signature) : new Map(),
      comparesElements: comparesElements(name),
      aggregate: AGGREGATE_FUNCTIONS.has(name),
      classResults: signature ? classResultsOf(signature) : [],
      elementDependent: [0, 1, 2, 3, 4].map((count) => (signature ? elementDependentPositions(signature, count) : NO_POSITIONS)),
      scalarsBesideArrays: [0, 1, 2, 3, 4].map((count) => (signature ? scalarsBesideArrays(signature, count) : NO_POSITIONS)),
      keepsVariant: VARIANTS.map((variant) => variantKeptByResult(name, variant)),
      choosesRow: ROW_CHOOSERS.test(name),
      elementOfAt: [0, 1, 2, 3, 4].map((count) => {
        const rule = signature && signature.result === null ? signature.results[count] : undefined;
        return rule !== undefined && "elementOf" in rule && rule.elementOf === 0 ? 0 : -1;
      }),
      fixedScalarResult: [0, 1, 2].map((count) => (signature ? fixedScalarResultOf(signature, count) : null)),
      fixedBesideArrays: [0, 1, 2].map((count) => signature !== undefined && fixedBesideArrays(signature, count)),
      tupleArithmetic: TUPLE_ARITHMETIC.has(name),
      keepsArrayType: signature !== undefined && keepsArrayType(signature),
    };
    // Names come from query text: only allowed functions (a bounded set) are kept.
    if (signature) FUNCTION_FACTS.set(name, facts);
  }
  return facts;
}

/**
 * One walk over the query's expressions, children before parents: each node's class and
 * constness come from its children's, and each call is judged with its arguments' (linear in
 * the size of the query).
 */
class ArgumentTyping {
  /** Aliases typed so far; `null` while one is being typed (a reference back into it, a cycle, has no class). */
  private readonly aliasTypes = new Map<string, Typed | null>();

  /** The facts of the entity last asked for (most queries have one entity). */
  private lastEntityAlias: string | undefined | null = null;
  private lastFacts: EntityFacts | undefined;

  /**
   * True while the walk is inside WHERE or HAVING, where an array column on the left of a
   * comparison stands for its elements (snql-array-conditions.ts rewrites it so).
   */
  inCondition = false;
  /** True while the walk is inside WHERE, where no aggregate may stand. */
  inWhere = false;
  /** The parameters of the lambdas the walk is inside, by name, typed as the elements they are given (inLambda). */
  private lambdaParameters: ReadonlyMap<string, Typed> = NO_PARAMETERS;

  constructor(
    private readonly entityOf: EntityOf,
    private readonly aliases: ReadonlyMap<string, Expression>,
    /** Columns the query ARRAY JOINs (`alias.name`): one element per row, wherever they appear. */
    private readonly arrayJoined: ReadonlySet<string> = NO_NAMES,
    /** The query buckets time by day: a time-bucket column (`time`) is a Date, not its declared DateTime. */
    private readonly dayBuckets = false,
  ) {}

  private factsOf(entityAlias: string | undefined): EntityFacts | undefined {
    if (entityAlias !== this.lastEntityAlias) {
      const entity = this.entityOf(entityAlias);
      this.lastFacts = entity ? entityFacts(entity) : undefined;
      this.lastEntityAlias = entityAlias;
    }
    return this.lastFacts;
  }

  /** The expression an alias names, through aliases of aliases; any other node as it is. */
  private definitionOf(node: Expression): Expression {
    let resolved = node;
    for (let depth = 0; depth < 8 && resolved.kind === "column" && resolved.entityAlias === undefined && !resolved.insideOwnAlias; depth++) {
      const definition = this.aliases.get(resolved.name);
      if (definition === undefined) break;
      resolved = definition;
    }
    return resolved;
  }

  /** An aggregate state a tuple or an array holds at any depth (`tuple('x', sum_weighted)`), through aliases; else null. */
  stateInside(node: Expression, depth = 0): Expression | null {
    const resolved = this.definitionOf(node);
    if (depth > MAX_CONTAINER_DEPTH || resolved.kind !== "function" || (resolved.name !== "tuple" && resolved.name !== "array")) return null;
    for (const arg of resolved.args) {
      if (this.visit(arg).cls === "aggregateState") return arg;
      const inner = this.stateInside(arg, depth + 1);
      if (inner !== null) return inner;
    }
    return null;
  }

  /**
   * `max(tuple(sum, metric_id))`, `tuple(value, 1) < x`: an aggregate or a comparison compares a
   * tuple element by element, and refuses one holding an aggregate state where it refuses a state
   * (code 43: the values of that tuple type are not comparable). Other functions may take the
   * tuple whole (`reverse`, `toNullable`). An engine test holds it over every probed function.
   */
  private refuseTupledStates(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
    const rules = facts.counts[args.length];
    if (!rules || !(facts.aggregate || COMPARISONS.has(name))) return;
    for (let i = 0; i < args.length; i++) {
      if (types[i]!.variant !== TUPLE_VARIANT) continue;
      // Beside arguments of known plain classes, the refusals probed so; else those beside any type.
      const othersKnown = types.every((t, k) => k === i || (t.cls !== null && !t.nullable));
      if (!(othersKnown ? rules.refused : rules.robust)[formIndex(types)]?.[i]?.has("aggregateState")) continue;
      const state = this.stateInside(args[i]!);
      if (state === null || args[i]!.kind !== "function") continue;
      const argPosition = args[i]!.position ?? position;
      throw invalidQuery(
        `${describe(args[i]!)}${at(argPosition)} is a tuple holding ${describe(state)}${at(state.position)}, ${CLASS_NAMES.aggregateState}, and ${nameOf(name)} does not take a state as argument ${i + 1} of ${args.length}, inside a tuple either`,
        argPosition,
      );
    }
  }

  /**
   * `quantiles(0.5)(NULL)`, `quantilesTDigestWeighted(0.5)(x, NULL)`: the quantiles of many levels
   * refuse a value or a weight of type Nothing (code 43); an -If's condition may be one.
   */
  private refuseNothingQuantiled(name: string, args: readonly Expression[], position: TextPosition | undefined): void {
    const values = name.endsWith("If") ? args.length - 1 : args.length;
    for (let i = 0; i < values; i++) {
      const arg = args[i]!;
      if (!this.isNothing(arg)) continue;
      const argPosition = arg.position ?? position;
      const what = arg.kind === "literal" ? "NULL" : this.isBareNull(arg) ? "always NULL on this entity (its storage does not hold it)" : "a call of a NULL";
      throw invalidQuery(`${describe(arg)}${at(argPosition)} is ${what}, of type Nothing, and ${name} does not take it as argument ${i + 1}: the quantiles of many levels take numbers, dates or times`, argPosition);
    }
  }

  /**
   * `project_id IN tuple(group_ids, 1)`: a scalar looked for in a list holding an array or an
   * aggregate state. The engine converts each listed value to the left's type and converts no
   * array or state to a scalar (code 43); a string only where the list is read per row (`title IN
   * tuple(tags.key, title)` reads the array as its text). A list of constants holding one is no
   * set for a scalar (code 43).
   */
  private refuseArrayInList(name: string, args: readonly Expression[], types: readonly Typed[]): void {
    const [left, set] = args as [Expression, Expression];
    const sought = types[0]!;
    if (sought.cls === null || isArrayTyped(sought) || sought.cls === "aggregateState" || set.kind !== "function" || (set.name !== "tuple" && set.name !== "array")) return;
    if (sought.cls === "string" && types[1]!.constant === false) return;
    // A map or a tuple listed beside values read per row (`organization_id IN tuple(item_type,
    // attributes_int)`) is converted to the left's type as they are, and none converts (code 43).
    const perRow = types[1]!.constant === false;
    for (const value of set.args) {
      const listed = this.visit(value);
      const what = isArrayTyped(listed)
        ? "an array"
        : listed.cls === "aggregateState"
          ? "an aggregate state"
          : perRow && listed.variant >= 0 && MAP_VARIANT_AT[listed.variant]!
            ? "a map"
            : perRow && listed.variant === TUPLE_VARIANT
              ? "a tuple"
              : null;
      if (what === null) continue;
      throw invalidQuery(
        `${describe(value)}${at(value.position)} is ${what}, and ${nameOf(name)} looks for ${describe(left)}${at(left.position)}, ${CLASS_NAMES[sought.cls]}${sought.nullable ? " (Nullable)" : ""}, among the values listed with it: ClickHouse converts no ${what.replace(/^an? /, "")} to ${CLASS_NAMES[sought.cls]}${what === "an array" ? "; compare with has(array, value)" : ""}`,
        value.position ?? left.position,
      );
    }
  }

  /** What the condition rewrite makes of this call in WHERE or HAVING (snql-array-conditions.ts), or null. */
  private elementComparisonOf(node: Extract<Expression, { kind: "function" }>): ElementComparison | null {
    return this.inCondition ? elementComparison(node, this.entityOf, this.arrayJoined) : null;
  }

  /** Whether the condition rewrite compares this column's elements (not a Nested column read whole). */
  private comparedByElements(column: Extract<Expression, { kind: "column" }>): boolean {
    const entity = this.entityOf(column.entityAlias);
    return entity !== undefined && comparedByElements(entity, column.name);
  }

  /**
   * greatest or least of numbers of known types (a NULL among them too): of integers their common
   * type (integerCommonType), of floats among integers of at most 32 bits a float; Nullable where
   * one is or a NULL is among them (`greatest(android_api_level, FALSE, organization_id)` is a
   * Nullable(UInt64), `greatest(deleted, retention_days, span_op_breakdowns[k])` a
   * Nullable(Float64)). Not where the result is one byte beside a Bool, which may make it a Bool
   * (numbersWithBool). Booleans alone are a Bool through the least supertype (three of them, a
   * NULL or a Nullable among them), and a UInt8 where two plain ones are compared as numbers.
   */
  private numbersCommonType(nodes: readonly Expression[], args: readonly Typed[], constant: boolean | null): Typed | null {
    const values = args.map((t, i) => (this.isNothing(nodes[i]!) ? null : t));
    const byNumbers = values.length === 2 && values.every((t) => t !== null && !t.nullable);
    const common = numbersCommonTyped(values, constant, false);
    return byNumbers && common?.cls === "bool" ? integerTyped(UINT8_SHAPE, constant, false) : common;
  }

  visit(node: Expression): Typed {
    switch (node.kind) {
      case "literal": {
        const cls = literalClass(node.value);
        const integer = cls === "int64" ? integerShapeOfLiteral(node.value as number) : null;
        return integer !== null ? integerTyped(integer, true) : typed(cls, true);
      }
      case "datetime":
        return DATETIME_CONSTANT;
      case "column":
        if (node.entityAlias === undefined && !node.insideOwnAlias && this.aliases.size > 0 && this.aliases.has(node.name)) return this.aliasType(node.name);
        if (this.inWhere) this.refuseAggregateColumn(node);
        // `time` at GRANULARITY 86400 is `toDate(received)` (expression-printer.ts).
        if (this.dayBuckets && this.entityOf(node.entityAlias)?.timeBucketColumns[node.name] !== undefined) return variantTyped(DATE_VARIANT, false);
        if (this.isArrayJoined(node)) {
          const column = this.factsOf(node.entityAlias)?.columns.get(node.name);
          return column && elementClass(column.cls) !== null ? elementOf(column) : UNKNOWN_COLUMN;
        }
        return this.factsOf(node.entityAlias)?.columns.get(node.name) ?? UNKNOWN_COLUMN;
      case "subscript":
        return this.factsOf(node.entityAlias)?.subscripts.get(node.column) ?? UNKNOWN_COLUMN;
      case "function":
        return this.visitCall(node);
      case "curried":
        return this.visitCurried(node);
      case "lambda":
        this.visit(node.body);
        return UNKNOWN;
      case "argument":
        return this.lambdaParameters.get(node.name) ?? UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  /** A call: its arguments typed first, then the call judged with their types, and its own type from theirs. */
  private visitCall(node: Extract<Expression, { kind: "function" }>): Typed {
    // Read once: nodes of different kinds have different hidden classes, so each read of a node's
    // property is a megamorphic lookup in V8; locals keep the many checks below cheap.
    const name = node.name;
    const nodes = node.args;
    const position = node.position;
    const facts = functionFacts(name);
    const args: Typed[] = [];
    let constants = 0;
    let columns = 0;
    let noValues = 0;
    // A lambda before arrays is typed after them: its parameters are their elements.
    const lambdaCall = nodes.length >= 2 && nodes[0]!.kind === "lambda" ? this.visitLambdaCall(nodes) : undefined;
    for (const [i, arg] of nodes.entries()) {
      let t = lambdaCall?.[i] ?? this.visit(arg);
      // `group_ids = 100` compares elements (snql-array-conditions.ts): the column counts as one.
      if (args.length === 0 && facts.comparesElements && this.inCondition && arg.kind === "column" && !this.isArrayJoined(arg) && this.comparedByElements(arg)) t = elementOf(t);
      args.push(t);
      if (t.holdsNoValue) noValues++;
      if (t.constant === true) constants++;
      else if (t.constant === false) columns++;
    }
    if (noValues > 0) judgeHoldingNoValue(this, name, facts, nodes, args, position);
    const mapper = this.mapperOf(name, nodes);
    if (mapper !== undefined) {
      // The mapped aggregate (sumMergeIf) takes no lambda either (code 1; seed 19).
      const lambda = facts.signature && !facts.signature.lambda ? nodes.find((arg) => arg.kind === "lambda") : undefined;
      if (lambda !== undefined) refuseLambda(name, lambda, position);
      judgeMappedCount(name, mapper, nodes, position);
      if (facts.signature && name.endsWith("If")) judgeMappedCondition(name, facts, nodes, args, position);
      return UNKNOWN;
    }
    // A tuple on the right of IN is the set of values to look for, not a tuple value (and a
    // set of columns, `x IN tuple(a, b)`, is taken): the tuple variant says nothing there.
    // So is an array there (`'a' IN array(1, 2)` is taken, and false).
    const membership = (name === "in" || name === "notIn") && args.length === 2;
    // A constant computed from a column (`coalesce(0.5, user_email)` is the 0.5) is no set:
    // ClickHouse folds the right of IN to a set only where it reads no column, and compares the
    // rest as `=` compares (`'staging' IN coalesce(0.5, user_email)`, code 72; seed 18).
    // And an `if` of a literal condition is folded to its branch (`'staging' IN if(1, 0.5, s)` is
    // `'staging' IN 0.5`, taken), although its type is a Variant of its branches read per row.
    // An alias there is its definition (`0 NOT IN l` with `tags[transaction] AS l` compares as
    // `=`, code 386; seed 22): the engine's analyzer reads the alias as what it names.
    const right = membership ? this.definitionOf(nodes[1]!) : nodes[1]!;
    const rightCall = membership && right.kind === "function";
    const unfoldedSet = rightCall && args[1]!.constant !== false && this.readsColumnUnfolded(right, 0);
    const foldedIf = rightCall && args[1]!.constant === false && isLiteralIf(right) && !this.readsColumnUnfolded(right, 0);
    const constantSet = membership && (args[1]!.constant === true || foldedIf) && !unfoldedSet;
    if (membership) refuseUnconvertibleSetValues(name, nodes, args, constantSet);
    if (membership) this.refuseArrayInList(name, nodes, args);
    if (membership) this.refuseSetOfOtherSizes(name, nodes);
    if (membership) this.refuseNullForContainers(name, nodes);
    // An array of columns there is looked in per row as `has(array, x)` looks: its elements
    // need a common type with x (`now() IN array(logger, platform)`, code 386).
    if (membership && isArrayCall(nodes[1]!) && args[1]!.constant === false) {
      const array = [nodes[1]!, nodes[0]!];
      const arrayTypes = [args[1]!, args[0]!];
      refuseIPv4AmongFloatsOrSigned(name, nodes[1]!, args[1]!, nodes[0]!, args[0]!);
      this.judgeAs(() => `${nameOf(name)}${at(position)} with columns in its array looks the value up as has(array, value) does, and`, () =>
        this.judgeWholeCall("has", functionFacts("has"), array, arrayTypes, position),
      );
    }
    // A list holding a value read per row (`x IN tuple(a, 2)`, `x IN (length(k), 2)`) is no set:
    // ClickHouse reads its values per row as the left's type made Nullable, as it reads a column there.
    const perRowList = membership && args[1]!.constant === false && this.tupleCallOf(nodes[1]!) !== null;
    if (perRowList) this.judgePerRowList(name, nodes[0]!, args[0]!, this.tupleCallOf(nodes[1]!)!, position);
    if (membership && !perRowList && args[1]!.variant === TUPLE_VARIANT && args[1]!.constant === false) refuseComputedTupleSet(name, nodes[1]!, position);
    if (membership && (args[1]!.variant === TUPLE_VARIANT || isArrayCall(nodes[1]!))) args[1] = UNKNOWN;
    // A column on the right is read as a set of the left's type made Nullable (`project_id NOT
    // IN use_case_id`): a tuple or an array cannot be Nullable (codes 44, 43), whatever the column.
    // So does an `array(…)` or `tuple(…)` call the pass has no type for (`array(array(title)) IN project_id`).
    const containerOnLeft = membership && isContainerValue(nodes[0]!, args[0]!);
    // A value computed per row or once (`tuple(a, b) IN now()`, `array(x) IN length(s)`) is no
    // set of tuples or arrays either: ClickHouse refuses it (codes 43, 386).
    if (containerOnLeft && computedScalar(nodes[1]!, args[1]!)) {
      const left = nodes[0]!;
      const right = nodes[1]!;
      const [one, many] = args[0]!.variant === TUPLE_VARIANT ? ["a tuple", "tuples"] : ["an array", "arrays"];
      throw invalidQuery(
        `${describe(left)}${at(left.position)} is ${containerWhat(left, args[0]!)}, and ${nameOf(name)} looks for it in ${describe(right)}${at(right.position)}, ${CLASS_NAMES[args[1]!.cls!]}: ClickHouse looks for ${one} only in a list of ${many}`,
        left.position ?? position,
      );
    }
    // A NULL computed per row by arithmetic (`(max * NULL) IN sum_weighted`, `(x + NULL) IN
    // value`) looked for in a column of aggregate states: ClickHouse reads the column as a
    // Nullable of it, and no Nullable holds a state (code 43). Other NULLs fold to a constant
    // first (`NULL IN value`, `(x = NULL) IN value`, `abs(NULL) IN value` are answered).
    if (membership && args[1]!.cls === "aggregateState" && args[1]!.variant < 0 && this.isStorageColumn(nodes[1]!)) refuseArithmeticNullInStates(name, nodes[0]!, nodes[1]!, args[0]!, this.nothing);
    // So is an aggregate state (`value IN tuple(org_id)`, code 43): no Nullable holds one either.
    const stateOnLeft = membership && args[0]!.cls === "aggregateState" && args[0]!.variant < 0;
    // And a Variant (`if(10, time, 1000) IN tuple(2, message)`, a Variant(DateTime, UInt16);
    // code 43, seed 16): no Nullable holds one.
    const variantOnLeft = membership && !containerOnLeft && args[0]!.variant === MIXED_VARIANT;
    if ((containerOnLeft || stateOnLeft || variantOnLeft) && (perRowList || this.isStorageColumn(nodes[1]!))) {
      const left = nodes[0]!;
      const right = nodes[1]!;
      const what = containerOnLeft ? containerWhat(left, args[0]!) : variantOnLeft ? `a Variant of ${list(args[0]!.alternatives!.map(typeName))}` : CLASS_NAMES.aggregateState;
      const one = variantOnLeft ? "a Variant" : !containerOnLeft ? "an aggregate state" : args[0]!.variant === TUPLE_VARIANT || isTupleCall(left) ? "a tuple" : "an array";
      const within = perRowList ? `the list ${describe(right)}${at(right.position)}, which holds values read per row` : `${describe(right)}${at(right.position)}, a column read per row`;
      throw invalidQuery(
        `${describe(left)}${at(left.position)} is ${what}, and ${nameOf(name)} looks for it in ${within}: ClickHouse looks for ${one} only in a list of constant values (it reads values per row as the left's type made Nullable, and no Nullable holds ${one})`,
        left.position ?? position,
      );
    }
    // A Variant from `if` or `coalesce` (`like(if(c, 0.95, now()), 'x')`): the engine applies
    // the function to the alternative each row holds (judgeAlternatives). Aggregates take or
    // refuse a Variant as a whole: the mixed variant's own refusals, judged below. A value of
    // one of some types (an array of Nullable numbers, a condition) is one of them in every
    // row, for an aggregate too (`uniqIf(x, array(NULL, 0))`, code 43).
    const mixedAt = facts.signature ? this.judgeWholeCall(name, facts, nodes, args, position) : -1;
    if (facts.signature) this.refuseTupledStates(name, facts, nodes, args, position);
    if (TUPLE_ARITHMETIC.has(name) && nodes.length === 2) this.judgeTupleElements(name, facts, nodes, args, position);
    if (ELEMENT_WISE_ARITHMETIC.has(name) && nodes.length === 2) this.judgeArrayElements(name, facts, nodes, args, position);
    if ((ELEMENT_WISE_ARITHMETIC.has(name) || name === "plus" || name === "minus") && nodes.length === 2) refuseArithmeticOnNulls(name, nodes, args, this.nothing);
    if (LOGICAL_FUNCTIONS.has(name) || name === "xor") refuseFloatAmongConditions(name, nodes, args);
    // A value computed per row on the right of IN (`toHour(t) IN tags[k]`, `n IN upper(s)`,
    // `user IN toDate(finish_ts)`) is no set: ClickHouse compares the two as `=` does, and
    // refuses what `=` refuses. Not an array (its elements are looked in), and not a bare
    // column, which ClickHouse takes.
    // So is an `if`'s or a `coalesce`'s Variant there (`n IN if(c, 'a', 5)`), compared with the
    // alternative each row holds, as `=` compares it (code 386 on a row holding 'a').
    const computedSet =
      membership &&
      !constantSet &&
      (unfoldedSet
        ? computedScalar(right, args[1]!)
        : args[1]!.constant === false && (computedScalar(right, args[1]!) || scalarPerRow(right, args[1]!) || this.isComputedColumn(right, args[1]!) || args[1]!.variant === MIXED_VARIANT));
    if (computedSet) {
      const equals = functionFacts("equals");
      if (mixedAt >= 0) this.judgeAlternatives(name, equals, nodes, args, mixedAt, position);
      judge(this, name, equals, nodes, args, position, false);
    }
    // A value looked for in a UUID or IP column is converted to the column's type, which
    // ClickHouse cannot do from a number or a DateTime (code 48, whatever the rows; `3 IN
    // profiler_id`, `duration IN ip_address_v4`). A Boolean or a string can be. A Date or a
    // DateTime64 is refused as a DateTime is (`timestamp_ms NOT IN ip_address_v4`, code 70).
    // An IP in a UUID column is refused too (`ip_address_v4 IN profile_id`, code 48).
    const soughtDate = membership && args[0]!.variant >= 0 && VARIANT_FAMILIES[args[0]!.variant] === "datetime";
    const soughtIp = membership && IP_VARIANTS.has(args[0]!.variant);
    const sought = membership ? (soughtDate ? "datetime" : args[0]!.cls) : null;
    const setType = sought !== null || soughtIp ? unconvertibleSet(args[1]!) : undefined;
    if (setType !== undefined && (soughtIp ? setType === UUID_SET : setType.refused.has(sought!)) && this.isStorageColumn(nodes[1]!)) {
      const [left, right] = nodes as [Expression, Expression];
      const what = soughtDate || soughtIp ? variantWhat(VARIANTS[args[0]!.variant]!) : CLASS_NAMES[sought!];
      throw invalidQuery(
        `${describe(left)}${at(left.position)} is ${what}, and ${nameOf(name)} looks for it in ${describe(right)}${at(right.position)}, ${setType.column}: ClickHouse cannot convert ${what} to ${setType.to}; ${setType.instead}`,
        left.position ?? position,
      );
    }
    // The other way round (`trace_id IN message_timestamp`, `ip_address_v4 IN client_timestamp`):
    // the column is read as values of the left's type (readAs).
    const readAs = membership ? readAsOf(args[0]!) : undefined;
    if (readAs !== undefined && readAs.cannotRead(args[1]!) && this.isStorageColumn(nodes[1]!)) {
      const [left, right] = nodes as [Expression, Expression];
      const held = typeName(args[1]!);
      throw invalidQuery(
        `${describe(left)}${at(left.position)} is ${readAs.what}, and ${nameOf(name)} looks for it in ${describe(right)}${at(right.position)}, ${held}: ClickHouse reads that column as ${readAs.plural} and cannot convert ${held} to one; ${readAs.instead}`,
        right.position ?? position,
      );
    }
    // A Boolean looked for in a string column (`TRUE IN transaction_op`): the column's texts are
    // read as Booleans, and the first that is none fails the query (code 467). Refused whatever
    // the rows, as a string compared with a Nullable number is: no column of names holds only
    // 'true' and 'false'. A number, a DateTime or a Date is read leniently there and taken.
    if (membership && args[0]!.cls === "bool" && args[0]!.variant < 0 && args[1]!.cls === "string" && this.isStorageColumn(nodes[1]!)) {
      const [left, right] = nodes as [Expression, Expression];
      throw invalidQuery(
        `${describe(left)}${at(left.position)} is a boolean, and ${nameOf(name)} looks for it in ${describe(right)}${at(right.position)}, a string column: ClickHouse reads the column's texts as booleans and fails on the first that is not one ('true', 'false', '1', '0', ...); compare the column with a text instead`,
        left.position ?? position,
      );
    }
    if (args.length === 2 && VALUE_COMPARISONS.has(name)) refuseArrayBesideScalar(name, nodes, args, this.columnTexts);
    if (args.length === 2 && VALUE_COMPARISONS.has(name)) refuseMixedArraysOfOtherFamilies(name, nodes, args);
    if ((args.length === 2 && VALUE_COMPARISONS.has(name)) || COMMON_TYPE_FUNCTIONS.has(name)) refuseTuplesOfTwoSizes(name, nodes);
    if (args.length === 2 && VALUE_COMPARISONS.has(name)) this.judgeComparedTuples(name, facts, nodes, position);
    if ((args.length === 2 && VALUE_COMPARISONS.has(name)) || ARRAYS_IN_COMMON_TYPE.has(name)) refuseArraysOfIntegersWithoutCommonType(name, nodes, args);
    if ((args.length === 2 && VALUE_COMPARISONS.has(name)) || COMMON_TYPE_FUNCTIONS.has(name)) refuseIPv4BesideFloatOrSigned(name, nodes, args);
    if (args.length === 2 && ELEMENT_LOOKUPS.has(name)) refuseIPv4AmongFloatsOrSigned(name, nodes[0]!, args[0]!, nodes[1]!, args[1]!);
    if (STATE_BESIDE_NULL_FUNCTIONS.has(name)) refuseStateBesideNull(name, nodes, args, this.nothing);
    if (args.length === 2 && COMPARISONS.has(name)) this.judgeComparedStrings(name, nodes, args, computedSet);
    judgeConvertedText(name, nodes, this.columnTexts);
    refuseZeroIndex(name, nodes, args, this.constantValue, this.holdsNumber);
    if (nodes.length === 2 && (name === "plus" || name === "multiply")) this.refuseStateArithmetic(name, nodes, args);
    // In a condition, a comparison of an array column's elements is what the rewrite makes of
    // it: `exception_frames.stack_level = 0` on discover, which lacks the column, is `false`, a
    // Bool the engine then compares with the rest (`s != (… = 0)` of a String s, code 386).
    const elements = facts.comparesElements ? this.elementComparisonOf(node) : null;
    if (elements !== null) return elements.form === "constant" ? BOOL_CONSTANT : CONDITION;
    // An aggregate's result is a column to the engine, whatever it aggregates (`anyLast('a')`,
    // `count()`: isConstant is 0), so `count() = anyLast('x')` is two columns (code 386).
    const constant = facts.aggregate ? false : constants > 0 && constants === args.length ? true : columns > 0 ? false : null;
    // `x IN (1, 2)` is a UInt8, Nullable when x is. The probe has no class for IN's result: with
    // a column on the right it is Nullable(UInt8) whatever x is (`in(s, s2)` on two Strings).
    if (constantSet && args[0]!.cls !== null) return typed("uint8", constant, args[0]!.nullable);
    // With a storage column on the right (`project_id NOT IN use_case_id`, `x IN tags.key`) it
    // is a Nullable(UInt8) whatever x is: the engine reads the column as a set per row. A
    // computed value there is compared as `=` compares (a UInt8), judged below.
    if (membership && this.isStorageColumn(nodes[1]!)) return typed("uint8", false, true);
    // With a scalar computed per row there (`s IN toDate(t)`, `n IN upper(s)`), compared as `=`
    // compares, it is a UInt8, Nullable on neither side (an array there is looked in, and is not).
    if (membership && !constantSet && scalarPerRow(nodes[1]!, args[1]!)) return typed("uint8", constant);
    // AND, OR and IN answer a UInt8, Nullable where an operand is, whatever their operands'
    // types: with an operand of no known type (`x IN now()` of a string, a Variant), a UInt8
    // either way (condition); `NULL AND NULL` too, but `NULL IN (1)` is a Nothing.
    // (Asked only of a call the rules leave untyped: the NULL look walks the left operand.)
    // So do `=`, `<` and the other comparisons of values of no class, where neither may be a
    // Nothing (`item_id < attributes_float[x]` of a UInt128, `x = NULL` is a Nothing).
    const answersCondition = (): boolean =>
      LOGICAL_FUNCTIONS.has(name) || (membership && !this.mayBeNothing(nodes[0]!)) || (VALUE_COMPARISONS.has(name) && !nodes.some((arg) => this.mayBeNothing(arg)));
    // `tuple(a, b)` is a tuple whatever its elements: judged on the tuple variant's refusals.
    // So is `tuple(a)`: the SQL keeps the call, and ClickHouse makes a Tuple(T) of it
    // (`tuple(n) = 1` and `tags[level] != tuple('x')` are refused, codes 43 and 386).
    if (name === "tuple") return args.length > 0 ? variantTyped(TUPLE_VARIANT, constant) : typed(null, constant);
    if (name === "array") return arrayOf(args, constant, nodes.map(this.nothing), nodes);
    const ipArithmetic = ipv4ArithmeticType(name, args, constant);
    if (ipArithmetic !== null) return ipArithmetic;
    const elementAt = facts.signature ? facts.elementOfAt[args.length]! : -1;
    if (elementAt >= 0 && args[elementAt]!.elements !== undefined) return mixedElementType(args[elementAt]!, name === "arrayElement" ? nodes[1] : undefined, constant);
    // An element of a Nested column read whole is a tuple (`arrayElement(tags, org_id) <= 3`, code 43; seed 24).
    if (elementAt >= 0 && args[elementAt]!.variant === NESTED_VARIANT) return variantTyped(TUPLE_VARIANT, constant);
    if (name === "if" || name === "multiIf") {
      refuseIPv4AmongBranches(name, nodes, args, this.nothing, this.constantValue);
      const branches = branchesType(nodes, args, constant, this.nothing, this.constantValue);
      if (branches !== null) return branches;
    }
    if (name === "ifNull" || name === "coalesce") {
      const first = coalesceType(nodes, args, constant, this.nothing);
      if (first !== null) return first;
    }
    // Of a Variant, most functions return a Variant or a Nullable of what they return (`like`
    // of a Variant(String, UInt8) is a Nullable(UInt8)): no class. A condition is a condition.
    // A function whose result is one class whatever it is given (`isNotNull(x)`) keeps it.
    if (mixedAt >= 0 && keepsPlainResult(facts.signature, args.length)) return typed(facts.signature!.result, constant);
    if (mixedAt >= 0 && args[mixedAt]!.variant === MIXED_VARIANT && !answersCondition() && !BRANCHING_FUNCTIONS.has(name)) {
      const through = this.resultOfVariant(name, facts, nodes, args, mixedAt, constant);
      if (through !== null) return through;
    }
    if (mixedAt >= 0 && !perRowAlternatives(args[mixedAt]!) && args[mixedAt]!.variant < 0 && args[mixedAt]!.arrayOf === undefined && !answersCondition() && !BRANCHING_FUNCTIONS.has(name)) {
      const through = resultOfOneOf(name, facts, args, mixedAt, constant, nodes);
      if (through !== null) return through;
    }
    // An array of numbers divided or multiplied element by element, one of some types
    // (`array(flag) / rate`, an Array(Bool) divided: an Array(Float64)) or not, is an array.
    if ((name === "divide" || name === "multiply") && args.length === 2) {
      const product = arrayArithmeticType(name, nodes, args, constant);
      if (product !== null) return product;
      if (mixedAt >= 0 && isNumbersProduct(name, args)) return NUMBER_ARRAYS[constnessIndex(constant)]!;
    }
    if (mixedAt >= 0) return answersCondition() ? condition(name, args, constant) : typed(null, constant);
    if (COMMON_TYPE_FUNCTIONS.has(name)) {
      const common = this.numbersCommonType(nodes, args, constant);
      if (common !== null) return common;
    }
    // A NULL there is a NULL literal, a column the storage computes as one (`exception_main_thread`
    // on transactions), or a comparison of one (isNothing).
    if (COMMON_TYPE_FUNCTIONS.has(name) && nodes.some(this.nothing)) return commonTypeBesideNull(facts, args.filter((_, i) => !this.isNothing(nodes[i]!)), constant);
    // `sumIf(x, NULL)`: of the type the call has with a UInt8 condition (a UInt64 here), not a NULL.
    if (isIfAggregate(name, facts, args.length) && this.isNothing(nodes[args.length - 1]!)) return resultTyped(facts, [...args.slice(0, -1), CONDITION], constant);
    // `arrayMap((k) -> now(), tags.value)` is an Array(DateTime): an array of what its lambda
    // returns, where that has a scalar class and reads no column (nor a parameter, read per
    // element as a column is). An engine test holds it.
    const lambda = nodes[0];
    if (name === "arrayMap" && nodes.length >= 2 && lambda?.kind === "lambda") {
      const body = this.inLambda(lambda, args.slice(1), () => this.visit(lambda.body));
      if (body.cls !== null && body.variant < 0 && !body.nullable && body.constant !== false && elementClass(body.cls) === null && body.cls !== "aggregateState") return arrayOfClass(body.cls, constant);
      // Of a scalar class otherwise (reading a column, Nullable: `arrayMap((v) -> divide(granularity,
      // TRUE), tags.value)`, an Array(Float64)), still an array: one of the arrays the probe tried,
      // refused only where every one is (`bucketed_time - arrayMap(…)`, code 43; seed 15).
      if (body.cls !== null && body.variant < 0 && elementClass(body.cls) === null && body.cls !== "aggregateState") return MAPPED_ARRAYS[constnessIndex(constant)]!;
    }
    // `arrayFilter((v) -> …, a)` is a of fewer elements, `arraySort((v) -> …, a)` a reordered:
    // the type of their first array, whatever the lambda returns (`now() < arrayFilter(…, tags.key
    // / 100)` compares a DateTime with an Array(Float64), code 43; seed 23).
    if (ARRAY_KEEPING_LAMBDA_FUNCTIONS.has(name) && nodes.length >= 2 && lambda?.kind === "lambda" && isArrayTyped(args[1]!)) {
      return args[1]!.constant === constant ? args[1]! : { ...args[1]!, constant };
    }
    if (TUPLE_ARITHMETIC.has(name) && args.length === 2) {
      const kept = keptArithmeticType(name, args, constant);
      if (kept !== null) return kept;
    }
    if (COMMON_TYPE_FUNCTIONS.has(name)) {
      const widest = uint128CommonType(args, constant);
      if (widest !== null) return widest;
    }
    if (COMMON_TYPE_FUNCTIONS.has(name) && args.some((t) => t.cls === "bool" && t.variant < 0)) return numbersWithBool(args, constant);
    if (LOGICAL_FUNCTIONS.has(name) && nodes.some(this.nothing)) return logicalBesideNull(args.filter((_, i) => !this.isNothing(nodes[i]!)), constant);
    const result = withIntegerType(name, args, resultTyped(facts, args, constant, nodes));
    const untyped = result.cls === null && result.variant < 0 && result.alternatives === undefined;
    if (untyped && isNumbersProduct(name, args)) return NUMBER_ARRAYS[constnessIndex(constant)]!;
    return untyped && answersCondition() ? condition(name, args, constant) : result;
  }

  /**
   * Whether the engine's analyzer holds an aggregate's parameter a constant (null: unknown). It
   * folds calls of constants and an `if` whose condition is one (`quantiles(if(1, 0.5, s))`,
   * `plus(0.1, if(1, 0.2, s))`), not a `multiIf`; a call reading a column is none even where its
   * value is one (`quantiles(coalesce(1000, geo_region))`, code 36).
   */
  private parameterConstness(param: Expression, depth = 0): boolean | null {
    const constant = this.visit(param).constant;
    if (constant !== false) return this.readsColumnUnfolded(param, 0) ? false : constant;
    // Typed per row: a column read, or an `if` the analyzer folds to a constant branch.
    if (param.kind !== "function" || depth > MAX_CONTAINER_DEPTH || functionFacts(param.name).aggregate || param.name === "multiIf") return false;
    if (param.name === "if" && param.args.length === 3 && !this.readsColumnUnfolded(param.args[0]!, 0)) {
      const picked = pickedBranch(param.args, this.nothing, this.constantValue);
      return picked >= 0 ? this.parameterConstness(param.args[picked]!, depth + 1) : null;
    }
    const each = param.args.map((arg) => this.parameterConstness(arg, depth + 1));
    return each.includes(false) ? false : each.includes(null) ? null : true;
  }

  /** A curried call (`quantiles(0.5)(x)`): its parameters checked, its arguments typed and judged. */
  private visitCurried(node: Extract<Expression, { kind: "curried" }>): Typed {
    node.params.forEach((param, i) => {
      const problem = parameterProblem(node.name, i, param, this.parameterConstness(param), node.params);
      if (problem !== null) {
        const position = param.position ?? node.position;
        throw invalidQuery(`parameter ${i + 1} of ${node.name}(…)${at(position)}, ${param.kind === "lambda" ? "a lambda" : describe(param)}, ${problem}`, position);
      }
    });
    const facts = curriedArgumentFacts(node.name);
    const args: Typed[] = [];
    for (const arg of node.args) args.push(this.visit(arg));
    const mapper = this.mapperOf(node.name, node.args);
    if (mapper !== undefined) judgeMappedCount(node.name, mapper, node.args, node.position);
    // A mapped aggregate (`quantiles(…)(value)`, quantilesMerge of a state on the metrics
    // entities) takes the parameters the plain one does (`quantiles()(value)`, code 42): its
    // value, counted above, is the state.
    if (facts.signature && mapper !== undefined) judgeCurried(node.name, facts.signature, node.params.length, 1, node.position);
    if (facts.signature && mapper === undefined) {
      // An aggregate given a NULL is ClickHouse's `nothing` aggregate, which checks no count;
      // not the quantiles of many levels, which check theirs and refuse a NULL value.
      const multiLevel = MULTI_LEVEL_QUANTILE.test(node.name);
      if (multiLevel || !node.args.some((arg) => this.mayBeNothing(arg))) judgeCurried(node.name, facts.signature, node.params.length, node.args.length, node.position);
      if (multiLevel) this.refuseNothingQuantiled(node.name, node.args, node.position);
      judge(this, node.name, facts, node.args, args, node.position, true);
    }
    // `quantile(0.9)(x)` is of the type `quantile(x)` is: the level does not change it; nor
    // does a size (`topK(10)(time)` is an Array(DateTime), as `topK(time)` is). topK's third
    // parameter, 'counts', makes it an array of tuples (each value with its count): left untyped.
    if (facts.signature && (SINGLE_LEVEL_QUANTILE.test(node.name) || (SIZED_AGGREGATE.test(node.name) && node.params.length < 3))) return resultTyped(facts, args, false, node.args);
    // `quantiles(0.5)(project_id)` of a number is an array of numbers whose type depends on the
    // function and the argument (an Array(Float64), an Array(Float32) of quantilesTDigest, an
    // Array(UInt64) of quantilesExact): one of the arrays of numbers (`100 - quantiles(0.5)(x)`
    // is refused, code 43). Of a DateTime it is an Array(DateTime): left untyped.
    if (facts.signature && mapper === undefined && MULTI_LEVEL_QUANTILE.test(node.name) && args[0] !== undefined && isPlainNumber(args[0])) return NUMBER_ARRAYS[constnessIndex(false)]!;
    return UNKNOWN_COLUMN;
  }

  /** The types of a call's arguments whose first is a lambda: the arrays after it, then the lambda, its body typed with its parameters bound (inLambda). */
  private visitLambdaCall(nodes: readonly Expression[]): Typed[] {
    const arrays = nodes.slice(1).map((node) => this.visit(node));
    const lambda = nodes[0] as Extract<Expression, { kind: "lambda" }>;
    return [this.inLambda(lambda, arrays, () => this.visit(lambda)), ...arrays];
  }

  /**
   * Runs `walk` with the lambda's parameters bound to the elements of the arrays after it, as
   * ClickHouse gives them (`arrayAll((x) -> ifNull(x, geo_city), _flags_hash_map)`: x is a UInt64,
   * and ifNull finds no common type of it and a Nullable(String), code 386). A parameter whose
   * array's elements the pass cannot name stays untyped.
   */
  inLambda<T>(lambda: Extract<Expression, { kind: "lambda" }>, arrays: readonly Typed[], walk: () => T): T {
    const outer = this.lambdaParameters;
    const inner = new Map(outer);
    lambda.params.forEach((name, i) => inner.set(name, arrays[i] === undefined ? UNKNOWN : lambdaParameterType(arrays[i])));
    this.lambdaParameters = inner;
    try {
      return walk();
    } finally {
      this.lambdaParameters = outer;
    }
  }

  /**
   * Arithmetic with a tuple written as `tuple(...)` is done element by element: `tuple(a, b) * n`
   * multiplies a and b by n (tupleMultiplyByNumber), `tuple(a, b) + tuple(c, d)` adds a to c and b
   * to d, `t - tuple(a, b)` subtracts a, then b, from t (subtractTupleOfIntervals). ClickHouse
   * refuses the whole call when it refuses one element's operation (code 43), so each is judged
   * as the call of its own. Two tuples of different sizes are refused too.
   */
  private judgeTupleElements(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
    const [left, right] = args as [Expression, Expression];
    const leftTuple = this.tupleValueOf(left);
    const rightTuple = this.tupleValueOf(right);
    if (leftTuple && rightTuple) {
      if (leftTuple.args.length !== rightTuple.args.length) {
        throw invalidQuery(
          `${nameOf(name)}${at(position)} of two tuples works element by element, and needs tuples of the same size: the one${at(leftTuple.position ?? position)} has ${leftTuple.args.length} element${leftTuple.args.length === 1 ? "" : "s"}, the one${at(rightTuple.position ?? position)} ${rightTuple.args.length}`,
          rightTuple.position ?? position,
        );
      }
      for (let k = 0; k < leftTuple.args.length; k++) {
        const pair = [leftTuple.args[k]!, rightTuple.args[k]!];
        this.judgeAs(() => elementBy(name, k, position), () => this.judgeElementOperation(name, facts, pair, pair.map((element) => this.visit(element)), position));
      }
      return;
    }
    const tuple = leftTuple ?? rightTuple;
    // A tuple the query did not write as a call, nor as an alias of one (a column, a function's
    // result): its elements are not known.
    const tupleFirst = tuple === leftTuple;
    if (!tuple || types[tupleFirst ? 1 : 0]!.variant === TUPLE_VARIANT) return;
    const other = tupleFirst ? right : left;
    const otherType = types[tupleFirst ? 1 : 0]!;
    tuple.args.forEach((element, k) => {
      const elementType = this.visit(element);
      const pair = tupleFirst ? [element, other] : [other, element];
      this.judgeAs(() => elementBy(name, k, position), () => this.judgeElementOperation(name, facts, pair, tupleFirst ? [elementType, otherType] : [otherType, elementType], position));
    });
  }

  /**
   * `tuple(1, device_classification) < tuple(version_name, version_code)`: two tuples are compared
   * element by element, and ClickHouse refuses the comparison where it refuses one pair's (a
   * UInt8 and a String: code 386; a UInt8 and an Array(Float64): code 43). Judged where both are
   * written as calls (or aliases of them) of one size; tuples of two sizes are refused already
   * (refuseTuplesOfTwoSizes). Not a pair with a NULL in it, nor a Nullable beside an array or a
   * value of no class: the engine compares only rows' values that are not NULL, and reads a
   * Nullable string beside an array as one. A Nullable beside a scalar is judged as the pair
   * alone is, refused on the first row holding a value. Not `=` or `!=` with a pair of two
   * constants in it that may differ: there the engine answers without comparing the rest
   * (`tuple(s, 1) = tuple(2, 2)`); where they are equal (`tuple(s, 1) = tuple(n, 1)`) it compares it.
   * An engine test holds it.
   */
  private judgeComparedTuples(name: string, facts: FunctionFacts, args: readonly Expression[], position: TextPosition | undefined): void {
    const left = this.tupleValueOf(args[0]!);
    const right = this.tupleValueOf(args[1]!);
    if (!left || !right || left.args.length !== right.args.length) return;
    const pairs = left.args.map((element, k) => [element, right.args[k]!]);
    const types = pairs.map((pair) => pair.map((element) => this.visit(element)));
    const equality = name === "equals" || name === "notEquals";
    // A text among the elements is read as the other's type, as beside it alone (`tuple(u, 1) <
    // tuple('a', 2)` of a UInt64 u is code 53). Not beside a pair of constants `=` may find
    // different (`tuple(u, 1) = tuple('a', 2)` is answered; `tuple(u, 1) = tuple('a', 1)` is not).
    const constantPairsEqual = pairs.every((pair, k) => !types[k]!.every((t) => t.constant === true) || (pair.every((element) => element.kind === "literal") && this.constantValue(pair[0]!) === this.constantValue(pair[1]!)));
    if (!equality || constantPairsEqual) pairs.forEach((pair, k) => this.judgeAs(() => elementBy(name, k, position), () => this.judgeComparedStrings(name, pair, types[k]!, false)));
    // An array beside a Nullable value of a class other than a string (`tuple(contexts.key) =
    // tuple(num_processing_errors)`, code 43; seed 15): refused while the query is planned,
    // whatever the rows. A Nullable string is read as an array per row, and taken.
    pairs.forEach((pair, k) => {
      const arrayAt = isArrayTyped(types[k]![0]!) ? 0 : isArrayTyped(types[k]![1]!) ? 1 : -1;
      const scalar = arrayAt < 0 ? undefined : types[k]![1 - arrayAt]!;
      if (scalar === undefined || !scalar.nullable || scalar.variant >= 0 || scalar.cls === null || scalar.cls === "string" || !SCALAR_VALUE_CLASSES.has(scalar.cls) || this.isNothing(pair[1 - arrayAt]!)) return;
      const [array, value] = [pair[arrayAt]!, pair[1 - arrayAt]!];
      throw invalidQuery(
        `${elementBy(name, k, position)} ${describe(array)}${at(array.position)} is an array and ${describe(value)}${at(value.position)} ${CLASS_NAMES[scalar.cls]} (Nullable): ClickHouse compares an array only with an array, or with a text`,
        value.position ?? array.position,
      );
    });
    if (equality && !constantPairsEqual) return;
    // A pair with a Nullable in it is judged as the pair alone is where both are scalars
    // (`tuple(dist) != tuple(replay_id)`, a Nullable(String) and a UUID: code 386 on a row holding
    // a value; seed 19). Not beside an array: a Nullable string there is read as one per row.
    const scalar = (t: Typed) => (t.variant < 0 ? t.alternatives === undefined && t.cls !== null && SCALAR_VALUE_CLASSES.has(t.cls) : t.variant === UINT128_VARIANT);
    pairs.forEach((pair, k) => {
      const pairTypes = types[k]!;
      if (pairTypes.some((t, i) => this.isNothing(pair[i]!) || (t.variant >= 0 && VARIANT_MAY_BE_NULL[t.variant]))) return;
      if (pairTypes.some((t) => t.nullable) && !pairTypes.every(scalar)) return;
      this.judgeAs(() => elementBy(name, k, position), () => this.judgeWholeCall(name, facts, pair, types[k]!, position));
    });
  }

  /**
   * `0.95 * groupUniqArray(last)`, `count() / groupUniqArray(value)`: a number and an array are
   * multiplied, divided (intDiv, modulo, ...) element by element, and ClickHouse refuses the call
   * where it refuses one element's operation (a float times a state, a state divided: code 43;
   * a state times a number computed per row: code 44). Judged so where the pass knows the
   * array's elements (elementType) and the other operand is a number that is not Nullable.
   */
  private judgeArrayElements(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
    const arrayAt = types[0]!.elementType !== undefined ? 0 : types[1]!.elementType !== undefined ? 1 : -1;
    if (arrayAt < 0 || !isPlainNumber(types[1 - arrayAt]!) || types[1 - arrayAt]!.nullable) return;
    const array = args[arrayAt]!;
    const elementTypes = types.slice();
    elementTypes[arrayAt] = types[arrayAt]!.elementType!;
    // ClickHouse does arithmetic element by element only on elements of no Nullable type
    // (`modulo(array(NULL, now()), 2)`, `array(NULL, 1) * 2`: code 43), whatever it would do with one such value.
    if (elementTypes[arrayAt]!.nullable) {
      throw invalidQuery(
        `${nameOf(name)}${at(position)} works element by element on ${describe(array)}${at(array.position)}, whose elements are each ${typeName(elementTypes[arrayAt]!)}: ClickHouse does that only on elements of no Nullable type; leave the NULL out of the array`,
        array.position ?? position,
      );
    }
    this.judgeAs(
      () => `${nameOf(name)}${at(position)} works element by element on ${describe(array)}${at(array.position)}, whose elements are each ${typeName(elementTypes[arrayAt]!)}; taken as one element,`,
      () => this.judgeElementOperation(name, facts, args, elementTypes, position),
    );
  }

  /**
   * The result of a call given an `if`'s or a `coalesce`'s Variant (`if(2, org_id, use_case_id) *
   * tags.value`): the engine applies the function to each of the Variant's types, leaves out
   * those it refuses, and makes the one result left Nullable where it can be (an array cannot):
   * an Array(UInt64) here, a Nullable(String) for `upper(if(c, n, s))`. Results of several
   * classes make a Variant of them (`if(c, u, f) + 1` is a Variant(Float64, UInt64)), the mixed
   * variant, refused as an ORDER BY key as an `if`'s is. A result the pass has no class for:
   * none. greatest and least of a Variant beside NULLs alone are that Variant
   * (`greatest(multiIf(c, x, s), NULL)`). An engine test holds it over every probed function of
   * one or two arguments.
   */
  private resultOfVariant(name: string, facts: FunctionFacts, nodes: readonly Expression[], args: readonly Typed[], at: number, constant: boolean | null): Typed | null {
    if (COMMON_TYPE_FUNCTIONS.has(name) && nodes.length > 1 && nodes.every((node, i) => i === at || this.isNothing(node))) return args[at]!;
    // A function of one fixed result class, or a conversion, may take the Variant whole
    // (`toString`, `cityHash64`, `toDateTime`: a plain String, UInt64, DateTime): which ones do is
    // not probed.
    if (!facts.signature || facts.signature.result !== null || CONVERSION.test(name) || args.some((t, i) => i !== at && (t.alternatives !== undefined || t.cls === null))) return null;
    const results: ArgumentClass[] = [];
    const each = [...args];
    for (const alternative of args[at]!.alternatives!) {
      each[at] = alternative;
      if (refuses(() => judge(this, name, facts, nodes, each, undefined, false))) continue;
      const r = resultTyped(facts, each, constant, nodes);
      if (r.cls === null || r.variant >= 0 || r.alternatives !== undefined || r.cls === "aggregateState") return null;
      if (!results.includes(r.cls)) results.push(r.cls);
    }
    if (results.length === 0) return null;
    if (results.length > 1) {
      const alternativeConstant = constant === false ? false : null;
      return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives: results.map((cls) => typed(cls, alternativeConstant)) };
    }
    const result = results[0]!;
    if (elementClass(result) !== null) return typed(result, constant);
    return NULLABLE_CLASSES.includes(result) ? typed(result, constant, true) : null;
  }

  /**
   * `tuple(a, b) IN tuple(c)`, `tuple(a, b) IN ((1, 2), (3))`: a tuple of k elements is looked for
   * among tuples of k elements. ClickHouse reads a list of values there as one tuple when none of
   * them is a tuple, and as a list of tuples when all are; a list of another size, tuples of
   * another size, or tuples beside values fail the query whatever the rows (codes 124 and 53).
   * A list element of a type the pass cannot see as a tuple or not (a call's result) leaves it be.
   */
  private refuseSetOfOtherSizes(name: string, args: readonly Expression[]): void {
    const [left, right] = args as [Expression, Expression];
    const tuple = this.tupleCallOf(left);
    const list = this.tupleCallOf(right);
    if (!tuple || !list) return;
    const size = tuple.args.length;
    const elements = list.args.map((element) => this.tupleCallOf(element));
    const values = list.args.filter((element, k) => elements[k] === null);
    if (values.some((element) => element.kind !== "literal" && element.kind !== "column")) return;
    if (values.some((element) => this.visit(element).variant === TUPLE_VARIANT)) return;
    const wrong = elements.find((element) => element !== null && element.args.length !== size) ?? undefined;
    let shape: string;
    if (values.length === list.args.length) {
      if (list.args.length === size) return;
      shape = `a list of ${list.args.length} value${list.args.length === 1 ? "" : "s"}, which ClickHouse reads as one tuple of ${list.args.length}`;
    } else if (values.length > 0) shape = "a list of tuples and single values";
    else if (wrong) shape = `a list holding a tuple of ${wrong.args.length}${at(wrong.position)}`;
    else return;
    throw invalidQuery(
      `${describe(left)}${at(left.position)} is a tuple of ${size}, and ${nameOf(name)} looks for it in ${shape}: ClickHouse looks for a tuple only among tuples of its size`,
      wrong?.position ?? right.position ?? left.position,
    );
  }

  /**
   * `tuple(spans.group) IN NULL`, `tuple(a, x) IN tuple(1, NULL)`: ClickHouse finds no set of a
   * tuple whose first element is an array or a tuple where the set holds a NULL, for the whole
   * tuple or for any element of it read as one tuple (code 43: a Nothing there). A NULL the
   * storage computes for a column on the right (`NOT IN sample_weight` on discover) is one. A
   * list of tuples holding a NULL is taken, and so is any of this with the container later on.
   */
  private refuseNullForContainers(name: string, args: readonly Expression[]): void {
    const [left, right] = args as [Expression, Expression];
    const tuple = this.tupleCallOf(left);
    const first = tuple?.args[0];
    if (!tuple || first === undefined) return;
    const t = this.visit(first);
    if (!isContainerValue(first, t) && t.arrayOf === undefined) return;
    let nullAt: Expression | undefined;
    if (this.isNothing(right)) nullAt = right;
    else {
      // A list of as many values as the tuple has, none a tuple, is read as one tuple (refuseSetOfOtherSizes).
      const list = this.tupleCallOf(right);
      if (!list || list.args.length !== tuple.args.length || list.args.some((element) => this.tupleCallOf(element) !== null)) return;
      nullAt = list.args.find((element) => this.isNothing(element));
      if (nullAt === undefined) return;
    }
    const theNull = nullAt.kind === "literal" ? `a NULL${at(nullAt.position)}` : `${describe(nullAt)}${at(nullAt.position)} (a NULL on this entity)`;
    throw invalidQuery(
      `${describe(left)}${at(left.position)} is a tuple whose first element, ${describe(first)}${at(first.position)}, is ${containerWhat(first, t)}, and ${nameOf(name)} looks for it in a set holding ${theNull}: ClickHouse makes no set of such a tuple with a NULL in it; compare its elements one by one`,
      nullAt.position ?? left.position,
    );
  }

  /** A `tuple(...)` call, written so or as an alias of one (`tuple(a, b) AS level`), else null. */
  private tupleCallOf(node: Expression, depth = 0): Extract<Expression, { kind: "function" }> | null {
    if (isTupleCall(node)) return node;
    if (depth > 8 || node.kind !== "column" || node.entityAlias !== undefined || node.insideOwnAlias) return null;
    const definition = this.aliases.get(node.name);
    return definition === undefined ? null : this.tupleCallOf(definition, depth + 1);
  }

  /**
   * The `tuple(…)` call a value is, as tupleCallOf, or through an `ifNull` or a `coalesce` that
   * returns it: a tuple is never NULL, so the first one among the arguments not NULL is the value
   * (`coalesce(tuple(TRUE, s), 'x')` is that tuple; seed 15). For arithmetic and comparison,
   * which work on its elements; not for IN, which reads only a `tuple(…)` call as a list.
   */
  private tupleValueOf(node: Expression, depth = 0): Extract<Expression, { kind: "function" }> | null {
    const call = this.tupleCallOf(node);
    if (call !== null || depth > 8 || node.kind !== "function") return call;
    // An aggregate that returns one of its rows' values (`max(tuple(FALSE, n, 'transaction')) / 1`;
    // seed 16) returns a tuple of the same elements' types.
    if (ROW_VALUE_AGGREGATES.has(node.name) && node.args[0] !== undefined) return this.tupleValueOf(node.args[0], depth + 1);
    if (TUPLE_ARITHMETIC.has(node.name) && node.args.length === 2) return this.arithmeticTupleOf(node, depth);
    if (node.name !== "coalesce" && node.name !== "ifNull") return null;
    const first = node.args.find((arg) => !this.isNothing(arg));
    return first === undefined ? null : this.tupleValueOf(first, depth + 1);
  }

  /**
   * The tuple arithmetic with a tuple makes, element by element, as tupleArithmeticType types
   * it: `2.5 * tuple(a, b)` is `tuple(2.5 * a, 2.5 * b)`, `tuple(a, b) - tuple(c, d)` is
   * `tuple(a - c, b - d)`. So the elements of `2.5 * tuple(a, b) * item_id` are judged as
   * `2.5 * a * item_id` is (a Float64 times a UInt128, code 43; seed 19). Null where the call
   * makes no tuple: the product of two tuples is a number, a number divided by a tuple is refused.
   */
  private arithmeticTupleOf(node: Extract<Expression, { kind: "function" }>, depth: number): Extract<Expression, { kind: "function" }> | null {
    const name = node.name;
    const [left, right] = node.args as [Expression, Expression];
    const leftTuple = this.tupleValueOf(left, depth + 1);
    if (leftTuple === null && name !== "multiply") return null;
    const rightTuple = this.tupleValueOf(right, depth + 1);
    let elements: Expression[];
    if (name === "plus" || name === "minus") {
      if (leftTuple === null || rightTuple === null || leftTuple.args.length !== rightTuple.args.length) return null;
      elements = leftTuple.args.map((element, k) => elementCall(name, element, rightTuple.args[k]!, node.position));
    } else if (leftTuple !== null) {
      if (rightTuple !== null) return null;
      elements = leftTuple.args.map((element) => elementCall(name, element, right, node.position));
    } else {
      if (rightTuple === null) return null;
      elements = rightTuple.args.map((element) => elementCall(name, left, element, node.position));
    }
    return { kind: "function", name: "tuple", args: elements, ...(node.position ? { position: node.position } : {}) };
  }

  /** One element's operation of tuple arithmetic, as the call of its own: a state times a column per element is refused too (`tuple(state) * n`). */
  private judgeElementOperation(name: string, facts: FunctionFacts, pair: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
    judge(this, name, facts, pair, types, position, false);
    if (name === "plus" || name === "multiply") this.refuseStateArithmetic(name, pair, types);
  }

  /**
   * A call judged on its probed refusals, per alternative where an argument has some
   * (judgeAlternatives). Returns the position judged so, else -1.
   * - Aggregates take or refuse a mixed Variant as a whole: judged on its own refusals alone.
   * - An array of NULLs, or another array of unnamed elements, holds elements of any type: where
   *   what another position takes depends on them (`has(array(NULL), x)`), it is left to the
   *   engine. Arrays of numbers are judged by their alternatives even there
   *   (alternativesSpanElements).
   */
  private judgeWholeCall(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): number {
    let mixedAt = mixedArgument(types);
    if (facts.aggregate && mixedAt >= 0 && types[mixedAt]!.variant === MIXED_VARIANT) mixedAt = -1;
    if (mixedAt >= 0 && types[mixedAt]!.arrayOf !== undefined && !types[mixedAt]!.alternativesSpanElements && elementsDecide(facts, types, mixedAt)) mixedAt = -1;
    if (mixedAt === 0 && this.isVariantInConstants(name, args, types)) {
      this.judgeVariantInConstants(name, args, types, position, (variant, value, each) => judge(this, name, facts, [variant, value], each, position, false));
      mixedAt = -1;
    }
    if (mixedAt >= 0) this.judgeAlternatives(name, facts, args, types, mixedAt, position);
    judge(this, name, facts, args, types, position, false);
    return mixedAt;
  }

  /**
   * An `if`'s Variant looked for in a list of constants (`if(c, s, i) IN ('a', 1000)`): ClickHouse
   * converts each value of the list to the Variant once, while it plans the query, into the first
   * alternative that reads it, and then compares per row. So a value is refused only where every
   * alternative refuses it (`if(c, now(), 1000) IN ('a')`, code 117), whatever the rows hold; the
   * rows' alternatives are not judged one by one as in a call. `judgeValue` judges one value
   * beside one alternative: as the call's arguments (judge), or as a text read as the
   * alternative's type (judgeComparedString). An engine test holds it (variants-in-lists.test.ts).
   */
  private judgeVariantInConstants(
    name: string,
    args: readonly Expression[],
    types: readonly Typed[],
    position: TextPosition | undefined,
    judgeValue: (variant: Expression, value: Expression, types: readonly Typed[]) => void,
  ): void {
    const [variant, set] = args as [Expression, Expression];
    const alternatives = types[0]!.alternatives!;
    for (const value of isTupleCall(set) ? set.args : [set]) {
      if (this.isNothing(value)) continue;
      const refused = refusalOfAlternatives(alternatives, [types[0]!, this.visit(value)], 0, "every", (each) => judgeValue(variant, value, each));
      if (refused === undefined) continue;
      throw invalidQuery(
        `${describe(variant)}${at(variant.position ?? position)} is a Variant of ${list(alternatives.map(typeName))} (${noCommonType(types[0]!)}), and ${nameOf(name)}${at(position)} converts each value of its list to that Variant: ${describe(value)}${at(value.position ?? position)} reads as none of them. As ${typeName(refused.alternative)}: ${refused.error.message}`,
        refused.error.position ?? value.position ?? position,
      );
    }
  }

  /**
   * A call with a Variant argument, judged as the engine runs it: once per alternative, each in
   * the Variant's place.
   * - The mixed variant of an `if` or a `coalesce` holds each alternative in the rows that pick
   *   it, and ClickHouse fails the query on the first row whose alternative the call refuses
   *   (`lower(coalesce(location, 1))` fails on a row where location is NULL, code 43;
   *   `title = if(c, title, 3)` where c is false, code 386). Whether such a row exists depends
   *   on the data, so the call is refused when it refuses any alternative: on the rows where it
   *   would answer it answers by chance, and Snuba's ClickHouse, which has no Variant, refuses
   *   the branches themselves.
   * - A type the pass cannot pin down among a few (which one depends on its arguments' exact
   *   types) is one of them for every row: refused only when every alternative is.
   */
  private judgeAlternatives(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], mixedAt: number, position: TextPosition | undefined): void {
    const alternatives = heldAlternatives(types[mixedAt]!);
    const perRow = perRowAlternatives(types[mixedAt]!);
    // A second argument of alternatives is one of them in every row: judged inside each.
    const otherAt = types.findIndex((t, i) => i !== mixedAt && t.alternatives !== undefined);
    const refused = refusalOfAlternatives(alternatives, types, mixedAt, perRow ? "any" : "every", (each) => {
      if (otherAt < 0) judge(this, name, facts, args, each, position, false);
      else this.judgeAlternatives(name, facts, args, each, otherAt, position);
    });
    if (refused === undefined) return;
    const mixed = args[mixedAt]!;
    if (perRow) throw invalidQuery(`${rowsHoldingPrefix(mixed, types[mixedAt]!, refused.alternative, position)} ${refused.error.message}`, refused.error.position ?? position);
    const what =
      types[mixedAt]!.variant === MIXED_VARIANT
        ? `a Variant of ${list(alternatives.map(typeName))} (${noCommonType(types[mixedAt]!)})`
        : (types[mixedAt]!.arrayOf ?? `one of ${list(alternatives.map(typeName))} (which one depends on its arguments' exact types)`);
    const none = types[mixedAt]!.arrayOf !== undefined ? `takes none of ${list(alternatives.map(typeName))} there` : "takes none of them";
    throw invalidQuery(`${describe(mixed)}${at(mixed.position ?? position)} is ${what}, and ${nameOf(name)}${at(position)} ${none}. As ${typeName(refused.alternative)}: ${refused.error.message}`, refused.error.position ?? position);
  }

  /**
   * A text compared with a value of another type: judgeComparedString's. Compared with the mixed
   * variant of an `if` or a `coalesce` (`coalesce(location, 1) = 'x'`), the text is compared with
   * the alternative each row holds, and must read as every one (see judgeAlternatives).
   */
  private judgeComparedStrings(name: string, args: readonly Expression[], types: readonly Typed[], computedSet: boolean): void {
    const mixedAt = types.findIndex((t) => t.alternatives !== undefined && perRowAlternatives(t));
    if (mixedAt < 0) {
      // A value of one of some types (`greatest(TRUE, x, NULL)`, a condition): the text must read
      // as one of them at least (`greatest(TRUE, sample_weight, duration) > '%a%'`, code 53).
      const oneOfAt = types.findIndex((t) => t.alternatives !== undefined);
      if (oneOfAt < 0) return judgeComparedString(name, args, types, computedSet, this.columnTexts);
      const refused = refusalOfAlternatives(types[oneOfAt]!.alternatives!, types, oneOfAt, "every", (each) => judgeComparedString(name, args, each, computedSet, this.columnTexts));
      if (refused === undefined) return;
      const oneOf = args[oneOfAt]!;
      throw invalidQuery(
        `${describe(oneOf)}${at(oneOf.position)} is one of ${list(types[oneOfAt]!.alternatives!.map(typeName))} (which one depends on its arguments' exact types), and the text compared with it reads as none of them. As ${typeName(refused.alternative)}: ${refused.error.message}`,
        refused.error.position,
      );
    }
    const mixed = types[mixedAt]!;
    // Looked for in a list of constants, the Variant takes each text one of its alternatives
    // reads (judgeVariantInConstants).
    if (mixedAt === 0 && this.isVariantInConstants(name, args, types)) {
      return this.judgeVariantInConstants(name, args, types, undefined, (variant, value, each) => judgeComparedString(name, [variant, value], each, computedSet, this.columnTexts));
    }
    for (const alternative of heldAlternatives(mixed)) {
      const each = types.slice();
      each[mixedAt] = alternative;
      this.judgeAs(
        () => rowsHoldingPrefix(args[mixedAt]!, mixed, alternative, undefined),
        () => judgeComparedString(name, args, each, computedSet, this.columnTexts),
      );
    }
  }

  /** Whether a call looks an `if`'s Variant up in a list of constants (or one constant): `in(if(c, s, i), ('a', 1))`. */
  private isVariantInConstants(name: string, args: readonly Expression[], types: readonly Typed[]): boolean {
    // The list's own type is the visit's: a call judges a tuple there as a type of no class.
    return (name === "in" || name === "notIn") && args.length === 2 && types[0]!.variant === MIXED_VARIANT && this.visit(args[1]!).constant === true;
  }

  /**
   * `1000 IN tuple(server_sample_rate, TRUE, trace_id)`: a list holding a value read per row is
   * no set, and ClickHouse casts each of its values to the left's type made Nullable, row by row
   * (code 48 for a UUID cast to a number: seed 13). Where the left is a number, a DateTime or a
   * UUID, that cast refuses exactly the values `=` refuses beside it, but for strings, which it
   * parses per row (`1 IN tuple(title, 2)` is answered where each title reads as a number): each
   * value but a string is judged as `left = value`. A string or a Bool on the left takes more
   * (any value casts to a String; a Bool takes a UUID), and is left alone. An engine test holds it
   * for every pair of classes.
   */
  private judgePerRowList(name: string, left: Expression, leftType: Typed, list: Extract<Expression, { kind: "function" }>, position: TextPosition | undefined): void {
    if (leftType.cls === null || leftType.variant >= 0 || !PER_ROW_LIST_LEFT.has(leftType.cls)) return;
    const equals = functionFacts("equals");
    for (const value of list.args) {
      const valueType = this.visit(value);
      if (valueType.cls === null || valueType.cls === "string" || valueType.variant >= 0 || this.isNothing(value)) continue;
      this.judgeAs(
        () => `${nameOf(name)}${at(position)} reads ${describe(value)}${at(value.position)}, a value read per row in its list, as the left's type, and`,
        () => judge(this, "equals", equals, [left, value], [leftType, valueType], position, false),
      );
    }
  }

  /** Judges a call the query's call stands for; a refusal is prefixed with what it stands for (built only then). */
  private judgeAs(prefix: () => string, judgeIt: () => void): void {
    try {
      judgeIt();
    } catch (error) {
      if (!(error instanceof QueryServiceError)) throw error;
      throw invalidQuery(`${prefix()} ${error.message}`, error.position);
    }
  }

  /**
   * Arithmetic on aggregate states (engine-checked in test/pipeline/state-arithmetic.test.ts):
   * `a + b` merges two states of one function over one type, and ClickHouse refuses states of
   * different ones (code 421: `sum + histogram_buckets` on metrics_distributions); `state * n`
   * repeats a state n times, and n must be a constant (code 44: `granularity * count`).
   */
  private refuseStateArithmetic(name: string, args: readonly Expression[], types: readonly Typed[]): void {
    const [left, right] = args as [Expression, Expression];
    if (name === "plus") {
      const [first, second] = [this.stateTypeOf(left), this.stateTypeOf(right)];
      if (first === null || second === null || first === second) return;
      throw invalidQuery(
        `${describe(left)}${at(left.position)} is an aggregate state of ${first}, and ${describe(right)}${at(right.position)} one of ${second}: plus (+) merges states of one function over one type only`,
        right.position ?? left.position,
      );
    }
    for (let side = 0; side < 2; side++) {
      const other = types[1 - side]!;
      const otherNode = args[1 - side]!;
      if (types[side]!.cls !== "aggregateState" || other.constant !== false || other.cls === null || ARRAY_FAMILIES[other.cls] !== "number") continue;
      throw invalidQuery(
        `${describe(otherNode)}${at(otherNode.position)} is computed per row, and multiply (*) repeats the aggregate state ${describe(args[side]!)}${at(args[side]!.position)} a constant number of times only: write a number`,
        otherNode.position,
      );
    }
  }

  /** The type of a column of aggregate states read as it is stored (`AggregateFunction(sum, Float64)`), else null. */
  private stateTypeOf(node: Expression): string | null {
    const entity = this.entityOfColumn(node);
    if (entity === undefined || node.kind !== "column") return null;
    const mapper = entity.columnMappers[node.name];
    if (mapper !== undefined && mapper.kind !== "column") return null;
    return stateColumnTypes(entity).get(mapper?.kind === "column" ? mapper.column : node.name) ?? null;
  }

  /** The entity a column is read from, where it names one of the entity's columns: not an alias, not ARRAY JOINed. */
  private entityOfColumn(node: Expression): EntityDefinition | undefined {
    if (node.kind !== "column" || this.isArrayJoined(node)) return undefined;
    if (node.entityAlias === undefined && !node.insideOwnAlias && this.aliases.has(node.name)) return undefined;
    return this.entityOf(node.entityAlias);
  }

  /** The text of a column its entity maps to a string literal (`type` is 'transaction' on transactions), else null. */
  private readonly constantValue: ValueOf = (node) => {
    if (node.kind === "literal") return node.value;
    const mapper = node.kind === "column" ? this.entityOfColumn(node)?.columnMappers[node.name] : undefined;
    return mapper?.kind === "literal" ? mapper.value : undefined;
  };

  /** The texts the entity maps columns to, and the values always NULL on it: what constantText reads. */
  private readonly columnTexts: ColumnTexts = { text: (node) => this.textOfColumn(node, 0), isNull: (node) => this.isNothing(node) };

  /** The text a column its entity maps to one holds, or an alias of a text names (`type AS time`, `'pageload' AS total`), else null. */
  private textOfColumn(node: Expression, depth: number): string | null {
    if (node.kind !== "column") return null;
    const definition = node.entityAlias === undefined && !node.insideOwnAlias && depth <= 8 ? this.aliases.get(node.name) : undefined;
    if (definition !== undefined) return constantText(definition, { text: (column) => this.textOfColumn(column, depth + 1), isNull: this.columnTexts.isNull });
    const mapper = this.entityOfColumn(node)?.columnMappers[node.name];
    return mapper?.kind === "literal" && typeof mapper.value === "string" ? mapper.value : null;
  }

  /**
   * A column of a scalar class the SQL computes per row: a time bucket (`bucketed_time` is
   * `toStartOfHour(timestamp)` at an hour's granularity, `toDate(timestamp)` at a day's), an
   * expression or a subscript. On the
   * right of IN it is no set but a value, compared as `=` compares (`'x' IN bucketed_time`).
   */
  private isComputedColumn(node: Expression, t: Typed): boolean {
    // A Nullable one too (`duration IN user` on discover, `nullIf(user, '')`): compared row by
    // row as `=` compares, refused where `=` refuses the pair on a row's value (code 386).
    // A time bucket at a day's granularity is a Date (`toDate(timestamp)`), of no class.
    if (node.kind !== "column" || (t.cls === null ? !DATES.has(t.variant) : elementClass(t.cls) !== null)) return false;
    const entity = this.entityOfColumn(node);
    if (!entity) return false;
    const mapper = entity.columnMappers[node.name];
    return entity.timeBucketColumns[node.name] !== undefined || mapper?.kind === "expression" || mapper?.kind === "subscript";
  }

  /** A column the SQL reads as it is stored: no alias, no mapper but a rename, no time bucket, not ARRAY JOINed. */
  private isStorageColumn(node: Expression): boolean {
    const entity = this.entityOfColumn(node);
    if (!entity || node.kind !== "column" || entity.timeBucketColumns[node.name] !== undefined || !storedColumnNames(entity).has(node.name)) return false;
    const mapper = entity.columnMappers[node.name];
    return mapper === undefined || mapper.kind === "column";
  }

  /** An alias has its definition's class (`count() AS c` is an integer wherever `c` is used). */
  private aliasType(name: string): Typed {
    const known = this.aliasTypes.get(name);
    if (known !== undefined) return known ?? UNKNOWN;
    this.aliasTypes.set(name, null);
    // An alias of a constant may or may not be one to its users (of unknown constness); an alias
    // of a value read per row is read per row wherever it is used (`transaction AS t ... now() !=
    // t` compares a DateTime with a String column, code 386).
    const inCondition = this.inCondition;
    this.inCondition = false;
    const definition = this.visit(this.aliases.get(name)!);
    this.inCondition = inCondition;
    const constant = definition.constant === false ? false : null;
    const result = definition.alternatives ? { ...definition, constant } : definition.variant >= 0 ? variantTyped(definition.variant, constant) : typed(definition.cls, constant, definition.nullable);
    this.aliasTypes.set(name, result);
    return result;
  }

  /**
   * True when the expression may be of type Nullable(Nothing): a NULL literal, a column the
   * storage computes as a bare NULL, a column of an entity not known here, or an alias of such.
   * Most functions answer NULL for such an argument without judging the others, so no robust
   * refusal applies beside one.
   */
  /** False for a value certainly read per row: it reads a stored column or is an aggregate. Aliases and unknown columns may be constants. */
  private mayBeConstant(node: Expression, depth: number): boolean {
    if (depth > 8) return true;
    switch (node.kind) {
      case "column": {
        if (node.entityAlias === undefined && !node.insideOwnAlias && this.aliases.has(node.name)) return true;
        const entity = this.entityOfColumn(node);
        if (!entity) return true;
        return entity.columnMappers[node.name]?.kind === "literal" || (this.factsOf(node.entityAlias)?.nullColumns.has(node.name) ?? true);
      }
      case "function":
        return !functionFacts(node.name).aggregate && node.args.every((arg) => this.mayBeConstant(arg, depth + 1));
      case "curried":
        return false;
      default:
        return true;
    }
  }

  mayBeNothing(node: Expression, depth = 0): boolean {
    switch (node.kind) {
      case "literal":
        return node.value === null;
      case "column":
        if (node.entityAlias === undefined && !node.insideOwnAlias && this.aliases.has(node.name)) {
          if (depth > 8) return true;
          // An alias's definition is not rewritten as a condition (see aliasType).
          const inCondition = this.inCondition;
          this.inCondition = false;
          const nothing = this.mayBeNothing(this.aliases.get(node.name)!, depth + 1);
          this.inCondition = inCondition;
          return nothing;
        }
        return this.factsOf(node.entityAlias)?.nullColumns.has(node.name) ?? true;
      case "function":
        // `count(NULL)` is a UInt64: a NULL does not reach past a call whose result stays plain.
        const facts = functionFacts(node.name);
        // Nor past a comparison of an array's elements in a condition: a Bool or a UInt8 there.
        if (facts.comparesElements && this.elementComparisonOf(node) !== null) return false;
        if (keepsPlainResult(facts.signature, node.args.length)) return false;
        // Nor past an -If aggregate's condition: `sumIf(x, NULL)` is a UInt64.
        if (isIfAggregate(node.name, facts, node.args.length)) return node.args.slice(0, -1).some((arg) => this.mayBeNothing(arg, depth));
        // A tuple or an array holds its NULLs: `tuple(NULL, 1)` is a Tuple(Nullable(Nothing), UInt8).
        // AND and OR answer a Nullable(UInt8) for them (`NULL AND NULL`).
        if (node.name === "tuple" || node.name === "array" || LOGICAL_FUNCTIONS.has(node.name)) return false;
        // IN answers a Nothing only for a Nothing on its left (`s IN NULL` is a UInt8), looked for
        // in a constant set: in values read per row it is a (Nullable) UInt8 (`NULL IN
        // exception_stacks.value`, `NULL IN upper(s)`).
        if (node.name === "in" || node.name === "notIn") return node.args.length > 0 && this.mayBeNothing(node.args[0]!, depth) && (node.args.length < 2 || this.mayBeConstant(node.args[1]!, depth));
        // Of the common type of its values: Nothing only when each value may be
        // (`greatest(NULL, NULL, 'info')` and `if(c, NULL, 'a')` are Nullable(String)s).
        if (node.name === "if" || node.name === "multiIf") return node.args.every((arg, i) => !isBranch(i, node.args.length) || this.mayBeNothing(arg, depth));
        if (COMMON_TYPE_FUNCTIONS.has(node.name) || node.name === "coalesce" || node.name === "ifNull") return node.args.every((arg) => this.mayBeNothing(arg, depth));
        // A lambda returning a NULL makes no NULL of its function (`arrayAll((v) -> toHour(received),
        // a)` on discover_transactions, which stores no `received`, is a UInt8): only its values may.
        return node.args.some((arg) => arg.kind !== "lambda" && this.mayBeNothing(arg, depth));
      case "curried":
        return node.args.some((arg) => arg.kind !== "lambda" && this.mayBeNothing(arg, depth)) || node.params.some((param) => this.mayBeNothing(param, depth));
      case "lambda":
        return this.mayBeNothing(node.body, depth);
      default:
        return false;
    }
  }

  /** `WHERE sessions > 1` on sessions: the column is an aggregate in the storage (ClickHouse's code 184 otherwise). */
  private refuseAggregateColumn(node: Extract<Expression, { kind: "column" }>): void {
    const sql = this.factsOf(node.entityAlias)?.aggregateColumns.get(node.name);
    if (sql === undefined) return;
    throw invalidQuery(
      `Aggregate function found in WHERE clause of query: column ${node.name}${at(node.position)} is the aggregate ${sql}; use HAVING to filter on aggregates`,
      node.position,
    );
  }

  private isArrayJoined(node: Extract<Expression, { kind: "column" }>): boolean {
    return this.arrayJoined.size > 0 && this.arrayJoined.has(`${node.entityAlias ?? ""}.${node.name}`);
  }

  /**
   * Whether ClickHouse's analyzer leaves this expression a call that reads a column, although its
   * value is one constant (`coalesce(0.5, user_email)`, `ifNull(now(), tags)`: isConstant is 1, but
   * only once run). An `if` with a literal condition is folded to its branch first (`if(1, 0.5, s)`
   * is the set 0.5); a column the entity maps to a literal or a NULL is that literal in the SQL.
   * An `if` whose condition is a constant computed otherwise is taken as folded (no refusal).
   */
  readsColumnUnfolded(node: Expression, depth: number): boolean {
    if (depth > MAX_CONTAINER_DEPTH) return false;
    switch (node.kind) {
      case "column": {
        const definition = node.entityAlias === undefined && !node.insideOwnAlias ? this.aliases.get(node.name) : undefined;
        if (definition !== undefined) return this.readsColumnUnfolded(definition, depth + 1);
        return this.constantValue(node) === undefined && !this.isBareNull(node);
      }
      case "subscript":
      case "argument":
        return true;
      case "function": {
        const picked = isLiteralIf(node) ? pickedBranch(node.args, this.nothing, this.constantValue) : -1;
        if (picked >= 0) return this.readsColumnUnfolded(node.args[picked]!, depth + 1);
        if (node.name === "if" && node.args.length === 3 && !this.readsColumnUnfolded(node.args[0]!, depth + 1)) return false;
        return node.args.some((arg) => this.readsColumnUnfolded(arg, depth + 1));
      }
      default:
        return false;
    }
  }

  /**
   * Whether a value is one number for every row, known before any is read: a number written out
   * (or a column its entity maps to one), the branch of an `if` or `multiIf` its literal conditions
   * pick, or a constant of a number's class that is not Nullable (`abs(3)`).
   */
  private readonly holdsNumber = (node: Expression, t: Typed, depth = 0): boolean => {
    const value = this.constantValue(node);
    if (value !== undefined) return typeof value === "number";
    if (node.kind === "function" && (node.name === "if" || node.name === "multiIf") && node.args.length % 2 === 1 && depth < MAX_CONTAINER_DEPTH) {
      const picked = pickedBranch(node.args, this.nothing, this.constantValue);
      if (picked >= 0) return this.holdsNumber(node.args[picked]!, this.visit(node.args[picked]!), depth + 1);
    }
    return t.constant === true && !t.nullable && isPlainNumber(t) && !this.isNothing(node);
  };

  /** isNothing, bound: a predicate to hand on. */
  private readonly nothing = (node: Expression): boolean => this.isNothing(node);

  /**
   * Certainly a Nullable(Nothing): a bare NULL, or a comparison, arithmetic or negation of one
   * (`location = 'x'` where the storage computes `location` as NULL), which the engine makes a
   * Nothing whatever the other argument. An engine test holds NOTHING_OF_NULL to that.
   */
  isNothing(node: Expression, depth = 0): boolean {
    if (this.isBareNull(node)) return true;
    if (node.kind === "function" && comparesElements(node.name) && this.elementComparisonOf(node) !== null) return false;
    return node.kind === "function" && depth < 8 && (NOTHING_OF_NULL.has(node.name) || (node.args.length === 2 && NOTHING_OF_NULL_PAIR.has(node.name)) || (node.args.length === 3 && NOTHING_OF_NULL_TRIPLE.has(node.name)) || nothingOfNullArgument(node.name, node.args.length)) && node.args.some((arg) => this.isNothing(arg, depth + 1));
  }

  /** A NULL literal, or a column the storage computes as a bare NULL (an alias of either is left alone). */
  isBareNull(node: Expression): boolean {
    if (node.kind === "literal") return node.value === null;
    if (node.kind !== "column" || (node.entityAlias === undefined && !node.insideOwnAlias && this.aliases.has(node.name))) return false;
    return this.factsOf(node.entityAlias)?.nullColumns.has(node.name) ?? false;
  }

  /** An aggregate the entity rewrites to another call (`sum(value)` -> `sumMerge(...)` on metrics). */
  private mapperOf(name: string, args: readonly Expression[]): FunctionMapper | undefined {
    const first = args[0];
    if (first?.kind !== "column") return undefined;
    const mappers = this.factsOf(first.entityAlias)?.functionMappers;
    if (mappers === undefined) return undefined;
    for (const mapper of mappers) if (mapper.from === name && mapper.argument === first.name) return mapper;
    return undefined;
  }
}

const DATETIME_CONSTANT = typed("datetime", true);

/** A column type whose set ClickHouse cannot build from values of some classes: what the column is, what it converts to, what to write instead, and the classes refused (code 48). */
interface UnconvertibleSet {
  readonly column: string;
  readonly to: string;
  readonly instead: string;
  readonly refused: ReadonlySet<ArgumentClass>;
}

const UUID_SET: UnconvertibleSet = { column: "a UUID column", to: "a UUID", instead: "compare with a UUID string ('…')", refused: new Set(["uint8", "uint32", "int64", "float64", "datetime"]) };
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
function unconvertibleSet(t: Typed): UnconvertibleSet | undefined {
  if (t.cls === "uuid") return UUID_SET;
  return t.variant >= 0 ? UNCONVERTIBLE_VARIANT_SETS[t.variant] : undefined;
}

/** A call or subscript computed per row whose value is a scalar: of a class that is no array or state, or a scalar variant (a Date, a DateTime64). */
function scalarPerRow(node: Expression, t: Typed): boolean {
  if (t.constant !== false) return false;
  if (t.cls !== null) return t.cls !== "aggregateState" && computedScalar(node, t);
  return (node.kind === "function" || node.kind === "subscript") && t.variant >= 0 && !CONTAINER_VARIANT_AT[t.variant]! && t.variant !== MIXED_VARIANT;
}

/**
 * True for a value the SQL computes with a call (a function, or a subscript, which reads
 * `arrayElement`) and whose class is a scalar one. A tuple or an `array(...)` call has no class
 * here: the caller has set it aside as a set of values.
 */
function computedScalar(node: Expression, t: Typed): boolean {
  if (t.cls === null || elementClass(t.cls) !== null) return false;
  return node.kind === "subscript" || node.kind === "function";
}

/**
 * The facts a curried call's arguments are judged on. `quantiles(0.5, 0.9)(x)` is ClickHouse's
 * `quantile` at several levels and takes the arguments `quantile` takes; the probe calls each
 * function without parameters, where the plural forms have no levels, so it learnt nothing of
 * their arguments, and their singular's facts stand in (an engine test holds each refusal).
 */
function curriedArgumentFacts(name: string): FunctionFacts {
  const facts = functionFacts(name);
  if (!facts.signature || !name.startsWith("quantiles")) return facts;
  let plural = PLURAL_QUANTILE_FACTS.get(name);
  if (plural === undefined) {
    const singular = functionFacts(`quantile${name.slice("quantiles".length)}`);
    plural = singular.signature ? { ...singular, signature: { ...singular.signature, curried: facts.signature.curried } } : facts;
    PLURAL_QUANTILE_FACTS.set(name, plural);
  }
  return plural;
}

/** The quantile functions of many levels (`quantiles`, `quantilesTDigest`, ...), which a NULL does not make the `nothing` aggregate. */
const MULTI_LEVEL_QUANTILE = /^quantiles/;

/** The quantile functions of one level (`quantile`, `quantileExact`, ...; not the plural `quantiles`). */
export const SINGLE_LEVEL_QUANTILE = /^quantile(?!s)/;

/** Aggregates whose parameter is a size (how many values to keep), which leaves the result's type as the plain call's. */
export const SIZED_AGGREGATE = /^(?:topK|topKWeighted|groupArray|groupUniqArray)$/;

/** Allowed names only (functionFacts found a signature). */
const PLURAL_QUANTILE_FACTS = new Map<string, FunctionFacts>();

/** One element's operation of tuple arithmetic as a call of its own, at the arithmetic's position (arithmeticTupleOf). */
function elementCall(name: string, left: Expression, right: Expression, position: TextPosition | undefined): Expression {
  return { kind: "function", name, args: [left, right], ...(position ? { position } : {}) };
}

function elementBy(name: string, k: number, position: TextPosition | undefined): string {
  return `${nameOf(name)}${at(position)} works on a tuple element by element, and refuses element ${k + 1}:`;
}

/** The functions of a lambda and arrays that return their first array, filtered, reordered or filled: of its type. */
const ARRAY_KEEPING_LAMBDA_FUNCTIONS: ReadonlySet<string> = new Set(["arrayFilter", "arrayReverseFilter", "arraySort", "arrayReverseSort", "arrayFill", "arrayReverseFill"]);

/** The arithmetic ClickHouse does element by element on a tuple (tests hold the rule to the engine). */
export const TUPLE_ARITHMETIC: ReadonlySet<string> = new Set(["plus", "minus", "multiply", "divide", "intDiv", "intDivOrZero", "modulo"]);

/** Arithmetic a number and an array undergo element by element, in either order (not plus, minus, moduloOrZero: code 43). */
export const ELEMENT_WISE_ARITHMETIC: ReadonlySet<string> = new Set(["multiply", "divide", "intDiv", "intDivOrZero", "modulo", "positiveModulo"]);

function isTupleCall(node: Expression): node is Extract<Expression, { kind: "function" }> {
  return node.kind === "function" && node.name === "tuple";
}

/** Whether a value is an array or a map (of any elements), which a Nullable cannot hold. */
function isArrayOrMap(t: Typed): boolean {
  if (t.cls === "arrayString" || t.cls === "arrayNumber" || t.arrayOf !== undefined) return true;
  return t.variant >= 0 && (ARRAY_VARIANT_AT[t.variant]! || VARIANTS[t.variant]!.startsWith("map"));
}

function isArrayCall(node: Expression): node is Extract<Expression, { kind: "function" }> {
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
function arrayOf(all: readonly Typed[], constant: boolean | null, nullAt: readonly boolean[], nodes: readonly Expression[]): Typed {
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
  // IPs (IPv4, IPv6) have a common type with none of the families but numbers (an IPv4 and a
  // UInt32 make a UInt32): beside the others, and beside each other, a Variant.
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
  if (ips.size > 0 && !families.has("number") && (families.size > 0 || containers || ips.size > 1)) return variantTyped(MIXED_ARRAY_VARIANT, constant);
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
const NULLS_ARRAY = oneOfArrays((constant) => [typed("arrayString", constant), typed("arrayNumber", constant)], "an array of NULLs (an Array(Nullable(Nothing)))");

/**
 * `array(site) / measurements[cls]` on discover_transactions, which stores no `site`: arithmetic
 * on an array of NULLs is done element by element, on NULLs of no type, which ClickHouse refuses
 * (code 43), beside anything but a NULL (`array(NULL) + NULL` is a NULL). An engine test holds it.
 */
function refuseArithmeticOnNulls(name: string, args: readonly Expression[], types: readonly Typed[], nothing: (node: Expression) => boolean): void {
  const arrayAt = NULLS_ARRAY.includes(types[0]!) ? 0 : NULLS_ARRAY.includes(types[1]!) ? 1 : -1;
  if (arrayAt < 0 || nothing(args[1 - arrayAt]!)) return;
  const array = args[arrayAt]!;
  throw invalidQuery(
    `${describe(array)}${at(array.position)} is an array of NULLs (an Array(Nullable(Nothing))), and ${nameOf(name)} works element by element on it: ClickHouse does no arithmetic on a NULL of no type`,
    array.position,
  );
}

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
const ARRAYS_OF_UNNAMED = oneOfArrays(probedArrays, "an array of values of a type the typing pass names no array for");

/** An array arrayMap makes of values of a scalar class whose exact type the pass does not know (a Nullable, one read per row): as ARRAYS_OF_UNNAMED. */
const MAPPED_ARRAYS = oneOfArrays(probedArrays, "an array arrayMap makes (of values whose exact type the typing pass does not know)");

/**
 * The variants whose values an array of them may hold as its known elements (judgeArrayElements):
 * the Dates, DateTime64s and IPs, and the array variants, each of one exact type (an
 * Array(Array(Nullable(String))) holds Array(Nullable(String))s), and arrays of tuples
 * (`array(tags)` on replays holds Nested columns read whole: `10 / array(tags)` divides a number
 * by arrays of tuples, code 43; seed 18).
 */
const KNOWN_ELEMENT_VARIANT_AT: readonly boolean[] = VARIANTS.map(
  (variant, index) => VARIANT_FAMILIES[index] === "datetime" || variant === "nullableIPv4" || variant === "nullableIPv6" || ARRAY_VARIANT_SAMPLES[variant] !== undefined || index === NESTED_VARIANT,
);

/**
 * An array of values of a variant (ARRAYS_OF_UNNAMED), its elements known where they are a Date,
 * a DateTime64, an IP (`1000 / groupUniqArray(timestamp_ms)`) or an array variant
 * (`transaction_hash / array(array(transaction_name, geo_city))`, code 43 for a UInt64 divided by
 * an Array(Nullable(String)), element by element).
 */
function arrayOfUnnamed(of: Typed, constant: boolean | null): Typed {
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
const ARRAYS_OF_STATES = withElements(ARRAYS_OF_UNNAMED, "aggregateState");

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
function elementsDecide(facts: FunctionFacts, types: readonly Typed[], at: number): boolean {
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
function mixedElementType(array: Typed, index: Expression | undefined, constant: boolean | null): Typed {
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
function arrayOfClass(cls: ArgumentClass, constant: boolean | null, element?: Typed): Typed {
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
const ARRAY_VARIANT_ELEMENT: readonly (Typed | null)[] = VARIANTS.map((variant) => {
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

/** A value the pass names no class, variant or alternatives for. */
function isUntyped(t: Typed): boolean {
  return t.cls === null && t.variant < 0 && t.alternatives === undefined;
}

/**
 * What a lambda's parameter is given: an element of the array at its place (elementOf, of its
 * exact integer type where the pass knows it, or the elements the pass knows of an array of
 * values of no class), read per element as a column is. An array the pass knows only as one of
 * several (an array of NULLs, of Nullable numbers), or a value that is no array, leaves it untyped.
 */
function lambdaParameterType(array: Typed): Typed {
  if (array.elementType !== undefined) return { ...array.elementType, constant: false };
  const isArray = array.variant >= 0 ? ARRAY_VARIANT_AT[array.variant] : elementClass(array.cls) !== null;
  if (array.alternatives !== undefined || !isArray) return UNKNOWN_COLUMN;
  return array.elementInteger !== undefined ? integerTyped(array.elementInteger, false) : elementOf(array);
}

/** An array column's elements: `group_ids = 100` in a condition compares each one. */
function elementOf(t: Typed): Typed {
  // An array variant's elements are judged as their class where they have one
  // (`exception_frames.module = timestamp` compares Nullable strings with a DateTime); a Nested
  // column's tuples and a mixed array's Variant have none. Any other variant (a map, a tuple, a
  // Nullable IP) is no array: it stands for itself.
  if (t.variant >= 0) return ARRAY_VARIANT_AT[t.variant] ? (ARRAY_VARIANT_ELEMENT[t.variant] ?? UNKNOWN_COLUMN) : t;
  const element = elementClass(t.cls);
  return element === null ? t : typed(element, false);
}

/** A result variant's Nullable form, where the pass has one. */
const NULLABLE_VARIANT_OF: Readonly<Record<string, string>> = { date: "nullableDate" };

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

function resultTyped(facts: FunctionFacts, args: readonly Typed[], constant: boolean | null, nodes?: readonly Expression[]): Typed {
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
 * A call given a value that is one of several types in every row (a condition of no known type,
 * a UInt8 or a Nullable one; numbers of several classes): its result is one of the results it
 * has for each (`greatest(x IN y)` is a UInt8 or a Nullable one, `toString(c)` a String). Where
 * the pass has no type for one of them, none. An engine test holds it over every probed function.
 */
/** Conversions (`toDateTime`, `toString`, `toStartOfDay`): some take a Variant whole (resultOfVariant). */
const CONVERSION = /^to[A-Z]/;

/** The aggregates that return one of the values of their first argument, of its type (tupleValueOf). */
const ROW_VALUE_AGGREGATES: ReadonlySet<string> = new Set(["min", "max", "any", "anyLast", "anyHeavy", "argMin", "argMax", "minIf", "maxIf", "anyIf", "anyLastIf", "argMinIf", "argMaxIf"]);

/** The functions the walk types by their branches or their first non-NULL value (branchesType, coalesceType), not by resultTyped. */
const BRANCHING_FUNCTIONS: ReadonlySet<string> = new Set(["if", "multiIf", "ifNull", "coalesce"]);

function resultOfOneOf(name: string, facts: FunctionFacts, args: readonly Typed[], at: number, constant: boolean | null, nodes: readonly Expression[]): Typed | null {
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

/** The functions that take a lambda, for messages. */
const LAMBDA_FUNCTIONS = [...PROBED_FUNCTION_SIGNATURES].filter(([, signature]) => signature.lambda).map(([name]) => name);

function describe(node: Expression): string {
  switch (node.kind) {
    case "literal":
      return typeof node.value === "string" ? `'${node.value.slice(0, 40)}'` : node.value === null ? "NULL" : (node.digits ?? String(node.value));
    case "column":
      return node.label ?? `column ${node.name}`;
    case "subscript":
      return `${node.column}[${node.key}]`;
    case "function":
    case "curried":
      return `${node.name}(…)`;
    case "argument":
      return `the lambda's parameter \`${node.name}\``;
    default:
      return "the argument";
  }
}

function nameOf(name: string): string {
  const symbol = OPERATOR_SYMBOLS[name];
  return symbol ? `${name} (${symbol})` : name;
}

function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]!}`;
}

function countsTaken(refusedCounts: readonly boolean[]): string {
  const shown = [0, 1, 2, 3].filter((n) => !refusedCounts[n]).map(String);
  if (!refusedCounts[4]) shown.push("4 or more");
  return `${list(shown)} argument${shown.length === 1 && shown[0] === "1" ? "" : "s"}`;
}

/** A lambda given to a function that takes none (`sumIf(value, (x) -> now())`: code 43, or 1 for an aggregate the entity maps to its -Merge form). */
function refuseLambda(name: string, lambda: Expression, position: TextPosition | undefined): never {
  const lambdaPosition = lambda.position ?? position;
  throw invalidQuery(`${nameOf(name)}${at(position)} does not take a lambda (the one${at(lambdaPosition)}); functions that do: ${LAMBDA_FUNCTIONS.slice(0, 8).join(", ")}, ...`, lambdaPosition);
}

/** Throws `invalid_query` when the engine would refuse this call for its argument count or classes. */
function judge(typing: ArgumentTyping, name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined, curried: boolean): void {
  const signature = facts.signature!;
  for (let l = 0; l < args.length; l++) {
    const arg = args[l]!;
    if (arg.kind !== "lambda") continue;
    // The probe called each function with lambdas: only the higher-order array functions take
    // one, and always before at least one array.
    const lambdaPosition = arg.position ?? position;
    if (!signature.lambda) refuseLambda(name, arg, position);
    if (args.length === 1 && !signature.lambdaAlone) {
      throw invalidQuery(`${nameOf(name)}${at(position)} needs an array after its lambda, e.g. ${name}((\`x\`) -> ..., tags.value)`, position);
    }
    // Every function that takes a lambda takes one, first, with a parameter per array after it
    // (an engine test holds each to it): anything else is ClickHouse's code 43.
    const second = args.findIndex((other, k) => k > l && other.kind === "lambda");
    if (l > 0 || second >= 0) {
      const extra = l > 0 ? arg : args[second]!;
      const extraPosition = extra.position ?? position;
      throw invalidQuery(`${nameOf(name)}${at(position)} takes one lambda, as its first argument, and arrays after it: the lambda${at(extraPosition)} is argument ${(l > 0 ? l : second) + 1}`, extraPosition);
    }
    const arrays = args.length - 1;
    const params = arg.params.length;
    if (arrays > 0 && params !== arrays) {
      throw invalidQuery(
        `the lambda${at(lambdaPosition)} takes ${params} parameter${params === 1 ? "" : "s"}, and ${name} gives it one element of each array after it: ${arrays} array${arrays === 1 ? "" : "s"}, so ${arrays} parameter${arrays === 1 ? "" : "s"}`,
        lambdaPosition,
      );
    }
    judgeLambdaBody(typing, name, signature, arg, types.slice(l + 1), lambdaPosition);
    judgeAfterLambda(typing, name, facts, args, types, position);
    // The other classes were probed without lambdas: nothing more to judge.
    return;
  }
  // A curried call's counts are judged by judgeCurried, from its own probe; here its argument classes.
  // Given a NULL, an aggregate is ClickHouse's `nothing` aggregate and some functions answer
  // NULL, neither checking the count (`sum(x, NULL)`, `like(s, NULL, 1)`).
  if (!curried && facts.refusedCounts[args.length] === true && !args.some((arg) => typing.mayBeNothing(arg))) {
    throw invalidQuery(`${nameOf(name)}${at(position)} does not take ${args.length} argument${args.length === 1 ? "" : "s"}: it takes ${countsTaken(facts.refusedCounts)}`, position);
  }
  // `has(NULL, 'x')`, a column the storage computes as NULL there, or a call the engine makes a
  // Nothing of (`has(toStartOfHour(NULL), 0)`, `has(now() >= NULL, a)`: the same Nullable(Nothing)
  // type): refused whatever the rest (probed plain; a curried call's parameters may change what it takes).
  const nullAt = curried ? undefined : signature.nullRefused[args.length];
  if (nullAt) {
    for (const i of nullAt) {
      const arg = args[i]!;
      const bare = typing.isBareNull(arg);
      if (!bare && !typing.isNothing(arg)) continue;
      const argPosition = arg.position ?? position;
      const what =
        arg.kind === "literal"
          ? `NULL${at(argPosition)}:`
          : bare
            ? `${describe(arg)}${at(argPosition)} is always NULL on this entity (its storage does not hold it), and`
            : `${describe(arg)}${at(argPosition)} is a call of a NULL, of type Nothing as a NULL is, and`;
      throw invalidQuery(`${what} ${nameOf(name)} does not take a NULL as argument ${i + 1} of ${args.length}: ClickHouse refuses it there whatever the other arguments`, argPosition);
    }
  }
  if (!curried && COMMON_TYPE_FUNCTIONS.has(name)) {
    refuseNullBesideContainer(typing, name, args, types, position);
    refuseArrayOfUnknownElementsBesideScalar(name, args, types, position);
    refuseNumbersWithoutCommonType(typing, name, args, types, position);
    refuseWithoutCommonType(name, facts, args, types, position);
  }
  const rules = facts.counts[args.length];
  if (rules === undefined) return;
  let unknown = 0;
  let nullables = 0;
  for (const t of types) {
    if (t.cls === null) unknown++;
    // A -Merge call takes only its own kind of state: the probe's one kind cannot judge it.
    else if (t.cls === "aggregateState" && name.includes("Merge")) return;
    else if (t.nullable) nullables++;
  }
  const form = formIndex(types);
  // Of three or more arguments, greatest and least have a common type where each two have one
  // (refuseWithoutCommonType): the pairs probed at that count, each beside the probe's own third
  // argument, would refuse `greatest(toDate(t), t, t)` for the third's sake.
  const pairTables = !(COMMON_TYPE_FUNCTIONS.has(name) && args.length > 2);
  if (unknown > 0 || nullables > 0) {
    // A plain argument beside one of unknown type: the refusals that held beside any type
    // (robust), or beside a NULL when the other may be one (most functions answer NULL for a
    // NULL without judging the rest). A Nullable argument: the refusals probed Nullable,
    // beside a NULL the ones that held there too.
    let nothing = false;
    for (let i = 0; i < args.length && !nothing; i++) if (types[i] === NO_VALUE_COLUMN || (types[i]!.cls === null && typing.mayBeNothing(args[i]!))) nothing = true;
    const dependent = facts.elementDependent[args.length]!;
    for (let i = 0; i < types.length; i++) {
      const t = types[i]!;
      if (t.cls === null) {
        // A variant: its own refusals, probed beside the others as in an accepted call, or beside a NULL.
        if (t.variant >= 0) refuseVariantAt(name, args, t.variant, i, (nothing ? rules.variantsBesideNull : rules.variants)[form]?.[i], position);
        continue;
      }
      // Where what this position takes depends on the elements of an array at another (`has(a,
      // x)`), a refusal probed beside classes only (the Nullable ones) does not hold beside an
      // array the pass has no class for (`has(array(timestamp), received)` is taken); nor does
      // the robust refusal of an array or a state beside an array of arrays or of states, which
      // the probe never tried (`has(array(tags.key), tags.key)`).
      // A comparison takes a state beside no array whatever its elements (`array(NULL) < sum`, code 43).
      const stateUntried = t.cls === "aggregateState" && !VALUE_COMPARISONS.has(name);
      if (dependent.size > 0 && types.some((other, k) => other.cls === null && dependent.has(k * 8 + i) && (t.nullable ? mayHoldElementsOf(typing, args[k]!, other, t.cls!) : (elementClass(t.cls!) !== null || stateUntried) && arrayOfUntried(typing, args[k]!, other, t.cls!)))) continue;
      const sets = t.nullable ? (nothing ? rules.nullableBesideNull[form] : rules.nullable[form]) : nothing ? rules.besideNull[form] : rules.robust[form];
      if (sets) refuseAt(name, args, types, i, sets[i]!, position);
    }
    // One Nullable argument beside arguments of known classes: the pairs probed with it Nullable;
    // two: the pairs probed with both Nullable.
    if (!pairTables) return;
    if (unknown === 0 && nullables === 1) refusePairs(name, args, types, rules.nullablePairs[form], position, types.findIndex((t) => t.nullable));
    if (unknown === 0 && nullables === 2) refuseBothNullable(name, args, types, rules.nullablePairs[form], position);
    // Two plain arguments of known classes beside others of unknown type (or NULL): the pairs
    // refused whatever the others are (`greatest('x', 1, c)`).
    if (unknown > 0 && nullables === 0) refusePairs(name, args, types, rules.robustPairs[form], position, -1);
    // One variant beside arguments of known classes: the pairs probed with it, and with its
    // partner Nullable where one is.
    if (unknown === 1 && nullables <= 1 && !nothing) {
      const variantAt = types.findIndex((t) => t.variant >= 0);
      if (variantAt >= 0) refuseVariantPairs(name, args, types, rules.variantPairs[form], position, variantAt, nullables === 1 ? types.findIndex((t) => t.nullable) : -1);
    }
    // Two variants beside arguments of known classes: the pairs probed with both
    // (`spans.exclusive_time / measurements.value`, an Array(Float32) and an Array(Float64);
    // `ip_address_v6 / spans.exclusive_time`, a Nullable(IPv6) and an Array(Float32)).
    if (unknown === 2 && nullables === 0 && !nothing) {
      const i = types.findIndex((t) => t.variant >= 0);
      const j = types.findIndex((t, k) => k > i && t.variant >= 0);
      if (i >= 0 && j > i && rules.variantPairs[form]?.has(pairKey(i, j, typeIndex(types[i]!), typeIndex(types[j]!)))) refuseTogether(name, args, types, i, j, position);
    }
    return;
  }
  const refused = rules.refused[form];
  if (refused) for (let i = 0; i < types.length; i++) refuseAt(name, args, types, i, refused[i]!, position);
  if (pairTables) refusePairs(name, args, types, rules.pairs[form], position, -1);
}

/**
 * Refuses the first pair of arguments whose classes are refused together: all plain
 * (`nullableAt` -1), or with the argument at `nullableAt` Nullable (only the pairs that include
 * it).
 */
function refusePairs(name: string, args: readonly Expression[], types: readonly Typed[], pairs: ReadonlySet<number> | null | undefined, position: TextPosition | undefined, nullableAt: number): void {
  if (!pairs) return;
  for (let i = 0; i < types.length; i++) {
    for (let j = i + 1; j < types.length; j++) {
      if (nullableAt >= 0 && i !== nullableAt && j !== nullableAt) continue;
      // A pair is of two classes: an argument of unknown type (or a variant) is in none.
      if (types[i]!.index < 0 || types[j]!.index < 0) continue;
      if (COMMON_TYPE_FUNCTIONS.has(name) && shapesDecide(types[i]!, types[j]!)) continue;
      if (pairs.has(pairKey(i, j, types[i]!.index, types[j]!.index, nullableAt))) refuseTogether(name, args, types, i, j, position);
    }
  }
}

/**
 * A call's integer result with its exact type where the pass knows it (integer-types.ts): a
 * function of one fixed type (`count()`, `toInt32(x)`), integer arithmetic of two integers of
 * known types (`offset - 3` is an Int64), a DateTime minus a DateTime (an Int32). The type decides
 * the class too: `u % -1` of a UInt64 is a UInt8, where the probe's Int64 gave an integer.
 */
function withIntegerType(name: string, args: readonly Typed[], result: Typed): Typed {
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
 * Arithmetic with an IPv4 (`length(user_email) + ip_address_v4`, `ip - 1`) is integer arithmetic
 * on a UInt32, Nullable as the entities' IPv4 is: a Nullable(UInt64) here, which an -If
 * aggregate refuses as its condition (`uniqIf(0, length(s) + ip)`, code 43; seed 14). Null where
 * the other operand is not an integer of known type. An engine test holds the types
 * (integer-types.test.ts).
 */
function ipv4ArithmeticType(name: string, args: readonly Typed[], constant: boolean | null): Typed | null {
  if (args.length !== 2 || (name !== "plus" && name !== "minus" && name !== "multiply") || (args[0]!.variant !== IPV4_VARIANT && args[1]!.variant !== IPV4_VARIANT)) return null;
  const [left, right] = args.map((t) => (t.variant === IPV4_VARIANT ? UINT32_SHAPE : integerShapeOf(t))) as [IntegerShape | null, IntegerShape | null];
  const integer = left !== null && right !== null ? integerArithmetic(name, left, right) : null;
  return integer === null ? null : integerTyped(integer, constant, true);
}

/**
 * Functions that compare their arguments in their common type, and refuse any call where two of
 * them have none (code 386), whatever the others are: a third argument, a NULL or a Nullable
 * does not help (`greatest(n, 2, 'info')`, `least(NULL, now(), 'a')`, `greatest(toNullable('a'),
 * 1)`). The probe's pairs for three arguments hold only beside classes, and its Nullable pairs
 * only one Nullable at a time; this judges every pair of arguments with a class on the pairs it
 * refused for two. An engine test holds the rule to every call of three classes, Nullable or not.
 */
const COMMON_TYPE_FUNCTIONS: ReadonlySet<string> = new Set(["greatest", "least"]);

/**
 * greatest and least of two numbers with no common type by their exact types (integer-types.ts):
 * a 64-bit integer beside a float (`greatest(count(), 1.5)`), and, past two plain arguments, a
 * UInt64 beside a signed integer (`greatest(count_urls, offset - 3, viewed_by_id)`, code 386).
 */
function refuseNumbersWithoutCommonType(typing: ArgumentTyping, name: string, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
  const bySupertype = args.length > 2 || types.some((t) => t.nullable) || args.some((arg) => typing.isNothing(arg));
  for (let i = 0; i < types.length; i++) {
    const first = numberShapeOf(types[i]!);
    if (first === null) continue;
    for (let j = i + 1; j < types.length; j++) {
      const second = numberShapeOf(types[j]!);
      const problem = second === null ? null : commonTypeProblem(first, second, bySupertype);
      if (problem === null) continue;
      const [a, b] = [args[i]!, args[j]!];
      // A UInt64 written as a literal finds a common type with signed integers, as measured
      // (`greatest(4294967296, x, y)` of Int8s is an Int64); a signed literal does not (`greatest(-1, u, u)`).
      if (problem === "UInt64 beside a signed integer" && (typeof first === "object" && !first.signed ? a : b).kind === "literal") continue;
      // commonTypeProblem finds none for an integer of unknown type: each shape is a float or a known type.
      const what = (arg: Expression, shape: NumberShape) => `${describe(arg)}${at(arg.position ?? position)} is ${typeof shape !== "object" ? "a float" : `${shape.signed ? "an" : "a"} ${integerTypeName(shape)}`}`;
      const why =
        problem === "64-bit integer beside a float"
          ? "no float holds every 64-bit integer, so ClickHouse finds no type for both"
          : "past two arguments (or with a Nullable one) ClickHouse compares in one common type, and no signed integer holds every UInt64";
      throw invalidQuery(`${what(a, first)} and ${what(b, second!)}: ${nameOf(name)} does not take them together (${why})`, b.position ?? position);
    }
  }
}

/** Two numbers whose exact types decide their common type (refuseNumbersWithoutCommonType): the probe's pairs, tried on an Int64 for every integer, do not. */
function shapesDecide(first: Typed, second: Typed): boolean {
  const [a, b] = [numberShapeOf(first), numberShapeOf(second)];
  return a !== null && b !== null && a !== "integer" && b !== "integer";
}

function refuseWithoutCommonType(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
  const pair = pairWithoutCommonType(facts, types);
  if (pair !== null) refuseTogether(name, args, types, pair[0], pair[1], position);
}

const FLOAT64S_VARIANT = VARIANT_INDEX.get("float64s")!;
const ARRAY_OF_VARIANT: Readonly<Partial<Record<ArgumentClass, number>>> = { uint8: VARIANT_INDEX.get("uint8s")!, bool: VARIANT_INDEX.get("bools")!, datetime: VARIANT_INDEX.get("datetimes")!, uuid: UUIDS_VARIANT };
const FLOAT32S_VARIANT = VARIANT_INDEX.get("float32s")!;

/** A number of a known class (Nullable or not), not a variant. */
function isPlainNumber(t: Typed): boolean {
  return t.variant < 0 && t.cls !== null && ARRAY_FAMILIES[t.cls] === "number";
}

/** An array of numbers none of which is Nullable: an array-of-integers column, an Array(Float64), Array(Float32) or Array(Bool), an Array(UInt32), or one of the arrays of numbers (NUMBER_ARRAYS). */
function isNumberArray(t: Typed): boolean {
  // Of one of some types: NUMBER_ARRAYS, or an array of numbers of a known class (an Array(UInt32)).
  if (t.variant < 0 && t.arrayOf !== undefined) return t.arrayOf === NUMBER_ARRAYS[0]!.arrayOf || (t.elementType !== undefined && isPlainNumber(t.elementType));
  return t.variant < 0 ? t.cls === "arrayNumber" : t.variant === FLOAT64S_VARIANT || t.variant === FLOAT32S_VARIANT || t.variant === BOOLS_VARIANT;
}
const BOOLS_VARIANT = VARIANT_INDEX.get("bools")!;

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
  // A Nullable number makes a Nullable(Tuple(...)), which the pass has no type for; a UInt128
  // (eap_items' ids) is a number as the classes are (`tuple(a, b) / item_id`).
  const isNumber = (t: Typed) => (t.variant < 0 ? !t.nullable && t.cls !== null && ARRAY_FAMILIES[t.cls] === "number" : t.variant === UINT128_VARIANT);
  const elementWise =
    (isTuple(left) && isTuple(right) && (name === "plus" || name === "minus")) ||
    (isTuple(left) && isNumber(right) && name !== "plus" && name !== "minus") ||
    (isNumber(left) && isTuple(right) && name === "multiply");
  return elementWise ? variantTyped(TUPLE_VARIANT, constant) : null;
}

/** The unsigned classes a UInt128 is the common type with (`greatest(0, item_id)`). */
const UNDER_UINT128: ReadonlySet<ArgumentClass | null> = new Set(["uint8", "uint32", "bool"]);

/**
 * `greatest(0, item_id, item_type)`: the common type of UInt128s and unsigned integers (none
 * Nullable) is a UInt128. With a signed integer it is an Int256, with a float none (code 43):
 * no type. An engine test holds it.
 */
function uint128CommonType(types: readonly Typed[], constant: boolean | null): Typed | null {
  let wide = false;
  for (const t of types) {
    if (t.variant === UINT128_VARIANT) wide = true;
    // An integer of the int64 class known unsigned (a UInt16, a UInt64) widens too (`greatest(downsampled_retention_days, item_id)`; seed 15).
    else if (t.variant >= 0 || t.nullable || !(UNDER_UINT128.has(t.cls) || (t.cls === "int64" && integerShapeOf(t)?.signed === false))) return null;
  }
  return wide ? variantTyped(UINT128_VARIANT, constant) : null;
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
 * give: a tuple's (element by element), a date's, an IP's, a 128-bit integer's.
 */
function keptArithmeticType(name: string, types: readonly Typed[], constant: boolean | null): Typed | null {
  return tupleArithmeticType(name, types, constant) ?? dateArithmeticType(name, types, constant) ?? ipArithmeticType(name, types, constant) ?? wideIntegerArithmeticType(name, types, constant) ?? integerArraysArithmeticType(name, types, constant);
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

/**
 * `tags.key - tags.key <= tags.value` on metrics: two arrays are compared in their elements'
 * common type, and integers of known types may have none (an Int64 and a UInt64; an Int32 and a
 * UInt64): code 43, whatever the rows. Two integers compared alone are taken (ClickHouse compares
 * an Int64 with a UInt64 without a common type); arrays are not. The functions that bring two
 * arrays to one type (arrayConcat, hasAny, hasAll, greatest, ...) refuse them too (code 386).
 * An engine test holds both.
 */
function refuseArraysOfIntegersWithoutCommonType(name: string, args: readonly Expression[], types: readonly Typed[]): void {
  for (let j = 1; j < types.length; j++) {
    const right = types[j]!;
    if (right.elementInteger === undefined || right.variant >= 0) continue;
    for (let i = 0; i < j; i++) {
      const left = types[i]!;
      if (left.elementInteger === undefined || left.variant >= 0 || integerCommonType([left.elementInteger, right.elementInteger]) !== null) continue;
      const [a, b] = [args[i]!, args[j]!];
      const how = VALUE_COMPARISONS.has(name) ? "compares two arrays" : "takes its arrays";
      throw invalidQuery(
        `${describe(a)}${at(a.position)} is an Array(${integerTypeName(left.elementInteger)}) and ${describe(b)}${at(b.position)} an Array(${integerTypeName(right.elementInteger)}): ${nameOf(name)} ${how} in their elements' common type, and ${integerTypeName(left.elementInteger)} and ${integerTypeName(right.elementInteger)} have none`,
        b.position ?? a.position,
      );
    }
  }
}

/** The functions that take arrays in their elements' common type, besides the comparisons: `arrayConcat(a, b)` of an Array(Int64) and an Array(UInt64) is code 386. */
const ARRAYS_IN_COMMON_TYPE: ReadonlySet<string> = new Set(["arrayConcat", "hasAny", "hasAll", "greatest", "least"]);

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
function arrayArithmeticType(name: string, nodes: readonly Expression[], types: readonly Typed[], constant: boolean | null): Typed | null {
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
function isNumbersProduct(name: string, types: readonly Typed[]): boolean {
  return name === "multiply" && types.length === 2 && numberArrayBesideNumber(types) >= 0;
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

/**
 * A product of numbers element by element whose element type depends on the operands' exact
 * types (`[1, 2] * 1` is an Array(UInt16), `quantilesTDigest(0.5, 0.9)(x) * 1000` an
 * Array(Float64)): an array of numbers, none Nullable, one of those the probe tried, refused only
 * where each is (`count() + 1000 * quantiles(0.5, 0.9)(x)`: plus takes no array, code 43). An
 * engine test holds the engine's type of each such product to an array of numbers.
 */
const NUMBER_ARRAYS = oneOfArrays(
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

/** The number classes (a UInt8, a 64-bit integer, a float, a UInt32, a Bool). */
const NUMBER_CLASSES: readonly Typed[] = ARGUMENT_CLASSES.filter((cls) => ARRAY_FAMILIES[cls] === "number").map((cls) => typed(cls, null));
const NULLABLE_NUMBER_CLASSES: readonly Typed[] = NUMBER_CLASSES.map((t) => typed(t.cls, null, true));

/**
 * A condition whose operands' types the pass does not know (`a AND x IN now()`): one of these
 * classes, Nullable or not, each judged in turn where it is used, refused only where none is
 * taken (`arrayElement(a AND b, 1)`, `toStartOfHour(x IN c AND d)`). An engine test holds the
 * engine's type of such conditions to one of them.
 */
function conditionsOf(classes: readonly ArgumentClass[]): readonly Typed[] {
  return [true, false, null].map((constant) => ({ cls: null, index: -1, constant, nullable: false, variant: -1, alternatives: classes.flatMap((cls) => [typed(cls, constant), typed(cls, constant, true)]) }));
}
const UINT8_CONDITIONS = conditionsOf(["uint8"]);
const BOOL_CONDITIONS = conditionsOf(["bool"]);
const ANY_CONDITIONS = conditionsOf(["uint8", "bool"]);
/** The alternatives of a UInt8 condition (an alias's type keeps them, not the object). */
const UINT8_CONDITION_ALTERNATIVES: ReadonlySet<readonly Typed[] | undefined> = new Set(UINT8_CONDITIONS.map((t) => t.alternatives));

/**
 * What an AND, OR or IN of these operands is, where the probe's rules do not say: IN a UInt8
 * (`b IN (1)` of a Bool too); AND and OR a Bool where an operand is one (`b AND 1`), a UInt8
 * where every operand has a class (or is such a condition), else either. Nullable or not.
 */
function condition(name: string, args: readonly Typed[], constant: boolean | null): Typed {
  const logical = LOGICAL_FUNCTIONS.has(name);
  const conditions = !logical
    ? UINT8_CONDITIONS
    : args.some((t) => t.cls === "bool")
      ? BOOL_CONDITIONS
      : args.every((t) => t.cls !== null || (t.alternatives !== undefined && UINT8_CONDITION_ALTERNATIVES.has(t.alternatives)))
        ? UINT8_CONDITIONS
        : ANY_CONDITIONS;
  return conditions[constnessIndex(constant)]!;
}

/**
 * `greatest(click_is_rage, TRUE, 2 + x)`: numbers with a Boolean among them are a number, but
 * which one the engine's rules for Bool decide (`greatest(TRUE, 1)` is a UInt8, `greatest(TRUE,
 * 1, 2)` a Bool, with a UInt16 a UInt16): one of the number classes, each judged in turn where
 * it is used, refused only where none is taken (`greatest(TRUE, 1) >= event_id`); Nullable
 * ones where any argument is Nullable. With a value of another type among them, no type. An
 * engine test holds the engine's result to one of them.
 */
function numbersWithBool(args: readonly Typed[], constant: boolean | null): Typed {
  if (!args.every(isPlainNumber)) return typed(null, constant);
  return { cls: null, index: -1, constant, nullable: false, variant: -1, alternatives: args.some((t) => t.nullable) ? NULLABLE_NUMBER_CLASSES : NUMBER_CLASSES };
}

/** An aggregate with the -If combinator (`sumIf(x, c)`), called with a value and its condition. */
function isIfAggregate(name: string, facts: FunctionFacts, count: number): boolean {
  return facts.aggregate && count >= 2 && name.endsWith("If");
}

/** What an -If aggregate's NULL condition counts as for the call's type: a UInt8 column (an engine test holds the types alike). */
const CONDITION = typed("uint8", false);
const BOOL_CONSTANT = typed("bool", true);

const LOGICAL_FUNCTIONS: ReadonlySet<string> = new Set(["and", "or"]);

/**
 * A float other than 0 or 1 among the operands of AND or xor (`c AND 2.5`), or of an OR of
 * constants alone (`8.70503 IS NULL OR 54839.27`; seed 16): ClickHouse fails to convert it to a
 * condition while it plans the query (code 70, whatever the rows). Beside a column, OR reads it
 * as a condition and answers. An engine test holds it (logical-floats.test.ts).
 */
function refuseFloatAmongConditions(name: string, args: readonly Expression[], types: readonly Typed[]): void {
  if (args.length < 2 || (name === "or" && !types.every((t) => t.constant === true))) return;
  // A whole float (`2.0`) is printed as the integer it is, which the engine takes; past the
  // integers' range (`1e+30`) it is a Float64 again.
  const found = args.find((arg) => arg.kind === "literal" && typeof arg.value === "number" && (arg.value < 0 || arg.value > 1) && literalClass(arg.value) === "float64");
  if (found === undefined) return;
  throw invalidQuery(
    `${describe(found)}${at(found.position)} is a float other than 0 or 1, and ${nameOf(name)}${name === "or" ? " of constants alone" : ""} converts it to a condition while the query is planned, which ClickHouse cannot do; compare it (${describe(found)} != 0)`,
    found.position,
  );
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

/**
 * `and(NULL, x)`, `or(a, NULL, b)`: a Nullable(UInt8) where the other values are numbers (or
 * NULLs too), whatever the NULL would make of most functions; a Nullable(Bool) where one of them
 * is a Bool that is not Nullable (`and(NULL, TRUE)`, and a constant-folded comparison on discover:
 * `like(s, (stack_level = 0) AND NULL)` is refused, code 43). A Nullable(Bool) alone makes no Bool
 * (`and(toNullable(TRUE), NULL)` is a Nullable(UInt8)). Beside a value of unknown type, no class.
 * An engine test holds it to the engine's result types.
 */
function logicalBesideNull(others: readonly Typed[], constant: boolean | null): Typed {
  for (const t of others) if (!isPlainNumber(t)) return typed(null, constant);
  return typed(others.some((t) => t.cls === "bool" && !t.nullable) ? "bool" : "uint8", constant, true);
}

/**
 * `greatest(x, 3, NULL)`: the common type of the other arguments, Nullable (the engine's
 * `greatest(toUInt16(1), NULL)` is a Nullable(UInt16)). Where that class cannot be Nullable, or
 * nothing else is known, it has none. An engine test holds it to the engine's result types.
 */
function commonTypeBesideNull(facts: FunctionFacts, others: readonly Typed[], constant: boolean | null): Typed {
  const first = others[0];
  // A Bool among three arguments may make the result a Bool (`greatest(TRUE, 1, NULL)`), as in the
  // fold: of numbers, one of the number classes, Nullable (numbersWithBool's).
  if (first === undefined) return typed(null, constant);
  // A scalar variant (a Date, an IP, a DateTime64) is its Nullable (`greatest(NULL, ip_address_v6)`
  // is a Nullable(IPv6)), where the pass has one.
  if (others.length === 1 && first.variant >= 0 && first.variant !== MIXED_VARIANT && !CONTAINER_VARIANT_AT[first.variant] && first.alternatives === undefined) {
    const wrapped = VARIANT_MAY_BE_NULL[first.variant] ? VARIANTS[first.variant]! : NULLABLE_VARIANT_OF[VARIANTS[first.variant]!];
    return wrapped === undefined ? typed(null, constant) : variantTyped(VARIANT_INDEX.get(wrapped)!, constant);
  }
  if (others.some((t) => t.cls === "bool")) return others.every(isPlainNumber) ? { ...numbersWithBool(others, constant), alternatives: NULLABLE_NUMBER_CLASSES } : typed(null, constant);
  const cls = others.length === 1 ? (first.variant < 0 ? first.cls : null) : resultTyped(facts, others, constant).cls;
  return cls !== null && NULLABLE_CLASSES.includes(cls) ? typed(cls, constant, true) : typed(null, constant);
}

/** The class the pass gives `name` over columns of these classes, a NULL literal where null (for the engine test). */
export function commonTypeBesideNullOf(name: string, classes: readonly (ArgumentClass | null)[]): { cls: ArgumentClass | null; nullable: boolean } {
  const t = commonTypeBesideNull(functionFacts(name), classes.flatMap((cls) => (cls === null ? [] : [typed(cls, false)])), false);
  return { cls: t.cls, nullable: t.nullable };
}

/**
 * The first two arguments of types the function refused together for two arguments, or null:
 * two classes, or a variant beside a class or a variant (`greatest(tuple(a, b), array(c), 0)`,
 * code 386: a set of types has no common type when two of them have none). Not a Nullable beside
 * a variant, nor an `if`'s Variant (judged per row): not probed so.
 */
function pairWithoutCommonType(facts: FunctionFacts, types: readonly Typed[]): [number, number] | null {
  const rules = facts.counts[2];
  if (!rules) return null;
  const judged = (t: Typed) => (t.variant < 0 ? t.cls !== null : t.variant !== MIXED_VARIANT);
  for (let i = 0; i < types.length; i++) {
    const first = types[i]!;
    if (!judged(first)) continue;
    for (let j = i + 1; j < types.length; j++) {
      const second = types[j]!;
      if (!judged(second)) continue;
      const form = constnessCode(first) * 3 + constnessCode(second);
      if (first.variant < 0 && second.variant < 0) {
        if (!shapesDecide(first, second) && rules.pairs[form]?.has(pairKey(0, 1, first.index, second.index))) return [i, j];
      } else {
        // A Nullable beside a variant too (`greatest(trace_sampled, span_id, tags)`): a Nullable
        // only adds a NULL, which has a common type with less, not more, so the plain pair's refusal holds.
        if (rules.variantPairs[form]?.has(pairKey(0, 1, typeIndex(first), typeIndex(second)))) return [i, j];
      }
    }
  }
  return null;
}

/** The map variants: with the arrays, what has no common type with a NULL. */
const MAP_VARIANT_AT: readonly boolean[] = VARIANTS.map((variant) => variantSamples(variant).every((sample) => sample.type.startsWith("Map(")));

/** An array, a map or an aggregate state, of a class or a variant: no Nullable of it exists. */
function isContainer(t: Typed): boolean {
  return t.variant >= 0 ? ARRAY_VARIANT_AT[t.variant]! || MAP_VARIANT_AT[t.variant]! : t.cls !== null && (elementClass(t.cls) !== null || t.cls === "aggregateState");
}

/**
 * greatest and least compare in the common type of all their arguments, and a NULL has none with
 * an array, a map or an aggregate state (no Nullable of one exists): `greatest(NULL, array(title,
 * type), NULL)` is code 386 whatever the rest (43 for a state). A NULL beside other types is the
 * Nullable of theirs. An engine test holds the rule to every class and variant.
 */
function refuseNullBesideContainer(typing: ArgumentTyping, name: string, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
  const nullAt = args.findIndex((arg) => typing.isNothing(arg));
  if (nullAt < 0) return;
  // An array whose elements the pass cannot name is one too (`greatest(NULL, array(NULL))`).
  const containerAt = types.findIndex((t) => isContainer(t) || t.arrayOf !== undefined);
  if (containerAt < 0) return;
  const [nullArg, container] = [args[nullAt]!, args[containerAt]!];
  const nullPosition = nullArg.position ?? position;
  const containerPosition = container.position ?? position;
  const what = nullArg.kind === "literal" ? `NULL${at(nullPosition)}` : `${describe(nullArg)}${at(nullPosition)}, always NULL here,`;
  throw invalidQuery(
    `${what} and ${describe(container)}${at(containerPosition)}, ${types[containerAt]!.arrayOf ?? typeName(types[containerAt]!)}: ${nameOf(name)} compares its arguments in one common type, and a NULL has none with an array, a map or an aggregate state`,
    nullAt > containerAt ? nullPosition : containerPosition,
  );
}

/**
 * greatest and least of an array whose elements the pass cannot name (`array(NULL)`, an
 * Array(Nullable(Nothing)); an array of Nullable numbers, arrayMap's) beside a value of a scalar
 * class: whatever the elements, an array has no common type with a scalar (`greatest(
 * retention_days, array(transaction_source))` on discover_events, which stores no
 * `transaction_source`: code 386; seed 16). Arrays of a class are the probe's pair rules'. An
 * engine test holds it (common-type-arrays.test.ts).
 */
function refuseArrayOfUnknownElementsBesideScalar(name: string, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
  const arrayAt = types.findIndex((t) => t.arrayOf !== undefined);
  if (arrayAt < 0) return;
  const scalarAt = types.findIndex((t) => t.cls !== null && t.variant < 0 && t.alternatives === undefined && SCALAR_VALUE_CLASSES.has(t.cls));
  if (scalarAt < 0) return;
  const [array, scalar] = [args[arrayAt]!, args[scalarAt]!];
  throw invalidQuery(
    `${describe(scalar)}${at(scalar.position ?? position)} is ${typeName(types[scalarAt]!)} and ${describe(array)}${at(array.position ?? position)} ${types[arrayAt]!.arrayOf}: ${nameOf(name)} compares its arguments in one common type, and an array has none with a value that is no array`,
    (arrayAt > scalarAt ? array.position : scalar.position) ?? position,
  );
}

/** The arguments the common-type rule refuses together in a call of `name` over columns of these classes (Nullable where said), or null: for the engine test. */
export function commonTypeRefusal(name: string, columns: readonly { readonly cls: ArgumentClass; readonly nullable: boolean }[]): [number, number] | null {
  if (!COMMON_TYPE_FUNCTIONS.has(name)) return null;
  return pairWithoutCommonType(functionFacts(name), columns.map((column) => typed(column.cls, false, column.nullable)));
}

/** How a message names an argument's type: its class (Nullable or not), or its variant's type. */
function typeName(t: Typed): string {
  if (t.variant >= 0) return variantWhat(VARIANTS[t.variant]!);
  return `${CLASS_NAMES[t.cls!]}${t.nullable ? " (Nullable)" : ""}`;
}

/** Arguments i and j are of types the function does not take together: an error at the second. */
function refuseTogether(name: string, args: readonly Expression[], types: readonly Typed[], i: number, j: number, position: TextPosition | undefined): never {
  const [first, second] = [args[i]!, args[j]!];
  const secondPosition = second.position ?? position;
  throw invalidQuery(
    `${describe(first)}${at(first.position ?? position)} is ${typeName(types[i]!)} and ${describe(second)}${at(secondPosition)} is ${typeName(types[j]!)}: ${nameOf(name)} does not take them together as arguments ${i + 1} and ${j + 1} (ClickHouse finds no type for both)`,
    secondPosition,
  );
}

/**
 * A curried call's counts (`quantiles()(x)`: no level; `topK(5)(a, b)`: one argument; `sum(1)(x)`:
 * no parameters), as the probe found them per number of parameters.
 */
function judgeCurried(name: string, signature: ProbedSignature, params: number, args: number, position: TextPosition | undefined): void {
  if (params > MAX_CURRIED_PARAMETERS) return;
  const refused = signature.curried[params];
  if (refused === undefined) return;
  if (refused === "refused") {
    const taken = countsUpTo(MAX_CURRIED_PARAMETERS).filter((n) => signature.curried[n] !== "refused");
    const takes = taken.length === 1 && taken[0] === 0 ? `it takes none: call it as ${name}(…)` : `it takes ${countList(taken, MAX_CURRIED_PARAMETERS)}`;
    throw invalidQuery(`${nameOf(name)}${at(position)} does not take ${params} parameter${params === 1 ? "" : "s"} (in its first parentheses): ${takes}`, position);
  }
  if (args > MAX_COUNTED_ARGUMENTS || !refused.includes(args)) return;
  const taken = countsUpTo(MAX_COUNTED_ARGUMENTS, 1).filter((n) => !refused.includes(n));
  throw invalidQuery(
    `${nameOf(name)}${at(position)} with ${params} parameter${params === 1 ? "" : "s"} does not take ${args} argument${args === 1 ? "" : "s"}: it takes ${countList(taken, MAX_COUNTED_ARGUMENTS)}`,
    position,
  );
}

/** Counts for a message, the last probed one meaning "or more": [1, 2, 3] of 3 is "1 or more", [0, 1] "0 or 1". */
function countList(taken: readonly number[], max: number): string {
  if (taken.length === 0) return "none the probe found";
  if (!taken.includes(max)) return list(taken.map(String));
  let from = max;
  while (taken.includes(from - 1)) from -= 1;
  return list([...taken.filter((n) => n < from).map(String), `${from} or more`]);
}

const COMPARISONS = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals", "in", "notIn"]);

/** Column name -> its type, for the columns of aggregate states an entity stores (`AggregateFunction(sum, Float64)`). */
const stateColumnTypes = memoizePerDefinition(
  (entity: EntityDefinition): ReadonlyMap<string, string> => new Map(entity.columns.filter((column) => column.type.startsWith("AggregateFunction(")).map((column) => [column.name, column.type])),
);

/** The comparisons of two values (not IN, whose right side is a set of values). */
const VALUE_COMPARISONS: ReadonlySet<string> = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"]);

/** The classes of one value (not an array or an aggregate state): what ClickHouse never compares with an array. */
const SCALAR_VALUE_CLASSES: ReadonlySet<ArgumentClass> = new Set(SCALAR_CLASSES.filter((cls) => cls !== "aggregateState"));

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
function refuseTuplesOfTwoSizes(name: string, args: readonly Expression[]): void {
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
function refuseIPv4BesideFloatOrSigned(name: string, args: readonly Expression[], types: readonly Typed[]): void {
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
function refuseIPv4AmongFloatsOrSigned(name: string, array: Expression, arrayType: Typed, sought: Expression, soughtType: Typed): void {
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
function refuseIPv4AmongBranches(name: string, args: readonly Expression[], types: readonly Typed[], nullAt: (node: Expression) => boolean, valueOf: ValueOf): void {
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

/** See the call site: arithmetic with a NULL and a value read per row, looked for in a column of states. */
function refuseArithmeticNullInStates(name: string, left: Expression, right: Expression, leftType: Typed, isNothing: (node: Expression) => boolean): void {
  if (left.kind !== "function" || !TUPLE_ARITHMETIC.has(left.name) || leftType.constant !== false) return;
  if (!left.args.some(isNothing) || !isNothing(left)) return;
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
function refuseComputedTupleSet(name: string, set: Expression, position: TextPosition | undefined): never {
  throw invalidQuery(
    `${describe(set)}${at(set.position)} is a tuple computed per row, and ${nameOf(name)} looks in it: ClickHouse looks in a constant list, a list written as tuple(…), or a subquery, not in a tuple computed by another function; write the values as tuple(…)`,
    set.position ?? position,
  );
}

/**
 * Two arrays of a Variant compared (`array(s, x IN y, '%a%') = array(profiler_id, c, s)`, an
 * Array(Variant(String, UInt8)) and an Array(Variant(String, UInt8, UUID)); seed 14): ClickHouse
 * compares arrays of a Variant only with arrays of the same Variant (code 43). Where the elements'
 * families differ, so do the Variants; the same families may still hold other exact types
 * (a UInt8 and a UInt16), which stays with the engine. An engine test holds it.
 */
function refuseMixedArraysOfOtherFamilies(name: string, args: readonly Expression[], types: readonly Typed[]): void {
  const [left, right] = types as [Typed, Typed];
  if (left.variant !== MIXED_ARRAY_VARIANT || right.variant !== MIXED_ARRAY_VARIANT || left.elements === undefined || right.elements === undefined) return;
  const familiesOf = (t: Typed): Set<string | undefined> => new Set(t.elements!.flatMap((element) => (element === null ? [] : [familyOf(element)])));
  const leftFamilies = familiesOf(left);
  const rightFamilies = familiesOf(right);
  if (leftFamilies.has(undefined) || rightFamilies.has(undefined)) return;
  if (leftFamilies.size === rightFamilies.size && [...leftFamilies].every((family) => rightFamilies.has(family))) return;
  const [a, b] = args as [Expression, Expression];
  const plural = (family: string | undefined): string => (family === "datetime" ? "DateTimes" : family === "uuid" ? "UUIDs" : family!.startsWith("array of ") ? `arrays of ${family!.slice(9)}` : `${family}s`);
  const what = (families: Set<string | undefined>): string => [...families].map(plural).join(" and ");
  throw invalidQuery(
    `${describe(a)}${at(a.position)} is an array of ${what(leftFamilies)} (an Array(Variant(...))) and ${describe(b)}${at(b.position)} one of ${what(rightFamilies)}: ${nameOf(name)} compares arrays of a Variant only with arrays of the same Variant; compare arrays of one type`,
    b.position ?? a.position,
  );
}

/** The functions that look a value up among an array's elements: `has(array, value)`, ... */
const ELEMENT_LOOKUPS: ReadonlySet<string> = new Set(["has", "indexOf", "countEqual"]);

/**
 * The functions that make one value of their values' common type, Nullable beside a NULL: no
 * Nullable holds an aggregate state. Not greatest or least, whose common-type rule already
 * refuses a NULL beside a state (refuseNullBesideContainer).
 */
const STATE_BESIDE_NULL_FUNCTIONS: ReadonlySet<string> = new Set(["if", "multiIf", "array"]);

/**
 * `if(granularity, max, NULL)`, `array(m, NULL)` of an aggregate state: the common type beside a
 * NULL is a Nullable, and no Nullable holds a state (code 43, whatever the rows and whatever
 * condition picks). `ifNull` and `coalesce` keep the state and are taken. An engine test holds it.
 */
function refuseStateBesideNull(name: string, args: readonly Expression[], types: readonly Typed[], isNothing: (node: Expression) => boolean): void {
  const values = name === "if" || name === "multiIf" ? args.map((_, i) => isBranch(i, args.length)) : args.map(() => true);
  const nullAt = args.findIndex((arg, i) => values[i] && isNothing(arg));
  if (nullAt < 0) return;
  const stateAt = types.findIndex((t, i) => values[i] && t.cls === "aggregateState" && t.variant < 0);
  if (stateAt < 0) return;
  const [state, nothing] = [args[stateAt]!, args[nullAt]!];
  throw invalidQuery(
    `${describe(state)}${at(state.position)} is ${CLASS_NAMES.aggregateState}, and ${nameOf(name)} makes it Nullable beside ${describe(nothing)}${at(nothing.position)}, a NULL: no Nullable holds an aggregate state; use ifNull or coalesce, or aggregate it first`,
    state.position ?? nothing.position,
  );
}

function refuseArrayBesideScalar(name: string, args: readonly Expression[], types: readonly Typed[], columns: ColumnTexts): void {
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
      if (text === null || (text.startsWith("[") && types[side]!.elementType?.cls !== "aggregateState")) continue;
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
function judgeComparedString(name: string, args: readonly Expression[], types: readonly Typed[], computedSet: boolean, columns: ColumnTexts): void {
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
    for (const value of listed ? (arg as { args: readonly Expression[] }).args : [arg]) {
      // Beside a state or an array, any literal but a NULL, or a text computed from literals
      // (`value IN upper('production')` on metrics_sets, code 53: seed 13).
      const text = anyScalar && value.kind === "literal" ? (value.value !== null ? String(value.value) : null) : constantText(value, columns);
      // Compared with a DateTime (not listed in a set), a date no calendar has fails too, and so
      // do digits of a length the best-effort reading has no meaning for, and a trailing separator.
      if (text === null || (rule.reads(text) && (inSet || other.cls !== "datetime" || !unreadableAsComparedDateTime(text)))) continue;
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

const IPV4_VARIANT = VARIANT_INDEX.get("nullableIPv4")!;
/** The IP variants (the entities store them Nullable). */
const IPV6_VARIANT = VARIANT_INDEX.get("nullableIPv6")!;
const IP_VARIANTS: ReadonlySet<number> = new Set([IPV4_VARIANT, IPV6_VARIANT]);

/** `if(1, a, b)`, `if(NULL, a, b)`: an `if` whose condition is a literal, which ClickHouse's analyzer replaces with the branch it picks. */
function isLiteralIf(node: Expression): boolean {
  return node.kind === "function" && node.name === "if" && node.args.length === 3 && node.args[0]!.kind === "literal";
}

/** The clock's calls (`now()`, `today()`, `yesterday()`): the engine computes each once per query, a constant to it. */
function isClockCall(node: Expression): node is Extract<Expression, { kind: "function" }> {
  return node.kind === "function" && node.args.length === 0 && (node.name === "now" || node.name === "today" || node.name === "yesterday");
}

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

const dateLike = (t: Typed): boolean => t.cls === "datetime" || (t.variant >= 0 && VARIANT_FAMILIES[t.variant] === "datetime");
const READ_AS_UUID: ReadAs = { what: "a UUID", plural: "UUIDs", instead: UUID_SET.instead, cannotRead: (t) => dateLike(t) || IP_VARIANTS.has(t.variant) || (t.variant < 0 && t.cls !== null && NOT_UUID_VALUES.has(t.cls)) };
const READ_AS_IPV4: ReadAs = {
  what: "an IPv4",
  plural: "IPv4s",
  instead: UNCONVERTIBLE_VARIANT_SETS[IPV4_VARIANT]!.instead,
  cannotRead: (t) => dateLike(t) || (t.variant < 0 && (t.cls === "uuid" || t.cls === "float64" || integerShapeOf(t)?.signed === true)),
};
const READ_AS_IPV6: ReadAs = {
  what: "an IPv6",
  plural: "IPv6s",
  instead: UNCONVERTIBLE_VARIANT_SETS[IPV6_VARIANT]!.instead,
  cannotRead: (t) => dateLike(t) || (t.variant < 0 && t.cls !== null && (t.cls === "uuid" || ARRAY_FAMILIES[t.cls] === "number")),
};

function readAsOf(sought: Typed): ReadAs | undefined {
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
function refuseUnconvertibleSetValues(name: string, args: readonly Expression[], types: readonly Typed[], constantSet: boolean): void {
  const left = types[0]!;
  const isDateTime = left.cls === "datetime";
  const isUuid = left.cls === "uuid";
  const isMap = left.variant >= 0 && MAP_VARIANT_AT[left.variant]!;
  const ipSet = left.variant >= 0 ? UNCONVERTIBLE_VARIANT_SETS[left.variant] : undefined;
  // An aggregate state takes no value (its literals are judgeComparedString's): nor the clock's (`value IN now()`, code 53).
  const isState = left.cls === "aggregateState" && left.variant < 0;
  if (!isDateTime && !isUuid && !isMap && !ipSet && !isState && !NO_FLOAT_SET_VARIANTS.has(left.variant)) return;
  const set = args[1]!;
  const listed = set.kind === "function" && (set.name === "tuple" || set.name === "array");
  // Only the values the pass knows to be constants: a set of them, values written in a list
  // (read per row when a column is listed too, `event_id IN (1, trace_id)`, and refused alike),
  // or the clock's calls, which the engine computes once per query (`event_id IN now()`).
  if (!constantSet && !listed && !isClockCall(set)) return;
  const perRow = types[1]!.constant === false;
  for (const value of listed ? set.args : [set]) {
    const cls = value.kind === "literal" ? literalClass(value.value) : value.kind === "datetime" || isClockCall(value) ? "datetime" : listed ? null : types[1]!.cls;
    if (cls === null) continue;
    const negative = value.kind === "literal" && typeof value.value === "number" && value.value < 0 && cls !== "float64";
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
          : !perRow && (cls === "float64" || (isDateTime && negative));
    if (!refused) continue;
    const compared = args[0]!;
    const what = left.cls !== null ? CLASS_NAMES[left.cls] : variantWhat(VARIANTS[left.variant]!);
    const pastUInt64 = value.kind === "literal" && typeof value.value === "number" && Number.isInteger(value.value) && cls === "float64";
    const valueWhat = negative ? "a negative integer" : pastUInt64 ? "an integer past UInt64's range (a Float64 to ClickHouse)" : isClockCall(value) && value.name !== "now" ? "a Date" : CLASS_NAMES[cls];
    throw invalidQuery(
      `${describe(value)}${at(value.position)} is ${valueWhat}, and ${nameOf(name)} looks for ${describe(compared)}${at(compared.position)}, ${what}${left.nullable ? " (Nullable)" : ""}, among its values: ClickHouse cannot convert ${valueWhat} to that type`,
      value.position ?? compared.position,
    );
  }
}

/**
 * `toDate('production')`: a conversion function given a text that cannot be read as its type
 * fails the query while ClickHouse plans it (code 38), whatever the rows.
 */
function judgeConvertedText(name: string, args: readonly Expression[], columns: ColumnTexts): void {
  const rule = TEXT_CONVERSIONS.get(name);
  const value = args[0];
  if (rule === undefined || value === undefined) return;
  const text = constantText(value, columns);
  if (text === null || rule.reads(text)) return;
  throw invalidQuery(`${describe(value)}${at(value.position)} is not ${rule.what}: ${name} cannot read it as one`, value.position);
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
function refuseZeroIndex(name: string, args: readonly Expression[], types: readonly Typed[], valueOf: ValueOf, holdsNumber: (node: Expression, t: Typed) => boolean): void {
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
  const what = index.kind === "literal" ? describe(index) : `${describe(index)} (0 on this entity)`;
  const when = t.nullable ? " on the first row that holds a value" : "";
  throw invalidQuery(`${what}${at(index.position)} is index 0, and ${nameOf(name)} counts ${counts} from 1: ClickHouse refuses 0${when}; the first is 1`, index.position);
}

/** No literal reads as an aggregate state: a state is compared only with another state. */
const STATE_SET: StringReading = { reads: () => false, what: "an aggregate state" };
/** Nor as an array: a set looked in for an array holds arrays (`tags.key IN (array('a'))`). */
const ARRAY_SET: StringReading = { reads: () => false, what: "an array" };

/** What a tuple or an array is, in a refusal: its class or variant where the pass has one, else what the call makes. */
function containerWhat(node: Expression, t: Typed): string {
  if (isVariantOfArrays(t)) return `a Variant of ${list(t.alternatives!.map(typeName))} alone`;
  if (t.cls !== null) return CLASS_NAMES[t.cls];
  if (t.variant >= 0) return variantWhat(VARIANTS[t.variant]!);
  return isTupleCall(node) ? "a tuple" : "an array";
}

/** A tuple or an array, typed so or written as a `tuple(…)` or `array(…)` call the pass has no type for. */
function isContainerValue(node: Expression, t: Typed): boolean {
  return t.variant === TUPLE_VARIANT || isArrayTyped(t) || isArrayCall(node) || isTupleCall(node) || isVariantOfArrays(t);
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

function isArrayTyped(t: Typed): boolean {
  return t.cls !== null ? elementClass(t.cls) !== null : t.variant >= 0 && isArrayVariant(VARIANTS[t.variant]!);
}

/**
 * A call an entity maps onto its stored states (`uniqIf(value, c)` on metrics_sets reads
 * uniqCombined64MergeIf(value, c)) keeps the -If combinator's condition, its last argument:
 * judged on what the unmapped function refuses there beside any type (the states are no class
 * the probe gave it), or with it Nullable.
 */
/**
 * `countIf(value)` on a metrics entity is `sumMergeIf(count)`: a -Merge call takes its state
 * alone, a -MergeIf call the state and one condition. Another count is refused by the engine
 * (codes 42 and 43: a lone state is taken for the condition).
 */
function judgeMappedCount(name: string, mapper: FunctionMapper, args: readonly Expression[], position: TextPosition | undefined): void {
  const takes = mapper.to.endsWith("If") ? 2 : 1;
  if (args.length === takes) return;
  const what = takes === 2 ? `the value and a condition: 2 arguments` : `the value alone: 1 argument`;
  throw invalidQuery(`${name}(…)${at(position)} is ${mapper.to}(${mapper.column}${takes === 2 ? ", condition" : ""}) on this entity, and takes ${what}, not ${args.length}`, position);
}

function judgeMappedCondition(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
  const rules = facts.counts[args.length];
  const last = args.length - 1;
  const t = types[last];
  if (last < 1 || t === undefined) return;
  // A value of no class (an array, a tuple, a map, a Date, an IP, a Variant) is no UInt8, the
  // one type an -If condition takes (`uniqIf(value, array(10, 1, 'x'))`, code 43; seed 22).
  if (t.cls === null && t.variant >= 0) {
    const arg = args[last]!;
    const argPosition = arg.position ?? position;
    throw invalidQuery(`${describe(arg)}${at(argPosition)} is ${typeName(t)}, and ${nameOf(name)} does not take it as its condition, argument ${last + 1} of ${args.length}: a condition is a UInt8 (a comparison or a boolean)`, argPosition);
  }
  if (rules === undefined || t.cls === null) return;
  const sets = (t.nullable ? rules.nullable : rules.robust)[formIndex(types)];
  if (sets) refuseAt(name, args, types, last, sets[last]!, position);
}

/** Refuses argument i when its (known) class is in the set refused at its position. */
function refuseAt(name: string, args: readonly Expression[], types: readonly Typed[], i: number, refused: ReadonlySet<ArgumentClass>, position: TextPosition | undefined): void {
  const t = types[i]!;
  if (t.cls === null || !refused.has(t.cls)) return;
  // An integer of the int64 class known unsigned (a UInt64 column, `ip * 2`): the probe's Int64
  // may be refused for its sign alone (quantileDeterministic's weight "must be unsigned", code 43,
  // where a UInt64 is taken). Refused only where the probe's unsigned UInt32 is too.
  if (t.cls === "int64" && !refused.has("uint32") && integerShapeOf(t)?.signed === false) return;
  const arg = args[i]!;
  const argPosition = arg.position ?? position;
  const what = `${CLASS_NAMES[t.cls]}${t.nullable ? " (Nullable)" : ""}`;
  // A Nullable argument can only be of a class a Nullable wraps: only those are named as taken.
  const taken = (t.nullable ? NULLABLE_CLASSES : ARGUMENT_CLASSES).filter((c) => !refused.has(c)).map((c) => CLASS_NAMES[c]);
  const takes = taken.length > 0 ? `; it takes ${list(taken)} there` : "";
  throw invalidQuery(`${describe(arg)}${at(argPosition)} is ${what}, and ${nameOf(name)} does not take ${what} as argument ${i + 1} of ${args.length}${takes}`, argPosition);
}

/**
 * Refuses the first pair of the variant at `variantAt` and an argument of a known class that the
 * probe saw refused together: a plain one, or the one at `nullableAt` (-1: none), Nullable.
 */
function refuseVariantPairs(name: string, args: readonly Expression[], types: readonly Typed[], pairs: ReadonlySet<number> | null | undefined, position: TextPosition | undefined, variantAt: number, nullableAt = -1): void {
  if (!pairs) return;
  for (let k = 0; k < types.length; k++) {
    if (k === variantAt || (nullableAt >= 0 && k !== nullableAt)) continue;
    const [i, j] = k < variantAt ? [k, variantAt] : [variantAt, k];
    if (pairs.has(pairKey(i, j, typeIndex(types[i]!), typeIndex(types[j]!), nullableAt))) refuseTogether(name, args, types, i, j, position);
  }
}

/** Refuses the call's two Nullable arguments when the probe saw their classes refused together, both Nullable. */
function refuseBothNullable(name: string, args: readonly Expression[], types: readonly Typed[], pairs: ReadonlySet<number> | null | undefined, position: TextPosition | undefined): void {
  if (!pairs) return;
  const i = types.findIndex((t) => t.nullable);
  const j = types.findIndex((t, k) => k > i && t.nullable);
  if (COMMON_TYPE_FUNCTIONS.has(name) && shapesDecide(types[i]!, types[j]!)) return;
  if (pairs.has(pairKey(i, j, types[i]!.index, types[j]!.index, BOTH_NULLABLE))) refuseTogether(name, args, types, i, j, position);
}

/** Refuses argument i, of a variant's type, when its variant is refused at its position. */
function refuseVariantAt(name: string, args: readonly Expression[], variantIndex: number, i: number, refused: ReadonlySet<string> | undefined, position: TextPosition | undefined): void {
  const variant = VARIANTS[variantIndex]!;
  if (!refused?.has(variant)) return;
  const arg = args[i]!;
  const argPosition = arg.position ?? position;
  const what = variantWhat(variant);
  throw invalidQuery(`${describe(arg)}${at(argPosition)} is ${what}, and ${nameOf(name)} does not take ${what} as argument ${i + 1} of ${args.length}`, argPosition);
}

/**
 * `arrayFilter((x) -> now(), a)`, `arrayCount((k) -> toStartOfDay(timestamp), tags.value)`: a
 * lambda must return what the probe saw the function take from one (the engine refuses a column
 * there as a constant: its test holds both). The body is typed with the parameters bound to the
 * arrays' elements (inLambda); one that reads a parameter the pass cannot type is not judged.
 */
function judgeLambdaBody(
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
function judgeAfterLambda(typing: ArgumentTyping, name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
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
 * `ARRAY JOIN date_added` on groupassignee: ClickHouse joins arrays (and maps), and refuses a
 * column of a scalar class (code 53: "ARRAY JOIN requires expression date_added with Array or Map
 * type"; seed 13), and so any expression of one, or a tuple (`ARRAY JOIN tuple(date_added,
 * project_id)`; seed 16), a Date, an IP or a UInt128. An execution test holds it.
 */
function refuseScalarsArrayJoined(expressions: readonly Expression[], declared: ArgumentTyping): void {
  for (const expression of expressions) {
    const t = declared.visit(expression);
    const scalarClass = t.cls !== null && t.variant < 0 && elementClass(t.cls) === null;
    if (!scalarClass && !(t.variant >= 0 && NOT_JOINABLE_VARIANT_AT[t.variant]!)) continue;
    throw invalidQuery(
      `${describe(expression)}${at(expression.position)} is ${typeName(t)}, and ARRAY JOIN joins the elements of an array (or a map): ClickHouse refuses anything else`,
      expression.position,
    );
  }
}

/** Per variant index, whether it is no array and no map (a tuple, a Date, an IP, a UInt128): refuseScalarsArrayJoined. */
const NOT_JOINABLE_VARIANT_AT: readonly boolean[] = VARIANTS.map(
  (variant, index) => !ARRAY_VARIANT_AT[index]! && !MAP_VARIANT_AT[index]! && index !== NESTED_VARIANT && index !== MIXED_ARRAY_VARIANT && index !== MIXED_VARIANT,
);

const NO_NAMES: ReadonlySet<string> = new Set();
/** How deep stateInside looks into tuples of tuples (aliases may nest them beyond the text's own depth). */
const MAX_CONTAINER_DEPTH = 16;

export function checkArgumentTypes(query: LogicalQuery, entityOf: EntityOf, aliases: ReadonlyMap<string, Expression>): void {
  let arrayJoined = NO_NAMES;
  if (query.arrayJoin && query.arrayJoin.length > 0) {
    arrayJoined = new Set(query.arrayJoin.flatMap((node) => (node.kind === "column" ? [`${node.entityAlias ?? ""}.${node.name}`] : [])));
  }
  const typing = new ArgumentTyping(entityOf, aliases, arrayJoined, query.granularity === DATE_BUCKET_GRANULARITY);
  if (query.arrayJoin && query.arrayJoin.length > 0) refuseScalarsArrayJoined(query.arrayJoin, new ArgumentTyping(entityOf, aliases));
  for (const expression of queryExpressions(query)) {
    typing.inCondition = expression === query.where || expression === query.having;
    typing.inWhere = expression === query.where;
    const t = typing.visit(expression);
    // ClickHouse cannot compare aggregate states (code 44): `ORDER BY value` on a metrics entity,
    // nor arrays of them (`groupUniqArray(sum) AS p95 ... ORDER BY p95`).
    const states = t.cls === "aggregateState" ? CLASS_NAMES.aggregateState : t.elementType?.cls === "aggregateState" ? "an array of aggregate states" : null;
    if (states !== null && query.orderBy.some((item) => item.expression === expression)) {
      throw invalidQuery(
        `${describe(expression)}${at(expression.position)} is ${states}, and ORDER BY cannot compare aggregate states; order by an aggregate of it (sum(value), ...) or another column`,
        expression.position,
      );
    }
    if (t.cls === null) refuseVariantKey(query, expression, t);
  }
  // Nor states inside a tuple or an array (`ORDER BY tuple('x', sum_weighted)`, code 44).
  for (const item of query.orderBy) {
    const state = typing.stateInside(item.expression);
    if (state === null) continue;
    throw invalidQuery(
      `${describe(item.expression)}${at(item.expression.position)} holds ${describe(state)}${at(state.position)}, ${CLASS_NAMES.aggregateState}, and ORDER BY cannot compare aggregate states, inside a tuple or an array either; order by an aggregate of it (sum(value), ...) or another column`,
      item.expression.position,
    );
  }
}

/**
 * An array of mixed types (`array(now(), 3, platform)`, an Array(Variant(...))) or an `if` of
 * branches of mixed types (a Variant) as a key of ORDER BY or BY, directly or through its alias:
 * ClickHouse refuses Variant types in sorting and grouping keys (code 44). LIMIT BY takes them.
 */
function refuseVariantKey(query: LogicalQuery, expression: Expression, t: Typed): void {
  // An alias has its definition's variant (aliasType).
  if (t.variant !== MIXED_ARRAY_VARIANT && t.variant !== MIXED_VARIANT) return;
  const clause = query.orderBy.some((item) => item.expression === expression) ? "ORDER BY" : query.groupBy.includes(expression) ? "BY (GROUP BY)" : null;
  if (clause === null) return;
  const what = variantWhat(VARIANTS[t.variant]!);
  throw invalidQuery(
    `${describe(expression)}${at(expression.position)} is ${what}, and ${clause} cannot use it as a key: ClickHouse does not sort or group by Variant types; use values of one type (all strings or all numbers)`,
    expression.position,
  );
}

/**
 * Judges one expression on its own, over one entity: every call in it is refused as in a query's
 * SELECT. For expressions that are not SnQL text (an MQL formula, rebuilt as an expression whose
 * timeseries are columns of their value's type).
 */
export function checkExpressionArgumentTypes(expression: Expression, entity: EntityDefinition): void {
  new ArgumentTyping(() => entity, new Map()).visit(expression);
}

/**
 * What the pass knows of one expression over one entity (with the query's aliases, where it
 * reads any): tests hold it to the engine's DESCRIBE.
 */
export function expressionTyping(
  expression: Expression,
  entity: EntityDefinition,
  granularity: number | null = null,
  aliases: ReadonlyMap<string, Expression> = new Map(),
): {
  cls: ArgumentClass | null;
  nullable: boolean;
  constant: boolean | null;
  mayBeNothing: boolean;
  variant: string | null;
  alternatives: { cls: ArgumentClass | null; nullable: boolean; variant: string | null }[] | null;
  /** The exact integer type the pass knows (`Int32`, a Bool's `UInt8`), or null. */
  integer: string | null;
  /** Of an array of integers, its elements' exact type where the pass knows it (`UInt64`), or null. */
  elementInteger: string | null;
} {
  const typing = new ArgumentTyping(() => entity, aliases, NO_NAMES, granularity === DATE_BUCKET_GRANULARITY);
  const t = typing.visit(expression);
  const alternatives = t.alternatives?.map((alternative) => ({ cls: alternative.cls, nullable: alternative.nullable, variant: alternative.variant >= 0 ? VARIANTS[alternative.variant]! : null })) ?? null;
  return { cls: t.cls, nullable: t.nullable, constant: t.constant, mayBeNothing: typing.mayBeNothing(expression), variant: t.variant >= 0 ? VARIANTS[t.variant]! : null, alternatives, integer: integerOf(t), elementInteger: t.elementInteger === undefined ? null : integerTypeName(t.elementInteger) };
}

function integerOf(t: Typed): string | null {
  const integer = t.cls === "bool" ? null : integerShapeOf(t);
  return integer === null ? null : integerTypeName(integer);
}
