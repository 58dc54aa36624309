/**
 * The rule of an aggregating query: once a query aggregates (it has a BY, or an aggregate in
 * SELECT, HAVING, ORDER BY or LIMIT BY), each column it reads there must be a BY key or inside an
 * aggregate, no BY key may be an aggregate, and no aggregate may hold another. ClickHouse checks this after Quarry has sent the
 * query (codes 215, NOT_AN_AGGREGATE, and 184, ILLEGAL_AGGREGATION: the fuzz's most frequent
 * ClickHouse errors); here it is an `invalid_query` at the column.
 *
 * Judged on the query as validated (Snuba's custom functions expanded, aliases expanded), as the engine judges the SQL Quarry prints
 * from it: an expression equal to a BY key is a key (`toStartOfHour(timestamp)` in SELECT and BY),
 * and so is anything built from keys, aggregates and constants. Where the SQL Quarry prints for
 * a name holds other columns than the name says (a column the entity computes with an expression,
 * a time bucket, a subscript of a Nested column), the name is let through whenever a column it
 * reads is a key: the check never refuses what the engine would take, and the engine still has
 * the last word on what it lets through.
 */
import { isNullableType, parseClickHouseType } from "../datasets/clickhouse-type.js";
import { comparedByElements, comparesElements, elementComparison } from "./snql-array-conditions.js";
import { comparedLiterals, listedLiteral } from "./literal-texts.js";
import { nestedColumnParts } from "./nested-columns.js";
import type { EntityDefinition } from "../datasets/definition-types.js";
import { AGGREGATE_FUNCTIONS } from "../clickhouse/function-allow-list.js";
import { atPosition as at, invalidQuery } from "../errors/query-service-error.js";
import { walkExpression, type Expression, type LogicalQuery } from "../query/ast.js";
import { memoizePerDefinition } from "../query/memoize-per-definition.js";
import { aggregateColumns } from "./aggregate-columns.js";
import { mappedFunctions } from "./entity-validation.js";
import { expressionTyping } from "./argument-types.js";

/**
 * The same expression wherever it is written: positions and aliases set aside. Written out by
 * hand: JSON.stringify with a filter cost the rule a tenth of the front end's time.
 */
function shapeOf(node: Expression): string {
  switch (node.kind) {
    case "literal":
      return node.digits ?? JSON.stringify(node.value);
    case "datetime":
      return `@${node.epochSeconds}`;
    case "column":
      return `${node.entityAlias ?? ""}.${node.name}${node.label === undefined ? "" : `#${node.label}`}`;
    case "subscript":
      return `${node.entityAlias ?? ""}.${node.column}[${JSON.stringify(node.key)}]`;
    case "argument":
      return `\`${node.name}`;
    case "lambda":
      return `(${node.params.join(",")})->${shapeOf(node.body)}`;
    case "function":
      return `${node.name}(${node.args.map(shapeOf).join(",")})`;
    case "curried":
      return `${node.name}(${node.params.map(shapeOf).join(",")})(${node.args.map(shapeOf).join(",")})`;
  }
}

/** What an expression is at its root: its kind and name, without its arguments. */
function headOf(node: Expression): string {
  switch (node.kind) {
    case "function":
    case "curried":
    case "column":
      return `${node.kind} ${node.name}`;
    case "subscript":
      return `subscript ${node.column}[${node.key}]`;
    default:
      return node.kind;
  }
}

