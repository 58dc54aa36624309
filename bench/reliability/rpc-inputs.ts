/**
 * Fuzz inputs for Snuba's RPC transport (`POST /rpc/<Endpoint>/<version>`): TimeSeriesRequests
 * built around the demo data (real attributes, a window the data covers), then changed where
 * callers go wrong — odd granularities and windows, duplicate or empty labels, attribute names
 * and types that do not exist, deep or empty filter trees, extreme values — and bytes that are
 * truncated, flipped or random, and endpoint names and versions that do not exist.
 */
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { TimeSeriesRequestSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import type { TraceItemType } from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import type { FuzzRequest } from "./fuzz-inputs.js";
import type { Prng } from "./prng.js";

type Init = MessageInitShape<typeof TimeSeriesRequestSchema>;
type Filter = NonNullable<Init["filter"]>;

const HOUR = 3600;
const NAMES = ["sentry.duration_ms", "sentry.op", "sentry.status", "http.response.status_code", "sentry.is_segment", "user.id", "sentry.severity_number", "sentry.project_id", "sentry.timestamp", "nope", "", "x".repeat(300), "a'b\\c", "\u0000"];
/** AttributeKey.Type values, including the deprecated and array ones and one that does not exist. */
const TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 99];
const FUNCTIONS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 77];
const GRANULARITIES = [0n, 1n, 7n, 15n, 60n, 300n, 3600n, 86400n, 2n ** 63n];

function key(prng: Prng) {
  return { type: prng.pick(TYPES), name: prng.pick(NAMES) };
}

function value(prng: Prng): unknown {
  switch (prng.int(0, 8)) {
    case 0:
      return { value: { case: "valStr", value: prng.pick(["db", "ok", "", "%", "CACHE%", "\u0000", "x".repeat(5000)]) } };
    case 1:
      return { value: { case: "valInt", value: prng.pick([0n, 200n, 500n, -(2n ** 63n), 2n ** 63n - 1n]) } };
    case 2:
      return { value: { case: "valDouble", value: prng.pick([0, 10.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e308]) } };
    case 3:
      return { value: { case: "valBool", value: prng.chance(0.5) } };
    case 4:
      return { value: { case: "valStrArray", value: { values: prng.pick([[], ["db", "http.client"], Array.from({ length: 2000 }, (_, i) => `v${i}`)]) } } };
    case 5:
      return { value: { case: "valIntArray", value: { values: [1n, 200n] } } };
    case 6:
      return { value: { case: "valArray", value: { values: [{ value: { case: "valStr", value: "db" } }, { value: { case: "valInt", value: 3n } }] } } };
    case 7:
      return { isNull: true, value: { case: undefined } };
    default:
      return { value: { case: undefined } };
  }
}

function filter(prng: Prng, depth: number): Filter {
  const roll = depth > 3 ? prng.int(3, 4) : prng.int(0, 5);
  switch (roll) {
    case 0:
      return { value: { case: "andFilter", value: { filters: Array.from({ length: prng.int(0, 3) }, () => filter(prng, depth + 1)) } } };
    case 1:
      return { value: { case: "orFilter", value: { filters: Array.from({ length: prng.int(0, 3) }, () => filter(prng, depth + 1)) } } };
    case 2:
      return { value: { case: "notFilter", value: { filters: Array.from({ length: prng.int(0, 2) }, () => filter(prng, depth + 1)) } } };
    case 3:
      return { value: { case: "comparisonFilter", value: { key: key(prng), op: prng.int(0, 14), value: value(prng) as never, ignoreCase: prng.chance(0.2) } } };
    case 4:
      return { value: { case: "existsFilter", value: { key: key(prng) } } };
    default:
      return { value: { case: "anyAttributeFilter", value: { op: 1, value: { value: { case: "valStr", value: "x" } } } } };
  }
}

/** A filter nested `depth` levels: the depth bound, just under and over it. */
function deepFilter(depth: number): Filter {
  let current: Filter = { value: { case: "existsFilter", value: { key: { type: 1, name: "sentry.op" } } } };
  for (let i = 0; i < depth; i++) current = { value: { case: "notFilter", value: { filters: [current] } } };
  return current;
}

