/**
 * What EndpointTimeSeries checks and rewrites before it plans a query (facts B7, Snuba's
 * endpoint_time_series.py), in Snuba's order:
 *   1. labels of the deprecated `aggregations` are unique;
 *   2. the time range: start not after end, a granularity from the allowed list, between 1 and
 *      10,100 buckets; an end that does not fall on a bucket boundary is moved up to the next one;
 *   3. `meta.trace_item_type` is set;
 *   4. `aggregations` become `expressions`, and every `aggregation` a `conditional_aggregation`;
 *   5. expression labels are unique; an expression without one gets `expr_<n>`.
 * The caller's message is not modified: the rules work on a copy, which is what runs (and what an
 * RPC subscription publishes as its `request`).
 */
import { clone, create } from "@bufbuild/protobuf";
import { randomUUID } from "node:crypto";
import { AttributeConditionalAggregationSchema } from "../../gen/sentry_protos/snuba/v1/attribute_conditional_aggregation_pb.js";
import { type Expression, ExpressionSchema, type TimeSeriesRequest, TimeSeriesRequestSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { RequestMetaSchema, TraceItemType } from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import type { AttributeAggregation } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { badRpcRequest } from "./rpc-request-error.js";

const VALID_GRANULARITY_SECS: readonly number[] = [15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 14400, 21600, 43200, 86400];
/** A week at one-minute granularity, and some room for partial buckets (Snuba's bound). */
const MAX_BUCKETS = 10_100;

const UUID = /^(\{)?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}(\})?$/i;

/** The request as it runs: validated, on a copy, with Snuba's rewrites applied. */
/** The range of a google.protobuf.Timestamp: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z. */
const MIN_TIMESTAMP_SECONDS = -62_135_596_800n;
const MAX_TIMESTAMP_SECONDS = 253_402_300_799n;

export function normalizeTimeSeriesRequest(original: TimeSeriesRequest): TimeSeriesRequest {
  const request = clone(TimeSeriesRequestSchema, original);
  request.meta ??= create(RequestMetaSchema);
  const meta = request.meta;

  const aggregationLabels = new Set<string>();
  for (const aggregation of request.aggregations) {
    if (aggregationLabels.has(aggregation.label)) throw badRpcRequest(`duplicate label ${aggregation.label} in request`);
    aggregationLabels.add(aggregation.label);
  }

  for (const [name, timestamp] of [["start_timestamp", meta.startTimestamp], ["end_timestamp", meta.endTimestamp]] as const) {
    if (!timestamp) continue;
    // google.protobuf.Timestamp's own range: 0001-01-01 to 9999-12-31, nanos within a second.
    if (timestamp.nanos < 0 || timestamp.nanos > 999_999_999) throw badRpcRequest(`meta.${name}.nanos must be between 0 and 999999999, got ${timestamp.nanos}`);
    if (timestamp.seconds < MIN_TIMESTAMP_SECONDS || timestamp.seconds > MAX_TIMESTAMP_SECONDS) {
      throw badRpcRequest(`meta.${name}.seconds ${timestamp.seconds} is outside 0001-01-01 to 9999-12-31`);
    }
  }
  const start = Number(meta.startTimestamp?.seconds ?? 0n);
  const end = Number(meta.endTimestamp?.seconds ?? 0n);
  const granularity = Number(request.granularitySecs);
  if (start > end) throw badRpcRequest("start timestamp is after end timestamp");
  if (granularity === 0) throw badRpcRequest("granularity of 0 is invalid");
  if (!VALID_GRANULARITY_SECS.includes(granularity)) {
    throw badRpcRequest(`Granularity of ${request.granularitySecs} is not valid, valid granularity_secs: [${VALID_GRANULARITY_SECS.join(", ")}]`);
  }
  const buckets = (end - start) / granularity;
  if (buckets > MAX_BUCKETS) {
    throw badRpcRequest(`This request is asking for too many datapoints (${buckets}, please raise your granularity_secs or shorten your time window`);
  }
  if (buckets < 1) throw badRpcRequest("This request will return no datapoints lower your granularity or lengthen your time window");
  if (!Number.isInteger(buckets)) meta.endTimestamp = { ...meta.endTimestamp!, seconds: BigInt(start + Math.ceil(buckets) * granularity), nanos: meta.endTimestamp?.nanos ?? 0 };

  if (meta.traceItemType === TraceItemType.UNSPECIFIED) {
    throw badRpcRequest("This endpoint requires meta.trace_item_type to be set (are you requesting spans? logs?)");
  }
  if (request.traceFilters.length > 0) throw badRpcRequest("trace_filters (cross-item queries) are not supported by Quarry's time-series endpoint");

  if (request.aggregations.length > 0) {
    for (const aggregation of request.aggregations) {
      request.expressions.push(create(ExpressionSchema, { expression: { case: "aggregation", value: aggregation }, label: aggregation.label }));
    }
    request.aggregations = [];
  }
  for (const expression of request.expressions) toConditionalAggregations(expression, 0);

  const labels = new Set<string>();
  for (const expression of request.expressions) {
    if (expression.label === "") continue;
    if (labels.has(expression.label)) throw badRpcRequest(`Duplicate expression label: ${expression.label}`);
    labels.add(expression.label);
  }
  request.expressions.forEach((expression, index) => {
    if (expression.label !== "") return;
    let label = `expr_${index}`;
    while (labels.has(label)) label = `${label}_`;
    expression.label = label;
    labels.add(label);
  });

  if (meta.requestId === "") meta.requestId = randomUUID().replace(/-/g, "");
  else if (!UUID.test(meta.requestId)) throw badRpcRequest(`meta.request_id must be a UUID, got '${meta.requestId.slice(0, 100)}'`);
  return request;
}

/** The deprecated `aggregation` is a `conditional_aggregation` without a filter. */
function toConditionalAggregations(expression: Expression, depth: number): void {
  if (depth > 32) throw badRpcRequest("the expression's formulas nest deeper than 32 levels");
  const node = expression.expression;
  if (node.case === "aggregation") {
    expression.expression = { case: "conditionalAggregation", value: conditional(node.value) };
  } else if (node.case === "formula") {
    if (node.value.left) toConditionalAggregations(node.value.left, depth + 1);
    if (node.value.right) toConditionalAggregations(node.value.right, depth + 1);
  }
}

function conditional(aggregation: AttributeAggregation) {
  return create(AttributeConditionalAggregationSchema, {
    aggregate: aggregation.aggregate,
    ...(aggregation.key ? { key: aggregation.key } : {}),
    label: aggregation.label,
    extrapolationMode: aggregation.extrapolationMode,
    defaultValue: aggregation.defaultValue,
    ...(aggregation.rankedBy ? { rankedBy: aggregation.rankedBy } : {}),
  });
}
