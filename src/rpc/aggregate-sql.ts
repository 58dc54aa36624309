/**
 * One aggregate of a time series (AttributeConditionalAggregation) as SQL, with the columns
 * that describe its data points (facts B9.2, Snuba's aggregation module).
 *
 * Every aggregate only counts items that have the attribute (or every attribute of its key
 * expression) and pass its own filter. Without extrapolation the figures are the plain -IfOrNull
 * aggregates, rounded to 9 decimals; with it, each item weighs 1 / its sampling rate
 * (`sampling_factor`, or the client or server rate), which scales sums and counts and weights
 * averages and percentiles. Beside the value, the query reads how many items it used and, when
 * extrapolating, their average sampling rate and a 95 % confidence interval (Horvitz-Thompson, as
 * Snuba computes it) from which the data point's reliability follows.
 */
import type { AttributeConditionalAggregation } from "../../gen/sentry_protos/snuba/v1/attribute_conditional_aggregation_pb.js";
import {
  type AttributeKeyExpression,
  AttributeKeyExpression_Op,
  ExtrapolationMode,
  Function as AggregateFunction,
  FunctionSchema,
} from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { attributeSql, type ScalarKind } from "./attribute-sql.js";
import { filterSql } from "./filter-sql.js";
import { badRpcRequest, enumName } from "./rpc-request-error.js";

const ROUND_DIGITS = 9;
/** z for a 95 % interval, and for the two 97.5 % intervals an average combines. */
const Z_95 = 1.96;
const Z_975 = 2.24;
/** Percentile weights are integers: the weight × 1000, rounded. */
const PERCENTILE_WEIGHT_SCALE = 1000;

const QUANTILE: Partial<Record<AggregateFunction, number>> = {
  [AggregateFunction.P50]: 0.5,
  [AggregateFunction.P75]: 0.75,
  [AggregateFunction.P90]: 0.9,
  [AggregateFunction.P95]: 0.95,
  [AggregateFunction.P99]: 0.99,
};

export interface AggregateSql {
  readonly value: string;
  /** Items the aggregate used in the bucket (DataPoint.sample_count). */
  readonly sampleCount: string;
  /** When extrapolating: the items' average sampling rate, and the confidence interval (null for aggregates without one). */
  readonly extrapolation: { readonly averageSampleRate: string; readonly confidenceInterval: string | null; readonly percentile: boolean } | null;
}

interface Field {
  readonly sql: string;
  readonly exists: string;
  readonly kind: ScalarKind;
}

