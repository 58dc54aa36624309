/**
 * The RPC front end: a TimeSeriesRequest (already through `normalizeTimeSeriesRequest`) → one
 * SQL query on eap_items and the plan to turn its rows into a TimeSeriesResponse (facts B9.2):
 *
 *   SELECT start + intDiv(time - start, G) * G AS time, <each expression>, <each group-by
 *          attribute>, <sample count, sampling rate, confidence interval per aggregate>
 *   FROM eap_items WHERE organization, projects, [start, end), item type, 0 < sampling_factor <= 1,
 *          <filter>
 *   GROUP BY time, <group-by> ORDER BY time
 *
 * Buckets are aligned to the request's start, not to the epoch. Column aliases are generated
 * (`_rpc_e0`, ...), never taken from labels or attribute names.
 */
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import type { StorageDefinition } from "../datasets/definition-types.js";
import { formatNumber } from "../clickhouse/escaping.js";
import { Expression_BinaryFormula_Op, type Expression, type TimeSeriesRequest } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import type { AttributeKey } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import type { PreparedQuery } from "../query/prepared-query.js";
import { aggregateSql, type AggregateSql } from "./aggregate-sql.js";
import { attributeSql, type ScalarKind } from "./attribute-sql.js";
import { filterSql } from "./filter-sql.js";
import { badRpcRequest } from "./rpc-request-error.js";

export const EAP_DATASET = "events_analytics_platform";
export const EAP_ENTITY = "eap_items";

/** What the response needs to know about the query's columns. */
export interface TimeSeriesPlan {
  readonly start: number;
  readonly end: number;
  readonly granularity: number;
  readonly series: readonly SeriesColumns[];
  readonly groupBy: readonly { readonly name: string; readonly column: string; readonly kind: ScalarKind }[];
}

/** One expression's columns: its value and, for an aggregate, what describes its data points. */
export interface SeriesColumns {
  readonly label: string;
  readonly value: string;
  readonly sampleCount: string | null;
  readonly averageSampleRate: string | null;
  readonly confidenceInterval: string | null;
  readonly percentile: boolean;
  readonly extrapolated: boolean;
}

export interface TranslatedTimeSeries {
  readonly prepared: PreparedQuery;
  readonly plan: TimeSeriesPlan;
}

export const TIME_COLUMN = "time";

export function eapStorage(definitions: DefinitionLookup): StorageDefinition {
  const entity = definitions.entity(EAP_ENTITY);
  const storage = entity ? definitions.storage(entity.readableStorage) : undefined;
  if (!storage) throw badRpcRequest(`the ${EAP_ENTITY} entity is not configured on this server`);
  return storage;
}

export function translateTimeSeries(request: TimeSeriesRequest, storage: StorageDefinition): TranslatedTimeSeries {
  const meta = request.meta!;
  const start = Number(meta.startTimestamp?.seconds ?? 0n);
  const end = Number(meta.endTimestamp?.seconds ?? 0n);
  const granularity = Number(request.granularitySecs);

  const select: string[] = [`toUInt32(${start} + intDiv(toInt64(toUnixTimestamp(timestamp)) - ${start}, ${granularity}) * ${granularity}) AS _rpc_time`];
  const columnNames: string[] = [TIME_COLUMN];
  const add = (sql: string, name: string): string => {
    select.push(`${sql} AS _rpc_c${columnNames.length}`);
    columnNames.push(name);
    return name;
  };

  const series: SeriesColumns[] = request.expressions.map((expression, index) => {
    const value = add(expressionSql(expression, 0), `e${index}`);
    const aggregate = expression.expression.case === "conditionalAggregation" ? aggregateSql(expression.expression.value) : null;
    return {
      label: expression.label,
      value,
      ...contextColumns(aggregate, index, add),
      percentile: aggregate?.extrapolation?.percentile ?? false,
      extrapolated: aggregate?.extrapolation != null,
    };
  });

  const groupBy = request.groupBy.map((key: AttributeKey, index) => {
    const attribute = attributeSql(key);
    const column = add(attribute.nullable, `g${index}`);
    return { name: key.name, column, kind: attribute.kind, sql: `_rpc_c${columnNames.indexOf(column)}` };
  });

  const projects = meta.projectIds.map((id) => id.toString());
  const conditions = [
    `organization_id = ${meta.organizationId.toString()}`,
    projects.length > 0 ? `project_id IN (${projects.join(", ")})` : "0",
    `timestamp >= toDateTime(${start})`,
    `timestamp < toDateTime(${end})`,
    `item_type = ${meta.traceItemType}`,
    "sampling_factor > 0",
    "sampling_factor <= 1",
  ];
  const filter = filterSql(request.filter);
  if (filter !== "1") conditions.push(filter);

  const sql =
    `SELECT ${select.join(", ")} FROM ${storage.table} WHERE ${conditions.join(" AND ")}` +
    ` GROUP BY _rpc_time${groupBy.map((g) => `, ${g.sql}`).join("")} ORDER BY _rpc_time ASC`;
  return {
    prepared: { sql, columnNames, entity: EAP_ENTITY, storage, table: storage.table, final: false, sample: null },
    plan: { start, end, granularity, series, groupBy: groupBy.map(({ name, column, kind }) => ({ name, column, kind })) },
  };
}

