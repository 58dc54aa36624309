/**
 * MQL syntax tree + context -> one ClickHouse query (facts §A2.3, §A2.5).
 *
 * A query with one timeseries (`sum(m) by x`, or `sum(m) * 100`) reads one table and aggregates
 * in place. A formula over several timeseries reads each in a subquery that keeps aggregate
 * *states* (`sumMergeState`), joins them per time bucket and per matching group (INNER JOIN, as
 * Snuba's join), and merges the states outside. Merging states rather than finished numbers keeps
 * `WITH TOTALS` exact for every aggregate, quantiles and unique counts included.
 *
 * The SQL is printed here rather than through `buildSql` because formulas need joined subqueries
 * without LIMIT and interval buckets; it shares the entity YAML (function mappers, subscriptables,
 * column mappers), the allow-list and the escaping with the SnQL printer.
 */
import { AGGREGATE_FUNCTIONS, isAllowedFunction } from "../clickhouse/function-allow-list.js";
import { formatNumber, quoteIdentifier, quoteString, resultAlias } from "../clickhouse/escaping.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import type { EntityDefinition, FunctionMapper, StorageDefinition } from "../datasets/definition-types.js";
import { invalidQuery, QueryServiceError } from "../errors/query-service-error.js";
import { formatDateTime } from "../query/datetime-literal.js";
import type { IndexerMappings, MqlContext } from "./mql-context.js";
import { timeseriesOf, type Filter, type MqlExpression, type TagCondition, type Timeseries } from "./mql-ast.js";
import { IndexerResolver, metricType } from "./resolve-indexer.js";

const AGGREGATE_ALIAS = "aggregate_value";
const TIME_ALIAS = "time";
/** A column marking the totals row in the result; the front end moves that row to `totals`. */
export const TOTALS_MARKER = "__totals";
/** Each timeseries of a formula is a join; past this many the query is refused. */
const MAX_FORMULA_TIMESERIES = 16;

export interface TranslatedMql {
  readonly sql: string;
  readonly columnNames: readonly string[];
  /** The first timeseries' entity and storage (for stats and the query log). */
  readonly entity: EntityDefinition;
  readonly storage: StorageDefinition;
}

const ENTITY_BY_TYPE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  generic_metrics: { c: "generic_metrics_counters", d: "generic_metrics_distributions", s: "generic_metrics_sets", g: "generic_metrics_gauges" },
  metrics: { c: "metrics_counters", d: "metrics_distributions", s: "metrics_sets" },
};
const TYPE_BY_SUFFIX: Readonly<Record<string, string>> = { counters: "c", distributions: "d", sets: "s", gauges: "g" };
const TYPE_WORDS: Readonly<Record<string, string>> = { c: "counter", d: "distribution", s: "set", g: "gauge" };
/** Entity columns a filter or `by` may name directly, as Snuba leaves unmapped column names alone. */
const SCOPE_COLUMNS = new Set(["project_id", "org_id", "use_case_id", "metric_id"]);
/** With `extrapolate`, these read their sample-weighted states (Snuba renames them `<f>_weighted`). */
const EXTRAPOLATED = new Set(["avg", "sum", "count", "quantiles"]);

/** One aggregate state a timeseries needs: `quantilesMerge(0.5)(percentiles)`. */
interface StatePart {
  readonly fn: string;
  readonly params: string | null;
  readonly column: string;
}

/** A timeseries resolved against its entity, ready to print. */
interface Leaf {
  readonly series: Timeseries;
  readonly entity: EntityDefinition;
  readonly storage: StorageDefinition;
  readonly parts: readonly StatePart[];
  /** The value from the printed parts: `sumMerge(value)`, `divide(sum…, count…)`. */
  readonly combine: (parts: readonly string[]) => string;
  readonly conditions: readonly string[];
  /** Group key -> its SQL on this leaf's table. */
  readonly keys: ReadonlyMap<string, string>;
  readonly time: string;
}

function callSql(fn: string, params: string | null, args: string): string {
  return params === null ? `${fn}(${args})` : `${fn}(${params})(${args})`;
}

function paramsSql(params: readonly (number | string)[]): string {
  return params.map((p) => (typeof p === "number" ? formatNumber(p) : quoteString(p))).join(", ");
}

