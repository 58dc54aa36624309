/**
 * Judging one call against the probe's refusals (judge), so that a call the engine would refuse
 * is refused at the argument's position: its argument count, a NULL where one is refused, each
 * argument's class or variant (refuseAt), pairs refused together (refusePairs), by the rules that
 * hold for the arguments' constness and nullability; a call given a value no row holds, and a
 * call an entity maps onto its stored states.
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../../errors/query-service-error.js";
import type { FunctionMapper } from "../../datasets/definition-types.js";
import type { Expression } from "../../query/ast.js";
import { ARGUMENT_CLASSES, CLASS_NAMES, MAX_COUNTED_ARGUMENTS, NULLABLE_CLASSES, elementClass, VARIANTS, variantWhat, type ArgumentClass } from "../argument-classes.js";
import type { ArgumentTyping } from "../argument-types.js";
import { integerShapeOf, isArrayTyped, type Typed } from "./typed-values.js";
import { describe, nameOf, list, countsTaken, typeName } from "./messages.js";
import { formIndex, typeIndex, BOTH_NULLABLE, pairKey, fixedAggregateCount, type FunctionFacts } from "./function-facts.js";
import { mayHoldElementsOf, arrayOfUntried } from "./array-types.js";
import { TUPLE_ARITHMETIC } from "./arithmetic-types.js";
import { COMMON_TYPE_FUNCTIONS, refuseNumbersWithoutCommonType, shapesDecide, refuseWithoutCommonType, refuseNullBesideContainer, refuseVariantBesideOtherType, refuseArrayOfUnknownElementsBesideScalar } from "./common-types.js";
import { VALUE_COMPARISONS } from "./comparisons.js";
import { refuseLambda, judgeLambdaBody, judgeAfterLambda } from "./lambdas.js";

/**
 * A call given a value no row holds one of (`if(1, NULL, x)`, a Nullable of x's class): the
 * engine still refuses that class where it refuses it at its position with the argument
 * Nullable (`count() / if(1, NULL, s)`, code 43), judged here. Every other refusal of it (a
 * pair, a string converted to compare with it, a UUID `length` reads) is made on a row's
 * value, which no row holds: beyond this, the value is one of unknown type (in place, in
 * `types`). An engine test holds both.
 */
export function judgeHoldingNoValue(typing: ArgumentTyping, name: string, facts: FunctionFacts, args: readonly Expression[], types: Typed[], position: TextPosition | undefined): void {
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
  // greatest and least find their arguments' common type at analysis, a text's too
  // (`greatest(span_id, if(1, spans.op, 'x'))` on discover, whose spans.op is NULL: a UInt64 and a
  // Nullable(String), code 386 with no row read; seed 39).
  // A NULL among them (`now() + url`, url NULL on discover) has every type, and leaves the others to find theirs.
  if (COMMON_TYPE_FUNCTIONS.has(name) && facts.signature) {
    const valued = args.flatMap((arg, i) => (types[i]!.cls === null && typing.mayBeNothing(arg) ? [] : [i]));
    const valuedTypes = valued.map((i) => types[i]!);
    if (valued.length >= 2 && valuedTypes.every((t) => t.cls !== null && t.variant < 0 && t.alternatives === undefined)) {
      judge(typing, name, facts, valued.map((i) => args[i]!), valuedTypes, position, false);
    }
  }
  for (let i = 0; i < types.length; i++) {
    // A Variant that holds no value is judged per alternative (judgeAlternatives).
    if (!types[i]!.holdsNoValue || types[i]!.alternatives !== undefined) continue;
    if (sets && !(types[i]!.cls === "uuid" && UUID_LENGTHS.has(name))) refuseAt(name, args, types, i, sets[i]!, position);
    types[i] = NO_VALUE_COLUMN;
  }
}

/** The functions that refuse a UUID only as they read a row's value (`length(toNullable(event_id))` is code 43 on a row, taken on none). */
const UUID_LENGTHS: ReadonlySet<string> = new Set(["length", "lengthUTF8"]);

/** A value of unknown type that holds no row's value: judged as a NULL beside the others is (judge's `nothing`). */
const NO_VALUE_COLUMN: Typed = { cls: null, index: -1, constant: false, nullable: false, variant: -1 };

/** Throws `invalid_query` when the engine would refuse this call for its argument count or classes. */
export function judge(typing: ArgumentTyping, name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined, curried: boolean): void {
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
  // multiIf takes pairs of a condition and its value, then the value otherwise: an odd count, past
  // the 4 arguments the probe tried too (`multiIf(a, 1, b, 2, c, 3)`, code 42), a NULL or not.
  if (name === "multiIf") {
    if (args.length < 3 || args.length % 2 === 0) {
      throw invalidQuery(`multiIf${at(position)} does not take ${args.length} argument${args.length === 1 ? "" : "s"}: it takes an odd number, 3 or more (pairs of a condition and its value, then the value otherwise)`, position);
    }
  } else if (!curried && fixedAggregateCount(name) === -1 && (facts.countCheckedBesideNull || !args.some((arg) => typing.mayBeNothing(arg)))) {
    // `quantiles(x)`: the levels come first, as parameters (code 42).
    throw invalidQuery(`${nameOf(name)}${at(position)} does not take ${args.length} argument${args.length === 1 ? "" : "s"} without its levels, which come first, as parameters: ${name}(0.5, 0.9)(…)`, position);
  } else if (!curried && facts.refusedCounts[Math.min(args.length, MAX_COUNTED_ARGUMENTS + 1)] === true && (facts.countCheckedBesideNull || !args.some((arg) => typing.mayBeNothing(arg)))) {
    // Past the probe's counts, a function that refuses 4 arguments refuses more too (`abs(a, b, c,
    // d, e)`, code 42), and so do the few that take 4 and no more (TAKES_AT_MOST_FOUR). Given a NULL, an aggregate is ClickHouse's `nothing` aggregate and some
    // functions answer NULL, neither checking the count (`sum(x, NULL)`, `like(s, NULL, 1)`); the
    // rest (COUNT_CHECKED_BESIDE_NULL) count first. argument-counts.test.ts holds all three.
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
    refuseVariantBesideOtherType(typing, name, args, types, position);
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

/** Arguments i and j are of types the function does not take together: an error at the second. */
export function refuseTogether(name: string, args: readonly Expression[], types: readonly Typed[], i: number, j: number, position: TextPosition | undefined): never {
  const [first, second] = [args[i]!, args[j]!];
  const secondPosition = second.position ?? position;
  throw invalidQuery(
    `${describe(first)}${at(first.position ?? position)} is ${typeName(types[i]!)} and ${describe(second)}${at(secondPosition)} is ${typeName(types[j]!)}: ${nameOf(name)} does not take them together as arguments ${i + 1} and ${j + 1} (ClickHouse finds no type for both)`,
    secondPosition,
  );
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
export function judgeMappedCount(name: string, mapper: FunctionMapper, args: readonly Expression[], position: TextPosition | undefined): void {
  const takes = mapper.to.endsWith("If") ? 2 : 1;
  if (args.length === takes) return;
  const what = takes === 2 ? `the value and a condition: 2 arguments` : `the value alone: 1 argument`;
  throw invalidQuery(`${name}(…)${at(position)} is ${mapper.to}(${mapper.column}${takes === 2 ? ", condition" : ""}) on this entity, and takes ${what}, not ${args.length}`, position);
}

export function judgeMappedCondition(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): void {
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
