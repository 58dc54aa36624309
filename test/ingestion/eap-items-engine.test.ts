/**
 * TraceItems through the EAP items processor into `eap_items_1_local` of a real embedded engine,
 * with the statement and row encoding the consumer uses, and back out through SnQL and the
 * TimeSeries RPC: the example Sentry ships for `snuba-items` (read from the installed
 * sentry-kafka-schemas package), TraceItems serialised by Sentry's sentry-protos package, and the
 * demo producer's spans.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TimeSeriesRequestSchema, TimeSeriesResponseSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { ErrorSchema } from "../../gen/sentry_protos/snuba/v1/error_pb.js";
import { TraceItemType } from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { AttributeKey_Type, ExtrapolationMode, Function as Fn } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { TraceItemSchema } from "../../gen/sentry_protos/snuba/v1/trace_item_pb.js";
import { fnv1a32 } from "../../src/clickhouse/fnv1a.js";
import { jsonEachRowLine } from "../../src/clickhouse/json-each-row-line.js";
import { eapItemMessages } from "../../src/demo-data/kafka/eap-item-messages.js";
import type { IngestMessage, IngestRow } from "../../src/ingestion/message-processor.js";
import { EapItemsProcessor } from "../../src/ingestion/processors/eap-items-processor.js";
import { insertSettings } from "../../src/ingestion/range-insert.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { topicProtobufExampleFiles } from "../support/sentry-kafka-schemas.js";
import { FIXTURE_ITEM_ID, FIXTURE_TIMESTAMP, sentryTraceItems } from "./trace-item-fixtures.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field
type Json = any;

const processor = new EapItemsProcessor();
let server: FixtureServer;
let offset = 0;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

function kafkaMessage(bytes: Buffer): IngestMessage {
  return { topic: "snuba-items", partition: 0, offset: String(offset++), timestampMs: Date.now(), key: null, value: bytes, headers: {} };
}

function rowsOf(messages: readonly Buffer[]): IngestRow[] {
  return messages.flatMap((bytes) => {
    const processed = processor.process(kafkaMessage(bytes));
    if (processed.kind !== "rows") throw new Error(`expected rows, got ${processed.kind}`);
    return processed.rows;
  });
}

/** The consumer's INSERT: the same statement, the same line encoding. */
async function insert(rows: readonly IngestRow[]): Promise<void> {
  const body = rows.map(jsonEachRowLine).join("");
  await server.columnstore.insertRows("eap_items_1_local", insertSettings(`snuba-items:0:${offset}`), body);
}

async function snql(query: string): Promise<Json[]> {
  const response = await fetch(`${server.baseUrl}/events_analytics_platform/snql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "test.eap-ingestion" } }),
  });
  const body = (await response.json()) as Json;
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  expect(response.status).toBe(200);
  return body.data as Json[];
}

async function sql(query: string): Promise<Json[]> {
  return (await server.columnstore.client.query({ query, format: "JSONEachRow", clickhouse_settings: { output_format_json_quote_64bit_integers: 1 } })).json();
}

/** SnQL's time range: datetime literals, seconds since the epoch as UTC text. */
function window(from: number, to: number): string {
  const text = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);
  return `timestamp >= toDateTime('${text(from)}') AND timestamp < toDateTime('${text(to)}')`;
}

describe("Sentry's example message for snuba-items", () => {
  const examples = topicProtobufExampleFiles(inject("sentryKafkaSchemasDir"), "snuba-items");
  const basic = examples.find((file) => file.name === "basic.protobuf");
  // What the example carries, read with the generated schema.
  const item = basic ? fromBinary(TraceItemSchema, basic.bytes) : undefined;

  it("is shipped, and is a span of organization 1", () => {
    expect(basic).toBeDefined();
    expect(item).toMatchObject({ organizationId: 1n, projectId: 1n, itemType: TraceItemType.SPAN });
  });

  it("inserts into eap_items_1_local and reads back through SnQL with the example's values", async () => {
    await insert(rowsOf([basic!.bytes]));
    const seconds = Number(item!.timestamp!.seconds);
    const rows = await snql(
      `MATCH (eap_items) SELECT attributes_string[one_attribute] AS s, attributes_float[another_attribute] AS f, attributes_int[another_attribute] AS i, ` +
        `attributes_bool[some_bool] AS b, trace_id, toString(item_id) AS item_id, sampling_weight, retention_days ` +
        `WHERE organization_id = 1 AND project_id = 1 AND item_type = 1 AND ${window(seconds, seconds + 1)}`,
    );
    expect(rows).toHaveLength(1);
    const itemIdHex = Buffer.from(item!.itemId).reverse().toString("hex");
    expect(rows[0]).toMatchObject({ s: "blah", f: 1238, i: 1238, b: true, sampling_weight: 1, retention_days: 90 });
    expect(rows[0].trace_id.replaceAll("-", "")).toBe(item!.traceId);
    expect(BigInt(rows[0].item_id)).toBe(BigInt(`0x${itemIdHex}`));
  });

  it("answers the TimeSeries RPC with its double attribute", async () => {
    const seconds = Number(item!.timestamp!.seconds);
    const hour = Math.floor(seconds / 3600) * 3600;
    const key = { type: AttributeKey_Type.DOUBLE, name: "with a float" };
    const request = create(TimeSeriesRequestSchema, {
      meta: {
        organizationId: 1n,
        projectIds: [1n],
        referrer: "test.eap-ingestion",
        startTimestamp: { seconds: BigInt(hour) },
        endTimestamp: { seconds: BigInt(hour + 3600) },
        traceItemType: TraceItemType.SPAN,
      },
      granularitySecs: 3600n,
      expressions: [{ label: "sum", expression: { case: "conditionalAggregation", value: { aggregate: Fn.SUM, key, label: "sum", extrapolationMode: ExtrapolationMode.NONE } } }],
    });
    const response = await fetch(`${server.baseUrl}/rpc/EndpointTimeSeries/v1`, { method: "POST", body: Buffer.from(toBinary(TimeSeriesRequestSchema, request)) });
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${response.status}: ${fromBinary(ErrorSchema, bytes).message}`);
    const series = fromBinary(TimeSeriesResponseSchema, bytes).resultTimeseries;
    expect(series).toHaveLength(1);
    expect(series[0]!.dataPoints.map((point) => [point.dataPresent, point.data])).toEqual([[true, Math.fround(123.123)]]);
  });
});