export function checkAggregationKeys(query: LogicalQuery, entity: EntityDefinition, aliases: ReadonlyMap<string, Expression>): void {
  /** Each call or mapped column expand rebuilt, and the node as written: the element tests are known by the written call (elementTests), a refusal names the column written. */
  const writtenNode = new WeakMap<Expression, Expression>();
  /** The subscripts that stand for a column mapped to one: printed Nullable whatever the subscriptable (constantFolding). */
  const mappedSubscripts = new WeakSet<Expression>();
  /** An alias reference stands for its definition (cycles were refused before). */
  const expand = (node: Expression, seen: ReadonlySet<string> = new Set()): Expression => {
    switch (node.kind) {
      case "column": {
        if (node.entityAlias !== undefined || node.insideOwnAlias || seen.has(node.name)) return node;
        const definition = aliases.get(node.name);
        if (definition === undefined) {
          // A column mapped onto another column or a subscript is that column or subscript
          // (`spans.exclusive_time` is `spans.exclusive_time_32`, `geo_city` on discover is `contexts[geo.city]`).
          const mapper = entity.columnMappers[node.name];
          if (mapper?.kind === "column") {
            const renamed = { ...node, name: mapper.column };
            writtenNode.set(renamed, node);
            return renamed;
          }
          if (mapper?.kind === "subscript") {
            const subscript: Expression = { kind: "subscript", column: mapper.subscriptable, key: mapper.key, ...(node.position ? { position: node.position } : {}) };
            mappedSubscripts.add(subscript);
            writtenNode.set(subscript, node);
            return subscript;
          }
          return node;
        }
        return expand(definition, new Set([...seen, node.name]));
      }
      case "function": {
        const args = expandAll(node.args, seen);
        if (args === node.args) return node;
        const expanded = { ...node, args };
        writtenNode.set(expanded, node);
        return expanded;
      }
      case "curried": {
        const params = expandAll(node.params, seen);
        const args = expandAll(node.args, seen);
        return params === node.params && args === node.args ? node : { ...node, params, args };
      }
      case "lambda": {
        const body = expand(node.body, seen);
        return body === node.body ? node : { ...node, body };
      }
      default:
        return node;
    }
  };
  /** The nodes expanded; the same array where no alias or mapped column was in them (most queries). */
  const expandAll = (nodes: readonly Expression[], seen: ReadonlySet<string>): readonly Expression[] => {
    let expanded: Expression[] | undefined;
    for (let i = 0; i < nodes.length; i++) {
      const node = expand(nodes[i]!, seen);
      if (node !== nodes[i] && expanded === undefined) expanded = nodes.slice(0, i);
      expanded?.push(node);
    }
    return expanded ?? nodes;
  };
  const mapped = mappedFunctions(entity);
  const aggregated = aggregateColumns(entity);
  const isAggregate = (node: Expression): boolean =>
    ((node.kind === "function" || node.kind === "curried") && (AGGREGATE_FUNCTIONS.has(node.name) || mapped.has(node.name))) ||
    (node.kind === "column" && node.entityAlias === undefined && aggregated.has(node.name));
  const containsAggregate = (node: Expression): Expression | null => {
    for (const inner of walkExpression(node)) if (isAggregate(inner)) return inner;
    return null;
  };
  const written = [
    ...query.selected.map((item) => item.expression),
    ...(query.having ? [query.having] : []),
    ...query.orderBy.map((item) => item.expression),
    ...(query.limitBy?.columns ?? []),
  ];
  // Most queries neither group nor aggregate: nothing to judge, and no tree to rebuild.
  if (query.groupBy.length === 0 && !written.some((expression) => aggregateThroughAliases(expression, aliases, isAggregate) !== null)) return;

  const keys = query.groupBy.map((key) => expand(key));
  for (const key of keys) {
    const aggregate = containsAggregate(key);
    if (aggregate === null) continue;
    const position = aggregate.position;
    const what = aggregate.kind === "column" ? `column ${aggregate.name}, an aggregate` : `'${(aggregate as { name: string }).name}'`;
    throw invalidQuery(`Aggregate function found in BY of query: ${what}${at(position)}; group by columns, and aggregate in SELECT`, position);
  }
  const outputs = written.map((expression) => expand(expression));
  // An aggregate of an aggregate (`sum(count())`, `max(sessions)` on sessions): ClickHouse
  // aggregates once per query level (code 184); a subquery aggregates what its inner query did.
  const refuseNested = (node: Expression): void => {
    if (node.kind !== "function" && node.kind !== "curried") {
      if (node.kind === "lambda") refuseNested(node.body);
      return;
    }
    const children = node.kind === "function" ? node.args : [...node.params, ...node.args];
    if (isAggregate(node)) {
      for (const child of children) {
        const inner = containsAggregate(child);
        if (inner === null) continue;
        throw invalidQuery(
          `Aggregate function found inside another aggregate function: ${describeAggregate(inner)} inside ${describeAggregate(node)}; aggregate once per query, or aggregate the result in an outer query (MATCH { ... })`,
          inner.position ?? node.position,
        );
      }
      return;
    }
    for (const child of children) refuseNested(child);
  };
  for (const output of outputs) refuseNested(output);
  const aggregateAt = outputs.map(containsAggregate).find((found) => found !== null) ?? null;
  // With no BY, the query aggregates only if an output does (the look through the aliases above may overreach).
  if (keys.length === 0 && aggregateAt === null) return;

  const keyShapes = new Set(keys.map(shapeOf));
  // A node's shape is a string of its whole subtree: built only where the node's head matches a key's.
  const keyHeads = new Set(keys.map(headOf));
  const isKey = (node: Expression): boolean => keyHeads.has(headOf(node)) && keyShapes.has(shapeOf(node));
  // Storage columns a key reads, for the names whose SQL reads other columns than their own.
  const keyColumns = new Set<string>();
  // The columns whose time buckets are keys: a bucket (`bucketed_time`, toStartOfHour(timestamp,
  // 'Universal') in the SQL) is one only where its column is a key by itself, or a bucket of it is
  // (each prints the same SQL). Not where a key reads it within a call: `BY toHour(bucketed_time)`
  // makes neither timestamp nor its bucket a key (code 215; seed 29).
  const bucketedKeys = new Set<string>();
  for (const key of keys) {
    for (const column of columnsOf(key)) {
      keyColumns.add(column);
      const bucketed = entity.timeBucketColumns[column];
      if (bucketed !== undefined) keyColumns.add(bucketed);
    }
    if (key.kind === "column") bucketedKeys.add(entity.timeBucketColumns[key.name] ?? key.name);
  }
  const reachesKey = (node: Expression): boolean => {
    if (node.kind === "column") {
      const mapper = entity.columnMappers[node.name];
      if (mapper?.kind === "literal") return true;
      // An expression over storage columns (`ip_address` is coalesce(IPv4NumToString(ip_address_v4),
      // ...), `tags_key` is arrayJoin(tags.key)) is a key's expression when each column it reads is
      // a key: `BY ip_address_v4` leaves ip_address_v6 outside, and the engine refuses `ip_address`
      // beside it (code 215; seed 45).
      if (mapper?.kind === "expression") return (expressionColumns(entity).get(node.name) ?? []).every((column) => keyColumns.has(column));
      const bucketed = entity.timeBucketColumns[node.name];
      if (bucketed !== undefined) return bucketedKeys.has(bucketed);
      // A Nested column read whole (`tags`) is the tuple of its parts: a key when each part is
      // one. A part (`tags.key`) is a key only as itself: `BY tags` makes no part one (the engine
      // refuses `tags.key` beside it, code 215). A plain column is a key only as itself (`title`
      // is not one with `BY upper(title)`).
      const parts = nestedColumnParts(entity).get(node.name);
      return parts !== undefined && parts.every((part) => keyColumns.has(part));
    }
    if (node.kind === "subscript") {
      // `tags[k]` reads the key and value parts (arrayElement(tags.value, indexOf(tags.key, 'k'))):
      // a key when both are, not when the Nested column whole is. A map's subscript reads its map
      // (or bucket): a key when that column is.
      const sub = entity.subscriptables[node.column];
      if (sub?.kind === "nested") return keyColumns.has(sub.keyColumn) && keyColumns.has(sub.valueColumn);
      if (keyColumns.has(node.column)) return true;
      return sub === undefined || keyColumns.has(sub.column) || [...keyColumns].some((column) => column.startsWith(`${sub.column}_`));
    }
    return false;
  };
  const because = keys.length > 0 ? "the query groups BY" : `the query aggregates (${describeAggregate(aggregateAt!)})`;
  // Whether a node holds an aggregate, once per node: the folding asks it at every AND, OR and `if`.
  const heldAggregate = new Map<Expression, boolean>();
  const holdsAggregate = (node: Expression): boolean => {
    let held = heldAggregate.get(node);
    if (held === undefined) {
      held =
        isAggregate(node) ||
        (node.kind === "function" && node.args.some(holdsAggregate)) ||
        (node.kind === "curried" && (node.params.some(holdsAggregate) || node.args.some(holdsAggregate))) ||
        (node.kind === "lambda" && holdsAggregate(node.body));
      heldAggregate.set(node, held);
    }
    return held;
  };
  // The typing pass's type of an operand, asked only of a comparison given a NULL (is it a
  // Variant, `ifNull(ip_address, 0.5)`?) and of `isNull` of a call (is it Nullable?). It judged the
  // query already; a refusal of the operand alone leaves the fold as it was.
  const typeOf = (node: Expression): ReturnType<typeof expressionTyping> | null => {
    try {
      return expressionTyping(node, entity, query.granularity);
    } catch {
      return null;
    }
  };
  const tests = elementTests(query, entity);
  const elementTestOf = (node: Expression): Folded | undefined => tests.get(writtenNode.get(node) ?? node);
  const fold = constantFolding(entity, holdsAggregate, elementTestOf, mappedSubscripts, typeOf);
  const judge = (node: Expression): void => {
    if (isKey(node) || isAggregate(node) || fold(node) !== "column") return;
    switch (node.kind) {
      case "column":
      case "subscript": {
        if (node.kind === "column" && node.entityAlias !== undefined) return;
        if (reachesKey(node)) return;
        const asWritten = writtenNode.get(node) ?? node;
        const name = asWritten.kind === "column" ? asWritten.name : node.kind === "column" ? node.name : `${node.column}[${node.key}]`;
        throw invalidQuery(
          `column ${name}${at(node.position)} is neither a BY key nor inside an aggregate, and ${because}: add it to BY, or aggregate it (any(${name}), ...)`,
          node.position,
        );
      }
      case "function":
        for (const arg of node.args) judge(arg);
        return;
      case "curried":
        for (const param of node.params) judge(param);
        for (const arg of node.args) judge(arg);
        return;
      case "lambda":
        judge(node.body);
        return;
      default:
        return;
    }
  };
  for (const output of outputs) judge(output);
}

