/**
 * The EAP items processor on TraceItems that Sentry's own sentry-protos package serialises
 * (scripts/fixtures/trace-items.py): every AnyValue kind and where it lands, arrays, sample rates,
 * retention, indexed_name, session ids, and each refusal with its reason.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { TraceItemTypeSchema } from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { file_sentry_protos_snuba_v1_trace_item, TraceItemSchema } from "../../gen/sentry_protos/snuba/v1/trace_item_pb.js";
import { fnv1a32 } from "../../src/clickhouse/fnv1a.js";
import type { IngestRow } from "../../src/ingestion/message-processor.js";
import { EapItemsProcessor } from "../../src/ingestion/processors/eap-items-processor.js";
import { kafkaMessage, refusal, rowOf } from "./message-text.js";
import { FIXTURE_ITEM_ID, FIXTURE_RECEIVED, FIXTURE_TIMESTAMP, sentryTraceItemDescriptors, sentryTraceItems } from "./trace-item-fixtures.js";

const NOW_MS = Date.UTC(2025, 0, 1, 12, 0, 5, 123);
const RANDOM_SESSION = "99999999-9999-4999-8999-999999999999";
const processor = new EapItemsProcessor({ now: () => NOW_MS, randomUuid: () => RANDOM_SESSION });

let items: ReadonlyMap<string, Buffer>;
beforeAll(() => {
  items = sentryTraceItems(inject("sentryProtosPython"));
});

function bytesOf(name: string): Buffer {
  const bytes = items.get(name);
  if (!bytes) throw new Error(`no fixture ${name}`);
  return bytes;
}

function rowFor(name: string): IngestRow {
  return rowOf(processor.process(kafkaMessage(bytesOf(name), { topic: "snuba-items" })));
}

const stringColumn = (key: string) => `attributes_string_${fnv1a32(key) % 40}`;
const floatColumn = (key: string) => `attributes_float_${fnv1a32(key) % 40}`;

/** Every bucketed map of a kind merged: where a key is, whichever bucket. */
function bucketed(row: IngestRow, kind: "string" | "float"): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (let bucket = 0; bucket < 40; bucket++) Object.assign(merged, row[`attributes_${kind}_${bucket}`] as Record<string, unknown> | undefined);
  return merged;
}

describe("trace_item.proto", () => {
  it("has the wire format of Sentry's: every message's field numbers, names, types and labels, and the item types", () => {
    const sentry = sentryTraceItemDescriptors(inject("sentryProtosPython"));
    const ours: Record<string, [number, string, number, number, string][]> = {};
    // The file's descriptor as compiled (map fields as their generated entry messages, as Python lists them).
    const file = file_sentry_protos_snuba_v1_trace_item.proto;
    for (const message of file.messageType) {
      for (const [name, type] of [[message.name, message], ...message.nestedType.map((nested) => [`${message.name}.${nested.name}`, nested] as const)] as const) {
        ours[`${file.package}.${name}`] = type.field.map((f) => [f.number, f.name, f.type, f.label, f.typeName]);
      }
    }
    expect(ours).toEqual(sentry.messages);
    expect(Object.fromEntries(TraceItemTypeSchema.values.map((v) => [v.name, v.number]))).toEqual(sentry.TraceItemType);
  });
});