function entityColumn(entity: EntityDefinition, name: string): string {
  const mapper = entity.columnMappers[name];
  return quoteIdentifier(mapper?.kind === "column" ? mapper.column : name);
}

function chooseEntity(series: Timeseries, mri: string, dataset: string, context: MqlContext, definitions: DefinitionLookup): EntityDefinition {
  const type = metricType(mri);
  let name: string | undefined;
  if (context.entity !== null) {
    const suffix = /_(counters|distributions|sets|gauges)$/.exec(context.entity)?.[1];
    if (!definitions.entity(context.entity) || !suffix) {
      throw invalidQuery(`mql_context.entity '${context.entity}' is not a metrics entity; for example ${Object.values(ENTITY_BY_TYPE[dataset] ?? ENTITY_BY_TYPE.generic_metrics!).join(", ")}`);
    }
    if (TYPE_BY_SUFFIX[suffix] !== type) {
      throw invalidQuery(
        `mql_context.entity '${context.entity}' holds ${suffix}, but '${mri}' is a ${TYPE_WORDS[type] ?? `'${type}'`} metric`,
        series.metric.position,
      );
    }
    name = context.entity;
  } else {
    const byType = ENTITY_BY_TYPE[dataset];
    if (!byType) throw invalidQuery(`MQL queries run on the metrics datasets (generic_metrics, metrics), not on '${dataset}'`);
    name = byType[type];
    if (!name) {
      throw invalidQuery(`invalid metric type ${type} in '${mri}': dataset ${dataset} holds ${Object.keys(byType).map((t) => `${t} (${TYPE_WORDS[t]})`).join(", ")} metrics`, series.metric.position);
    }
  }
  const entity = definitions.entity(name);
  if (!entity) throw new QueryServiceError("internal_server_error", `the metrics entity '${name}' is not defined`);
  return entity;
}

function findMapper(entity: EntityDefinition, name: string, curried: boolean): FunctionMapper | undefined {
  return entity.functionMappers?.find((m) => m.from === name && m.argument === "value" && Boolean(m.curried) === curried);
}

function aggregatesOf(entity: EntityDefinition): string[] {
  const names = (entity.functionMappers ?? []).filter((m) => m.argument === "value" && !m.from.endsWith("If")).map((m) => m.from);
  if (hasCalculatedAverage(entity)) names.push("avg");
  return [...new Set(names)];
}

/** Gauges keep no average state: avg = sum / count, as Snuba's CalculatedAverageProcessor does. */
function hasCalculatedAverage(entity: EntityDefinition): boolean {
  return !findMapper(entity, "avg", false) && Boolean(findMapper(entity, "sum", false) && findMapper(entity, "count", false));
}

/** The bucket count of the stored histogram states (`AggregateFunction(histogram(250), Float64)`). */
const STORED_HISTOGRAM_BUCKETS = 250;

function checkParams(series: Timeseries): void {
  const { aggregate, params, position } = series;
  if (params === null) return;
  if (aggregate.startsWith("quantiles")) {
    if (params.length === 0 || !params.every((p) => typeof p === "number" && p >= 0 && p <= 1)) {
      throw invalidQuery(`${aggregate}(…) takes quantile levels between 0 and 1, e.g. ${aggregate}(0.5, 0.95)`, position);
    }
  } else if (aggregate.startsWith("histogram")) {
    const [count] = params;
    if (params.length !== 1 || typeof count !== "number" || !Number.isInteger(count) || count < 1) {
      throw invalidQuery(`${aggregate}(n)(…) takes one bucket count n, a whole number from 1, e.g. ${aggregate}(${STORED_HISTOGRAM_BUCKETS})(…)`, position);
    }
  }
}