/**
 * An aggregate the expression holds, looked for through the aliases it names without expanding
 * them. An alias stands for its definition, also where it shadows an aggregate column of the
 * entity (`org_id AS users` on sessions, whose `users` is one), as the expanded query reads it.
 */
function aggregateThroughAliases(node: Expression, aliases: ReadonlyMap<string, Expression>, isAggregate: (node: Expression) => boolean, seen: ReadonlySet<string> = new Set()): Expression | null {
  for (const inner of walkExpression(node)) {
    if (inner.kind === "column" && inner.entityAlias === undefined && !inner.insideOwnAlias) {
      const definition = aliases.get(inner.name);
      if (definition !== undefined) {
        const found = seen.has(inner.name) ? null : aggregateThroughAliases(definition, aliases, isAggregate, new Set([...seen, inner.name]));
        if (found) return found;
        continue;
      }
    }
    if (isAggregate(inner)) return inner;
  }
  return null;
}

function describeAggregate(node: Expression): string {
  const name = node.kind === "column" ? `column ${node.name}` : `${(node as { name: string }).name}(…)`;
  return `${name}${at(node.position)}`;
}

/** The entity columns an expression reads by name (not through a subscript: `tags[a]` as a key makes no other `tags[b]` one). */
function columnsOf(expression: Expression): string[] {
  const columns: string[] = [];
  for (const node of walkExpression(expression)) if (node.kind === "column" && node.entityAlias === undefined) columns.push(node.name);
  return columns;
}