function expression(prng: Prng, depth = 0): NonNullable<Init["expressions"]>[number] {
  const label = prng.pick(["count", "p95", "", "x", "dup", "a b"]);
  if (depth < 3 && prng.chance(0.15)) {
    return { label, expression: { case: "formula", value: { op: prng.int(0, 5), left: expression(prng, depth + 1), right: expression(prng, depth + 1) } } };
  }
  if (prng.chance(0.05)) return { label, expression: { case: "literal", value: { value: { case: "valDouble", value: prng.pick([1, 0, Number.NaN]) } } } };
  const aggregation = { aggregate: prng.pick(FUNCTIONS), key: key(prng), label, extrapolationMode: prng.int(0, 5), ...(prng.chance(0.3) ? { filter: filter(prng, 1) } : {}) };
  return { label, expression: prng.chance(0.15) ? { case: "aggregation", value: aggregation } : { case: "conditionalAggregation", value: aggregation } };
}

function timeSeriesRequest(prng: Prng, now: number): Init {
  const end = Math.floor(now / 1000 / HOUR) * HOUR - prng.int(0, 48) * HOUR;
  const span = prng.pick([HOUR, 6 * HOUR, 24 * HOUR, 7 * 24 * HOUR, 90 * 24 * HOUR, -HOUR]);
  return {
    meta: {
      organizationId: prng.chance(0.2) ? 1n : BigInt(prng.int(2, 5000)),
      projectIds: prng.pick([[1n], [1n, 2n, 3n], [], [2n ** 63n]]),
      referrer: prng.pick(["reliability.rpc", "", "api.explore.timeseries"]),
      startTimestamp: { seconds: BigInt(end - span) },
      endTimestamp: { seconds: BigInt(end) },
      traceItemType: prng.pick([1, 1, 1, 3, 0, 42]) as TraceItemType,
      requestId: prng.pick(["", "", "not-a-uuid", "0123456789abcdef0123456789abcdef"]),
      debug: prng.chance(0.1),
    },
    granularitySecs: prng.chance(0.7) ? prng.pick([300n, 3600n, 1800n]) : prng.pick(GRANULARITIES),
    expressions: Array.from({ length: prng.pick([1, 1, 2, 0, 5]) }, () => expression(prng)),
    groupBy: prng.chance(0.3) ? [key(prng)] : [],
    ...(prng.chance(0.6) ? { filter: prng.chance(0.03) ? deepFilter(prng.pick([60, 64, 70, 5000])) : filter(prng, 0) } : {}),
  };
}

/** Bytes a broken client or a network could deliver. */
function mangle(prng: Prng, bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  switch (prng.int(0, 3)) {
    case 0:
      return out.slice(0, prng.int(0, out.length));
    case 1:
      for (let i = prng.int(1, 8); i > 0 && out.length > 0; i--) out[prng.int(0, out.length - 1)] = prng.int(0, 255);
      return out;
    case 2:
      return Uint8Array.from({ length: prng.int(0, 200) }, () => prng.int(0, 255));
    default:
      return new Uint8Array([...out, ...Uint8Array.from({ length: prng.int(1, 20) }, () => prng.int(0, 255))]);
  }
}

export function rpcRequest(prng: Prng, now: number): FuzzRequest {
  let bytes: Uint8Array;
  try {
    bytes = toBinary(TimeSeriesRequestSchema, create(TimeSeriesRequestSchema, timeSeriesRequest(prng, now)));
  } catch {
    // A value the encoder itself refuses (e.g. an int64 out of range): send random bytes instead.
    bytes = Uint8Array.from({ length: 32 }, () => prng.int(0, 255));
  }
  const roll = prng.next();
  if (roll < 0.7) return { kind: "rpc-request", method: "POST", path: "/rpc/EndpointTimeSeries/v1", contentType: "application/x-protobuf", body: bytes, expect: "json" };
  if (roll < 0.9) return { kind: "rpc-bytes", method: "POST", path: "/rpc/EndpointTimeSeries/v1", contentType: "application/x-protobuf", body: mangle(prng, bytes), expect: "json" };
  const path = prng.pick(["/rpc/EndpointTimeseries/v1", "/rpc/EndpointTimeSeries/v2", "/rpc/EndpointTraceItemTable/v1", "/rpc/CreateSubscriptionRequest/v1", "/rpc", "/rpc/EndpointTimeSeries", "/rpc/a/b/c"]);
  const method = prng.pick(["POST", "POST", "GET"]);
  return { kind: "rpc-endpoint", method, path, contentType: "application/x-protobuf", ...(method === "GET" ? {} : { body: prng.chance(0.5) ? bytes : mangle(prng, bytes) }), expect: "json" };
}