describe("a span with every kind of attribute value", () => {
  it("has the item's columns", () => {
    const row = rowFor("every_kind");
    expect(row).toMatchObject({
      organization_id: (2n ** 63n + 5n).toString(),
      project_id: 42,
      item_type: 1,
      timestamp: FIXTURE_TIMESTAMP,
      trace_id: "5b8efff7-9803-8103-d269-b633813fc60c",
      session_id: "a1b2c3d4-0000-4000-8000-00000000000f",
      ai_conversation_id: "conversation-7",
      item_id: FIXTURE_ITEM_ID,
      indexed_name: "db.query",
      retention_days: 30,
      downsampled_retention_days: 30,
    });
    expect(row).not.toHaveProperty("conversation_id");
  });

  it("puts strings and doubles in their FNV-1a bucket, integers in attributes_int and their float bucket, booleans in attributes_bool", () => {
    const row = rowFor("every_kind");
    expect(row[stringColumn("sentry.op")]).toMatchObject({ "sentry.op": "db.query" });
    expect(row[stringColumn("http.method")]).toMatchObject({ "http.method": "GET" });
    expect(row[floatColumn("sentry.duration_ms")]).toMatchObject({ "sentry.duration_ms": 12.5 });
    expect(row[floatColumn("http.status_code")]).toMatchObject({ "http.status_code": 503 });
    expect(row.attributes_bool).toEqual({ "sentry.is_segment": false });
    // 2^62 + 1 is exact as text in the Int64 map and the nearest double in the float map.
    expect(row.attributes_int).toEqual({
      "http.status_code": 503,
      "big.int": (2n ** 62n + 1n).toString(),
      "sentry._internal.ingested_at": NOW_MS,
      "sentry._internal.received_at": FIXTURE_RECEIVED,
    });
    expect(row[floatColumn("big.int")]).toMatchObject({ "big.int": 2 ** 62 });
    expect(Object.keys(bucketed(row, "string")).sort()).toEqual(["http.method", "sentry.op"]);
    expect(Object.keys(bucketed(row, "float")).sort()).toEqual(["big.int", "http.status_code", "sentry._internal.ingested_at", "sentry._internal.received_at", "sentry.duration_ms"]);
  });

  it("splits arrays by element kind, dropping nested arrays, bytes, key-value lists and values without a kind", () => {
    const row = rowFor("every_kind");
    expect(row.attributes_array_string).toEqual({ tags: ["x", "y"], mixed: ["s"] });
    expect(row.attributes_array_int).toEqual({ mixed: [-7, 8] });
    expect(row.attributes_array_float).toEqual({ mixed: [0.25] });
    expect(row.attributes_array_bool).toEqual({ mixed: [true] });
    const everywhere = JSON.stringify(row);
    for (const dropped of ["blob", "nested", "unset", "only_unsupported", "empty_array", "deeper"]) expect(everywhere).not.toContain(dropped);
  });

  it("weights by the product of the sample rates", () => {
    expect(rowFor("every_kind")).toMatchObject({ client_sample_rate: 0.1, server_sample_rate: 0.5, sampling_factor: 0.05, sampling_weight: 20 });
  });

  it("gives the received time, in seconds, as the commit log's origin", () => {
    const processed = processor.process(kafkaMessage(bytesOf("every_kind")));
    expect(processed).toMatchObject({ kind: "rows", originTimestamp: FIXTURE_RECEIVED });
    const withoutReceived = processor.process(kafkaMessage(bytesOf("no_received")));
    expect(withoutReceived).not.toHaveProperty("originTimestamp");
    expect(rowOf(withoutReceived).attributes_int).toEqual({ "sentry._internal.ingested_at": NOW_MS });
  });

  it("is the same row for the same message and clock", () => {
    expect(rowFor("every_kind")).toEqual(rowFor("every_kind"));
  });
});

describe("sample rates", () => {
  it.each([
    ["rates_both", 0.3, 0.1, 0.03, 33],
    ["rates_client_only", 0.25, 1, 0.25, 4],
    ["rates_out_of_range", 1, 1, 1, 1],
    ["rates_tiny", 1e-9, 1, 1e-6, 1_000_000],
  ])("%s: client %d, server %d, factor %d, weight %d", (name, client, server, factor, weight) => {
    expect(rowFor(name)).toMatchObject({ client_sample_rate: client, server_sample_rate: server, sampling_factor: factor, sampling_weight: weight });
  });
});

describe("retention", () => {
  it.each([
    [0, 30],
    [1, 30],
    [7, 30],
    [30, 30],
    [60, 90],
    [90, 90],
    [91, 90],
    [365, 90],
    // Read as a 16-bit number first, as Snuba's `as u16` does: 65 566 is 30.
    [65536 + 30, 30],
  ])("%d days is kept as %d, and downsampled retention follows it", (days, kept) => {
    expect(rowFor(`retention_${days}`)).toMatchObject({ retention_days: kept, downsampled_retention_days: kept });
  });

  it("keeps a downsampled retention the message gives", () => {
    expect(rowFor("downsampled_retention")).toMatchObject({ retention_days: 90, downsampled_retention_days: 400 });
  });
});