/**
 * What the engine computes to a constant before it looks for columns outside BY and aggregates,
 * so a column under it is never read there: "column" for what it does not; else the constant's
 * truth where it decides an AND, an OR or an `if` ("value" for a constant that is not NULL,
 * "unknown" for one that may be anything). Measured on the embedded engine
 * (test/pipeline/aggregation-keys.test.ts runs what this takes, and refuses some of what it does not):
 * - a comparison (`=`, `!=`, `<`, ...) given a NULL is NULL, and `isNull(x)` of a column that
 *   cannot be NULL is 0 (`title = NULL`, `isNull(project_id)`); arithmetic and other calls given a
 *   NULL are not computed first (`title / NULL`, `concat(title, NULL)`: code 215), nor is `isNull`
 *   of a Nullable column;
 * - AND with a false operand is false, OR with a true one true (`1 = 2 AND x`, `isNotNull(project_id)
 *   OR x`), but not with a NULL or the other value (`NULL AND x`, `1 AND x`: code 215);
 * - `if` with a constant condition other than NULL is the branch it picks; a call whose arguments
 *   are all constants is a constant;
 * - `isNull` of an expression that holds an aggregate is computed after the aggregation: the
 *   columns beside the aggregate are read (`isNull(count() * x)`).
 * Where this cannot tell (`isNull` of an expression), it says "unknown": the check lets through
 * what the engine may take, never the other way round.
 */
type Folded = "column" | "true" | "false" | "null" | "value" | "unknown";

const COMPARISON_FUNCTIONS: ReadonlySet<string> = new Set(["equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"]);

function literalTruth(value: unknown): Folded {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return value !== 0 ? "true" : "false";
  return "value";
}

