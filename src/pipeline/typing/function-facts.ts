/**
 * What the walk asks of a function name (FunctionFacts), computed once per name from the probe's
 * signature so that each call only looks it up: the refusals per argument count and form of the
 * call (CountRules), the pairs refused together (pairKey), result classes by argument classes,
 * and the counts refused outright, by the -If combinator and by a curried call's parameters.
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../../errors/query-service-error.js";
import { ARGUMENT_CLASSES, MAX_COUNTED_ARGUMENTS, MAX_CURRIED_PARAMETERS, countsUpTo, elementClass, VARIANTS, variantKeptByResult, type ArgumentClass, type CallForm, type ProbedSignature } from "../argument-classes.js";
import { PROBED_FUNCTION_SIGNATURES } from "../probed-function-signatures.js";
import { comparesElements } from "../snql-array-conditions.js";
import { AGGREGATE_FUNCTIONS } from "../../clickhouse/function-allow-list.js";
import { CLASS_INDEX, type Typed } from "./typed-values.js";
import { nameOf, countList } from "./messages.js";
import { TUPLE_ARITHMETIC } from "./arithmetic-types.js";

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
export function constnessCode(t: Typed): number {
  return t.constant === true ? 0 : t.constant === false ? 1 : 2;
}

export function formIndex(types: readonly Typed[]): number {
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
export const SCALAR_CLASSES = ARGUMENT_CLASSES.filter((cls) => elementClass(cls) === null);

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

/**
 * The functions that check their argument count before they look at a NULL argument: given a
 * count they refuse, they refuse it beside a NULL too (`multiIf(x, NULL < TRUE)`, code 42; seed
 * 29). The others answer a NULL for a Nothing argument without counting (`toString(NULL, 1, 2)`,
 * `sum(x, NULL)`), or refuse there only by the other arguments' types. Measured on the engine for
 * every allowed function and every count it refuses, with a NULL at each position and NULLs
 * alone; test/pipeline/argument-counts.test.ts holds the set to it exactly.
 */
export const COUNT_CHECKED_BESIDE_NULL: ReadonlySet<string> = new Set([
  "IPv4NumToString", "IPv4StringToNum", "IPv6NumToString", "IPv6StringToNum", "abs", "and",
  "arrayDistinct", "arrayElement", "arrayEnumerate", "arrayFlatten", "arrayJoin", "arrayPushBack",
  "arrayPushFront", "arrayReduce", "arrayReverse", "arraySlice", "assumeNotNull", "avgArray", "avgMerge",
  "bitAnd", "bitOr", "bitXor", "count", "countIf", "countMerge", "divide", "empty", "endsWith",
  "equals", "exp", "extract", "greater", "greaterOrEquals", "has", "hasAll", "hasAny", "hasToken",
  "hex", "identity", "if", "ifNotFinite", "ifNull", "in", "indexOf", "intDiv", "intDivOrZero",
  "isFinite", "isIPv4String", "isIPv6String", "isInfinite", "isNaN", "isNotNull", "isNull",
  "length", "lengthUTF8", "less", "lessOrEquals", "log", "log10", "log2", "lower", "lowerUTF8",
  "mapContains", "mapKeys", "mapValues", "match", "maxArray", "maxMerge", "minArray", "minMerge", "minus",
  "modulo", "moduloOrZero", "multiIf", "multiMatchAny", "multiSearchAny",
  "multiSearchAnyCaseInsensitive", "multiSearchFirstIndex", "multiply", "negate", "not", "notEmpty",
  "notEquals", "notIn", "now", "nullIf", "or", "plus", "pow", "power", "quantiles", "quantilesIf",
  "quantilesMerge", "quantilesTDigest", "quantilesTDigestWeighted", "rand", "reinterpretAsUInt64", "replaceAll", "replaceOne", "replaceRegexpAll",
  "replaceRegexpOne", "reverse", "sign", "sqrt", "startsWith", "substring", "sumArray", "sumMerge", "toNullable",
  "toTimeZone", "toValidUTF8", "today", "transform", "tupleElement", "unhex",
  "uniqCombined64Merge", "uniqExactIf", "uniqIf", "uniqMerge", "upper", "upperUTF8",
]);

/**
 * The functions that take 4 arguments and no more (`dateDiff(u, a, b, tz, x)`, code 42 whatever
 * the arguments). The probe tries at most 4 (MAX_COUNTED_ARGUMENTS), and of the other functions
 * it finds taking 4, each takes any number. Measured on the engine for every allowed function
 * with 5 arguments of several kinds; test/pipeline/argument-counts.test.ts holds the set to it.
 */
export const TAKES_AT_MOST_FOUR: ReadonlySet<string> = new Set(["dateDiff", "toStartOfInterval", "transform"]);