describe("indexed_name, item type and ids", () => {
  it("is sentry.metric.name for a metric and sentry.op for a span only when a string", () => {
    expect(rowFor("metric")).toMatchObject({ item_type: 8, indexed_name: "memory.rss" });
    expect(rowFor("log_with_op")).toMatchObject({ item_type: 3, indexed_name: "" });
    expect(rowFor("span_op_not_string")).toMatchObject({ item_type: 1, indexed_name: "" });
  });

  it("keeps an item type it does not know, narrowed to the column's 8 bits", () => {
    expect(rowFor("unknown_item_type")).toMatchObject({ item_type: 300 & 0xff });
  });

  it("reads item_id from its first 16 bytes, little-endian, up to 2^128 - 1", () => {
    expect(rowFor("long_item_id").item_id).toBe(FIXTURE_ITEM_ID);
    expect(rowFor("max_item_id").item_id).toBe((2n ** 128n - 1n).toString());
  });

  it("gives a random session id when the message's is missing, not a UUID, or nil", () => {
    for (const name of ["no_received", "invalid_session_id", "nil_session_id"]) expect(rowFor(name).session_id).toBe(RANDOM_SESSION);
    const real = new EapItemsProcessor();
    const first = rowOf(real.process(kafkaMessage(bytesOf("invalid_session_id")))).session_id as string;
    const second = rowOf(real.process(kafkaMessage(bytesOf("invalid_session_id")))).session_id as string;
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first).not.toBe(second);
  });

  it("takes non-finite doubles as ClickHouse's nan and inf", () => {
    const message = create(TraceItemSchema, {
      traceId: "5b8efff7-9803-8103-d269-b633813fc60c",
      itemId: new Uint8Array(16),
      itemType: 1,
      timestamp: create(TimestampSchema, { seconds: BigInt(FIXTURE_TIMESTAMP) }),
      attributes: {
        a: { value: { case: "doubleValue", value: Number.NaN } },
        b: { value: { case: "doubleValue", value: Number.POSITIVE_INFINITY } },
        c: { value: { case: "doubleValue", value: Number.NEGATIVE_INFINITY } },
      },
    });
    const row = rowOf(processor.process(kafkaMessage(Buffer.from(toBinary(TraceItemSchema, message)))));
    expect(bucketed(row, "float")).toMatchObject({ a: "nan", b: "inf", c: "-inf" });
  });
});

describe("refusals", () => {
  it("names the field that is wrong", () => {
    expect(refusal(processor, bytesOf("no_timestamp"))).toBe("timestamp is missing (a TraceItem needs one)");
    expect(refusal(processor, bytesOf("bad_trace_id"))).toBe('trace_id "not-a-trace-id" is not a UUID');
    expect(refusal(processor, bytesOf("empty_trace_id"))).toBe('trace_id "" is not a UUID');
    expect(refusal(processor, bytesOf("short_item_id"))).toBe("item_id has 8 bytes, expected 16 (a little-endian 128-bit id)");
  });

  it("refuses a message without a payload, an empty one and bytes that are not a TraceItem", () => {
    expect(refusal(processor, null)).toBe("the message has no payload (a TraceItem was expected)");
    // An empty payload decodes to an empty TraceItem, which has no timestamp.
    expect(refusal(processor, Buffer.alloc(0))).toBe("timestamp is missing (a TraceItem needs one)");
    expect(refusal(processor, Buffer.from("{\"organization_id\": 1}"))).toMatch(/^the payload is not a TraceItem protobuf: /);
    // trace_id (field 3) with bytes that are not UTF-8, which Snuba's decoder refuses too.
    expect(refusal(processor, Buffer.from([0x1a, 0x02, 0xc3, 0x28]))).toMatch(/^the payload is not a TraceItem protobuf: .*utf-8/);
    // Field 1 as a varint that never ends.
    expect(refusal(processor, Buffer.from([0x08, 0xff, 0xff]))).toMatch(/^the payload is not a TraceItem protobuf: /);
  });
});