/**
 * Whether each declared column, and one value of each subscriptable (`measurements[k]`), may be
 * NULL: `isNull` of it is read per row. Read from the types once per entity definition; a name
 * absent here has no type the entity states (a Nested column's parts on some entities). The
 * parts of a column declared Nested (`tags.key` of `tags Nested(key UInt64, value UInt64)`) are
 * arrays, never NULL: `isNull(tags.key)` is 0 to the engine (code 215 beside an aggregate; seed 34).
 */
const nullability = memoizePerDefinition((entity: EntityDefinition): { readonly columns: ReadonlyMap<string, boolean>; readonly subscripts: ReadonlyMap<string, boolean> } => {
  const nullable = (text: string): boolean | undefined => {
    try {
      return isNullableType(parseClickHouseType(text));
    } catch {
      return undefined;
    }
  };
  const known = (entries: [string, string | undefined][]) =>
    new Map(entries.flatMap(([name, type]) => {
      const value = type === undefined ? undefined : nullable(type);
      return value === undefined ? [] : [[name, value] as const];
    }));
  const nestedParts = entity.columns.flatMap((column): [string, boolean][] => {
    try {
      const type = parseClickHouseType(column.type);
      return type.kind === "nested" ? type.fields.map((field) => [`${column.name}.${field.name}`, false]) : [];
    } catch {
      return [];
    }
  });
  const columns = new Map([...nestedParts, ...known(entity.columns.map((column) => [column.name, column.type]))]);
  // A column mapped onto another is judged by that one's name (checkAggregationKeys' expand), of
  // the type the entity states for it (`tags.value` is `tags.indexed_value` on the metrics
  // entities, an array part: `tags.value IS NOT NULL` beside an aggregate is code 215; seed 35).
  for (const [name, mapper] of Object.entries(entity.columnMappers)) {
    const value = columns.get(name);
    if (mapper.kind === "column" && value !== undefined && !columns.has(mapper.column)) columns.set(mapper.column, value);
  }
  return {
    columns,
    subscripts: known(Object.entries(entity.subscriptables).map(([name, definition]) => [name, definition.valueType])),
  };
});

/** The columns an entity computes with an arrayJoin (`tags_key` is arrayJoin(tags.key)), read from their SQL once per entity definition. */
const arrayJoinColumns = memoizePerDefinition((entity: EntityDefinition): ReadonlySet<string> => {
  const names = new Set<string>();
  for (const [name, mapper] of Object.entries(entity.columnMappers)) if (mapper.kind === "expression" && /\barrayJoin\s*\(/.test(mapper.sql)) names.add(name);
  return names;
});

/** The functions that answer NULL for a NULL argument, whose constant calls are folded so (constantFolding). */
const NULL_PROPAGATING: ReadonlySet<string> = new Set(["like", "notLike", "ilike", "notILike", "match", "plus", "minus", "multiply", "divide", "concat", "lower", "upper"]);

/** Calls whose result is NULL where an argument is: the comparisons and NULL_PROPAGATING, and substring. */
const PASSES_ON_NULL: ReadonlySet<string> = new Set([...NULL_PROPAGATING, "substring", "equals", "notEquals", "less", "lessOrEquals", "greater", "greaterOrEquals"]);

/** The columns each expression-mapped column reads, read from its SQL once per entity definition. */
const expressionColumns = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, readonly string[]> => {
  const columns = new Map<string, readonly string[]>();
  for (const [name, mapper] of Object.entries(entity.columnMappers)) if (mapper.kind === "expression") columns.set(name, columnsInSql(mapper.sql));
  return columns;
});

/**
 * The comparisons written in HAVING whose left is an array column, and what the condition
 * rewrite makes of each (snql-array-conditions.ts): a test of its elements
 * (`arrayExists(x -> isNull(x), tags.raw_value)`, `arrayExists(x -> ifNull(x >= NULL, 0),
 * contexts.value)`), which reads the column, where `isNull` of the column itself would be a
 * constant 0 and a comparison given a NULL a NULL (seed 25); or, of a column the entity lacks (a
 * bare NULL in its SQL, `spans.op` on discover_events), the constant answer of a test over no
 * elements (`false` for isNull, which then decides no OR: seed 22). A column the query ARRAY
 * JOINs is one element and stays as it is.
 */