function aggregateParts(series: Timeseries, entity: EntityDefinition, context: MqlContext): Pick<Leaf, "parts" | "combine"> {
  checkParams(series);
  // ClickHouse merges the stored histogram(250) states only with that same count, so every
  // histogram reads them as histogram(250), whatever n is written or when none is: Snuba's
  // entity rewrites the count the same way (CurriedFunctionBucketTransformer, default 250).
  if (series.aggregate.startsWith("histogram")) series = { ...series, params: [STORED_HISTOGRAM_BUCKETS] };
  const curried = series.params !== null;
  let name = series.aggregate;
  if (context.extrapolate && EXTRAPOLATED.has(name) && findMapper(entity, `${name}_weighted`, curried)) name = `${name}_weighted`;
  const mapper = findMapper(entity, name, curried);
  const params = series.params === null ? null : paramsSql(series.params);
  if (mapper) {
    const part: StatePart = { fn: mapper.to, params, column: mapper.column };
    // quantiles(q) with one level is a number, not a one-element array (Snuba: arrayElement(…, 1)).
    const single = name.startsWith("quantiles") && series.params?.length === 1;
    return {
      parts: [part],
      combine: ([value]) => (single ? `arrayElement(${value!}, 1)` : value!),
    };
  }
  if (name === "avg" && !curried && hasCalculatedAverage(entity)) {
    const sum = findMapper(entity, "sum", false)!;
    const count = findMapper(entity, "count", false)!;
    return {
      parts: [
        { fn: sum.to, params: null, column: sum.column },
        { fn: count.to, params: null, column: count.column },
      ],
      combine: ([total, count]) => `divide(${total!}, ${count!})`,
    };
  }
  const written = curried ? `${series.aggregate}(…)(…)` : `${series.aggregate}(…)`;
  throw invalidQuery(
    `aggregate ${written} is not available on ${entity.name}; available: ${aggregatesOf(entity).join(", ")}`,
    series.position,
  );
}

/** The SQL of a tag (or scope column) on the entity, or null when the key is unknown. */
function tagSql(key: string, entity: EntityDefinition, resolver: IndexerResolver): { sql: string; isTag: boolean } | null {
  const id = resolver.tagKey(key);
  if (id !== null) {
    const tags = entity.subscriptables.tags_raw ?? entity.subscriptables.tags;
    if (tags?.kind !== "nested") throw new QueryServiceError("internal_server_error", `entity ${entity.name} has no nested tags`);
    return { sql: `arrayElement(${quoteIdentifier(tags.valueColumn)}, indexOf(${quoteIdentifier(tags.keyColumn)}, ${formatNumber(id)}))`, isTag: true };
  }
  return SCOPE_COLUMNS.has(key) ? { sql: entityColumn(entity, key), isTag: false } : null;
}

/**
 * A filter on an integer scope column (`project_id:3`) compares the column with its value as
 * written, which ClickHouse converts to the column's type: a value that is not an integer of it
 * (`project_id:OR`, code 53) or a prefix match (`project_id:1*`, code 43) would be its error.
 */
function checkIntegerColumnValues(condition: TagCondition, entity: EntityDefinition): void {
  const type = entity.columns.find((column) => column.name === condition.key)?.type ?? "";
  const unsigned = /^UInt(8|16|32|64)$/.exec(type);
  const signed = /^Int(8|16|32|64)$/.exec(type);
  const bits = unsigned?.[1] ?? signed?.[1];
  if (bits === undefined) return;
  const where = condition.position ? ` at line ${condition.position.line}, column ${condition.position.column}` : "";
  if (condition.wildcard) {
    throw invalidQuery(`prefix match '${condition.key}:${condition.values[0]}*'${where} is not possible: ${condition.key} is an integer column (${type})`, condition.position);
  }
  const min = unsigned ? 0n : -(2n ** BigInt(Number(bits) - 1));
  const max = unsigned ? 2n ** BigInt(bits) - 1n : 2n ** BigInt(Number(bits) - 1) - 1n;
  for (const value of condition.values) {
    if (/^-?\d{1,20}$/.test(value) && BigInt(value) >= min && BigInt(value) <= max) continue;
    throw invalidQuery(`'${value}'${where} is not a value of ${condition.key}, an integer column (${type}): write an integer from ${min} to ${max}`, condition.position);
  }
}

/** Legacy `metrics` tables keep tag values as ids; generic metrics keep the raw text. */
function indexedValues(entity: EntityDefinition): boolean {
  return !entity.subscriptables.tags_raw;
}

