/**
 * Checks a logical query against its entity's definition before anything is translated:
 * the entity exists, every column and function is known, WHERE/HAVING hold conditions,
 * aggregates stay out of WHERE, and the entity's required conditions (time range, project_id,
 * org_id...) are present. Messages name the element, its line and column, and a near-miss.
 */
import { atPosition as at, invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import { AGGREGATE_FUNCTIONS, ALLOWED_FUNCTIONS, FUNCTIONS_THE_ENGINE_LACKS, isAllowedFunction } from "../clickhouse/function-allow-list.js";
import { uuidColumns } from "../clickhouse/sql-builder.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import type { EntityDefinition, StorageDefinition } from "../datasets/definition-types.js";
import {
  mapExpression,
  queryExpressions,
  topLevelConjuncts,
  visitExpression,
  type ColumnNode,
  type Expression,
  type LogicalQuery,
  type SubscriptNode,
} from "../query/ast.js";
import { formatDateTime, parseDateTimeLiteral } from "../query/datetime-literal.js";
import { memoizePerDefinition } from "../datasets/memoize-per-definition.js";
import { ownProperty } from "../query/own-property.js";
import { collectAliases } from "./alias-resolution.js";
import { checkColumnsReadWhole } from "./columns-read-whole.js";
import { DATETIME_TEXT, UUID_TEXT } from "./literal-patterns.js";
import { expandCustomFunctions } from "./custom-functions.js";
import { didYouMean } from "./did-you-mean.js";
import { nestedColumnParts } from "../datasets/nested-columns.js";

const CONDITION_FUNCTIONS = new Set([
  "equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals",
  "in", "notIn", "like", "notLike", "isNull", "isNotNull", "and", "or",
]);

/** The time range a query asked for, resolved from its required time conditions. */
export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

export interface ValidatedQuery {
  readonly query: LogicalQuery;
  readonly entity: EntityDefinition;
  /** Alias name -> the expression it names (explicit `AS` on select items and functions). */
  readonly aliases: ReadonlyMap<string, Expression>;
  readonly timeRange: TimeRange | null;
}

export function validateEntityQuery(query: LogicalQuery, definitions: DefinitionLookup): ValidatedQuery {
  if (query.from.kind !== "entity") {
    throw invalidQuery(`validateEntityQuery checks single-entity queries; this one reads a ${query.from.kind}`);
  }
  const entity = definitions.entity(query.from.name);
  if (!entity) {
    const names = definitions.entities().map((e) => e.name);
    throw invalidQuery(
      `entity '${query.from.name}' does not exist${at(query.from.position)}${didYouMean(query.from.name, names)}`,
      query.from.position,
    );
  }
  return validateAgainstEntity(query, entity, "entity", definitions.storage(entity.readableStorage));
}

/**
 * The checks of one query level over one entity (or a storage read as its own entity, where
 * `noun` is "storage" so messages say which). `storage`: the entity's readable storage, when
 * the entity may name columns it does not store whole (a storage read as itself stores all).
 */
export function validateAgainstEntity(parsed: LogicalQuery, entity: EntityDefinition, noun: "entity" | "storage", storage?: StorageDefinition): ValidatedQuery {
  const query = expandCustomFunctions(parsed, entity);
  const aliases = collectAliases(query);
  const known = knownColumnNames(entity);
  checkExpressions(query, (node) => {
    if (node.kind === "column" && (node.insideOwnAlias || !aliases.has(node.name)) && !known.has(node.name)) {
      throw invalidQuery(
        `column '${node.name}' does not exist on ${noun} '${entity.name}'${at(node.position)}${didYouMean(node.name, [...known, ...aliases.keys()])}`,
        node.position,
      );
    }
    if (node.kind === "subscript") checkSubscriptable(node, entity, noun);
  }, mappedFunctions(entity));
  if (storage !== undefined) checkColumnsReadWhole(query, entity, storage, aliases);
  // Literal types first: Snuba's entity validators name a bad tag condition before alias clashes.
  const typed = checkLiteralTypes(query, () => entity);
  checkClauses(typed, aliases);
  const timeRange = entity.requiredTimeColumn ? requireTimeRange(typed, entity, noun, undefined, query.from.position) : null;
  requireColumns(typed, entity, undefined, query.from.position);
  return { query: typed, entity, aliases, timeRange };
}

export function checkSubscriptable(node: SubscriptNode, entity: EntityDefinition, noun: string): void {
  const definition = ownProperty(entity.subscriptables, node.column);
  if (definition) {
    if (definition.kind === "nested" && definition.integerKeys && !/^\d+$/.test(node.key)) {
      throw invalidQuery(
        `'${node.column}[${node.key}]'${at(node.position)}: Expected a string key containing an integer in subscriptable; keys of ${node.column} are indexed ids, e.g. ${node.column}[1234]`,
        node.position,
      );
    }
    return;
  }
  const names = Object.keys(entity.subscriptables);
  throw invalidQuery(
    `'${node.column}[...]' cannot be subscripted on ${noun} '${entity.name}'${at(node.position)}; subscriptable columns: ${names.join(", ") || "none"}`,
    node.position,
  );
}

/**
 * Walks every expression of the query: functions must be on the allow-list (or be one the
 * entity's function mappers define, such as `sum_weighted` on metrics), lambda parameters must be
 * bound, and `checkColumn` judges each column and subscript.
 */
export function checkExpressions(
  query: LogicalQuery,
  checkColumn: (node: ColumnNode | SubscriptNode) => void,
  entityFunctions: ReadonlySet<string> = NO_FUNCTIONS,
): void {
  for (const expression of queryExpressions(query)) {
    visitExpression(expression, (node, bound) => {
      switch (node.kind) {
        case "column":
        case "subscript":
          checkColumn(node);
          break;
        case "function":
        case "curried":
          if (!isAllowedFunction(node.name) && !entityFunctions.has(node.name)) {
            const instead = FUNCTIONS_THE_ENGINE_LACKS.get(node.name);
            if (instead !== undefined) throw invalidQuery(`'${node.name}'${at(node.position)} is a function Snuba names that ClickHouse does not have: write ${instead}`, node.position);
            throw invalidQuery(`unknown function '${node.name}'${at(node.position)}${didYouMean(node.name, ALLOWED_FUNCTIONS)}`, node.position);
          }
          break;
        case "argument":
          if (!bound.includes(node.name)) {
            throw invalidQuery(`identifier(s) \`${node.name}\` not defined${at(node.position)}: bind it in a lambda such as (\`${node.name}\`) -> f(\`${node.name}\`)`, node.position);
          }
          break;
        case "lambda":
          if (new Set(node.params).size !== node.params.length) {
            throw invalidQuery(`a lambda names the same parameter twice${at(node.position)}`, node.position);
          }
          break;
        default:
          break;
      }
    });
  }
}

const EQUALITY_COMPARISONS = new Set(["equals", "notEquals", "in", "notIn"]);
const ORDER_COMPARISONS = new Set([...EQUALITY_COMPARISONS, "less", "greater", "lessOrEquals", "greaterOrEquals"]);

const dateTimeColumns = memoizePerDefinition(
  (entity: EntityDefinition): ReadonlySet<string> =>
    new Set(entity.columns.filter((c) => /^(Nullable\()?(DateTime|DateTime64|Date|Date32)(\(.*\))?\)?$/.test(c.type)).map((c) => c.name)),
);

const TAG_COMPARISONS = new Set([...ORDER_COMPARISONS, "like", "notLike"]);

/** Subscriptables whose values are texts, keyed by texts (`tags`, `contexts`; not `measurements`, not metrics' indexed tags). */
const stringSubscriptables = memoizePerDefinition(
  (entity: EntityDefinition): ReadonlySet<string> =>
    new Set(
      Object.entries(entity.subscriptables)
        .filter(([, definition]) => definition.kind === "nested" && !definition.integerKeys && /^(LowCardinality\()?(Nullable\()?String\)*$/.test(definition.valueType ?? ""))
        .map(([name]) => name),
    ),
);

function shortValue(value: unknown): string {
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * Snuba's literal checks over WHERE and HAVING (its UUIDColumnProcessor, DatetimeConditionValidator
 * and TagConditionValidator, in one walk): a literal compared with a column, or listed in
 * `IN tuple(...)`/`array(...)` against it, must suit the column, else the query is an
 * `invalid_query` at the literal's position:
 * - a UUID column takes a UUID string (32 hex digits, with or without dashes);
 * - a date or time column takes a datetime string (or toDateTime(...)), not another string, a
 *   number or a boolean;
 * - a string-valued subscript (`tags[...]`, `contexts[...]`) takes a string, not a number or boolean.
 * Everything else about types is ClickHouse's to judge. A datetime string compared with a date or
 * time column is returned resolved (a datetime node, its offset honoured): ClickHouse reads
 * `'2023-01-25T20:03:13+00:00'` in `=` but not in `IN`.
 */
export function checkLiteralTypes(query: LogicalQuery, entityOf: (entityAlias: string | undefined) => EntityDefinition | undefined): LogicalQuery {
  const resolved = new Map<Expression, Expression>();
  for (const condition of [query.where, query.having]) {
    if (!condition) continue;
    visitExpression(condition, (node) => {
      if (node.kind !== "function" || !TAG_COMPARISONS.has(node.name)) return;
      const [lhs, rhs] = node.args;
      if (!rhs || (lhs?.kind !== "column" && lhs?.kind !== "subscript")) return;
      const entity = entityOf(lhs.entityAlias);
      if (!entity) return;
      const listed = rhs.kind === "function" && (rhs.name === "tuple" || rhs.name === "array");
      const values = listed ? rhs.args : [rhs];
      const refuse = (value: Expression, message: string): never => {
        const position = value.position ?? node.position;
        throw invalidQuery(`${message}${at(position)}`, position);
      };
      for (const value of values) {
        if (value.kind !== "literal" || value.value === null) continue;
        const literal = value.value;
        if (lhs.kind === "subscript") {
          if (typeof literal !== "string" && stringSubscriptables(entity).has(lhs.column)) {
            refuse(value, `invalid tag condition on '${lhs.column}[${lhs.key}]': ${listed ? "array literal " : ""}${literal} must be a string`);
          }
        } else if (EQUALITY_COMPARISONS.has(node.name) && uuidColumns(entity).has(lhs.name)) {
          if (typeof literal === "string" && !UUID_TEXT.test(literal)) refuse(value, `Not a valid UUID string: '${shortValue(literal)}' for column ${lhs.name}`);
        } else if (ORDER_COMPARISONS.has(node.name) && dateTimeColumns(entity).has(lhs.name)) {
          if (typeof literal !== "string") {
            refuse(value, `${lhs.name} requires datetime conditions: '${literal}' is not a valid datetime; write toDateTime('2024-01-01T00:00:00')`);
          } else if (!DATETIME_TEXT.test(literal)) {
            refuse(value, `'${shortValue(literal)}' is not a datetime, and column ${lhs.name} holds datetimes: write toDateTime('2024-01-01T00:00:00') or '2024-01-01 00:00:00'`);
          } else {
            const position = value.position ?? node.position;
            resolved.set(value, { kind: "datetime", epochSeconds: parseDateTimeLiteral(literal, position), ...(position ? { position } : {}) });
          }
        }
      }
    });
  }
  if (resolved.size === 0) return query;
  const resolve = (expression: Expression | null) => (expression ? mapExpression(expression, (node) => resolved.get(node) ?? node) : null);
  return { ...query, where: resolve(query.where), having: resolve(query.having) };
}

/** Checks every query shape shares: conditions where conditions belong, aggregates where allowed. */
export function checkClauses(query: LogicalQuery, aliases: ReadonlyMap<string, Expression>): void {
  checkConditionShape(query.where, "WHERE");
  checkConditionShape(query.having, "HAVING");
  checkNoAggregates(query.where ? [query.where] : [], aliases, "WHERE clause", "use HAVING to filter on aggregates");
  checkNoAggregates(query.groupBy, aliases, "BY clause", "group by columns or expressions over columns");
  checkNoAggregates(query.arrayJoin ?? [], aliases, "ARRAY JOIN clause", "array-join columns");
  checkDuplicateNames(query, aliases);
  if (query.totals && query.groupBy.length === 0) {
    throw invalidQuery(`TOTALS true${at(query.position?.totals)} needs a BY clause: totals are the aggregates over all groups`, query.position?.totals);
  }
}

const NO_FUNCTIONS: ReadonlySet<string> = new Set();

/** The function names an entity's mappers translate (`sum_weighted(value)` -> `sumMerge(...)`). */
const mappedFunctions = memoizePerDefinition(
  (entity: EntityDefinition): ReadonlySet<string> => new Set((entity.functionMappers ?? []).map((mapper) => mapper.from)),
);

/** Entity columns, their Nested sub-columns (`tags.key`), mapped and time-bucket columns. */
export const knownColumnNames: (entity: EntityDefinition) => ReadonlySet<string> = memoizePerDefinition(computeKnownColumnNames);

function computeKnownColumnNames(entity: EntityDefinition): Set<string> {
  const names = new Set<string>();
  const nested = nestedColumnParts(entity);
  for (const column of entity.columns) {
    names.add(column.name);
    for (const part of nested.get(column.name) ?? []) names.add(part);
  }
  for (const name of Object.keys(entity.columnMappers)) names.add(name);
  for (const name of Object.keys(entity.timeBucketColumns)) names.add(name);
  return names;
}

function checkConditionShape(condition: Expression | null, clause: string): void {
  if (!condition) return;
  if (condition.kind === "function" && (condition.name === "and" || condition.name === "or")) {
    for (const arg of condition.args) checkConditionShape(arg, clause);
    return;
  }
  if (condition.kind === "function" && CONDITION_FUNCTIONS.has(condition.name)) return;
  throw invalidQuery(
    `${clause} expects conditions such as 'column = value' or 'f(x) IS NULL'${at(condition.position)}; a bare expression is not a condition (compare it, e.g. 'has(tags.key, 'x') = 1')`,
    condition.position,
  );
}

/** Refuses aggregates in a clause, also those reached through an alias (`WHERE c > 1` with `count() AS c`). */
function checkNoAggregates(expressions: readonly Expression[], aliases: ReadonlyMap<string, Expression>, clause: string, hint: string): void {
  const expanded = new Set<string>();
  const check = (expression: Expression, reference?: Expression) =>
    visitExpression(expression, (node) => {
      if ((node.kind === "function" || node.kind === "curried") && AGGREGATE_FUNCTIONS.has(node.name)) {
        const position = reference?.position ?? node.position;
        throw invalidQuery(`Aggregate function found in ${clause} of query: '${node.name}'${at(position)}; ${hint}`, position);
      }
      if (node.kind === "column" && node.entityAlias === undefined && !node.insideOwnAlias && !expanded.has(node.name)) {
        const aliased = aliases.get(node.name);
        expanded.add(node.name);
        if (aliased) check(aliased, reference ?? node);
      }
    });
  for (const expression of expressions) check(expression);
}

function shapeOf(expression: Expression): string {
  return JSON.stringify(expression, (key, value) => (key === "position" ? undefined : value));
}

/** A bare reference to the alias `name` (`BY b` with `tags[browser] AS b`): the same output. */
function refersToAlias(expression: Expression, name: string, aliases: ReadonlyMap<string, Expression>): boolean {
  return expression.kind === "column" && expression.entityAlias === undefined && !expression.insideOwnAlias && expression.name === name && aliases.has(name);
}

function checkDuplicateNames(query: LogicalQuery, aliases: ReadonlyMap<string, Expression>): void {
  const seen = new Map<string, Expression>();
  for (const item of query.selected) {
    const previous = seen.get(item.name);
    const sameOutput = previous === undefined || refersToAlias(previous, item.name, aliases) || refersToAlias(item.expression, item.name, aliases);
    if (!sameOutput && shapeOf(previous) !== shapeOf(item.expression)) {
      const position = item.expression.position;
      throw invalidQuery(`Shadowing aliases detected for alias: ${item.name}${at(position)}: two different expressions have the same name`, position);
    }
    seen.set(item.name, item.expression);
  }
  // An alias given inside a clause (`HAVING countIf(x) AS c > 1`) names one expression across the
  // query, as in Snuba: another expression of that name is ClickHouse's code 179 (MULTIPLE_EXPRESSIONS_FOR_ALIAS).
  for (const expression of queryExpressions(query)) {
    visitExpression(expression, (node) => {
      if ((node.kind !== "function" && node.kind !== "curried") || node.alias === undefined) return;
      const previous = seen.get(node.alias);
      if (previous === undefined) seen.set(node.alias, node);
      else if (previous !== node && !refersToAlias(previous, node.alias, aliases) && unaliasedShapeOf(previous) !== unaliasedShapeOf(node)) {
        throw invalidQuery(`Shadowing aliases detected for alias: ${node.alias}${at(node.position)}: two different expressions have the same name`, node.position);
      }
    });
  }
}

/** An expression's shape without its own alias: `count() AS c` in HAVING is the selected `count()` named c. */
function unaliasedShapeOf(expression: Expression): string {
  return shapeOf("alias" in expression ? { ...expression, alias: undefined } : expression);
}

/** Columns that stand for the required time column: itself and any column mapped onto it. */
const timeColumnNames: (entity: EntityDefinition) => ReadonlySet<string> = memoizePerDefinition(computeTimeColumnNames);

function computeTimeColumnNames(entity: EntityDefinition): Set<string> {
  const column = entity.requiredTimeColumn!;
  const names = new Set([column]);
  for (const [name, mapper] of Object.entries(entity.columnMappers)) {
    if (mapper.kind === "column" && mapper.column === column) names.add(name);
  }
  const mappedTo = entity.columnMappers[column];
  if (mappedTo?.kind === "column") {
    for (const [name, mapper] of Object.entries(entity.columnMappers)) {
      if (mapper.kind === "column" && mapper.column === mappedTo.column) names.add(name);
    }
  }
  return names;
}

/** A column reference to `names` on this entity (qualified by `entityAlias` in a join). */
function isColumnOf(node: Expression | undefined, names: ReadonlySet<string>, entityAlias: string | undefined): node is ColumnNode {
  return node?.kind === "column" && node.entityAlias === entityAlias && names.has(node.name);
}

/**
 * The time range from the top-level `>=` and `<` datetime conditions. A missing bound has no
 * place in the text, so its error points at the entity in MATCH (`source`); the message itself
 * is Snuba's, word for word (clients match on it).
 */
export function requireTimeRange(
  query: LogicalQuery,
  entity: EntityDefinition,
  noun: string,
  entityAlias: string | undefined,
  source: TextPosition | undefined,
): TimeRange {
  const column = (entityAlias === undefined ? "" : `${entityAlias}.`) + entity.requiredTimeColumn!;
  const names = timeColumnNames(entity);
  let from: number | null = null;
  let to: number | null = null;
  // `time = X` or `time IN tuple(X, Y)` stands in for the >=/< pair (as in Snuba): the range is
  // the instants named, to the end of the last one's second.
  const instants: number[] = [];
  for (const condition of topLevelConjuncts(query.where)) {
    if (condition.kind !== "function" || condition.args.length !== 2) continue;
    const [lhs, rhs] = condition.args;
    if (!isColumnOf(lhs, names, entityAlias)) continue;
    if (condition.name === "in" && rhs?.kind === "function" && (rhs.name === "tuple" || rhs.name === "array") && rhs.args.length > 0) {
      if (rhs.args.every((value) => value.kind === "datetime")) for (const value of rhs.args) instants.push((value as { epochSeconds: number }).epochSeconds);
      continue;
    }
    if (rhs?.kind !== "datetime") continue;
    if (condition.name === "greaterOrEquals") from = from === null ? rhs.epochSeconds : Math.max(from, rhs.epochSeconds);
    if (condition.name === "less") to = to === null ? rhs.epochSeconds : Math.min(to, rhs.epochSeconds);
    if (condition.name === "equals") instants.push(rhs.epochSeconds);
  }
  if (instants.length > 0) {
    from ??= Math.min(...instants);
    to ??= Math.max(...instants) + 1;
  }
  const example = (op: string) => `${column} ${op} toDateTime('2023-05-16T00:00:00')`;
  if (from === null) {
    throw invalidQuery(
      `Missing >= condition with a datetime literal on column ${column} for ${noun} ${entity.name}. Example: ${example(">=")}`,
      source,
    );
  }
  if (to === null) {
    throw invalidQuery(
      `Missing < condition with a datetime literal on column ${column} for ${noun} ${entity.name}. Example: ${example("<")}`,
      source,
    );
  }
  if (from > to) {
    throw invalidQuery(
      `invalid time conditions on ${noun} ${entity.name}: the start ${formatDateTime(from)} is after the end ${formatDateTime(to)}`,
    );
  }
  return { from, to };
}

function isIntegerLiteral(expression: Expression | undefined): boolean {
  return expression?.kind === "literal" && typeof expression.value === "number" && Number.isInteger(expression.value);
}

export function requireColumns(
  query: LogicalQuery,
  entity: EntityDefinition,
  entityAlias: string | undefined,
  source: TextPosition | undefined,
): void {
  if (entity.requiredColumns.length === 0) return;
  const qualifier = entityAlias === undefined ? "" : `${entityAlias}.`;
  const satisfied = new Set<string>();
  for (const condition of topLevelConjuncts(query.where)) {
    if (condition.kind !== "function" || condition.args.length !== 2) continue;
    const [lhs, rhs] = condition.args;
    if (lhs?.kind !== "column" || lhs.entityAlias !== entityAlias) continue;
    if (condition.name === "equals" && isIntegerLiteral(rhs)) satisfied.add(lhs.name);
    if (
      condition.name === "in" &&
      rhs?.kind === "function" &&
      (rhs.name === "tuple" || rhs.name === "array") &&
      rhs.args.length > 0 &&
      rhs.args.every(isIntegerLiteral)
    ) {
      satisfied.add(lhs.name);
    }
  }
  const missing = entity.requiredColumns.filter((column) => !satisfied.has(column));
  if (missing.length > 0) {
    const names = missing.map((c) => qualifier + c);
    const example = names.map((c) => `${c} = 1`).join(" AND ");
    throw invalidQuery(
      `Validation failed for entity ${entity.name}${at(source)}: missing required conditions for ${names.join(", ")}: add a top-level condition such as ${example} (or ${names[0]} IN tuple(1, 2))`,
      source,
    );
  }
}