function elementTests(query: LogicalQuery, entity: EntityDefinition): ReadonlyMap<Expression, Folded> {
  const tests = new Map<Expression, Folded>();
  if (query.having === null) return tests;
  const arrayJoined = new Set((query.arrayJoin ?? []).flatMap((node) => (node.kind === "column" ? [`${node.entityAlias ?? ""}.${node.name}`] : [])));
  for (const node of walkExpression(query.having)) {
    if (node.kind !== "function" || !comparesElements(node.name)) continue;
    const left = node.args[0];
    if (left?.kind !== "column" || left.entityAlias !== undefined || !comparedByElements(entity, left.name)) continue;
    const rewritten = elementComparison(node, () => entity, arrayJoined);
    if (rewritten !== null) tests.set(node, rewritten.form === "constant" ? (rewritten.every ? "true" : "false") : "column");
  }
  return tests;
}

function constantFolding(
  entity: EntityDefinition,
  holdsAggregate: (node: Expression) => boolean,
  elementTestOf: (node: Expression) => Folded | undefined,
  mappedSubscripts: WeakSet<Expression>,
  typeOf: (node: Expression) => ReturnType<typeof expressionTyping> | null,
): (node: Expression) => Folded {
  const { columns: nullableColumns, subscripts: nullableSubscripts } = nullability(entity);
  const joinedColumns = arrayJoinColumns(entity);
  // Asked at every AND, OR, `if` and `isNull` the fold meets: each node is looked at once.
  const heldArrayJoin = new Map<Expression, boolean>();
  const holdsArrayJoin = (node: Expression): boolean => {
    let held = heldArrayJoin.get(node);
    if (held === undefined) {
      held =
        (node.kind === "function" && (node.name === "arrayJoin" || node.args.some(holdsArrayJoin))) ||
        (node.kind === "column" && node.entityAlias === undefined && joinedColumns.has(node.name)) ||
        (node.kind === "curried" && (node.params.some(holdsArrayJoin) || node.args.some(holdsArrayJoin))) ||
        (node.kind === "lambda" && holdsArrayJoin(node.body));
      heldArrayJoin.set(node, held);
    }
    return held;
  };
  // The value a literal holds, or a column the entity maps to one; undefined for anything else.
  const literalValueOf = (node: Expression): unknown => {
    if (node.kind === "literal") return node.value;
    const mapper = node.kind === "column" && node.entityAlias === undefined ? entity.columnMappers[node.name] : undefined;
    return mapper?.kind === "literal" ? mapper.value : undefined;
  };
  // A column mapped to a subscript (`geo_country_code`) is Nullable: NULL for a missing key.
  const passesOnMappedNull = (node: Expression): boolean =>
    mappedSubscripts.has(node) || (node.kind === "function" && PASSES_ON_NULL.has(node.name) && node.args.some(passesOnMappedNull));
  // The check asks again at each level it descends: each node is folded once.
  const folded = new Map<Expression, Folded>();
  const fold = (node: Expression): Folded => {
    let result = folded.get(node);
    if (result === undefined) {
      result = foldOnce(node);
      folded.set(node, result);
    }
    return result;
  };
  const foldOnce = (node: Expression): Folded => {
    switch (node.kind) {
      case "literal":
        return literalTruth(node.value);
      case "datetime":
        return "value";
      case "column": {
        const value = literalValueOf(node);
        return value !== undefined ? literalTruth(value) : "column";
      }
      case "function":
        break;
      default:
        return "column";
    }
    const elementTest = elementTestOf(node);
    if (elementTest !== undefined) return elementTest;
    const args = node.args.map(fold);
    const constant = args.length > 0 && args.every((arg) => arg !== "column");
    // A call that answers NULL for a NULL, of constants only: NULL (`NULL LIKE 'x'`, `NULL + 1`),
    // which decides no AND or OR (`title != '' OR NULL LIKE 'x'` reads title: code 215; seed 16).
    if (constant && args.includes("null") && NULL_PROPAGATING.has(node.name)) return "null";
    // greatest and least of constants with a NULL among them are not computed first, though they
    // pass over the NULL (`if(greatest(FALSE, transaction_hash, 2), message, 2)` on discover, whose
    // transaction_hash is NULL, reads message, and so does `if(least(NULL, 0, 3), …)`: code 215;
    // seed 40): as a NULL, they decide nothing.
    if (constant && (node.name === "greatest" || node.name === "least") && node.args.some((arg) => literalValueOf(arg) === null)) return "null";
    // An array or a tuple of constants is never NULL (`array('staging') IS NOT NULL AND x` is x,
    // which the engine reads: code 215; seed 39).
    if (constant && (node.name === "array" || node.name === "tuple")) return "value";
    if ((node.name === "isNull" || node.name === "isNotNull") && node.args.length === 1) {
      if (args[0] === "null" || args[0] === "true" || args[0] === "false" || args[0] === "value") return (args[0] === "null") === (node.name === "isNull") ? "true" : "false";
      if (constant) return "unknown";
      const only = node.args[0]!;
      // Of an expression that holds an aggregate, `isNull` is computed after the aggregation, and
      // the columns beside the aggregate are read (`isNull(count() * x)`: code 215, whatever x's type).
      // So is `isNull` of an expression that holds an arrayJoin (`coalesce(tags_key, m) IS NULL`,
      // code 215; seed 17): the engine folds nothing that multiplies rows.
      if (holdsAggregate(only) || holdsArrayJoin(only)) return "column";
      // A subscript's value is Nullable where its subscriptable says so (`measurements[k]`), and
      // a plain String or number elsewhere (`tags[k]` reads '' for a missing key).
      if (only.kind === "subscript" && only.entityAlias === undefined) {
        // A column mapped to a subscript is printed with a NULL for a missing key (`geo_region` is
        // `if(has(contexts.key, 'geo.region'), …, NULL)`): Nullable, read per row (seed 16).
        if (mappedSubscripts.has(only)) return "column";
        const nullable = nullableSubscripts.get(only.column);
        if (nullable === undefined) return "unknown";
        return nullable ? "column" : node.name === "isNull" ? "false" : "true";
      }
      // Of a call the pass knows Nullable, per row (`isNotNull(concat(environment, v) > t)` on
      // profiles, whose environment is Nullable: code 215; seed 21).
      if (only.kind === "function" && typeOf(only)?.nullable === true) return "column";
      // Or of a call that passes on the NULL of a column mapped to a subscript (`(geo_country_code
      // != 'x') IS NOT NULL` on events: a Nullable(UInt8), read per row, code 215; seed 39).
      if (only.kind === "function" && passesOnMappedNull(only)) return "column";
      // A column the SQL computes is declared with the type the engine gives it (`ip_address` is
      // a Nullable(String) coalesce: `ip_address IS NOT NULL` beside `uniqExact(…)` reads it, code
      // 215; seed 26; expression-column-types.test.ts holds every such declaration to the engine).
      if (only.kind !== "column") return "unknown";
      const mapper = entity.columnMappers[only.name];
      if (mapper !== undefined && mapper.kind !== "expression") return "unknown";
      // A column declared Nullable is read; one whose type is not declared here (a Nested
      // column's parts on some entities) may be either.
      const nullable = nullableColumns.get(only.name);
      if (nullable === undefined) return "unknown";
      return nullable ? "column" : node.name === "isNull" ? "false" : "true";
    }
    // A comparison given a NULL is NULL, but one of an expression holding an aggregate is computed
    // after the aggregation, and the columns beside the aggregate are read (`(x = max(y)) <= NULL`,
    // code 215; seed 17). Nor is one of an arrayJoin folded (`tags_value <= transaction_hash` on
    // discover, whose transaction_hash is NULL, is `arrayJoin(tags.value) <= NULL`: code 215; seed 19).
    if (COMPARISON_FUNCTIONS.has(node.name) && (node.args.some(holdsAggregate) || node.args.some(holdsArrayJoin))) return "column";
    // Nor one of a Variant (`NULL = ifNull(ip_address, 1.5e-7 / 0)` on discover_transactions, whose
    // num_processing_errors is NULL: code 215; seed 20).
    if (COMPARISON_FUNCTIONS.has(node.name) && args.includes("null") && node.args.some((arg, i) => args[i] !== "null" && typeOf(arg)?.variant === "mixed")) return "column";
    if (COMPARISON_FUNCTIONS.has(node.name)) return args.includes("null") ? "null" : constant ? comparedLiterals(node.name, node.args) : "column";
    // A literal looked for in literals is found or not, as `=` finds it (`'x' IN 'error'` is
    // false, which decides no OR: `… OR contexts.key LIKE '%error%'` reads the column; seed 26).
    if ((node.name === "in" || node.name === "notIn") && constant) return listedLiteral(node.name, node.args);
    // AND, OR and `if` with an aggregate among their operands are computed after the
    // aggregation, operand by operand: no constant operand decides first, and each operand's
    // columns are read (`org_id >= 1 AND count() > 0 AND 0`, `if(0, title, count())`: code 215).
    if ((node.name === "and" || node.name === "or" || node.name === "if") && node.args.some(holdsAggregate)) return "column";
    // So are they with an arrayJoin among their operands (`1 = 2 AND tags_key = 'a'`, tags_key
    // being arrayJoin(tags.key): code 215; seed 16): the engine does not fold what multiplies rows.
    if ((node.name === "and" || node.name === "or" || node.name === "if") && node.args.some(holdsArrayJoin)) return "column";
    // Of constants whose truth is known, AND and OR are NULL where a NULL stays undecided
    // (`NULL <= x AND isNull(NULL)` is NULL), which decides no AND or OR around it (`… AND offset
    // IN (300, 1000)` reads offset: code 215; seed 21).
    if ((node.name === "and" || node.name === "or") && args.includes("null") && args.every((arg) => arg === "true" || arg === "false" || arg === "null")) {
      const decides = node.name === "and" ? "false" : "true";
      return args.includes(decides) ? decides : "null";
    }
    // A constant whose truth is not known here may be the false (or true) that decides.
    const undecided = args.includes("unknown") || args.includes("value");
    if (node.name === "and") return args.includes("false") ? "false" : undecided || constant ? "unknown" : "column";
    if (node.name === "or") return args.includes("true") ? "true" : undecided || constant ? "unknown" : "column";
    if (node.name === "not" && args.length === 1) return args[0] === "true" ? "false" : args[0] === "false" ? "true" : args[0]!;
    if (node.name === "if" && args.length === 3) {
      if (args[0] === "true") return args[1]!;
      // A NULL condition is not computed first (`if(NULL, title, 'x')`: code 215).
      if (args[0] === "false") return args[2]!;
      if (args[0] === "unknown" || args[0] === "value") return "unknown";
    }
    return constant ? "unknown" : "column";
  };
  return fold;
}

