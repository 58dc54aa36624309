/**
 * greatest and least compare their arguments in one common type: the pairs and numbers that have
 * none (by the probe's pairs and by exact integer types), a NULL beside an array, a map or a
 * state, and the type beside a NULL; arrays of integers with no common element type; and the
 * functions that make a state Nullable beside a NULL.
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../../errors/query-service-error.js";
import type { Expression } from "../../query/ast.js";
import { CLASS_NAMES, NULLABLE_CLASSES, VARIANTS, type ArgumentClass } from "../argument-classes.js";
import { commonTypeProblem, integerCommonType, integerTypeName, type NumberShape } from "../integer-types.js";
import type { ArgumentTyping } from "../argument-types.js";
import { typed, numberShapeOf, VARIANT_INDEX, MIXED_VARIANT, CONTAINER_VARIANT_AT, variantTyped, VARIANT_MAY_BE_NULL, NULLABLE_VARIANT_OF, isPlainNumber, NULLABLE_NUMBER_CLASSES, isContainer, type Typed } from "./typed-values.js";
import { describe, nameOf, typeName } from "./messages.js";
import { constnessCode, typeIndex, pairKey, functionFacts, type FunctionFacts } from "./function-facts.js";
import { isBranch } from "./branch-types.js";
import { resultTyped } from "./result-types.js";
import { numbersWithBool } from "./conditions.js";
import { VALUE_COMPARISONS, SCALAR_VALUE_CLASSES } from "./comparisons.js";
import { refuseTogether } from "./judge.js";

/**
 * Functions that compare their arguments in their common type, and refuse any call where two of
 * them have none (code 386), whatever the others are: a third argument, a NULL or a Nullable
 * does not help (`greatest(n, 2, 'info')`, `least(NULL, now(), 'a')`, `greatest(toNullable('a'),
 * 1)`). The probe's pairs for three arguments hold only beside classes, and its Nullable pairs
 * only one Nullable at a time; this judges every pair of arguments with a class on the pairs it
 * refused for two. An engine test holds the rule to every call of three classes, Nullable or not.
 */
export const COMMON_TYPE_FUNCTIONS: ReadonlySet<string> = new Set(["greatest", "least"]);

/**
 * greatest and least of two numbers with no common type by their exact types (integer-types.ts):
 * a 64-bit integer beside a float (`greatest(count(), 1.5)`), and, past two plain arguments, a
 * UInt64 beside a signed integer (`greatest(count_urls, offset - 3, viewed_by_id)`, code 386).
 */
export function refuseNumbersWithoutCommonType(typing: ArgumentTyping, name: string, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
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
export function shapesDecide(first: Typed, second: Typed): boolean {
  const [a, b] = [numberShapeOf(first), numberShapeOf(second)];
  return a !== null && b !== null && a !== "integer" && b !== "integer";
}

export function refuseWithoutCommonType(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
  const pair = pairWithoutCommonType(facts, types);
  if (pair !== null) refuseTogether(name, args, types, pair[0], pair[1], position);
}

/**
 * `tags.key - tags.key <= tags.value` on metrics: two arrays are compared in their elements'
 * common type, and integers of known types may have none (an Int64 and a UInt64; an Int32 and a
 * UInt64): code 43, whatever the rows. Two integers compared alone are taken (ClickHouse compares
 * an Int64 with a UInt64 without a common type); arrays are not. The functions that bring two
 * arrays to one type (arrayConcat, hasAny, hasAll, greatest, ...) refuse them too (code 386).
 * An engine test holds both.
 */
export function refuseArraysOfIntegersWithoutCommonType(name: string, args: readonly Expression[], types: readonly Typed[]): void {
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
export const ARRAYS_IN_COMMON_TYPE: ReadonlySet<string> = new Set(["arrayConcat", "hasAny", "hasAll", "greatest", "least"]);

/**
 * `greatest(x, 3, NULL)`: the common type of the other arguments, Nullable (the engine's
 * `greatest(toUInt16(1), NULL)` is a Nullable(UInt16)). Where that class cannot be Nullable, or
 * nothing else is known, it has none. An engine test holds it to the engine's result types.
 */
export function commonTypeBesideNull(facts: FunctionFacts, others: readonly Typed[], constant: boolean | null): Typed {
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

/**
 * greatest and least compare in the common type of all their arguments, and a NULL has none with
 * an array, a map or an aggregate state (no Nullable of one exists): `greatest(NULL, array(title,
 * type), NULL)` is code 386 whatever the rest (43 for a state). A NULL beside other types is the
 * Nullable of theirs. An engine test holds the rule to every class and variant.
 */
export function refuseNullBesideContainer(typing: ArgumentTyping, name: string, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
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
 * greatest and least of a Variant (an `if` or a `coalesce` of branches with no common type)
 * beside a value of any other known type: the engine finds no common type of a Variant and another
 * type (`greatest(1000, if(site, 'error', measurements[lcp]), sample_weight)` on discover, code
 * 386; seed 43), a NULL among them or not, whichever branch a condition picks. Beside a NULL, or
 * beside another Variant (which may be the same one), the pass says nothing. An engine test holds it.
 */
export function refuseVariantBesideOtherType(typing: ArgumentTyping, name: string, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
  const variantAt = types.findIndex((t) => t.variant === MIXED_VARIANT);
  if (variantAt < 0) return;
  const otherAt = types.findIndex((t, i) => t.variant !== MIXED_VARIANT && (t.cls !== null || t.variant >= 0 || t.alternatives !== undefined) && !typing.isNothing(args[i]!));
  if (otherAt < 0) return;
  const [variant, other] = [args[variantAt]!, args[otherAt]!];
  throw invalidQuery(
    `${describe(variant)}${at(variant.position ?? position)} is ${typeName(types[variantAt]!)}, and ${describe(other)}${at(other.position ?? position)} ${typeName(types[otherAt]!)}: ${nameOf(name)} compares its arguments in one common type, and ClickHouse finds none for a Variant and another type`,
    (otherAt > variantAt ? other : variant).position ?? position,
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
export function refuseArrayOfUnknownElementsBesideScalar(name: string, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
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

/**
 * The functions that make one value of their values' common type, Nullable beside a NULL: no
 * Nullable holds an aggregate state. Not greatest or least, whose common-type rule already
 * refuses a NULL beside a state (refuseNullBesideContainer).
 */
export const STATE_BESIDE_NULL_FUNCTIONS: ReadonlySet<string> = new Set(["if", "multiIf", "array"]);

/**
 * `if(granularity, max, NULL)`, `array(m, NULL)` of an aggregate state: the common type beside a
 * NULL is a Nullable, and no Nullable holds a state (code 43, whatever the rows and whatever
 * condition picks). `ifNull` and `coalesce` keep the state and are taken. An engine test holds it.
 */
export function refuseStateBesideNull(name: string, args: readonly Expression[], types: readonly Typed[], isNothing: (node: Expression) => boolean): void {
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
