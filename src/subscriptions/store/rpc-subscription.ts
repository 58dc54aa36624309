/**
 * RPC subscriptions (facts B7): a base64, protobuf-serialised TimeSeriesRequest run every
 * `resolution` seconds over [T − time_window, T) with exactly one bucket. What is stored is
 * Snuba's (the request with `aggregations` converted to `expressions`); each window decodes it,
 * sets the window, the referrer and granularity = time_window, and runs it through the
 * TimeSeries pipeline. The result is one row `{<label>: value}` (null when no data point has
 * data), and the result message's `request` is the executed request, base64, with its name and
 * version.
 */
import { clone, create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { ExpressionSchema, type Expression, type TimeSeriesRequest, type TimeSeriesResponse, TimeSeriesRequestSchema } from "../../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { RequestMetaSchema } from "../../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { ExtrapolationMode } from "../../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { subscriptionError } from "../../errors/query-service-error.js";
import type { ResultRow } from "../../query/query-result.js";

/** Request kinds an RPC subscription may carry: Snuba's allow-list. */
const RPC_REQUEST_ALLOWLIST: readonly (readonly [string, string])[] = [["TimeSeriesRequest", "v1"]];
/** The one entity RPC subscriptions run on. */
export const RPC_SUBSCRIPTION_ENTITY = "eap_items";

export interface RpcSubscriptionRequest {
  readonly requestName: string;
  readonly requestVersion: string;
  /** The stored TimeSeriesRequest, base64 of its protobuf bytes. */
  readonly timeSeriesRequest: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes a base64 TimeSeriesRequest; a `subscription` error names what is wrong with it. */
export function decodeTimeSeriesRequest(text: string): TimeSeriesRequest {
  const compact = text.replace(/\s+/g, "");
  if (compact === "") throw subscriptionError("'time_series_request' is empty: send the base64 of a serialised TimeSeriesRequest", "time_series_request");
  if (!BASE64.test(compact) || compact.length % 4 !== 0) {
    throw subscriptionError("'time_series_request' is not valid base64 (standard alphabet, padded to a multiple of 4 characters)", "time_series_request");
  }
  try {
    return fromBinary(TimeSeriesRequestSchema, Buffer.from(compact, "base64"));
  } catch (reason) {
    throw subscriptionError(`'time_series_request' is base64 but not a serialised TimeSeriesRequest: protobuf gave a decode error ${(reason as Error).message}`, "time_series_request");
  }
}

export function encodeTimeSeriesRequest(request: TimeSeriesRequest): string {
  return Buffer.from(toBinary(TimeSeriesRequestSchema, request)).toString("base64");
}

/** Snuba's rules for the request of an RPC subscription (spec §4.4 rule 5), with its messages. */
export function checkRpcSubscription(name: string, version: string, request: TimeSeriesRequest): void {
  if (!RPC_REQUEST_ALLOWLIST.some(([n, v]) => n === name && v === version)) {
    throw subscriptionError(`${name} ${version} not supported. Supported: ${RPC_REQUEST_ALLOWLIST.map(([n, v]) => `${n} ${v}`).join(", ")}`, "request_name");
  }
  const projects = request.meta?.projectIds ?? [];
  if (projects.length === 0) throw subscriptionError("Project ID is required.", "time_series_request");
  if (projects.length !== 1) throw subscriptionError("Multiple project IDs not supported.", "time_series_request");
  const expressions = storedExpressions(request);
  if (expressions.length !== 1) throw subscriptionError("Exactly one expression required.", "time_series_request");
  if (request.groupBy.length > 0) throw subscriptionError("Group bys not supported.", "time_series_request");
  if (aggregationModes(expressions[0]!, 0).some((mode) => mode === ExtrapolationMode.UNSPECIFIED)) {
    throw subscriptionError("Extrapolation mode must be specified.", "time_series_request");
  }
}

/** What Snuba stores: `aggregations` converted to `expressions`. */
export function storableRequest(request: TimeSeriesRequest): TimeSeriesRequest {
  if (request.aggregations.length === 0) return request;
  return create(TimeSeriesRequestSchema, {
    ...request,
    aggregations: [],
    expressions: [...request.expressions, ...request.aggregations.map((a) => create(ExpressionSchema, { expression: { case: "aggregation", value: a }, label: a.label }))],
  });
}

function storedExpressions(request: TimeSeriesRequest): readonly Expression[] {
  return request.aggregations.length > 0 ? storableRequest(request).expressions : request.expressions;
}

function aggregationModes(expression: Expression, depth: number): ExtrapolationMode[] {
  if (depth > 32) throw subscriptionError("the expression's formulas nest deeper than 32 levels", "time_series_request");
  const node = expression.expression;
  switch (node.case) {
    case "aggregation":
    case "conditionalAggregation":
      return [node.value.extrapolationMode];
    case "formula":
      return [...(node.value.left ? aggregationModes(node.value.left, depth + 1) : []), ...(node.value.right ? aggregationModes(node.value.right, depth + 1) : [])];
    default:
      return [];
  }
}

/** The stored request with one window set: [T − time_window, T), the referrer, one bucket. */
export function windowTimeSeriesRequest(stored: TimeSeriesRequest, timeWindow: number, windowEnd: number, referrer: string): TimeSeriesRequest {
  const request = clone(TimeSeriesRequestSchema, stored);
  request.meta ??= create(RequestMetaSchema);
  request.meta.startTimestamp = create(TimestampSchema, { seconds: BigInt(windowEnd - timeWindow) });
  request.meta.endTimestamp = create(TimestampSchema, { seconds: BigInt(windowEnd) });
  request.meta.referrer = referrer;
  request.granularitySecs = BigInt(timeWindow);
  return request;
}

/** The window's one row: the first series' first data point, or null when nothing had data. */
export function rpcWindowRow(response: TimeSeriesResponse, executed: TimeSeriesRequest): ResultRow {
  const series = response.resultTimeseries[0];
  if (!series || !series.dataPoints.some((p) => p.dataPresent)) return { [executed.expressions[0]?.label ?? "value"]: null };
  // DataPoint.data is a 32-bit float on the wire (facts B7): the value carries float32 precision.
  return { [series.label]: Math.fround(series.dataPoints[0]!.data) };
}

/** The result message's `request` for an RPC window (Snuba's SubscriptionTaskResultEncoder). */
export function rpcResultRequest(executed: TimeSeriesRequest, name: string, version: string): Record<string, unknown> {
  return { request: encodeTimeSeriesRequest(executed), request_name: name, request_version: version };
}