/** The column names an entity's SQL expression reads: its identifiers that are not called and not inside quotes. */
function columnsInSql(sql: string): string[] {
  const unquoted = sql.replace(/'(?:[^'\\]|\\.)*'/g, "''");
  return [...unquoted.matchAll(/\b([A-Za-z_][A-Za-z0-9_.]*)\b(?!\s*\()/g)].map((match) => match[1]!);
}

/**
 * A join's aggregation rule, in its plainest form. A join that aggregates without a BY (an
 * aggregate among its outputs: `SELECT count() AS c, e.title ... ORDER BY e.timestamp`) reads a
 * column written bare in SELECT or ORDER BY per row, which ClickHouse refuses (code 215; found
 * by the fuzz). Only bare columns are judged, directly or through an alias naming one: the single
 * entity's rule (keys, constant folding, columns computed from others) is not carried to joins,
 * whose BY and expressions are left to the engine. A column that is an aggregate of its entity
 * (sessions' `users`), or that its entity maps to a constant, is taken.
 */
export function checkJoinAggregation(query: LogicalQuery, entities: ReadonlyMap<string, EntityDefinition>, aliases: ReadonlyMap<string, Expression>): void {
  if (query.groupBy.length > 0) return;
  const isAggregateColumn = (node: Expression): boolean => {
    if (node.kind !== "column" || node.entityAlias === undefined) return false;
    const entity = entities.get(node.entityAlias);
    return entity !== undefined && aggregateColumns(entity).has(node.name);
  };
  const mapped = new Set([...entities.values()].flatMap((entity) => [...mappedFunctions(entity)]));
  const isAggregate = (node: Expression): boolean => ((node.kind === "function" || node.kind === "curried") && (AGGREGATE_FUNCTIONS.has(node.name) || mapped.has(node.name))) || isAggregateColumn(node);
  const outputs = [...query.selected.map((item) => item.expression), ...query.orderBy.map((item) => item.expression)];
  const aggregate = [...outputs, ...(query.having ? [query.having] : [])].map((expression) => aggregateThroughAliases(expression, aliases, isAggregate)).find((found) => found !== null) ?? null;
  if (aggregate === null) return;
  for (const output of outputs) {
    const column = output.kind === "column" && output.entityAlias === undefined ? aliases.get(output.name) : output;
    if (column?.kind !== "column" || column.entityAlias === undefined || isAggregateColumn(column)) continue;
    if (entities.get(column.entityAlias)?.columnMappers[column.name]?.kind === "literal") continue;
    const name = `${column.entityAlias}.${column.name}`;
    throw invalidQuery(
      `column ${name}${at(column.position)} is not inside an aggregate, and the query aggregates (${describeAggregate(aggregate)}) without BY: add it to BY, or aggregate it (any(${name}), ...)`,
      column.position,
    );
  }
}
