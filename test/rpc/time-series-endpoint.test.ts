/**
 * POST /rpc/EndpointTimeSeries/v1 against the demo data's spans and logs (embedded chDB): each
 * request's figures are checked against SQL written by hand on eap_items_1_local. The hand SQL
 * finds an attribute by searching all 40 maps of its type, so it does not share the bucket rule
 * with the code under test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TimeSeriesService } from "../../gen/quarry/rpc/v1/time_series_pb.js";
import { TimeSeriesRequestSchema, TimeSeriesResponseSchema, type TimeSeriesResponse } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { ErrorSchema } from "../../gen/sentry_protos/snuba/v1/error_pb.js";
import { TraceItemType } from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { AttributeKey_Type, ExtrapolationMode, Function as Fn, Reliability } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { ComparisonFilter_Op } from "../../gen/sentry_protos/snuba/v1/trace_item_filter_pb.js";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { loadDemoData } from "../../src/demo-data/load-demo-data.js";
import { startServer, type QuarryServer } from "../../src/server/start-server.js";
import { GENEROUS_POLICY_LIMITS } from "../server/fixture-server.js";
import { MAX_DATA_POINTS } from "../../src/rpc/time-series-response.js";
import { anyMap } from "./hand-sql.js";

const NOW = new Date("2026-11-22T10:37:12Z");
const START = Date.parse("2026-11-20T00:00:00Z") / 1000;
const END = START + 86_400;

let store: ColumnstoreClient;
let server: QuarryServer;
let dataDir: string;
let baseUrl: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "quarry-rpc-"));
  store = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const registry = defaultRegistry();
  await runMigrations(store.client, registry);
  await loadDemoData(store.client, { rows: 40_000, log: () => {}, progress: false, now: NOW });
  server = await startServer({ host: "127.0.0.1", port: 0, definitions: registry, columnstore: store, backend: { policyOverrides: GENEROUS_POLICY_LIMITS } });
  baseUrl = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server?.close();
  await store?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type RequestInit = MessageInitShape<typeof TimeSeriesRequestSchema>;

const key = (type: AttributeKey_Type, name: string) => ({ type, name });
const DURATION = key(AttributeKey_Type.DOUBLE, "sentry.duration_ms");
const OP = key(AttributeKey_Type.STRING, "sentry.op");

const META = {
  organizationId: 1n,
  projectIds: [1n, 2n, 3n],
  referrer: "test.rpc",
  startTimestamp: { seconds: BigInt(START) },
  endTimestamp: { seconds: BigInt(END) },
  traceItemType: TraceItemType.SPAN,
};

function spans(overrides: Partial<RequestInit> = {}): RequestInit {
  return {
    meta: META,
    granularitySecs: 3600n,
    ...overrides,
  } as RequestInit;
}

function aggregate(fn: Fn, attribute: { type: AttributeKey_Type; name: string }, label: string, extrapolationMode = ExtrapolationMode.NONE, filter?: RequestInit["filter"]) {
  return { label, expression: { case: "conditionalAggregation" as const, value: { aggregate: fn, key: attribute, label, extrapolationMode, ...(filter ? { filter } : {}) } } };
}

async function rpc(body: Uint8Array, path = "/rpc/EndpointTimeSeries/v1"): Promise<{ status: number; bytes: Uint8Array; type: string | null }> {
  const response = await fetch(`${baseUrl}${path}`, { method: "POST", body: Buffer.from(body) });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()), type: response.headers.get("content-type") };
}

async function timeSeries(init: RequestInit): Promise<TimeSeriesResponse> {
  const answer = await rpc(toBinary(TimeSeriesRequestSchema, create(TimeSeriesRequestSchema, init)));
  if (answer.status !== 200) throw new Error(`${answer.status}: ${fromBinary(ErrorSchema, answer.bytes).message}`);
  return fromBinary(TimeSeriesResponseSchema, answer.bytes);
}

async function rpcError(init: RequestInit): Promise<{ code: number; message: string; status: number }> {
  const answer = await rpc(toBinary(TimeSeriesRequestSchema, create(TimeSeriesRequestSchema, init)));
  const error = fromBinary(ErrorSchema, answer.bytes);
  return { code: error.code, message: error.message, status: answer.status };
}

async function handSql(sql: string): Promise<Record<string, number | string>[]> {
  return (await store.client.query({ query: sql, format: "JSONEachRow", clickhouse_settings: { output_format_json_quote_64bit_integers: 0 } })).json();
}

const BASE = `organization_id = 1 AND project_id IN (1, 2, 3) AND timestamp >= toDateTime(${START}) AND timestamp < toDateTime(${END}) AND item_type = 1`;
const BUCKET = `toUInt32(${START} + intDiv(toInt64(toUnixTimestamp(timestamp)) - ${START}, 3600) * 3600)`;

/** Data points of one series as {bucket seconds: value}, present ones only. */
function points(response: TimeSeriesResponse, label: string, group: Record<string, string> = {}): Map<number, number> {
  const series = response.resultTimeseries.find((s) => s.label === label && JSON.stringify(s.groupByAttributes) === JSON.stringify(group));
  if (!series) throw new Error(`no series ${label} ${JSON.stringify(group)}`);
  const out = new Map<number, number>();
  series.dataPoints.forEach((p, i) => {
    if (p.dataPresent) out.set(Number(series.buckets[i]!.seconds), p.data);
  });
  return out;
}