describe("TraceItems serialised by Sentry's sentry-protos", () => {
  let items: ReadonlyMap<string, Buffer>;
  beforeAll(async () => {
    items = sentryTraceItems(inject("sentryProtosPython"));
    await insert(rowsOf(["every_kind", "max_item_id", "metric", "non_finite"].map((name) => items.get(name)!)));
  });

  it("keep 64- and 128-bit ids, arrays and integers exact in the table", async () => {
    const [row] = await sql(
      `SELECT organization_id, item_id, attributes_int['big.int'] AS big, attributes_array_int['mixed'] AS ints, attributes_array_string['tags'] AS tags, ` +
        `attributes_array_float['mixed'] AS floats, attributes_array_bool['mixed'] AS bools, session_id, ai_conversation_id, indexed_name, sampling_factor, sampling_weight ` +
        `FROM eap_items_1_local WHERE project_id = 42`,
    );
    expect(row).toEqual({
      organization_id: (2n ** 63n + 5n).toString(),
      item_id: FIXTURE_ITEM_ID,
      big: (2n ** 62n + 1n).toString(),
      ints: ["-7", "8"],
      tags: ["x", "y"],
      floats: [0.25],
      bools: [true],
      session_id: "a1b2c3d4-0000-4000-8000-00000000000f",
      ai_conversation_id: "conversation-7",
      indexed_name: "db.query",
      sampling_factor: 0.05,
      sampling_weight: "20",
    });
    const [max] = await sql(`SELECT toString(item_id) AS id FROM eap_items_1_local WHERE project_id = 2 AND item_type = 1`);
    expect(max).toEqual({ id: (2n ** 128n - 1n).toString() });
  });

  it("keep NaN and infinite doubles", async () => {
    const float = (key: string) => `attributes_float_${fnv1a32(key) % 40}['${key}']`;
    const [row] = await sql(
      `SELECT isNaN(${float("not.a.number")}) AS nan, ${float("infinity")} = inf AS inf, attributes_array_float['minus.infinity'] = [-inf] AS minus ` +
        `FROM eap_items_1_local WHERE project_id = 77`,
    );
    expect(row).toEqual({ nan: 1, inf: 1, minus: 1 });
  });

  it("are found through SnQL by the bucket the query side computes", async () => {
    const select =
      `MATCH (eap_items) SELECT attributes_string[sentry.op] AS op, attributes_float[sentry.duration_ms] AS duration, attributes_float[http.status_code] AS code, ` +
      `attributes_int[http.status_code] AS code_int, attributes_bool[sentry.is_segment] AS segment, attributes_string[sentry.metric.name] AS metric`;
    const during = window(FIXTURE_TIMESTAMP, FIXTURE_TIMESTAMP + 1);
    expect(await snql(`${select} WHERE organization_id = ${2n ** 63n + 5n} AND project_id = 42 AND ${during}`)).toEqual([
      { op: "db.query", duration: 12.5, code: 503, code_int: 503, segment: false, metric: "" },
    ]);
    expect(await snql(`${select} WHERE organization_id = 1 AND project_id = 2 AND ${during} ORDER BY item_type ASC`)).toEqual([
      { op: "", duration: 0, code: 0, code_int: 0, segment: false, metric: "" },
      { op: "ignored", duration: 0, code: 0, code_int: 0, segment: false, metric: "memory.rss" },
    ]);
  });
});

describe("the demo producer's spans", () => {
  const WINDOW = { start: Date.UTC(2026, 10, 1) / 1000, end: Date.UTC(2026, 10, 2) / 1000 };
  const messages = eapItemMessages(60, WINDOW);

  beforeAll(async () => {
    await insert(rowsOf(messages));
  });

  it("count per project and per operation as the messages say", async () => {
    const decoded = messages.map((bytes) => fromBinary(TraceItemSchema, bytes));
    const expected = new Map<string, number>();
    for (const span of decoded) {
      const op = span.attributes["sentry.op"]!.value.value as string;
      const key = `${span.projectId}|${op}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const rows = await snql(
      `MATCH (eap_items) SELECT project_id, attributes_string[sentry.op] AS op, count() AS n, sum(attributes_float[sentry.duration_ms]) AS duration ` +
        `BY project_id, op WHERE organization_id = 1 AND project_id IN tuple(1, 2, 3) AND ${window(WINDOW.start, WINDOW.end)} ORDER BY project_id ASC, op ASC`,
    );
    expect(new Map(rows.map((row) => [`${row.project_id}|${row.op}`, row.n]))).toEqual(expected);
    const totalDuration = decoded.reduce((sum, span) => sum + (span.attributes["sentry.duration_ms"]!.value.value as number), 0);
    expect(rows.reduce((sum, row) => sum + row.duration, 0)).toBeCloseTo(totalDuration, 6);
  });
});