export function aggregateSql(aggregation: AttributeConditionalAggregation): AggregateSql {
  const field = aggregateField(aggregation);
  const functionName = enumName(FunctionSchema, aggregation.aggregate);
  const condition = [field.exists, filterSql(aggregation.filter)].filter((c) => c !== "1").join(" AND ") || "1";
  const numeric = field.kind !== "string";
  const requireNumeric = () => {
    if (!numeric) throw badRpcRequest(`${functionName} of attribute ${describeField(aggregation)} gives strings; a time series holds numbers`);
  };
  const sampleCount = `countIf(${field.sql}, ${condition})`;

  const extrapolated = isExtrapolated(aggregation.extrapolationMode);
  if (!extrapolated) {
    const round = (sql: string) => `round(${sql}, ${ROUND_DIGITS})`;
    const quantile = QUANTILE[aggregation.aggregate];
    let value: string;
    if (quantile !== undefined) {
      requireNumeric();
      value = round(`quantileIfOrNull(${quantile})(${field.sql}, ${condition})`);
    } else {
      switch (aggregation.aggregate) {
        case AggregateFunction.SUM:
        case AggregateFunction.AVG:
        case AggregateFunction.AVERAGE:
        case AggregateFunction.MAX:
        case AggregateFunction.MIN:
          requireNumeric();
          value = round(`${PLAIN[aggregation.aggregate]}IfOrNull(${field.sql}, ${condition})`);
          break;
        case AggregateFunction.COUNT:
          value = round(`countIfOrNull(${field.sql}, ${condition})`);
          break;
        case AggregateFunction.UNIQ:
          value = round(`uniqIfOrNull(${field.sql}, ${condition})`);
          break;
        case AggregateFunction.ANY:
          requireNumeric();
          value = `anyIfOrNull(${field.sql}, ${condition})`;
          break;
        case AggregateFunction.FIRST:
        case AggregateFunction.LAST: {
          requireNumeric();
          const rankedBy = aggregation.rankedBy?.key;
          if (!rankedBy) throw badRpcRequest(`${functionName} requires ranked_by to be set`);
          const rank = attributeSql(rankedBy);
          const order = `tuple(${rank.value}, toUnixTimestamp(timestamp), toString(item_id))`;
          const ranked = [condition, rank.exists].filter((c) => c !== "1").join(" AND ") || "1";
          value = `${aggregation.aggregate === AggregateFunction.FIRST ? "argMin" : "argMax"}IfOrNull(${field.sql}, ${order}, ${ranked})`;
          break;
        }
        case AggregateFunction.COLLECT_UNIQUE:
          throw badRpcRequest(`${functionName} gives a list of values; a time series holds numbers`);
        default:
          throw badRpcRequest(`Aggregation not specified for ${describeField(aggregation)}`);
      }
    }
    return { value, sampleCount, extrapolation: null };
  }

  if (
    aggregation.aggregate === AggregateFunction.COLLECT_UNIQUE ||
    aggregation.aggregate === AggregateFunction.FIRST ||
    aggregation.aggregate === AggregateFunction.LAST
  ) {
    throw badRpcRequest(`Extrapolation is not supported for ${functionName} function.`);
  }
  const weight = samplingWeight(aggregation.extrapolationMode);
  const weightedSum = `sumIfOrNull(${field.sql} * ${weight}, ${condition})`;
  const weightSum = `sumIfOrNull(${weight}, ${condition})`;
  const countInterval = (z: number) => `${z} * sqrt(sumIf(${weight} * ${weight} - ${weight}, ${condition}))`;
  const sumInterval = (z: number) => `${z} * sqrt(sumIf(${field.sql} * ${field.sql} * (${weight} * ${weight} - ${weight}), ${condition}))`;
  const averageSampleRate = `countIf(${field.sql}, ${condition}) / sumIf(${weight}, ${condition})`;
  const quantile = QUANTILE[aggregation.aggregate];
  if (quantile !== undefined) {
    requireNumeric();
    return {
      value: `quantileTDigestWeightedIfOrNull(${quantile})(${field.sql}, toUInt64(round(${weight} * ${PERCENTILE_WEIGHT_SCALE})), ${condition})`,
      sampleCount,
      extrapolation: { averageSampleRate, confidenceInterval: null, percentile: true },
    };
  }
  let value: string;
  let confidenceInterval: string | null = null;
  switch (aggregation.aggregate) {
    case AggregateFunction.SUM:
      requireNumeric();
      value = field.kind === "int" ? `round(${weightedSum})` : weightedSum;
      confidenceInterval = sumInterval(Z_95);
      break;
    case AggregateFunction.AVG:
    case AggregateFunction.AVERAGE: {
      requireNumeric();
      value = `${weightedSum} / ${weightSum}`;
      // Bounds of sum / count from their 97.5 % intervals; half their distance.
      const sumError = sumInterval(Z_975);
      const countError = countInterval(Z_975);
      confidenceInterval = `abs((${weightedSum} + ${sumError}) / (${weightSum} - ${countError}) - (${weightedSum} - ${sumError}) / (${weightSum} + ${countError})) / 2`;
      break;
    }
    case AggregateFunction.COUNT:
      value = `round(${weightSum})`;
      confidenceInterval = countInterval(Z_95);
      break;
    case AggregateFunction.MAX:
    case AggregateFunction.MIN:
      requireNumeric();
      value = `${PLAIN[aggregation.aggregate]}IfOrNull(${field.sql}, ${condition})`;
      break;
    case AggregateFunction.UNIQ:
      value = `uniqIfOrNull(${field.sql}, ${condition})`;
      break;
    case AggregateFunction.ANY:
      requireNumeric();
      value = `anyIfOrNull(${field.sql}, ${condition})`;
      break;
    default:
      throw badRpcRequest(`Aggregation not specified for ${describeField(aggregation)}`);
  }
  return { value, sampleCount, extrapolation: { averageSampleRate, confidenceInterval, percentile: false } };
}

