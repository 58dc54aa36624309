// Wire compatibility of our sentry_protos.snuba.v1 copies with the real sentry-protos library.
//
// fixtures/time-series-vectors.json was produced by sentry-protos 0.62.3 (Python, protobuf 5.29):
// each vector holds the library's serialized bytes (base64) and its MessageToJson output with
// preserving_proto_field_name=True. We decode the bytes with our generated schemas, check the
// fields that matter, re-encode and compare bytes, and compare our JSON with the library's.
import { readFileSync } from "node:fs";

import {
  type DescMessage,
  type JsonValue,
  type Message,
  createRegistry,
  fromBinary,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
import { anyUnpack, StructSchema, timestampDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";

import { file_sentry_protos_snuba_v1_attribute_conditional_aggregation } from "../../gen/sentry_protos/snuba/v1/attribute_conditional_aggregation_pb.js";
import { file_sentry_protos_snuba_v1_downsampled_storage } from "../../gen/sentry_protos/snuba/v1/downsampled_storage_pb.js";
import {
  CreateSubscriptionRequestSchema,
  file_sentry_protos_snuba_v1_endpoint_create_subscription,
} from "../../gen/sentry_protos/snuba/v1/endpoint_create_subscription_pb.js";
import {
  Expression_BinaryFormula_Op,
  TimeSeriesRequestSchema,
  TimeSeriesResponseSchema,
  file_sentry_protos_snuba_v1_endpoint_time_series,
  type TimeSeriesRequest,
} from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { ErrorSchema, file_sentry_protos_snuba_v1_error } from "../../gen/sentry_protos/snuba/v1/error_pb.js";
import { file_sentry_protos_snuba_v1_formula } from "../../gen/sentry_protos/snuba/v1/formula_pb.js";
import {
  TraceItemType,
  file_sentry_protos_snuba_v1_request_common,
} from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import {
  AttributeKey_Type,
  ExtrapolationMode,
  Function,
  Reliability,
  file_sentry_protos_snuba_v1_trace_item_attribute,
} from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import {
  ComparisonFilter_Op,
  file_sentry_protos_snuba_v1_trace_item_filter,
} from "../../gen/sentry_protos/snuba/v1/trace_item_filter_pb.js";

interface Vector {
  name: string;
  message: string;
  base64: string;
  json: JsonValue;
}

const vectors = JSON.parse(
  readFileSync(new URL("./fixtures/time-series-vectors.json", import.meta.url), "utf8"),
) as Vector[];

const registry = createRegistry(
  file_sentry_protos_snuba_v1_attribute_conditional_aggregation,
  file_sentry_protos_snuba_v1_downsampled_storage,
  file_sentry_protos_snuba_v1_endpoint_create_subscription,
  file_sentry_protos_snuba_v1_endpoint_time_series,
  file_sentry_protos_snuba_v1_error,
  file_sentry_protos_snuba_v1_formula,
  file_sentry_protos_snuba_v1_request_common,
  file_sentry_protos_snuba_v1_trace_item_attribute,
  file_sentry_protos_snuba_v1_trace_item_filter,
  StructSchema,
);

function schemaOf(v: Vector): DescMessage {
  const schema = registry.getMessage(v.message);
  if (!schema) throw new Error(`no schema for ${v.message}`);
  return schema;
}

function bytesOf(v: Vector): Uint8Array {
  return new Uint8Array(Buffer.from(v.base64, "base64"));
}

function vector(name: string): Vector {
  const v = vectors.find((x) => x.name === name);
  if (!v) throw new Error(`no vector ${name}`);
  return v;
}

// Fields declared `float` (32-bit). Python prints the shortest decimal that round-trips as a float32
// (0.1), protobuf-es prints the widened double (0.10000000149011612): same value, different text.
const FLOAT32_FIELDS = new Set(["data", "avg_sampling_rate", "val_float"]);

// Deep JSON comparison; float32 fields compare as float32, everything else exactly.
function expectJsonEqual(ours: JsonValue, theirs: JsonValue, path = "$"): void {
  const key = path.slice(path.lastIndexOf(".") + 1);
  if (typeof ours === "number" && typeof theirs === "number" && FLOAT32_FIELDS.has(key)) {
    expect(Math.fround(ours), path).toBe(Math.fround(theirs));
    return;
  }
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    expect(ours.length, path).toBe(theirs.length);
    ours.forEach((o, i) => expectJsonEqual(o, theirs[i] as JsonValue, `${path}[${i}]`));
    return;
  }
  if (ours !== null && theirs !== null && typeof ours === "object" && typeof theirs === "object" &&
      !Array.isArray(ours) && !Array.isArray(theirs)) {
    expect(Object.keys(ours).sort(), path).toEqual(Object.keys(theirs).sort());
    for (const k of Object.keys(ours)) {
      expectJsonEqual(ours[k] as JsonValue, theirs[k] as JsonValue, `${path}.${k}`);
    }
    return;
  }
  expect(ours, path).toEqual(theirs);
}

describe("sentry_protos.snuba.v1 test vectors from sentry-protos 0.62.3", () => {
  it("has every expected vector", () => {
    expect(vectors.map((v) => v.name)).toEqual([
      "time-series-request-count",
      "time-series-request-formula",
      "create-subscription-request",
      "time-series-response",
      "time-series-request-literal",
      "error-with-struct-detail",
      "snuba-test-codecs-request",
    ]);
  });

  for (const v of vectors) {
    describe(v.name, () => {
      it("re-encodes to the same bytes", () => {
        const schema = schemaOf(v);
        const bytes = bytesOf(v);
        const msg = fromBinary(schema, bytes);
        // Both libraries write fields in field-number order, packed repeated scalars, and (for
        // the maps in these vectors) map entries in insertion order, so the bytes are identical.
        expect(Buffer.from(toBinary(schema, msg)).toString("base64")).toBe(v.base64);
      });

      it("has no unknown fields", () => {
        const msg = fromBinary(schemaOf(v), bytesOf(v));
        const unknown: string[] = [];
        const walk = (m: Message, path: string): void => {
          if (m.$unknown?.length) unknown.push(path);
          for (const [k, val] of Object.entries(m)) {
            const items: unknown[] = Array.isArray(val) ? val : [val];
            for (const item of items) {
              if (item !== null && typeof item === "object" && "$typeName" in item) {
                walk(item as Message, `${path}.${k}`);
              } else if (item !== null && typeof item === "object" && "value" in item && "case" in item) {
                const inner = (item as { value: unknown }).value;
                if (inner !== null && typeof inner === "object" && "$typeName" in inner) {
                  walk(inner as Message, `${path}.${k}`);
                }
              }
            }
          }
        };
        walk(msg, "$");
        expect(unknown).toEqual([]);
      });

      it("prints the same JSON as MessageToJson(preserving_proto_field_name=True)", () => {
        const schema = schemaOf(v);
        const msg = fromBinary(schema, bytesOf(v));
        const ours = toJson(schema, msg, { useProtoFieldName: true, registry });
        expectJsonEqual(ours, v.json);
      });
    });
  }

  it("(a) TimeSeriesRequest: meta, filter, conditional aggregation", () => {
    const req = fromBinary(TimeSeriesRequestSchema, bytesOf(vector("time-series-request-count")));
    checkCountRequest(req);
  });

  it("(b) TimeSeriesRequest: divide formula with default_value_double 0", () => {
    const req = fromBinary(TimeSeriesRequestSchema, bytesOf(vector("time-series-request-formula")));
    expect(req.granularitySecs).toBe(300n);
    expect(req.meta?.standardRetentionDays).toBe(90);
    expect(req.meta?.downsampledStorageConfig?.mode).toBe(3); // MODE_NORMAL
    expect(req.groupBy).toHaveLength(1);
    expect(req.groupBy[0]?.name).toBe("sentry.op");
    const [expr] = req.expressions;
    expect(expr?.label).toBe("failure_rate");
    if (expr?.expression.case !== "formula") throw new Error("expected a formula");
    const formula = expr.expression.value;
    expect(formula.op).toBe(Expression_BinaryFormula_Op.DIVIDE);
    // A oneof member set to 0 is still present on the wire (explicit presence).
    expect(formula.defaultValue).toEqual({ case: "defaultValueDouble", value: 0 });
    if (formula.left?.expression.case !== "conditionalAggregation") throw new Error("left");
    const left = formula.left.expression.value;
    expect(left.label).toBe("failures");
    expect(left.filter?.value.case).toBe("comparisonFilter");
    if (left.filter?.value.case === "comparisonFilter") {
      expect(left.filter.value.value.op).toBe(ComparisonFilter_Op.NOT_EQUALS);
      expect(left.filter.value.value.value?.value).toEqual({ case: "valStr", value: "ok" });
    }
    if (formula.right?.expression.case !== "conditionalAggregation") throw new Error("right");
    expect(formula.right.expression.value.label).toBe("total");
    expect(formula.right.expression.value.filter).toBeUndefined();
  });

  it("(c) CreateSubscriptionRequest wraps (a)", () => {
    const sub = fromBinary(CreateSubscriptionRequestSchema, bytesOf(vector("create-subscription-request")));
    expect(sub.timeWindowSecs).toBe(3600);
    expect(sub.resolutionSecs).toBe(60);
    if (!sub.timeSeriesRequest) throw new Error("no time_series_request");
    checkCountRequest(sub.timeSeriesRequest);
    // The embedded request is byte-for-byte vector (a).
    expect(Buffer.from(toBinary(TimeSeriesRequestSchema, sub.timeSeriesRequest)).toString("base64")).toBe(
      vector("time-series-request-count").base64,
    );
  });

  it("(d) TimeSeriesResponse: buckets, float32 data points, group-by map", () => {
    const res = fromBinary(TimeSeriesResponseSchema, bytesOf(vector("time-series-response")));
    expect(res.meta?.requestId).toBe("5f0c5d5e-3a5b-4c6d-9e8f-0a1b2c3d4e5f");
    expect(res.meta?.downsampledStorageMeta?.canGoToHigherAccuracyTier).toBe(true);
    expect(res.resultTimeseries).toHaveLength(1);
    const [series] = res.resultTimeseries;
    if (!series) throw new Error("no series");
    expect(series.label).toBe("p95");
    expect(series.groupByAttributes).toEqual({ "sentry.op": "http.client", environment: "production" });
    expect(series.buckets.map((b) => timestampDate(b).toISOString())).toEqual([
      "2025-03-04T10:00:00.000Z",
      "2025-03-04T10:01:00.000Z",
    ]);
    expect(series.numEvents).toBe(43n);
    const [p0, p1] = series.dataPoints;
    // DataPoint.data is a 32-bit float: the values carry float32 precision.
    expect(p0?.data).toBe(Math.fround(123.456));
    expect(p0?.dataPresent).toBe(true);
    expect(p0?.avgSamplingRate).toBe(0.25);
    expect(p0?.reliability).toBe(Reliability.HIGH);
    expect(p0?.sampleCount).toBe(40n);
    expect(p1?.data).toBe(Math.fround(0.1));
    expect(p1?.data).toBe(0.10000000149011612);
    expect(p1?.reliability).toBe(Reliability.LOW);
    expect(p1?.sampleCount).toBe(3n);
  });

  it("(e) literal operand and int64 default", () => {
    const req = fromBinary(TimeSeriesRequestSchema, bytesOf(vector("time-series-request-literal")));
    const [expr] = req.expressions;
    if (expr?.expression.case !== "formula") throw new Error("expected a formula");
    const formula = expr.expression.value;
    expect(formula.op).toBe(Expression_BinaryFormula_Op.MULTIPLY);
    expect(formula.defaultValue).toEqual({ case: "defaultValueInt64", value: -1n });
    expect(formula.right?.expression.case).toBe("literal");
    if (formula.right?.expression.case === "literal") {
      expect(formula.right.expression.value.value).toEqual({ case: "valDouble", value: 100 });
    }
    if (formula.left?.expression.case !== "conditionalAggregation") throw new Error("left");
    expect(formula.left.expression.value.extrapolationMode).toBe(ExtrapolationMode.NONE);
  });

  it("(f) Error with a packed Struct in details", () => {
    const err = fromBinary(ErrorSchema, bytesOf(vector("error-with-struct-detail")));
    expect(err.code).toBe(400);
    expect(err.message).toBe("invalid granularity");
    expect(err.details).toHaveLength(1);
    expect(err.details[0]?.typeUrl).toBe("type.googleapis.com/google.protobuf.Struct");
    const detail = err.details[0] && anyUnpack(err.details[0], StructSchema);
    expect(detail?.fields.reason?.kind).toEqual({
      case: "stringValue",
      value: "granularity_secs must be a multiple of 60",
    });
  });

  it("(g) Snuba's tests/subscriptions/test_codecs.py vector (deprecated aggregation member)", () => {
    const v = vector("snuba-test-codecs-request");
    // The library re-serialized Snuba's constant to the same bytes.
    expect(v.base64).toBe(
      "Ch0IARIJc29tZXRoaW5nGglzb21ldGhpbmciAwECAxIUIhIKBwgBEgNmb28QBhoFEgNiYXIyIQoaCAESDwgDEgt0ZXN0X21ldHJpYxoDc3VtIAEaA3N1bQ==",
    );
    const req = fromBinary(TimeSeriesRequestSchema, bytesOf(v));
    expect(req.meta?.organizationId).toBe(1n);
    expect(req.meta?.referrer).toBe("something");
    expect(req.meta?.cogsCategory).toBe("something");
    expect(req.meta?.projectIds).toEqual([1n, 2n, 3n]);
    if (req.filter?.value.case !== "comparisonFilter") throw new Error("expected a comparison");
    expect(req.filter.value.value.key).toMatchObject({ type: AttributeKey_Type.STRING, name: "foo" });
    expect(req.filter.value.value.op).toBe(ComparisonFilter_Op.NOT_EQUALS);
    const [expr] = req.expressions;
    expect(expr?.label).toBe("sum");
    if (expr?.expression.case !== "aggregation") throw new Error("expected an aggregation");
    expect(expr.expression.value.aggregate).toBe(Function.SUM);
    expect(expr.expression.value.key).toMatchObject({ type: AttributeKey_Type.FLOAT, name: "test_metric" });
    expect(expr.expression.value.extrapolationMode).toBe(ExtrapolationMode.NONE);
  });
});

function checkCountRequest(req: TimeSeriesRequest): void {
  const meta = req.meta;
  if (!meta) throw new Error("no meta");
  expect(meta.organizationId).toBe(1n);
  expect(meta.projectIds).toEqual([1n]);
  expect(meta.referrer).toBe("api.alerts.alert-rule-subscription");
  expect(meta.cogsCategory).toBe("subscriptions");
  expect(meta.traceItemType).toBe(TraceItemType.SPAN);
  expect(meta.requestId).toBe("5f0c5d5e-3a5b-4c6d-9e8f-0a1b2c3d4e5f");
  expect(meta.startTimestamp && timestampDate(meta.startTimestamp).toISOString()).toBe("2025-03-04T10:00:00.000Z");
  expect(meta.endTimestamp && timestampDate(meta.endTimestamp).toISOString()).toBe("2025-03-04T11:00:00.000Z");
  expect(meta.standardRetentionDays).toBeUndefined();
  expect(req.granularitySecs).toBe(60n);

  if (req.filter?.value.case !== "andFilter") throw new Error("expected an and_filter");
  const [cmp, exists] = req.filter.value.value.filters;
  if (cmp?.value.case !== "comparisonFilter") throw new Error("expected a comparison");
  expect(cmp.value.value.key).toMatchObject({ type: AttributeKey_Type.STRING, name: "sentry.op" });
  expect(cmp.value.value.op).toBe(ComparisonFilter_Op.EQUALS);
  expect(cmp.value.value.value?.value).toEqual({ case: "valStr", value: "http.client" });
  if (exists?.value.case !== "existsFilter") throw new Error("expected an exists_filter");
  expect(exists.value.value.key).toMatchObject({ type: AttributeKey_Type.STRING, name: "sentry.status" });

  expect(req.expressions).toHaveLength(1);
  const [expr] = req.expressions;
  expect(expr?.label).toBe("count");
  if (expr?.expression.case !== "conditionalAggregation") throw new Error("expected a conditional aggregation");
  const agg = expr.expression.value;
  expect(agg.aggregate).toBe(Function.COUNT);
  expect(agg.key).toMatchObject({ type: AttributeKey_Type.DOUBLE, name: "sentry.duration" });
  expect(agg.extrapolationMode).toBe(ExtrapolationMode.SAMPLE_WEIGHTED);
  expect(agg.label).toBe("count");
}
