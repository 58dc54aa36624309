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
import { atPosition as at, invalidQuery, QueryServiceError, type TextPosition } from "../errors/query-service-error.js";
import type { EntityDefinition, FunctionMapper } from "../datasets/definition-types.js";
import { queryExpressions, visitExpression, type Expression, type LogicalQuery } from "../query/ast.js";
import { CLASS_NAMES, NULLABLE_CLASSES, elementClass, keepsPlainResult, VARIANTS, variantWhat, type ArgumentClass } from "./argument-classes.js";
import { comparedByElements, comparesElements, elementComparison, type ElementComparison } from "./snql-array-conditions.js";
import { constantText, type ColumnTexts } from "./literal-texts.js";
import { parameterProblem } from "./aggregate-parameters.js";
import { UINT8_SHAPE, UINT64_SHAPE, integerShapeOfLiteral, integerShapeOfTypeName, integerTypeName } from "./integer-types.js";
import { DATE_BUCKET_GRANULARITY } from "../clickhouse/expression-printer.js";
import { literalClass, constnessIndex, typed, UNKNOWN, integerTyped, integerShapeOf, UNKNOWN_COLUMN, TUPLE_VARIANT, NESTED_VARIANT, MIXED_ARRAY_VARIANT, MIXED_VARIANT, DATE_VARIANT, UINT128_VARIANT, DATES, ARRAY_VARIANT_AT, ARRAY_FAMILIES, VARIANT_FAMILIES, variantTyped, VARIANT_MAY_BE_NULL, DATETIME_CONSTANT, isPlainNumber, MAP_VARIANT_AT, IP_VARIANTS, IPV4_VARIANT, isArrayTyped, uint128CommonType, isDateLike, type Typed } from "./typing/typed-values.js";
import { storedColumnNames, entityFacts, stateColumnTypes, type EntityFacts } from "./typing/entity-facts.js";
import { describe, nameOf, list, typeName } from "./typing/messages.js";
import { formIndex, functionFacts, curriedArgumentFacts, MULTI_LEVEL_QUANTILE, SINGLE_LEVEL_QUANTILE, SIZED_AGGREGATE, judgeCurried, type FunctionFacts } from "./typing/function-facts.js";
import { isBranch, pickedBranch, branchesType, numbersCommonTyped, coalesceType, rowsHoldingPrefix, noCommonType, refusalOfAlternatives, refuses, heldAlternatives, perRowAlternatives, mixedArgument, type ValueOf } from "./typing/branch-types.js";
import { isArrayCall, arrayOf, numberArrayBranchesType, MAPPED_ARRAYS, elementsDecide, mixedElementType, arrayOfClass, elementOf, NUMBER_ARRAYS } from "./typing/array-types.js";
import { DATE_DIFFERENCES, judgeDateDifference } from "./typing/date-differences.js";
import { refuseClassWhereNoneFits } from "./typing/first-argument-kinds.js";
import { refuseMapKeyOfOtherType } from "./typing/map-keys.js";
import { TIME_ZONE_AFTER, timeZoneReading, refuseFirstBesideZone } from "./typing/time-zones.js";
import { resultTyped, madeNullable, CONVERSION, ROW_VALUE_AGGREGATES, BRANCHING_FUNCTIONS, resultOfOneOf, withIntegerType, nothingOfNullArgument, NOTHING_OF_NULL, NOTHING_OF_NULL_PAIR, NOTHING_OF_NULL_TRIPLE } from "./typing/result-types.js";
import { elementCall, elementBy, TUPLE_ARITHMETIC, ELEMENT_WISE_ARITHMETIC, isTupleCall, refuseArithmeticOnNulls, refuseDateMovedPastInt64, ipv4ArithmeticType, keptArithmeticType, arrayArithmeticType, isNumbersProduct, isNumberArraysSum } from "./typing/arithmetic-types.js";
import { COMMON_TYPE_FUNCTIONS, refuseArraysOfIntegersWithoutCommonType, ARRAYS_IN_COMMON_TYPE, commonTypeBesideNull, STATE_BESIDE_NULL_FUNCTIONS, refuseStateBesideNull } from "./typing/common-types.js";
import { condition, numbersWithBool, isIfAggregate, CONDITION, BOOL_CONSTANT, LOGICAL_FUNCTIONS, refuseFloatAmongConditions, logicalBesideNull } from "./typing/conditions.js";
import { PER_ROW_LIST_LEFT, refuseNestedInNulls, UUID_SET, unconvertibleSet, scalarPerRow, computedScalar, refuseArithmeticNullInStates, refuseListValuesForComputedNull, refuseComputedTupleSet, isLiteralIf, readAsOf, refuseUnconvertibleSetValues, containerWhat, isContainerValue } from "./typing/membership.js";
import { COMPARISONS, VALUE_COMPARISONS, SCALAR_VALUE_CLASSES, refuseTuplesOfTwoSizes, refuseIPv4BesideFloatOrSigned, refuseIPv4AmongFloatsOrSigned, refuseIPv4AmongBranches, refuseMixedArraysOfOtherFamilies, ELEMENT_LOOKUPS, refuseArrayBesideScalar, refuseNullableBesideTuple, judgeComparedString, judgeConvertedText, refuseZeroIndex, refuseOverflowingLength, refuseUnendedLikeEscape } from "./typing/comparisons.js";
import { NO_PARAMETERS, ARRAY_KEEPING_LAMBDA_FUNCTIONS, lambdaParameterType, refuseLambda, refuseMissingLambda } from "./typing/lambdas.js";
import { judgeHoldingNoValue, judge, judgeMappedCount, judgeMappedCondition } from "./typing/judge.js";