const PLAIN: Partial<Record<AggregateFunction, string>> = {
  [AggregateFunction.SUM]: "sum",
  [AggregateFunction.AVG]: "avg",
  [AggregateFunction.AVERAGE]: "avg",
  [AggregateFunction.MAX]: "max",
  [AggregateFunction.MIN]: "min",
};

function isExtrapolated(mode: ExtrapolationMode): boolean {
  return mode === ExtrapolationMode.SAMPLE_WEIGHTED || mode === ExtrapolationMode.CLIENT_ONLY || mode === ExtrapolationMode.SERVER_ONLY;
}

/** An item's weight: the inverse of the sampling rate the mode names. */
function samplingWeight(mode: ExtrapolationMode): string {
  if (mode === ExtrapolationMode.CLIENT_ONLY) return "(1 / client_sample_rate)";
  if (mode === ExtrapolationMode.SERVER_ONLY) return "(1 / server_sample_rate)";
  return "(1 / sampling_factor)";
}

/** The aggregated value: the key, or an arithmetic expression of keys (all of which must exist). */
function aggregateField(aggregation: AttributeConditionalAggregation): Field {
  if (aggregation.expression) return keyExpression(aggregation.expression, 0);
  if (!aggregation.key) throw badRpcRequest("an aggregation needs a key or an expression");
  const attribute = attributeSql(aggregation.key);
  return { sql: attribute.value, exists: attribute.exists, kind: attribute.kind };
}

const KEY_OPERATORS: Partial<Record<AttributeKeyExpression_Op, string>> = {
  [AttributeKeyExpression_Op.ADD]: "plus",
  [AttributeKeyExpression_Op.SUB]: "minus",
  [AttributeKeyExpression_Op.MULT]: "multiply",
  [AttributeKeyExpression_Op.DIV]: "divide",
};

function keyExpression(expression: AttributeKeyExpression, depth: number): Field {
  if (depth > 32) throw badRpcRequest("the aggregation's key expression nests deeper than 32 levels");
  const node = expression.expression;
  if (node.case === "key") {
    const attribute = attributeSql(node.value);
    return { sql: attribute.value, exists: attribute.exists, kind: attribute.kind };
  }
  if (node.case === "formula") {
    const operator = KEY_OPERATORS[node.value.op];
    if (!operator) throw badRpcRequest(`Unknown AttributeKeyExpression op: ${node.value.op}`);
    if (!node.value.left || !node.value.right) throw badRpcRequest("an AttributeKeyExpression formula needs a left and a right side");
    const left = keyExpression(node.value.left, depth + 1);
    const right = keyExpression(node.value.right, depth + 1);
    if (left.kind === "string" || right.kind === "string") throw badRpcRequest("an AttributeKeyExpression formula computes with numbers: a TYPE_STRING key cannot be part of it");
    const exists = [left.exists, right.exists].filter((c) => c !== "1").join(" AND ") || "1";
    return { sql: `${operator}(${left.sql}, ${right.sql})`, exists, kind: "double" };
  }
  throw badRpcRequest("AttributeKeyExpression must have key or formula set");
}

function describeField(aggregation: AttributeConditionalAggregation): string {
  return aggregation.key?.name ?? "an expression";
}