/** `abc` -> `'abc%'` with LIKE's own wildcards in the prefix escaped. */
function prefixPattern(prefix: string): string {
  return quoteString(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

class LeafTranslator {
  /** The window's bounds as SQL, printed once for every timeseries. */
  private readonly startSql: string;
  private readonly endSql: string;

  constructor(
    private readonly context: MqlContext,
    private readonly resolver: IndexerResolver,
    private readonly unresolved: Set<string>,
  ) {
    this.startSql = `toDateTime(${quoteString(formatDateTime(context.start))}, 'Universal')`;
    this.endSql = `toDateTime(${quoteString(formatDateTime(context.end))}, 'Universal')`;
  }

  filter(filter: Filter, entity: EntityDefinition): string {
    if (filter.kind !== "condition") {
      return `${filter.kind}(${filter.args.map((arg) => this.filter(arg, entity)).join(", ")})`;
    }
    return this.condition(filter, entity);
  }

  private condition(condition: TagCondition, entity: EntityDefinition): string {
    const resolved = tagSql(condition.key, entity, this.resolver);
    if (resolved === null) {
      this.unresolved.add(condition.key);
      return "";
    }
    if (!resolved.isTag) checkIntegerColumnValues(condition, entity);
    const lhs = resolved.sql;
    const indexed = resolved.isTag && indexedValues(entity);
    const value = (text: string) => (indexed ? formatNumber(this.resolver.tagValue(condition.key, text, condition.position)) : quoteString(text));
    if (condition.wildcard) {
      if (indexed) {
        throw invalidQuery(`prefix match '${condition.key}:${condition.values[0]}*' is not possible on ${entity.name}: its tag values are indexed ids`, condition.position);
      }
      return `${condition.negated ? "notLike" : "like"}(${lhs}, ${prefixPattern(condition.values[0]!)})`;
    }
    if (condition.list) return `${condition.negated ? "notIn" : "in"}(${lhs}, tuple(${condition.values.map(value).join(", ")}))`;
    return `${condition.negated ? "notEquals" : "equals"}(${lhs}, ${value(condition.values[0]!)})`;
  }

  leaf(series: Timeseries, dataset: string, definitions: DefinitionLookup): Leaf {
    const { mri, id } = this.resolver.metric(series.metric);
    const entity = chooseEntity(series, mri, dataset, this.context, definitions);
    const storage = definitions.storage(entity.readableStorage);
    if (!storage) throw new QueryServiceError("internal_server_error", `entity '${entity.name}' names a missing storage '${entity.readableStorage}'`);
    const { parts, combine } = aggregateParts(series, entity, this.context);

    const granularityIndex = entity.granularities.indexOf(this.context.granularity);
    if (granularityIndex < 0) {
      throw invalidQuery(`granularity ${this.context.granularity} is not stored by ${entity.name}; it has ${entity.granularities.join(", ")}`);
    }
    const storedGranularity = entity.storedGranularities?.[granularityIndex] ?? this.context.granularity;
    const timestamp = entityColumn(entity, entity.requiredTimeColumn ?? "timestamp");
    const ids = (values: readonly number[]) => values.map(formatNumber).join(", ");
    const conditions = [
      `equals(${entityColumn(entity, "metric_id")}, ${formatNumber(id)})`,
      `equals(${entityColumn(entity, "granularity")}, ${formatNumber(storedGranularity)})`,
      `in(${entityColumn(entity, "org_id")}, tuple(${ids(this.context.orgIds)}))`,
      `in(${entityColumn(entity, "project_id")}, tuple(${ids(this.context.projectIds)}))`,
      `equals(${entityColumn(entity, "use_case_id")}, ${quoteString(this.context.useCaseId)})`,
      `greaterOrEquals(${timestamp}, ${this.startSql})`,
      `less(${timestamp}, ${this.endSql})`,
      ...series.filters.map((f) => this.filter(f, entity)),
    ];
    const keys = new Map<string, string>();
    for (const key of series.groupBy) {
      const resolved = tagSql(key, entity, this.resolver);
      if (resolved === null) this.unresolved.add(key);
      else keys.set(key, resolved.sql);
    }
    const time = `toStartOfInterval(${timestamp}, toIntervalSecond(${formatNumber(this.context.interval ?? 0)}), 'Universal')`;
    return { series, entity, storage, parts, combine, conditions, keys, time };
  }
}

/** The value expression: formula operators and scalar functions over each leaf's value. */
function formulaSql(expression: MqlExpression, leafValue: (series: Timeseries) => string): string {
  switch (expression.kind) {
    case "timeseries":
      return leafValue(expression);
    case "arithmetic":
      return `${expression.operator}(${formulaSql(expression.left, leafValue)}, ${formulaSql(expression.right, leafValue)})`;
    case "call": {
      if (!isAllowedFunction(expression.name) || AGGREGATE_FUNCTIONS.has(expression.name)) {
        throw invalidQuery(
          `function '${expression.name}' is not supported in MQL formulas; use arithmetic (+ - * /) or a scalar function such as round, abs, log, greatest`,
          expression.position,
        );
      }
      const args = expression.args.map((arg) => formulaSql(arg, leafValue)).join(", ");
      return callSql(expression.name, expression.params === null ? null : paramsSql(expression.params), args);
    }
    case "number":
      return formatNumber(expression.value);
    case "string":
      return quoteString(expression.value);
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");
}

/** The group keys of the query: every timeseries that groups must group alike. */
function groupKeysOf(leaves: readonly Timeseries[]): readonly string[] {
  const grouped = leaves.filter((s) => s.groupBy.length > 0);
  const keys = grouped[0]?.groupBy ?? [];
  for (const series of grouped) {
    if (!sameKeys(series.groupBy, keys)) {
      throw invalidQuery(
        `All terms in a formula must have the same groupby: (${keys.join(", ")}) and (${series.groupBy.join(", ")}) differ`,
        series.position,
      );
    }
  }
  for (const key of keys) {
    if (key === AGGREGATE_ALIAS || key === TIME_ALIAS) throw invalidQuery(`'${key}' cannot be a group key: it names an output column`);
  }
  return keys;
}

/** A timeseries' conditions are printed up to three times (rows, group page, totals): once is enough. */
const printedConditions = new WeakMap<readonly string[], string>();

function where(conditions: readonly string[]): string {
  let printed = printedConditions.get(conditions);
  if (printed === undefined) {
    printed = conditions.length === 1 ? conditions[0]! : `and(${conditions.join(", ")})`;
    printedConditions.set(conditions, printed);
  }
  return printed;
}

/** Where the totals row reads: every timeseries over the whole window, no groups, no buckets. */
interface TotalsSource {
  readonly from: string;
  readonly conditions: readonly string[];
  /** The group and time columns of the totals row: their types' defaults. */
  readonly defaults: readonly string[];
}

/** What the final SELECT reads, whichever the shape. */
interface QueryCore {
  readonly from: string;
  readonly conditions: readonly string[];
  readonly value: string;
  readonly keys: readonly string[];
  readonly time: string;
  readonly totals: TotalsSource;
}

const defaultOf = (expression: string) => `defaultValueOfArgumentType(any(${expression}))`;

function singleCore(expression: MqlExpression, leaf: Leaf, keys: readonly string[], interval: boolean): QueryCore {
  const value = formulaSql(expression, () => leaf.combine(leaf.parts.map((p) => callSql(p.fn, p.params, quoteIdentifier(p.column)))));
  const keyColumns = keys.map((k) => leaf.keys.get(k)!);
  const from = quoteIdentifier(leaf.storage.table);
  const grouped = interval ? [...keyColumns, leaf.time] : keyColumns;
  return {
    from,
    conditions: leaf.conditions,
    value,
    keys: keyColumns,
    time: leaf.time,
    totals: { from, conditions: leaf.conditions, defaults: grouped.map(defaultOf) },
  };
}

/**
 * Each leaf a subquery of states per (group, bucket), joined to the first grouped leaf. For the
 * totals, each leaf is one row of states over the whole window, cross joined.
 */
function joinedCore(expression: MqlExpression, leaves: readonly Leaf[], keys: readonly string[], interval: boolean): QueryCore {
  const referenceIndex = Math.max(0, leaves.findIndex((l) => l.keys.size > 0));
  const order = [referenceIndex, ...leaves.map((_, i) => i).filter((i) => i !== referenceIndex)];
  const alias = (index: number) => `d${index}`;
  const subquery = (leaf: Leaf, forTotals: boolean): string => {
    const columns = leaf.parts.map((p, i) => `${callSql(`${p.fn}State`, p.params, quoteIdentifier(p.column))} AS p${i}`);
    const groupBy: string[] = [];
    const group = (sql: string, name: string) => {
      columns.push(`${forTotals ? defaultOf(sql) : sql} AS ${name}`);
      groupBy.push(name);
    };
    keys.forEach((key, i) => {
      const sql = leaf.keys.get(key);
      if (sql !== undefined) group(sql, `g${i}`);
    });
    if (interval) group(leaf.time, "bucket");
    let sql = `SELECT ${columns.join(", ")} FROM ${quoteIdentifier(leaf.storage.table)} WHERE ${where(leaf.conditions)}`;
    if (groupBy.length > 0 && !forTotals) sql += ` GROUP BY ${groupBy.join(", ")}`;
    return `(${sql})`;
  };
  const reference = alias(referenceIndex);
  let from = `${subquery(leaves[referenceIndex]!, false)} AS ${reference}`;
  let totalsFrom = `${subquery(leaves[referenceIndex]!, true)} AS ${reference}`;
  for (const index of order.slice(1)) {
    const leaf = leaves[index]!;
    const on: string[] = [];
    if (interval) on.push(`${reference}.bucket = ${alias(index)}.bucket`);
    if (leaf.keys.size > 0) keys.forEach((_, i) => on.push(`${reference}.g${i} = ${alias(index)}.g${i}`));
    from += on.length > 0
      ? ` INNER JOIN ${subquery(leaf, false)} AS ${alias(index)} ON ${on.join(" AND ")}`
      : ` CROSS JOIN ${subquery(leaf, false)} AS ${alias(index)}`;
    totalsFrom += ` CROSS JOIN ${subquery(leaf, true)} AS ${alias(index)}`;
  }
  const indexOf = new Map(leaves.map((leaf, i) => [leaf.series, i]));
  const value = formulaSql(expression, (series) => {
    const index = indexOf.get(series)!;
    const leaf = leaves[index]!;
    return leaf.combine(leaf.parts.map((p, i) => callSql(p.fn, p.params, `${alias(index)}.p${i}`)));
  });
  const keyColumns = leaves[referenceIndex]!.keys.size > 0 ? keys.map((_, i) => `${reference}.g${i}`) : [];
  const time = `${reference}.bucket`;
  const grouped = interval ? [...keyColumns, time] : keyColumns;
  return {
    from,
    conditions: [],
    value,
    keys: keyColumns,
    time,
    totals: { from: totalsFrom, conditions: [], defaults: grouped.map((column) => `any(${column})`) },
  };
}

/** `storeMappings`: the store's own indexer ids, used when the request sends none. */
export function translateMql(
  expression: MqlExpression,
  context: MqlContext,
  dataset: string,
  definitions: DefinitionLookup,
  storeMappings: IndexerMappings | null = null,
): TranslatedMql {
  const series = timeseriesOf(expression);
  if (series.length === 0) throw invalidQuery("the MQL query has no timeseries: aggregate a metric, e.g. sum(c:custom/page_views@none)");
  if (series.length > MAX_FORMULA_TIMESERIES) {
    throw invalidQuery(`the formula has ${series.length} timeseries; at most ${MAX_FORMULA_TIMESERIES} are allowed`);
  }
  const keys = groupKeysOf(series);
  const unresolved = new Set<string>();
  const translator = new LeafTranslator(context, new IndexerResolver(context.indexerMappings, storeMappings), unresolved);
  const leaves = series.map((s) => translator.leaf(s, dataset, definitions));
  if (unresolved.size > 0) {
    throw invalidQuery(`Tag keys (${[...unresolved].join(", ")}) not resolved: add them to mql_context.indexer_mappings`);
  }
  const interval = context.interval !== null;
  const core = leaves.length === 1 ? singleCore(expression, leaves[0]!, keys, interval) : joinedCore(expression, leaves, keys, interval);
  return { ...printQuery(core, keys, context), entity: leaves[0]!.entity, storage: leaves[0]!.storage };
}

function printQuery(core: QueryCore, keys: readonly string[], context: MqlContext): { sql: string; columnNames: string[] } {
  const interval = context.interval !== null;
  const select = [`${core.value} AS ${resultAlias(AGGREGATE_ALIAS)}`];
  const columnNames = [AGGREGATE_ALIAS];
  const keyAliases = keys.map((key) => resultAlias(key));
  core.keys.forEach((sql, i) => {
    select.push(`${sql} AS ${keyAliases[i]!}`);
    columnNames.push(keys[i]!);
  });
  const groupBy = keyAliases.slice(0, core.keys.length);
  if (interval) {
    select.push(`${core.time} AS ${resultAlias(TIME_ALIAS)}`);
    columnNames.push(TIME_ALIAS);
    groupBy.push(resultAlias(TIME_ALIAS));
  }
  const conditions = [...core.conditions];
  let limit = context.limit;
  let offset = context.offset;
  // With time buckets, limit and offset choose groups (each keeps all its buckets); a query
  // without `by` is one group, so its buckets are never cut by the default limit.
  if (interval) {
    const buckets = Math.ceil((context.end - context.start) / context.interval!);
    if (core.keys.length > 0) {
      const tuple = `tuple(${core.keys.join(", ")})`;
      const whereClause = core.conditions.length > 0 ? ` WHERE ${where(core.conditions)}` : "";
      conditions.push(
        `in(${tuple}, (SELECT ${tuple} AS g FROM ${core.from}${whereClause} GROUP BY g ORDER BY g ASC LIMIT ${limit} OFFSET ${offset}))`,
      );
      limit *= buckets;
    } else {
      limit = offset > 0 ? 0 : buckets;
    }
    offset = 0;
  }
  // Snuba adds totals only to queries that group (by time or by tags).
  const totals = context.withTotals && groupBy.length > 0;
  if (totals) {
    select.push(`0 AS ${resultAlias(TOTALS_MARKER)}`);
    columnNames.push(TOTALS_MARKER);
  }
  let sql = `SELECT ${select.join(", ")} FROM ${core.from}`;
  if (conditions.length > 0) sql += ` WHERE ${where(conditions)}`;
  if (groupBy.length > 0) sql += ` GROUP BY ${groupBy.join(", ")}`;
  const orderBy: string[] = [];
  if (interval) orderBy.push(`${resultAlias(TIME_ALIAS)} ASC`);
  else if (context.orderBy !== null) orderBy.push(`${resultAlias(AGGREGATE_ALIAS)} ${context.orderBy}`);
  orderBy.push(...groupBy.filter((g) => g !== resultAlias(TIME_ALIAS)).map((g) => `${g} ASC`));
  if (orderBy.length > 0) sql += ` ORDER BY ${orderBy.join(", ")}`;
  sql += ` LIMIT ${limit}`;
  if (offset > 0) sql += ` OFFSET ${offset}`;
  if (totals) sql = withTotalsRow(sql, core, orderBy);
  return { sql, columnNames };
}

/**
 * The totals row as a marked UNION ALL branch rather than WITH TOTALS: it is the formula over
 * each timeseries aggregated across the whole window (every group and bucket, independent of
 * the group page that limit and offset select, which WITH TOTALS would only see), and a branch
 * without GROUP BY always yields its one row, even over no data. The group and time columns
 * hold their type's default, as ClickHouse's totals row does. (chDB's garbled JSON for an empty
 * WITH TOTALS answer is repaired for every query in src/execution/parse-json-compact.ts.)
 */
function withTotalsRow(sql: string, core: QueryCore, orderBy: readonly string[]): string {
  const select = [`${core.value} AS ${resultAlias(AGGREGATE_ALIAS)}`, ...core.totals.defaults, `1 AS ${resultAlias(TOTALS_MARKER)}`];
  let totals = `SELECT ${select.join(", ")} FROM ${core.totals.from}`;
  if (core.totals.conditions.length > 0) totals += ` WHERE ${where(core.totals.conditions)}`;
  return `SELECT * FROM ((${sql}) UNION ALL (${totals})) ORDER BY ${[`${resultAlias(TOTALS_MARKER)} ASC`, ...orderBy].join(", ")}`;
}