type EntityOf = (entityAlias: string | undefined) => EntityDefinition | undefined;

/**
 * One walk over the query's expressions, children before parents: each node's class and
 * constness come from its children's, and each call is judged with its arguments' (linear in
 * the size of the query).
 */
export class ArgumentTyping {
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
  /** The query groups BY keys: the analyzer then folds `min(2.5)` and its like to the constant (refuseFloatAmongConditions). */
  grouped = false;
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
  stateInside(node: Expression): Expression | null {
    return this.heldInside(node, (t) => t.cls === "aggregateState", 0);
  }

  /** A Variant (a mixed array, an `if` of mixed branches) a tuple or an array holds at any depth (`tuple(a, array(TRUE, s))`), through aliases; else null. */
  variantInside(node: Expression): Expression | null {
    return this.heldInside(node, isVariant, 0);
  }

  /** The first value of a type `holds` takes that a `tuple(...)` or `array(...)` call holds at any depth, through aliases; else null. */
  private heldInside(node: Expression, holds: (t: Typed) => boolean, depth: number): Expression | null {
    const resolved = this.definitionOf(node);
    if (depth > MAX_CONTAINER_DEPTH || resolved.kind !== "function") return null;
    // An aggregate returning one of its rows' values returns a value of its first argument's type
    // (`argMax(tuple(last, sum), now())` on gauges, a tuple of states: ORDER BY refuses it, code 44; seed 36).
    if (ROW_VALUE_AGGREGATES.has(resolved.name) && resolved.args.length > 0) return this.heldInside(resolved.args[0]!, holds, depth + 1);
    if (resolved.name !== "tuple" && resolved.name !== "array") return null;
    for (const arg of resolved.args) {
      if (holds(this.visit(arg))) return arg;
      const inner = this.heldInside(arg, holds, depth + 1);
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
        const cls = literalClass(node.value, node.digits);
        const integer = cls === "int64" ? integerShapeOfLiteral(node.value as number, node.digits) : null;
        return integer !== null ? integerTyped(integer, true) : typed(cls, true);
      }
      case "datetime":
        return DATETIME_CONSTANT;
      case "column":
        if (node.entityAlias === undefined && !node.insideOwnAlias && this.aliases.size > 0 && this.aliases.has(node.name)) {
          // An alias's type is read once, where it is first met (SELECT comes first): what it names
          // is looked at again in WHERE (`SELECT sessions_abnormal AS users, users WHERE users > 1`).
          if (this.inWhere) this.refuseAggregateColumnsNamedBy(node.name, 0);
          return this.aliasType(node.name);
        }
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

  /**
   * A call given a time zone after its usual arguments: of the type of the call without it where
   * the zone is a constant string (made Nullable where the zone is), else of no type the pass
   * names (a NULL there makes a Nothing; a number, a DateTime64's scale); refused where the engine
   * refuses the zone (timeZoneReading).
   */
  private visitZonedCall(node: Extract<Expression, { kind: "function" }>, zoneAt: number): Typed {
    const zone = node.args[zoneAt]!;
    const zoneType = this.visit(zone);
    const reading = timeZoneReading(node.name, zone, zoneType, this.isNothing(zone));
    const plain = { ...node, args: node.args.slice(0, zoneAt) };
    if (reading === "zone") {
      const result = this.visitCall(plain, zone);
      return zoneType.nullable ? (madeNullable(result, result.constant) ?? typed(null, result.constant)) : result;
    }
    const constness = [zoneType, ...plain.args.map((arg) => this.visit(arg))].map((t) => t.constant);
    return typed(null, constness.every((c) => c === true) ? true : constness.includes(false) ? false : null);
  }

  /**
   * A call: its arguments typed first, then the call judged with their types, and its own type
   * from theirs. `zone`: the time zone visitZonedCall set apart, judged beside the first argument.
   */
  private visitCall(node: Extract<Expression, { kind: "function" }>, zone?: Expression): Typed {
    // Read once: nodes of different kinds have different hidden classes, so each read of a node's
    // property is a megamorphic lookup in V8; locals keep the many checks below cheap.
    const name = node.name;
    const nodes = node.args;
    const position = node.position;
    // A time zone after the usual arguments (`toStartOfHour(t, 'UTC')`): judged apart, and the
    // call judged and typed as the one without it (typing/time-zones.ts).
    const zoneAt = TIME_ZONE_AFTER.get(name);
    if (zoneAt !== undefined && nodes.length === zoneAt + 1) return this.visitZonedCall(node, zoneAt);
    const facts = functionFacts(name);
    const args: Typed[] = [];
    let constants = 0;
    let columns = 0;
    let noValues = 0;
    if (facts.signature?.lambda === true) refuseMissingLambda(node);
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
    if (zone !== undefined && nodes.length > 0) refuseFirstBesideZone(name, nodes[0]!, args[0]!, zone);
    if (ELEMENT_WISE_ARITHMETIC.has(name) && nodes.length === 2) {
      const byNumber = this.arrayOfTuplesByNumber(name, facts, nodes, args, constants === 2 ? true : columns > 0 ? false : null, position);
      if (byNumber !== null) return byNumber;
    }
    // Before a value no row holds is made one of unknown type: the engine refuses it beside a tuple while planning.
    if (nodes.length === 2 && VALUE_COMPARISONS.has(name)) refuseNullableBesideTuple(name, nodes, args, this.nothing);
    if (noValues > 0) judgeHoldingNoValue(this, name, facts, nodes, args, position);
    refuseClassWhereNoneFits(name, facts.aggregate, nodes, args, this.nothing, position);
    const mapper = this.mapperOf(name, nodes);
    if (mapper !== undefined) {
      // The mapped aggregate (sumMergeIf) takes no lambda either (code 1; seed 19).
      const lambda = facts.signature && !facts.signature.lambda ? nodes.find((arg) => arg.kind === "lambda") : undefined;
      if (lambda !== undefined) refuseLambda(name, lambda, position);
      judgeMappedCount(name, mapper, nodes, position);
      if (facts.signature && name.endsWith("If")) judgeMappedCondition(name, facts, nodes, args, position);
      return this.mappedResult(mapper, nodes[0]!) ?? UNKNOWN;
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
    if (membership) refuseUnconvertibleSetValues(name, nodes, args, constantSet, this.visitNode);
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
    if (perRowList) {
      const values = this.tupleCallOf(nodes[1]!)!.args;
      refuseListValuesForComputedNull(name, nodes[0]!, args[0]!, values, values.map(this.visitNode), this.nothing);
      this.judgePerRowList(name, nodes[0]!, args[0]!, this.tupleCallOf(nodes[1]!)!, position);
    }
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
    if (membership) refuseNestedInNulls(name, nodes[0]!, args[0]!, nodes[1]!, this.nothing);
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
    if (facts.signature && nodes.length === 1 && (name === "sum" || name === "avg")) this.judgeAggregateOfArithmetic(name, facts, nodes[0]!, position);
    const byTuple = TUPLE_ARITHMETIC.has(name) && nodes.length === 2 ? this.judgeTupleElements(name, facts, nodes, args, position) : null;
    if (ELEMENT_WISE_ARITHMETIC.has(name) && nodes.length === 2) this.judgeArrayElements(name, facts, nodes, args, position);
    if ((ELEMENT_WISE_ARITHMETIC.has(name) || name === "plus" || name === "minus") && nodes.length === 2) refuseArithmeticOnNulls(name, nodes, args, this.nothing);
    refuseDateMovedPastInt64(name, nodes, args, this.constantValue);
    if (LOGICAL_FUNCTIONS.has(name) || name === "xor") refuseFloatAmongConditions(name, nodes, args, this.grouped);
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
    // The integer class is an Int64 or a UInt64 to it: an IPv4 converts to the unsigned ones
    // only (`-2 IN ip_address_v4`, code 48; seed 45), so a signed integer of known type is refused.
    const signedIntoIPv4 = sought === "int64" && args[1]!.variant === IPV4_VARIANT && integerShapeOf(args[0]!)?.signed === true;
    if (setType !== undefined && (soughtIp ? setType === UUID_SET : setType.refused.has(sought!) || signedIntoIPv4) && this.isStorageColumn(nodes[1]!)) {
      const [left, right] = nodes as [Expression, Expression];
      const what = soughtDate || soughtIp ? variantWhat(VARIANTS[args[0]!.variant]!) : signedIntoIPv4 ? "a signed integer" : CLASS_NAMES[sought!];
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
    refuseUnendedLikeEscape(name, nodes, this.columnTexts);
    refuseZeroIndex(name, nodes, args, this.foldedValue, this.holdsNumber);
    refuseMapKeyOfOtherType(name, nodes, args);
    refuseOverflowingLength(name, nodes, args, this.constantValue);
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
    // A NULL looked for in a list holding values read per row (`NULL IN tuple(a, 2)`, `(NULL +
    // 'x') IN tuple(tags.key, s)`) is a Nullable(UInt8) too, found nowhere (notEmpty of it is
    // code 43; seed 33). With a constant list it is a Nothing.
    if (perRowList && this.isNothing(nodes[0]!)) return typed("uint8", false, true);
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
    if (byTuple !== null) return byTuple;
    if (name === "array") return arrayOf(args, constant, nodes.map(this.nothing), nodes);
    const ipArithmetic = ipv4ArithmeticType(name, args, constant);
    if (ipArithmetic !== null) return ipArithmetic;
    const elementAt = facts.signature ? facts.elementOfAt[args.length]! : -1;
    if (elementAt >= 0 && args[elementAt]!.elements !== undefined) return mixedElementType(args[elementAt]!, name === "arrayElement" ? nodes[1] : undefined, constant);
    // An element of a Nested column read whole is a tuple (`arrayElement(tags, org_id) <= 3`, code 43; seed 24).
    if (elementAt >= 0 && args[elementAt]!.variant === NESTED_VARIANT) return variantTyped(TUPLE_VARIANT, constant);
    if (name === "if" || name === "multiIf") {
      refuseIPv4AmongBranches(name, nodes, args, this.nothing, this.constantValue);
      const branches = numberArrayBranchesType(nodes, args, constant, this.nothing, this.constantValue) ?? branchesType(nodes, args, constant, this.nothing, this.constantValue);
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
    if (mixedAt >= 0 && isNumberArraysSum(name, args)) return NUMBER_ARRAYS[constnessIndex(constant)]!;
    if (mixedAt >= 0) return answersCondition() ? condition(name, args, constant) : typed(null, constant);
    if (COMMON_TYPE_FUNCTIONS.has(name)) {
      const common = this.numbersCommonType(nodes, args, constant);
      if (common !== null) return common;
    }
    // A NULL there is a NULL literal, a column the storage computes as one (`exception_main_thread`
    // on transactions), or a comparison of one (isNothing).
    if (COMMON_TYPE_FUNCTIONS.has(name) && nodes.some(this.nothing)) return commonTypeBesideNull(facts, args.filter((_, i) => !this.isNothing(nodes[i]!)), constant);
    // `sumIf(x, NULL)`: of the type the call has with a UInt8 condition (a UInt64 here), not a NULL.
    // So with a Nullable one (`sumIf(1, 10 IN device_model)`, a UInt64 no DateTime is taken from,
    // code 43; seed 47): the probe tried plain conditions only, and the engine types both alike.
    if (isIfAggregate(name, facts, args.length)) {
      const condition = args[args.length - 1]!;
      if (this.isNothing(nodes[args.length - 1]!) || (condition.nullable && condition.variant < 0 && (condition.cls === "uint8" || condition.cls === "bool"))) {
        const plain = [...args.slice(0, -1), CONDITION];
        return withIntegerType(name, plain, resultTyped(facts, plain, constant));
      }
    }
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
    if (DATE_DIFFERENCES.has(name)) return judgeDateDifference(name, nodes, args, this.nothing, position);
    if (name === "toNullable" && args.length === 1) {
      const made = madeNullable(args[0]!, constant);
      if (made !== null) return made;
    }
    const result = withIntegerType(name, args, resultTyped(facts, args, constant, nodes));
    const untyped = result.cls === null && result.variant < 0 && result.alternatives === undefined;
    if (untyped && (isNumbersProduct(name, args) || isNumberArraysSum(name, args))) return NUMBER_ARRAYS[constnessIndex(constant)]!;
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
      const t = this.visit(param);
      const kind = t.cls === "string" || isArrayTyped(t) ? "text" : t.cls === "float64" ? "float" : t.cls === "uuid" ? "uuid" : null;
      const problem = parameterProblem(node.name, i, param, this.parameterConstness(param), node.params, kind === null ? null : { kind, what: typeName(t) });
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
  private judgeTupleElements(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined): Typed | null {
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
      return null;
    }
    const tuple = leftTuple ?? rightTuple;
    // A tuple the query did not write as a call, nor as an alias of one (a column, a function's
    // result): its elements are not known.
    const tupleFirst = tuple === leftTuple;
    if (!tuple || types[tupleFirst ? 1 : 0]!.variant === TUPLE_VARIANT) return null;
    const other = tupleFirst ? right : left;
    const otherType = types[tupleFirst ? 1 : 0]!;
    if ((name === "minus" ? !tupleFirst : name === "plus") && isDateLike(otherType)) return this.dateByTupleOfIntervals(name, facts, other, otherType, tuple, position);
    tuple.args.forEach((element, k) => {
      const elementType = this.visit(element);
      const pair = tupleFirst ? [element, other] : [other, element];
      this.judgeAs(() => elementBy(name, k, position), () => this.judgeElementOperation(name, facts, pair, tupleFirst ? [elementType, otherType] : [otherType, elementType], position));
    });
    return null;
  }

  /**
   * `array(tuple(1, 2)) / 2`, `2 * groupArray(tuple(x))`: an array of tuples written out times a
   * number, or over one with the array first, is worked element by element, each tuple as
   * `tuple(…) / 2` is (judgeTupleElements), and stays an array of tuples (the engine's
   * tupleDivideByNumber). The probe's array of tuples is a Nested column read whole, of strings,
   * which it refused. Of tuples of one size whose elements are of one class at each position
   * (else their array is a Variant's, which the engine refuses). Null for any other call.
   */
  private arrayOfTuplesByNumber(name: string, facts: FunctionFacts, args: readonly Expression[], types: readonly Typed[], constant: boolean | null, position: TextPosition | undefined): Typed | null {
    const leftTuples = this.writtenTuplesOf(args[0]!);
    const tuples = leftTuples ?? (name === "multiply" ? this.writtenTuplesOf(args[1]!) : null);
    if (tuples === null) return null;
    const arrayAt = leftTuples !== null ? 0 : 1;
    const number = types[1 - arrayAt]!;
    if (number.variant >= 0 || number.cls === null || ARRAY_FAMILIES[number.cls] !== "number") return null;
    const first = tuples[0]!;
    const sameClasses = first.args.every((element, k) => this.visit(element).cls !== null && tuples.every((tuple) => this.visit(tuple.args[k]!).cls === this.visit(element).cls));
    if (!sameClasses) return null;
    const other = args[1 - arrayAt]!;
    for (const tuple of tuples) {
      tuple.args.forEach((element, k) => {
        const pair = arrayAt === 0 ? [element, other] : [other, element];
        const pairTypes = arrayAt === 0 ? [this.visit(element), number] : [number, this.visit(element)];
        this.judgeAs(() => `${nameOf(name)}${at(position)} works on an array of tuples element by element, and refuses element ${k + 1} of ${describe(tuple)}${at(tuple.position)}:`, () => this.judgeElementOperation(name, facts, pair, pairTypes, position));
      });
    }
    return variantTyped(NESTED_VARIANT, constant);
  }

  /** The tuples of an array written out of tuples of one size (`array(tuple(1, 2))`), or collected from one (`groupArray(tuple(x))`); else null. */
  private writtenTuplesOf(node: Expression): Extract<Expression, { kind: "function" }>[] | null {
    if (node.kind !== "function") return null;
    const written = node.name === "array" ? node.args : WRITTEN_TUPLE_ARRAYS.has(node.name) && node.args.length === 1 ? node.args : [];
    if (written.length === 0) return null;
    const tuples: Extract<Expression, { kind: "function" }>[] = [];
    for (const element of written) {
      const tuple = this.tupleValueOf(element);
      if (tuple === null || (tuples.length > 0 && tuple.args.length !== tuples[0]!.args.length)) return null;
      tuples.push(tuple);
    }
    return tuples;
  }

  /**
   * `t - tuple(a, b)` of a date `t` is `(t - a) - b` (the engine's subtractTupleOfIntervals;
   * `tuple(a, b) + t` and `t + tuple(a, b)` add so): each element taken from what the ones before
   * left, a DateTime minus a DateTime being a number, which a DateTime is not taken from
   * (`timestamp - tuple(project_id, now(), timestamp)`, code 43; seed 44). Each step is judged as
   * the call of its own, and typed as one: the call is of the last step's type.
   */
  private dateByTupleOfIntervals(name: string, facts: FunctionFacts, date: Expression, dateType: Typed, tuple: Extract<Expression, { kind: "function" }>, position: TextPosition | undefined): Typed {
    let done = date;
    let doneType = dateType;
    tuple.args.forEach((element, k) => {
      const pair = [done, element];
      const elementType = this.visit(element);
      const prefix = () => `${nameOf(name)}${at(position)} of a date and a tuple ${name === "minus" ? "subtracts" : "adds"} its elements in turn, and refuses element ${k + 1}${k === 0 ? "" : ` on what the ones before left`}:`;
      this.judgeAs(prefix, () => this.judgeElementOperation(name, facts, pair, [doneType, elementType], position));
      const step: Expression = { kind: "function", name, args: pair, position: element.position };
      doneType = this.judgeAs(prefix, () => this.visit(step));
      done = step;
    });
    return doneType;
  }

  /**
   * `tuple(1, device_classification) < tuple(version_name, version_code)`: two tuples are compared
   * element by element, and ClickHouse refuses the comparison where it refuses one pair's (a
   * UInt8 and a String: code 386; a UInt8 and an Array(Float64): code 43). Judged where both are
   * written as calls (or aliases of them) of one size; tuples of two sizes are refused already
   * (refuseTuplesOfTwoSizes). Not a pair with a NULL in it, nor a Nullable beside an array or a
   * value of no class: the engine compares only rows' values that are not NULL, and reads a
   * Nullable string beside an array as one. A Nullable beside a scalar is judged as the pair
   * alone is, refused on the first row holding a value. `=` or `!=` with a pair of two constants
   * in it that may differ answers without comparing the rest (`tuple(s, 1) = tuple(2, 2)`), but
   * for types no comparison takes (a UUID and a number); where they are equal (`tuple(s, 1) =
   * tuple(n, 1)`) it compares it all.
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
    // A pair of two constants is compared first whatever the rest (`tuple(d, 'http.server') =
    // tuple(d, 1e+10)` reads the text as a UInt64, code 53; seed 50).
    pairs.forEach((pair, k) => {
      if (!equality || constantPairsEqual || types[k]!.every((t) => t.constant === true)) this.judgeAs(() => elementBy(name, k, position), () => this.judgeComparedStrings(name, pair, types[k]!, false));
    });
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
    // Beside a pair of constants `=` may find different, the engine still builds each pair's
    // comparison, and refuses the types no comparison takes (`tuple(event_id, 1) = tuple(1.5, 2)`,
    // a UUID and a Float64: code 43; seed 35); it answers without comparing a text with another
    // type, or an IPv4, which it converts per row (`tuple(s, 1) = tuple(5, 2)`).
    const answeredUnbuilt = (t: Typed) => t.cls === null || t.cls === "string" || t.variant === IPV4_VARIANT || t.alternatives !== undefined;
    // A pair with a Nullable in it is judged as the pair alone is where both are scalars
    // (`tuple(dist) != tuple(replay_id)`, a Nullable(String) and a UUID: code 386 on a row holding
    // a value; seed 19). Not beside an array: a Nullable string there is read as one per row.
    const scalar = (t: Typed) => (t.variant < 0 ? t.alternatives === undefined && t.cls !== null && SCALAR_VALUE_CLASSES.has(t.cls) : t.variant === UINT128_VARIANT);
    pairs.forEach((pair, k) => {
      const pairTypes = types[k]!;
      if (equality && !constantPairsEqual && pairTypes.some(answeredUnbuilt)) return;
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
      // A state among several results is an alternative of the Variant (`x * if(1, value, 0)` is a
      // Variant(AggregateFunction(sum, Float64), UInt16), which length refuses: code 43; seed 42).
      if (r.cls === null || r.variant >= 0 || r.alternatives !== undefined) return null;
      if (!results.includes(r.cls)) results.push(r.cls);
    }
    if (results.length === 0) return null;
    if (results.length > 1) {
      const alternativeConstant = constant === false ? false : null;
      const alternatives = results.map((cls) => typed(cls, alternativeConstant));
      if (!results.includes("aggregateState")) return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives };
      // The engine fails only on a row holding the state: where a constant condition picks what
      // every row holds (`2 * if(0, value, 0)` holds the UInt16), so does the result.
      const source = args[at]!;
      if (source.held !== undefined) return null;
      let picked: Typed | undefined;
      if (source.picked !== undefined) {
        each[at] = source.picked;
        const cls = resultTyped(facts, each, constant, nodes).cls;
        picked = alternatives.find((alternative) => alternative.cls === cls);
        if (picked === undefined) return null;
      }
      return { cls: null, index: -1, constant, nullable: false, variant: MIXED_VARIANT, alternatives, ...(source.pickedOnce ? { pickedOnce: true } : {}), ...(picked ? { picked } : {}) };
    }
    const result = results[0]!;
    if (result === "aggregateState") return null;
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
    // greatest or least of one value, and identity, are that value (`greatest(tuple(offset,
    // last_seen)) / offset` divides a DateTime, code 43; seed 39).
    if (node.args.length === 1 && (node.name === "greatest" || node.name === "least" || node.name === "identity")) return this.tupleValueOf(node.args[0]!, depth + 1);
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
    // greatest or least of one Variant twice (`greatest(if(c, s, f), if(c, s, f))`): their common
    // type is that Variant, compared whole, not per alternative.
    if (mixedAt >= 0 && COMMON_TYPE_FUNCTIONS.has(name) && this.oneVariantOnly(args, types)) mixedAt = -1;
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
    // A Variant whose conditions pick a NULL for every row (`if(0, if(c, s, 5), NULL)`) holds no
    // row's value: the call is refused only where it takes none of its alternatives, each
    // judged as a value no row holds (judgeHoldingNoValue).
    const holdsNoValue = types[mixedAt]!.holdsNoValue === true;
    // (Judged there on the Variant's whole type: the engine's analysis sees every alternative.)
    const held = holdsNoValue ? types[mixedAt]!.alternatives! : heldAlternatives(types[mixedAt]!);
    const alternatives = holdsNoValue ? held.map((alternative) => ({ ...alternative, nullable: true, holdsNoValue: true as const })) : held;
    const perRow = perRowAlternatives(types[mixedAt]!);
    // A second argument of alternatives is one of them in every row: judged inside each.
    const otherAt = types.findIndex((t, i) => i !== mixedAt && t.alternatives !== undefined);
    const refused = refusalOfAlternatives(alternatives, types, mixedAt, perRow ? "any" : "every", (given) => {
      const each = holdsNoValue ? [...given] : given;
      if (holdsNoValue) judgeHoldingNoValue(this, name, facts, args, each as Typed[], position);
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
  /**
   * The engine's analyzer moves arithmetic with a constant out of `sum` and `avg` before it judges
   * them (`avg(x / 100)` is `avg(x) / 100`; `sum` only of `*` and of `/` by a constant, `avg` of
   * `+` and `-` too), so they are judged on the value the arithmetic is done on:
   * `avg(-1e10 + ip_address_v4 / 100)` takes the IPv4 itself (code 43; seed 43), although the
   * arithmetic makes a number of it. A NULL is no such constant. An engine test holds it.
   */
  private judgeAggregateOfArithmetic(name: string, facts: FunctionFacts, argument: Expression, position: TextPosition | undefined): void {
    const moved = name === "avg" ? AVG_MOVED_ARITHMETIC : SUM_MOVED_ARITHMETIC;
    let inner = argument;
    for (let depth = 0; depth < MAX_CONTAINER_DEPTH && inner.kind === "function" && inner.args.length === 2 && moved.has(inner.name); depth++) {
      const [left, right] = inner.args as [Expression, Expression];
      // A constant divided by the value (`avg(100 / x)`) stays inside.
      if (this.isMovableConstant(right)) inner = left;
      else if (inner.name !== "divide" && this.isMovableConstant(left)) inner = right;
      else break;
    }
    if (inner === argument) return;
    const value = inner;
    this.judgeAs(
      () => `${nameOf(name)}${at(position)} is computed on ${describe(value)}${at(value.position)}, its arithmetic done after it (ClickHouse moves arithmetic with a constant out of ${name}), and`,
      () => judge(this, name, facts, [value], [this.visit(value)], position, false),
    );
  }

  /**
   * The type of an aggregate the entity maps to the merge of a stored state of sum, min, max or
   * argMax/argMin (`last`) of numbers (`count(value)` on generic_metrics_gauges is sumMerge of an AggregateFunction(sum,
   * UInt64): a UInt64, which `> 'x'` cannot read 'x' as, code 53; seed 43); else null (unknown).
   * A sum of integers is a 64-bit one of their sign, of floats a Float64; the others are of the
   * value's type (argMax's first).
   */
  private mappedResult(mapper: FunctionMapper, first: Expression): Typed | null {
    const state = first.kind === "column" ? this.factsOf(first.entityAlias)?.columns.get(mapper.column)?.state : undefined;
    const match = state === undefined ? null : MERGED_NUMBER_STATE.exec(state);
    if (match === null || mapper.to.replace(/Merge(If)?$/, "") !== match[1]) return null;
    const [, aggregate, type] = match as unknown as [string, string, string];
    if (type.startsWith("Float")) return typed("float64", false);
    const shape = integerShapeOfTypeName(type);
    if (shape === null) return null;
    return integerTyped(aggregate === "sum" ? (integerShapeOfTypeName(shape.signed ? "Int64" : "UInt64") ?? UINT64_SHAPE) : shape, false);
  }

  /** Whether every argument is a NULL or a Variant of the same alternatives as the others (typeName's, in order), two at least. */
  private oneVariantOnly(args: readonly Expression[], types: readonly Typed[]): boolean {
    let seen: string | undefined;
    let variants = 0;
    for (let i = 0; i < args.length; i++) {
      if (this.isNothing(args[i]!)) continue;
      const t = types[i]!;
      if (t.variant !== MIXED_VARIANT || t.alternatives === undefined) return false;
      const alternatives = t.alternatives.map(typeName).join();
      if (seen !== undefined && alternatives !== seen) return false;
      seen = alternatives;
      variants++;
    }
    return variants >= 2;
  }

  /** A value the analyzer holds a constant (not a NULL), which it moves out of sum and avg with its arithmetic. */
  private isMovableConstant(node: Expression): boolean {
    return this.visit(node).constant === true && !this.isNothing(node);
  }

  private judgeAs<T>(prefix: () => string, judgeIt: () => T): T {
    try {
      return judgeIt();
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

  /**
   * The type of a column of aggregate states read as it is stored (`AggregateFunction(sum,
   * Float64)`), else null. A state repeated a constant number of times (`max * 10`), or added to
   * one of its own type, is still one of that type: `percentiles_weighted + max * 10` adds two
   * kinds (code 421; seed 26).
   */
  private stateTypeOf(node: Expression): string | null {
    if (node.kind === "function" && node.args.length === 2 && (node.name === "multiply" || node.name === "plus")) {
      const [first, second] = [this.stateTypeOf(node.args[0]!), this.stateTypeOf(node.args[1]!)];
      if (node.name === "plus") return first === second ? first : null;
      return first === null ? second : second === null ? first : null;
    }
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

  /**
   * constantValue, and `isNull(x)` or `isNotNull(x)` of a column stored in a type that cannot be
   * NULL, which the engine's analyzer folds to 0 or 1 before it runs the query
   * (`arrayElement(tags.value, timestamp IS NULL)` is index 0, code 135; seed 26). So it folds
   * them of a literal, and of a call the pass types as never NULL (`substring(s, now() IS NULL,
   * 0)`, seed 41's run), which is visited again here: rare, as only an index asks.
   */
  private readonly foldedValue: ValueOf = (node) => {
    if (node.kind !== "function" || (node.name !== "isNull" && node.name !== "isNotNull") || node.args.length !== 1) return this.constantValue(node);
    const only = node.args[0]!;
    if (only.kind === "literal") return Number((only.value === null) === (node.name === "isNull"));
    if (only.kind === "function") {
      const t = this.visit(only);
      return t.cls !== null && !t.nullable && t.alternatives === undefined ? Number(node.name === "isNotNull") : undefined;
    }
    const entity = this.entityOfColumn(only);
    // A column renamed to a stored one is that column; one the entity computes may be NULL.
    if (entity === undefined || only.kind !== "column") return undefined;
    const mapper = entity.columnMappers[only.name];
    if (mapper !== undefined && mapper.kind !== "column") return undefined;
    const t = this.factsOf(only.entityAlias)?.columns.get(only.name);
    return t !== undefined && t.cls !== null && !t.nullable ? Number(node.name === "isNotNull") : undefined;
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

  /** refuseAggregateColumn of every column an alias's definition reads, through the aliases it reads (a cycle was refused before the pass). */
  private refuseAggregateColumnsNamedBy(alias: string, depth: number): void {
    if (depth > MAX_CONTAINER_DEPTH) return;
    visitExpression(this.aliases.get(alias)!, (inner) => {
      if (inner.kind !== "column") return;
      if (inner.entityAlias === undefined && !inner.insideOwnAlias && this.aliases.has(inner.name)) this.refuseAggregateColumnsNamedBy(inner.name, depth + 1);
      else this.refuseAggregateColumn(inner);
    });
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
  private readonly visitNode = (node: Expression): Typed => this.visit(node);

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

/** Aggregates whose array holds their rows' values as they are: of a tuple written out, tuples of its elements' types (arrayOfTuplesByNumber). */
const WRITTEN_TUPLE_ARRAYS: ReadonlySet<string> = new Set(["groupArray", "groupUniqArray"]);

/** A stored state of sum, min, max, argMax or argMin of a number, as entity facts write a state's type (spaces removed). */
const MERGED_NUMBER_STATE = /^AggregateFunction\((sum|min|max|argMax|argMin),(U?Int(?:8|16|32|64)|Float(?:32|64))(?:,[A-Za-z0-9]+)?\)$/;

/** The arithmetic the engine's analyzer moves out of sum and of avg when one operand is a constant (judgeAggregateOfArithmetic). */
const SUM_MOVED_ARITHMETIC: ReadonlySet<string> = new Set(["multiply", "divide"]);
const AVG_MOVED_ARITHMETIC: ReadonlySet<string> = new Set(["plus", "minus", "multiply", "divide"]);

/** A Variant's type to the engine: an array of mixed types, or an `if` of mixed branches. */
function isVariant(t: Typed): boolean {
  return t.variant === MIXED_ARRAY_VARIANT || t.variant === MIXED_VARIANT;
}
/** How deep stateInside looks into tuples of tuples (aliases may nest them beyond the text's own depth). */
const MAX_CONTAINER_DEPTH = 16;

export function checkArgumentTypes(query: LogicalQuery, entityOf: EntityOf, aliases: ReadonlyMap<string, Expression>): void {
  let arrayJoined = NO_NAMES;
  if (query.arrayJoin && query.arrayJoin.length > 0) {
    arrayJoined = new Set(query.arrayJoin.flatMap((node) => (node.kind === "column" ? [`${node.entityAlias ?? ""}.${node.name}`] : [])));
  }
  const typing = new ArgumentTyping(entityOf, aliases, arrayJoined, query.granularity === DATE_BUCKET_GRANULARITY);
  typing.grouped = query.groupBy.length > 0;
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
  }
  // The keys as keys, outside any condition.
  typing.inCondition = false;
  typing.inWhere = false;
  refuseVariantKeys(query, typing);
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
 * branches of mixed types (a Variant) as a key of ORDER BY or BY, directly, through its alias, or
 * held inside the key's tuple or array at any depth (`ORDER BY tuple(contexts.key, array(TRUE,
 * environment, 'error'))`, seed 30): ClickHouse refuses Variant types in sorting and grouping keys
 * (code 44). LIMIT BY takes them.
 */
function refuseVariantKeys(query: LogicalQuery, typing: ArgumentTyping): void {
  for (const [clause, keys] of [["BY (GROUP BY)", query.groupBy], ["ORDER BY", query.orderBy.map((item) => item.expression)]] as const) {
    for (const key of keys) {
      // An alias has its definition's variant (aliasType).
      const inner = isVariant(typing.visit(key)) ? key : typing.variantInside(key);
      if (inner === null) continue;
      const what = variantWhat(VARIANTS[typing.visit(inner).variant]!);
      const where = inner === key ? `is ${what}, and ${clause} cannot use it as a key` : `holds ${describe(inner)}${at(inner.position)}, ${what}, and ${clause} cannot use it as a key, inside a tuple or an array either`;
      throw invalidQuery(`${describe(key)}${at(key.position)} ${where}: ClickHouse does not sort or group by Variant types; use values of one type (all strings or all numbers)`, key.position);
    }
  }
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