const float32 = (x: number) => Math.fround(x);

describe("EndpointTimeSeries v1", () => {
  it("counts spans and sums their duration per hour, zero-filled over [start, end)", async () => {
    const response = await timeSeries(spans({ expressions: [aggregate(Fn.COUNT, DURATION, "count"), aggregate(Fn.SUM, DURATION, "sum")] }));
    const duration = anyMap("float", "sentry.duration_ms");
    const expected = await handSql(`SELECT ${BUCKET} AS t, countIf(${duration.exists}) AS c, sumIf(${duration.value}, ${duration.exists}) AS s FROM eap_items_1_local WHERE ${BASE} GROUP BY t ORDER BY t`);
    expect(expected.length).toBeGreaterThan(0);
    const count = response.resultTimeseries.find((s) => s.label === "count")!;
    expect(count.buckets.map((b) => Number(b.seconds))).toEqual(Array.from({ length: 24 }, (_, i) => START + i * 3600));
    expect(count.dataPoints).toHaveLength(24);
    expect(Object.fromEntries(points(response, "count"))).toEqual(Object.fromEntries(expected.map((r) => [r.t, float32(Number(r.c))])));
    const sums = points(response, "sum");
    for (const row of expected) expect(sums.get(Number(row.t))).toBeCloseTo(float32(Number(row.s)), 0);
    // Buckets without rows are present as data_present false, data 0.
    const empty = count.dataPoints.filter((p) => !p.dataPresent);
    expect(empty.length).toBe(24 - expected.length);
    expect(empty.every((p) => p.data === 0)).toBe(true);
  });

  it("groups by a string attribute: one series per value, attributes as text", async () => {
    const response = await timeSeries(spans({ expressions: [aggregate(Fn.P95, DURATION, "p95")], groupBy: [OP] }));
    const op = anyMap("string", "sentry.op");
    const duration = anyMap("float", "sentry.duration_ms");
    const expected = await handSql(
      `SELECT ${op.value} AS op, ${BUCKET} AS t, round(quantileIf(0.95)(${duration.value}, ${duration.exists}), 9) AS p FROM eap_items_1_local WHERE ${BASE} AND ${op.exists} GROUP BY op, t`,
    );
    const ops = [...new Set(expected.map((r) => String(r.op)))].sort();
    expect(ops.length).toBeGreaterThan(2);
    expect(response.resultTimeseries.map((s) => s.groupByAttributes["sentry.op"]).sort()).toEqual(ops);
    for (const row of expected) expect(points(response, "p95", { "sentry.op": String(row.op) }).get(Number(row.t))).toBeCloseTo(float32(Number(row.p)), 1);
  });

  it("filters: AND of a string equality and a numeric range, NOT, IN and LIKE", async () => {
    const op = anyMap("string", "sentry.op");
    const duration = anyMap("float", "sentry.duration_ms");
    const cases: [RequestInit["filter"], string][] = [
      [
        {
          value: {
            case: "andFilter",
            value: {
              filters: [
                { value: { case: "comparisonFilter", value: { key: OP, op: ComparisonFilter_Op.EQUALS, value: { value: { case: "valStr", value: "db" } } } } },
                { value: { case: "comparisonFilter", value: { key: DURATION, op: ComparisonFilter_Op.GREATER_THAN, value: { value: { case: "valDouble", value: 10 } } } } },
              ],
            },
          },
        },
        `${op.exists} AND ${op.value} = 'db' AND ${duration.exists} AND ${duration.value} > 10`,
      ],
      [
        { value: { case: "notFilter", value: { filters: [{ value: { case: "comparisonFilter", value: { key: OP, op: ComparisonFilter_Op.IN, value: { value: { case: "valStrArray", value: { values: ["db", "http.client"] } } } } } }] } } },
        `NOT (${op.exists} AND ${op.value} IN ('db', 'http.client'))`,
      ],
      [
        { value: { case: "comparisonFilter", value: { key: OP, op: ComparisonFilter_Op.LIKE, value: { value: { case: "valStr", value: "CACHE%" } }, ignoreCase: true } } },
        `${op.exists} AND ${op.value} ILIKE 'cache%'`,
      ],
    ];
    for (const [filter, where] of cases) {
      const response = await timeSeries(spans({ filter, expressions: [aggregate(Fn.COUNT, DURATION, "n")] }));
      const expected = await handSql(`SELECT ${BUCKET} AS t, countIf(${duration.exists}) AS c FROM eap_items_1_local WHERE ${BASE} AND ${where} GROUP BY t HAVING c > 0`);
      expect(expected.length, where).toBeGreaterThan(0);
      expect(Object.fromEntries(points(response, "n")), where).toEqual(Object.fromEntries(expected.map((r) => [r.t, Number(r.c)])));
    }
  });

  it("a conditional aggregation counts only what its own filter admits; a formula divides two of them", async () => {
    const errorsOnly = { value: { case: "comparisonFilter" as const, value: { key: key(AttributeKey_Type.STRING, "sentry.status"), op: ComparisonFilter_Op.NOT_EQUALS, value: { value: { case: "valStr" as const, value: "ok" } } } } };
    const failing = aggregate(Fn.COUNT, DURATION, "failing", ExtrapolationMode.NONE, errorsOnly);
    const all = aggregate(Fn.COUNT, DURATION, "all");
    const response = await timeSeries(
      spans({ expressions: [failing, { label: "failure_rate", expression: { case: "formula", value: { op: 1, left: failing, right: all } } }] }),
    );
    const status = anyMap("string", "sentry.status");
    const duration = anyMap("float", "sentry.duration_ms");
    const expected = await handSql(
      `SELECT ${BUCKET} AS t, countIf(${duration.exists} AND NOT (${status.exists} AND ${status.value} = 'ok')) AS f, countIf(${duration.exists}) AS a FROM eap_items_1_local WHERE ${BASE} GROUP BY t`,
    );
    expect(expected.some((r) => Number(r.f) > 0)).toBe(true);
    const rates = points(response, "failure_rate");
    for (const row of expected) {
      expect(points(response, "failing").get(Number(row.t))).toBe(Number(row.f));
      expect(rates.get(Number(row.t))).toBeCloseTo(Number(row.f) / Number(row.a), 6);
    }
  });

  it("extrapolates with the sampling weight and reports sample count, sampling rate and reliability", async () => {
    const response = await timeSeries(spans({ expressions: [aggregate(Fn.COUNT, DURATION, "count", ExtrapolationMode.SAMPLE_WEIGHTED), aggregate(Fn.AVG, DURATION, "avg", ExtrapolationMode.SAMPLE_WEIGHTED)] }));
    const series = response.resultTimeseries.find((s) => s.label === "count")!;
    const present = series.dataPoints.filter((p) => p.dataPresent);
    expect(present.length).toBeGreaterThan(0);
    // Demo items are unsampled (sampling_factor 1): the weighted count is the count, nothing is uncertain.
    for (const p of present) {
      expect(Number(p.sampleCount)).toBe(p.data);
      expect(p.avgSamplingRate).toBe(1);
      expect(p.reliability).toBe(Reliability.HIGH);
    }
  });

  it("logs: item type 3, an int attribute compared with an int", async () => {
    const severity = key(AttributeKey_Type.INT, "sentry.severity_number");
    const response = await timeSeries(
      spans({
        meta: { ...META, traceItemType: TraceItemType.LOG },
        filter: { value: { case: "comparisonFilter", value: { key: severity, op: ComparisonFilter_Op.GREATER_THAN_OR_EQUALS, value: { value: { case: "valInt", value: 17n } } } } },
        expressions: [aggregate(Fn.COUNT, severity, "errors")],
      }),
    );
    const number = anyMap("float", "sentry.severity_number");
    const expected = await handSql(
      `SELECT ${BUCKET} AS t, count() AS c FROM eap_items_1_local WHERE ${BASE.replace("item_type = 1", "item_type = 3")} AND ${number.exists} AND ${number.value} >= 17 GROUP BY t`,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(Object.fromEntries(points(response, "errors"))).toEqual(Object.fromEntries(expected.map((r) => [r.t, Number(r.c)])));
  });

  it("answers with Snuba's statuses and Error messages", async () => {
    const cases: [RequestInit, number, string | RegExp][] = [
      [spans({ granularitySecs: 7n }), 400, "Granularity of 7 is not valid, valid granularity_secs: [15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 14400, 21600, 43200, 86400]"],
      [spans({ granularitySecs: 0n }), 400, "granularity of 0 is invalid"],
      [spans({ granularitySecs: 15n, meta: { ...META, startTimestamp: { seconds: 0n } } }), 400, /too many datapoints/],
      [spans({ meta: { ...META, startTimestamp: { seconds: BigInt(END + 10) } } }), 400, "start timestamp is after end timestamp"],
      [spans({ meta: { ...META, traceItemType: TraceItemType.UNSPECIFIED } }), 400, "This endpoint requires meta.trace_item_type to be set (are you requesting spans? logs?)"],
      [spans({ expressions: [aggregate(Fn.SUM, DURATION, "x"), aggregate(Fn.COUNT, DURATION, "x")] }), 400, "Duplicate expression label: x"],
      [spans({ expressions: [aggregate(Fn.SUM, key(AttributeKey_Type.UNSPECIFIED, "a"), "x")] }), 400, "attribute key a must have a type specified"],
      [spans({ expressions: [aggregate(Fn.SUM, key(AttributeKey_Type.DOUBLE, "sentry.project_id"), "x")] }), 400, "Attribute sentry.project_id must be one of [TYPE_INT], got TYPE_DOUBLE"],
      [spans({ filter: { value: { case: "orFilter", value: { filters: [] } } }, expressions: [aggregate(Fn.COUNT, DURATION, "n")] }), 400, "Invalid trace item filter, empty 'or' clause"],
      [spans({ filter: { value: { case: "comparisonFilter", value: { key: OP, op: ComparisonFilter_Op.EQUALS } } }, expressions: [aggregate(Fn.COUNT, DURATION, "n")] }), 400, "comparison does not have a right hand side"],
      [spans({ filter: { value: { case: "comparisonFilter", value: { key: OP, op: ComparisonFilter_Op.EQUALS, value: { value: { case: "valInt", value: 3n } } } } }, expressions: [aggregate(Fn.COUNT, DURATION, "n")] }), 400, /sentry.op holds string values and cannot be compared with a val_int/],
      [spans({ expressions: [aggregate(Fn.FIRST, DURATION, "f", ExtrapolationMode.SAMPLE_WEIGHTED)] }), 400, "Extrapolation is not supported for FUNCTION_FIRST function."],
      [spans({ meta: { ...META, requestId: "not-a-uuid" }, expressions: [aggregate(Fn.COUNT, DURATION, "n")] }), 400, /meta.request_id must be a UUID/],
      // Timestamps outside google.protobuf.Timestamp's range (the fuzzer's 1,000,000-input run found a 500 here).
      [spans({ meta: { ...META, endTimestamp: { seconds: BigInt(END), nanos: 1_000_000_000 } } }), 400, "meta.end_timestamp.nanos must be between 0 and 999999999, got 1000000000"],
      [spans({ meta: { ...META, startTimestamp: { seconds: -70_000_000_000n } } }), 400, "meta.start_timestamp.seconds -70000000000 is outside 0001-01-01 to 9999-12-31"],
    ];
    for (const [init, status, message] of cases) {
      const error = await rpcError(init);
      expect(error.status, String(message)).toBe(status);
      expect(error.code).toBe(status);
      if (typeof message === "string") expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    }
  });

  it("refuses a response of more data points than MAX_DATA_POINTS, and still answers the same group-by over fewer buckets", async () => {
    // A group-by on a double of many values, by the minute over a week (the reliability fuzz's
    // request of this shape stalled the server and, on more demo rows, ran it out of heap).
    const weekStart = END - 7 * 86_400;
    const duration = anyMap("float", "sentry.duration_ms");
    const [{ groups }] = (await handSql(
      `SELECT uniqExact(${duration.value}) AS groups FROM eap_items_1_local WHERE ${BASE.replace(`toDateTime(${START})`, `toDateTime(${weekStart})`)} AND ${duration.exists}`,
    )) as [{ groups: number }];
    const weekBuckets = 7 * 1440;
    expect(Number(groups) * weekBuckets).toBeGreaterThan(MAX_DATA_POINTS);
    const byDuration = { expressions: [aggregate(Fn.COUNT, DURATION, "n")], groupBy: [DURATION] };
    const referrer = "test.rpc.too_many_points";
    const refused = await rpcError(spans({ ...byDuration, granularitySecs: 60n, meta: { ...META, referrer, startTimestamp: { seconds: BigInt(weekStart) } } }));
    expect(refused.status).toBe(400);
    // The query ran before its answer was refused: one query-log row, the refusal, with what it read.
    await server.backend.queryLog!.flush();
    const logged = (await handSql(`SELECT status, error_type, error_message, rows_read, sql FROM querylog_local WHERE referrer = '${referrer}'`)) as Record<string, string | number>[];
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ status: "invalid-request", error_type: "invalid_query", error_message: refused.message });
    expect(Number(logged[0]!.rows_read)).toBeGreaterThan(0);
    expect(logged[0]!.sql).toMatch(/^SELECT /);
    expect(refused.message).toMatch(/^This request is asking for too many datapoints \(at least [\d,]+ groups × 1 expressions × 10,080 buckets, more than 500,000\): please raise your granularity_secs/);
    const groupsNamed = Number(/at least ([\d,]+) groups/.exec(refused.message)![1]!.replaceAll(",", ""));
    expect(groupsNamed * weekBuckets).toBeGreaterThan(MAX_DATA_POINTS);
    expect((groupsNamed - 1) * weekBuckets).toBeLessThanOrEqual(MAX_DATA_POINTS);

    const daily = await timeSeries(spans({ ...byDuration, granularitySecs: 86_400n, meta: { ...META, startTimestamp: { seconds: BigInt(weekStart) } } }));
    expect(daily.resultTimeseries.length).toBe(Number(groups));
    expect(daily.resultTimeseries.every((series) => series.dataPoints.length === 7)).toBe(true);
  });

  it("bad bytes, unknown endpoints and wrong methods get a serialized Error too", async () => {
    const truncated = toBinary(TimeSeriesRequestSchema, create(TimeSeriesRequestSchema, spans({ expressions: [aggregate(Fn.COUNT, DURATION, "n")] }))).slice(0, 20);
    const decode = await rpc(truncated);
    expect(decode.status).toBe(400);
    expect(decode.type).toBe("application/x-protobuf");
    expect(fromBinary(ErrorSchema, decode.bytes).message).toMatch(/^protobuf gave a decode error .* \(are all fields set and the correct types\?\)$/);

    // `meta` (a message, field 1) sent as a varint: the wrong wire type for the field.
    const wrongType = await rpc(new Uint8Array([0x08, 0x01]));
    expect(wrongType.status).toBe(400);
    expect(fromBinary(ErrorSchema, wrongType.bytes).message).toMatch(/^protobuf gave a decode error/);

    const oversized = await rpc(new Uint8Array(1024 * 1024 + 1));
    expect(oversized.status).toBe(413);
    expect(fromBinary(ErrorSchema, oversized.bytes)).toMatchObject({ code: 413, message: "the request body is larger than 1048576 bytes" });

    const unknown = await rpc(new Uint8Array(), "/rpc/EndpointTimeseries/v1");
    expect(unknown.status).toBe(404);
    expect(fromBinary(ErrorSchema, unknown.bytes).message).toBe("endpoint EndpointTimeseries with version v1 does not exist (did you use the correct version and capitalization?)");

    const unserved = await rpc(new Uint8Array(), "/rpc/EndpointTraceItemTable/v1");
    expect(unserved.status).toBe(404);
    expect(fromBinary(ErrorSchema, unserved.bytes).message).toMatch(/is a Snuba endpoint Quarry does not serve; it serves EndpointTimeSeries v1/);

    const get = await fetch(`${baseUrl}/rpc/EndpointTimeSeries/v1`);
    expect(get.status).toBe(405);
    expect(fromBinary(ErrorSchema, new Uint8Array(await get.arrayBuffer())).code).toBe(405);
  });

  it("an end that is not on a bucket boundary is moved up to the next one, and every query leaves a query-log row", async () => {
    const before = await server.backend.metrics.requests.value({ dataset: "events_analytics_platform", referrer: "test.rpc", status: "success" });
    const response = await timeSeries(spans({ meta: { ...META, endTimestamp: { seconds: BigInt(START + 5400) } }, expressions: [aggregate(Fn.COUNT, DURATION, "n")] }));
    expect(response.resultTimeseries[0]!.buckets.map((b) => Number(b.seconds))).toEqual([START, START + 3600]);
    expect(response.meta?.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(await server.backend.metrics.requests.value({ dataset: "events_analytics_platform", referrer: "test.rpc", status: "success" })).toBe(before + 1);
  });

  it("the same operation as a Connect and a gRPC method (quarry.rpc.v1.TimeSeriesService/TimeSeries)", async () => {
    const init = spans({ expressions: [aggregate(Fn.COUNT, DURATION, "n")], groupBy: [OP] });
    const overHttp = await timeSeries(init);
    for (const transport of [createConnectTransport({ baseUrl, httpVersion: "1.1" }), createGrpcTransport({ baseUrl })]) {
      const client = createClient(TimeSeriesService, transport);
      const answer = await client.timeSeries(create(TimeSeriesRequestSchema, init));
      const series = (r: TimeSeriesResponse) => r.resultTimeseries.map((s) => [s.groupByAttributes["sentry.op"], s.dataPoints.map((p) => p.data)]).sort();
      expect(series(answer)).toEqual(series(overHttp));
      const refused = await client.timeSeries(create(TimeSeriesRequestSchema, spans({ granularitySecs: 7n }))).catch((reason: unknown) => reason);
      expect(refused).toBeInstanceOf(ConnectError);
      expect((refused as ConnectError).code).toBe(Code.InvalidArgument);
      expect((refused as ConnectError).rawMessage).toMatch(/^invalid_query: Granularity of 7 is not valid/);
    }
  });
});