function contextColumns(
  aggregate: AggregateSql | null,
  index: number,
  add: (sql: string, name: string) => string,
): Pick<SeriesColumns, "sampleCount" | "averageSampleRate" | "confidenceInterval"> {
  if (!aggregate) return { sampleCount: null, averageSampleRate: null, confidenceInterval: null };
  const sampleCount = add(aggregate.sampleCount, `e${index}.count`);
  if (!aggregate.extrapolation) return { sampleCount, averageSampleRate: null, confidenceInterval: null };
  const averageSampleRate = add(aggregate.extrapolation.averageSampleRate, `e${index}.rate`);
  const confidenceInterval = aggregate.extrapolation.confidenceInterval === null ? null : add(aggregate.extrapolation.confidenceInterval, `e${index}.ci`);
  return { sampleCount, averageSampleRate, confidenceInterval };
}

const FORMULA_OPERATORS: Partial<Record<Expression_BinaryFormula_Op, string>> = {
  [Expression_BinaryFormula_Op.ADD]: "plus",
  [Expression_BinaryFormula_Op.SUBTRACT]: "minus",
  [Expression_BinaryFormula_Op.MULTIPLY]: "multiply",
  [Expression_BinaryFormula_Op.DIVIDE]: "divide",
};

/** An expression's value: an aggregate, a formula over expressions, or a literal. */
function expressionSql(expression: Expression, depth: number): string {
  if (depth > 32) throw badRpcRequest("the expression's formulas nest deeper than 32 levels");
  const node = expression.expression;
  switch (node.case) {
    case "conditionalAggregation":
      return withDefault(aggregateSql(node.value).value, node.value.defaultValue);
    case "formula": {
      const operator = FORMULA_OPERATORS[node.value.op];
      if (!operator) throw badRpcRequest(`formula of expression '${expression.label}' has no operator (op ${node.value.op})`);
      if (!node.value.left || !node.value.right) throw badRpcRequest(`formula of expression '${expression.label}' needs a left and a right side`);
      return withDefault(`${operator}(${expressionSql(node.value.left, depth + 1)}, ${expressionSql(node.value.right, depth + 1)})`, node.value.defaultValue);
    }
    case "literal":
      if (node.value.value.case !== "valDouble") throw badRpcRequest(`literal of expression '${expression.label}' has no value`);
      if (!Number.isFinite(node.value.value.value)) throw badRpcRequest(`literal of expression '${expression.label}' is not a finite number`);
      return `toFloat64(${formatNumber(node.value.value.value)})`;
    case "aggregation":
      // normalizeTimeSeriesRequest has turned these into conditional aggregations.
      throw badRpcRequest("an aggregation expression reached the planner unconverted");
    default:
      throw badRpcRequest(`expression '${expression.label}' is empty: set conditional_aggregation, formula or literal`);
  }
}

/** `coalesce(value, default)` when the expression names a value for an empty bucket. */
function withDefault(sql: string, defaultValue: { case: "defaultValueDouble"; value: number } | { case: "defaultValueInt64"; value: bigint } | { case: undefined; value?: undefined }): string {
  switch (defaultValue.case) {
    case "defaultValueDouble":
      if (!Number.isFinite(defaultValue.value)) throw badRpcRequest("default_value_double must be a finite number");
      return `coalesce(${sql}, ${formatNumber(defaultValue.value)})`;
    case "defaultValueInt64":
      return `coalesce(${sql}, ${defaultValue.value.toString()})`;
    default:
      return sql;
  }
}