/** What the walk asks of a function name, looked up once per call. */
export interface FunctionFacts {
  readonly signature: ProbedSignature | undefined;
  /** Per argument count 0..4. */
  readonly counts: readonly CountRules[];
  /** Per argument count 0..4, then 5 for 5 or more: refused outright. */
  readonly refusedCounts: readonly boolean[];
  /** Those counts refused beside a NULL argument too (COUNT_CHECKED_BESIDE_NULL). */
  readonly countCheckedBesideNull: boolean;
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
export function classResultKey(first: number, second = -1): number {
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

export function typeIndex(t: Typed): number {
  return t.variant >= 0 ? ARGUMENT_CLASSES.length + t.variant : t.index;
}

/** `nullableAt` of a pair whose two arguments are both Nullable. */
export const BOTH_NULLABLE = 8;

/**
 * The number a refused pair is stored under: positions i < j below 8, the two types' indexes
 * (TYPE_INDEX, fewer than 64), and which of the two is Nullable (-1: neither, BOTH_NULLABLE: both).
 */
export function pairKey(i: number, j: number, first: number, second: number, nullableAt = -1): number {
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
export const NO_POSITIONS: ReadonlySet<number> = new Set();

/**
 * The conversions to a number or a UUID that answer a NULL or a zero for a text they cannot read
 * (`toFloat64OrNull`, `toUInt64OrZero`, ...) take one argument: a second would be a time zone,
 * which only the DateTime conversions take (code 42 beside a text, 43 beside another type). The
 * probe, whose second text is no time zone, could not tell. test/pipeline/argument-counts.test.ts
 * holds it to the engine.
 */
export const ONE_ARGUMENT_CONVERSION = /^to(?:U?Int\d+|Float\d+|UUID)Or(?:Null|Zero)$/;

/**
 * The counts an aggregate of a fixed number of arguments takes, where the probe could not tell
 * the others (a text there is code 43 before the count is code 42, so it marked them unknown), or
 * undefined: quantile, median and their kinds take a value (and a weight or a determinator for
 * the Weighted and Deterministic kinds), one more with -If; the -Array forms of one-argument
 * aggregates one array. The quantiles of many levels called without their levels take none
 * (`quantiles(x)`, code 42: `quantiles(0.5, 0.9)(x)`). argument-counts.test.ts holds it.
 */
export function fixedAggregateCount(name: string): number | undefined {
  if (/^(?:sum|avg|min|max)Array$/.test(name)) return 1;
  if (!/^(?:quantile|median)/.test(name) || !AGGREGATE_FUNCTIONS.has(name) || name.endsWith("Merge")) return undefined;
  if (MULTI_LEVEL_QUANTILE.test(name)) return -1;
  return 1 + (/Weighted|Deterministic/.test(name) ? 1 : 0) + (name.endsWith("If") ? 1 : 0);
}

function refusedByFixedCount(name: string, count: number): boolean {
  const fixed = fixedAggregateCount(name);
  return fixed !== undefined && count !== fixed;
}

/**
 * Counts ClickHouse's SQL parser reads as other syntax: `position(x)` and `substring(x)` (the
 * start of its `position(a IN b)` and `substring(s FROM n)` forms), `substring` of four or more,
 * `trim()` (code 62, a syntax error in the SQL Quarry sends); and `not` of other than one
 * argument, read as NOT of a tuple (code 43). The probe, which reads codes per type, could not
 * tell. test/pipeline/argument-counts.test.ts holds them to the engine.
 */
export const COUNTS_READ_AS_OTHER_SYNTAX: ReadonlyMap<string, readonly number[]> = new Map([
  ["position", [0, 1]],
  ["substring", [0, 1, 4, 5]],
  ["trim", [0]],
  ["not", [0, 2, 3, 4, 5]],
]);

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

export function functionFacts(name: string): FunctionFacts {
  let facts = FUNCTION_FACTS.get(name);
  if (facts === undefined) {
    const signature = PROBED_FUNCTION_SIGNATURES.get(name);
    facts = {
      signature,
      counts: signature ? [0, 1, 2, 3, 4].map((count) => countRules(signature, count)) : [],
      refusedCounts: [0, 1, 2, 3, 4, 5].map((count) => (count > MAX_COUNTED_ARGUMENTS ? TAKES_AT_MOST_FOUR.has(name) || signature?.counts[MAX_COUNTED_ARGUMENTS] === "refused" : signature?.counts[count] === "refused") || ifCombinatorRefusesCount(name, count) || (count >= 2 && ONE_ARGUMENT_CONVERSION.test(name)) || COUNTS_READ_AS_OTHER_SYNTAX.get(name)?.includes(count) === true || refusedByFixedCount(name, count)),
      countCheckedBesideNull: COUNT_CHECKED_BESIDE_NULL.has(name),
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
 * The facts a curried call's arguments are judged on. `quantiles(0.5, 0.9)(x)` is ClickHouse's
 * `quantile` at several levels and takes the arguments `quantile` takes; the probe calls each
 * function without parameters, where the plural forms have no levels, so it learnt nothing of
 * their arguments, and their singular's facts stand in (an engine test holds each refusal).
 */
export function curriedArgumentFacts(name: string): FunctionFacts {
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
export const MULTI_LEVEL_QUANTILE = /^quantiles/;

/** The quantile functions of one level (`quantile`, `quantileExact`, ...; not the plural `quantiles`). */
export const SINGLE_LEVEL_QUANTILE = /^quantile(?!s)/;

/** Aggregates whose parameter is a size (how many values to keep), which leaves the result's type as the plain call's. */
export const SIZED_AGGREGATE = /^(?:topK|topKWeighted|groupArray|groupUniqArray)$/;

/** Allowed names only (functionFacts found a signature). */
const PLURAL_QUANTILE_FACTS = new Map<string, FunctionFacts>();

/**
 * A curried call's counts (`quantiles()(x)`: no level; `topK(5)(a, b)`: one argument; `sum(1)(x)`:
 * no parameters), as the probe found them per number of parameters.
 */
export function judgeCurried(name: string, signature: ProbedSignature, params: number, args: number, position: TextPosition | undefined): void {
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
