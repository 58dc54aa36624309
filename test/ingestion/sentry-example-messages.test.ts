/**
 * Every example message the installed sentry-kafka-schemas package ships for the `events` and
 * `transactions` topics (read from the package at test time) goes through its processor: inserts
 * become rows, replacements become replacements, and the rows insert into the real tables of an
 * embedded engine and read back through SnQL with the values the example carries.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { IngestMessage, IngestRow } from "../../src/ingestion/message-processor.js";
import { ErrorsProcessor } from "../../src/ingestion/processors/errors-processor.js";
import { TransactionsProcessor } from "../../src/ingestion/processors/transactions-processor.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { topicExampleFiles, type ExampleFile } from "../support/sentry-kafka-schemas.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- example messages and response bodies are read field by field
type Json = any;

const dir = inject("sentryKafkaSchemasDir");
let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

function kafkaMessage(topic: string, bytes: Buffer, offset: number): IngestMessage {
  return { topic, partition: 0, offset: String(offset), timestampMs: Date.UTC(2023, 3, 1, 12), key: null, value: bytes, headers: {} };
}

function hyphenated(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toLowerCase();
}

/** The example with its event id replaced by one of its own, so that examples sharing an id stay separate rows. */
function withOwnEventId(file: ExampleFile, eventIdHex: string): { bytes: Buffer; eventId: string } {
  const own = createHash("md5").update(file.name).digest("hex");
  return { bytes: Buffer.from(file.bytes.toString("utf8").replaceAll(eventIdHex, own)), eventId: hyphenated(own) };
}

async function snql(dataset: string, query: string): Promise<Json[]> {
  const response = await fetch(`${server.baseUrl}/${dataset}/snql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "test.ingestion-examples" } }),
  });
  const body = (await response.json()) as Json;
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  expect(response.status).toBe(200);
  return body.data as Json[];
}

function zip(keys: string[], values: unknown[]): Map<string, unknown> {
  return new Map(keys.map((key, i) => [key, values[i]]));
}

/** What the example's contexts say a query sees: every string field of every context but trace, replay and flags. */
function stringContextFields(contexts: Json, skip: Set<string>): [string, string][] {
  const fields: [string, string][] = [];
  for (const [name, context] of Object.entries(contexts ?? {})) {
    if (skip.has(name) || context === null || typeof context !== "object") continue;
    for (const [field, value] of Object.entries(context as Json)) {
      if (field !== "type" && typeof value === "string" && value !== "") fields.push([`${name}.${field}`, value]);
    }
  }
  return fields;
}

describe("sentry-kafka-schemas examples on the events topic", () => {
  const files = topicExampleFiles(dir, "events");
  const processor = new ErrorsProcessor();

  it("are all there: inserts and the replacement kinds Snuba forwards", () => {
    const types = files.map((file) => (JSON.parse(file.bytes.toString("utf8")) as Json)[1] as string);
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect(types.filter((type) => type === "insert").length).toBeGreaterThanOrEqual(8);
    expect(new Set(types)).toEqual(
      new Set(["insert", "start_merge", "end_merge", "start_delete_groups", "end_delete_groups", "end_unmerge", "end_delete_tag", "tombstone_events", "replace_group", "exclude_groups"]),
    );
  });

  it("give one row per insert and the project of each replacement", () => {
    files.forEach((file, offset) => {
      const message = JSON.parse(file.bytes.toString("utf8")) as Json;
      const processed = processor.process(kafkaMessage("events", file.bytes, offset));
      if (message.length === 4) {
        expect(processed.kind, file.name).toBe("rows");
        if (processed.kind !== "rows") return;
        expect(processed.rows, file.name).toHaveLength(1);
        expect(processed.originTimestamp, file.name).toBe(Math.trunc(message[2].data.received));
      } else {
        expect(processed, file.name).toEqual({ kind: "replacement", projectId: message[2].project_id });
      }
    });
  });

  it("insert into errors_local and read back through SnQL with the example's values", async () => {
    const inserts = files.filter((file) => (JSON.parse(file.bytes.toString("utf8")) as Json)[1] === "insert");
    const rows: IngestRow[] = [];
    const expected: { file: string; eventId: string; event: Json }[] = [];
    inserts.forEach((file, offset) => {
      const event = (JSON.parse(file.bytes.toString("utf8")) as Json)[2];
      const own = withOwnEventId(file, event.event_id);
      const processed = processor.process(kafkaMessage("events", own.bytes, 1000 + offset));
      if (processed.kind !== "rows") throw new Error(`${file.name} gave no row`);
      // The copy differs from the example in its event id only.
      const original = processor.process(kafkaMessage("events", file.bytes, 1000 + offset));
      if (original.kind !== "rows") throw new Error(`${file.name} gave no row`);
      expect({ ...original.rows[0], event_id: own.eventId }, file.name).toEqual(processed.rows[0]);
      rows.push(...processed.rows);
      expected.push({ file: file.name, eventId: own.eventId, event });
    });
    await server.columnstore.client.insert({ table: "errors_local", format: "JSONEachRow", values: rows });

    for (const { file, eventId, event } of expected) {
      const data = event.data;
      const [found] = await snql(
        "events",
        "MATCH (events) SELECT event_id, group_id, message, title, type, culprit, platform, level, timestamp, received, retention_days, " +
          "tags.key, tags.value, contexts.key, contexts.value, exception_stacks.type, exception_frames.function, exception_frames.lineno, " +
          "sdk_name, user_id, ip_address_v4, trace_id, toString(span_id) AS span_text, num_processing_errors, offset " +
          `WHERE project_id = ${event.project_id} AND timestamp >= toDateTime('2023-01-01T00:00:00') AND timestamp < toDateTime('2024-01-01T00:00:00') ` +
          `AND event_id = '${eventId}'`,
      );
      expect(found, file).toBeDefined();
      // SnQL reads UUIDs as 32 hex digits, as Snuba does.
      expect(found.event_id, file).toBe(eventId.replaceAll("-", ""));
      expect(found.group_id, file).toBe(event.group_id);
      expect(found.message, file).toBe(event.message);
      expect(found.title, file).toBe(data.title ?? "");
      expect(found.type, file).toBe(data.type ?? "");
      expect(found.culprit, file).toBe(data.culprit ?? "");
      expect(found.platform, file).toBe(event.platform ?? "");
      expect(new Date(found.timestamp).getTime(), file).toBe(Math.floor(Date.parse(event.datetime) / 1000) * 1000);
      expect(new Date(found.received).getTime(), file).toBe(Math.trunc(data.received) * 1000);
      expect(found.retention_days, file).toBe(90);
      expect(found.num_processing_errors, file).toBe((data.errors ?? []).length);

      const tags = zip(found["tags.key"], found["tags.value"]);
      const sentTags = (data.tags ?? []).filter((pair: Json) => pair !== null && pair[0] !== null && pair[1] !== null);
      expect(tags.size, file).toBe(sentTags.length);
      for (const [key, value] of sentTags) expect(tags.get(key), `${file} tags[${key}]`).toBe(value);
      expect(found["tags.key"], `${file}: tags sorted`).toEqual([...found["tags.key"]].sort());
      expect(found.level, file).toBe(tags.get("level") ?? null);

      const contexts = zip(found["contexts.key"], found["contexts.value"]);
      const geo = data.user?.geo ? Object.entries(data.user.geo).map(([field, value]) => [`geo.${field}`, value] as [string, string]) : [];
      for (const [key, value] of [...stringContextFields(data.contexts, new Set(["trace", "replay", "flags"])), ...geo]) {
        expect(contexts.get(key), `${file} contexts[${key}]`).toBe(value);
      }
      const trace = data.contexts?.trace;
      expect(found.trace_id, file).toBe(trace?.trace_id ?? null);
      if (trace?.trace_id) expect(contexts.get("trace.trace_id"), file).toBe(trace.trace_id);
      // A span id past 2^53 is read as text: a JSON number would not hold it.
      expect(found.span_text, file).toBe(trace?.span_id ? BigInt(`0x${trace.span_id}`).toString() : null);

      const exceptions = (data.exception?.values ?? []).filter((value: Json) => value !== null);
      const frames = exceptions.flatMap((value: Json) => (value.stacktrace?.frames ?? []).filter((frame: Json) => frame !== null));
      expect(found["exception_stacks.type"], file).toEqual(exceptions.map((value: Json) => value.type ?? null));
      expect(found["exception_frames.function"], file).toEqual(frames.map((frame: Json) => frame.function ?? null));
      expect(found["exception_frames.lineno"], file).toEqual(frames.map((frame: Json) => frame.lineno ?? null));
      expect(found.sdk_name, file).toBe(data.sdk?.name ?? "");
      expect(found.user_id, file).toBe(data.user?.id ?? null);
      expect(found.ip_address_v4, file).toBe(data.user?.ip_address ?? null);
    }
  });

  it("keep a context number as Snuba prints it: 100.0 stays \"100.0\", booleans read True/False", async () => {
    const file = files.find((f) => f.name === "error-with-threads.json");
    if (file === undefined) throw new Error("sentry-kafka-schemas no longer ships error-with-threads.json");
    const event = (JSON.parse(file.bytes.toString("utf8")) as Json)[2];
    const own = withOwnEventId(file, event.event_id);
    const [found] = await snql(
      "events",
      "MATCH (events) SELECT contexts[device.battery_level] AS battery, contexts[device.screen_density] AS density, contexts[device.charging] AS charging, " +
        "contexts[trace.client_sample_rate] AS rate, contexts[device.memory_size] AS memory, exception_main_thread, exception_frames.in_app " +
        `WHERE project_id = ${event.project_id} AND timestamp >= toDateTime('2023-01-01T00:00:00') AND timestamp < toDateTime('2024-01-01T00:00:00') ` +
        `AND event_id = '${own.eventId}'`,
    );
    expect(event.data.contexts.device.battery_level).toBe(100);
    expect(found).toMatchObject({ battery: "100.0", density: "2.625", charging: "False", rate: "1.0", memory: "2057527296", exception_main_thread: 1 });
    expect(found["exception_frames.in_app"]).toContain(1);
  });
});

describe("sentry-kafka-schemas examples on the transactions topic", () => {
  const files = topicExampleFiles(dir, "transactions");

  /** Snuba skips a transaction older than its retention: the clock is set a day after each example. */
  function processorAt(event: Json): TransactionsProcessor {
    return new TransactionsProcessor({ now: () => (event.data.timestamp + 86_400) * 1000 });
  }

  it("are all there", () => {
    expect(files.map((file) => file.name)).toEqual(expect.arrayContaining(["basic_insert_dev.json", "nodejs.json"]));
  });

  it("are skipped as too old on today's clock, as Snuba skips them (DISCARD_OLD_EVENTS)", () => {
    for (const [offset, file] of files.entries()) {
      expect(new TransactionsProcessor().process(kafkaMessage("transactions", file.bytes, offset)), file.name).toEqual({ kind: "skip" });
    }
  });

  it("insert into transactions_local and read back through SnQL with the example's values", async () => {
    const rows: IngestRow[] = [];
    const events: { file: string; event: Json; originTimestamp: number | undefined }[] = [];
    files.forEach((file, offset) => {
      const event = (JSON.parse(file.bytes.toString("utf8")) as Json)[2];
      const processed = processorAt(event).process(kafkaMessage("transactions", file.bytes, offset));
      expect(processed.kind, file.name).toBe("rows");
      if (processed.kind !== "rows") return;
      expect(processed.rows, file.name).toHaveLength(1);
      rows.push(...processed.rows);
      events.push({ file: file.name, event, originTimestamp: processed.originTimestamp });
    });
    await server.columnstore.client.insert({ table: "transactions_local", format: "JSONEachRow", values: rows });

    for (const { file, event, originTimestamp } of events) {
      const data = event.data;
      const trace = data.contexts.trace;
      expect(originTimestamp, file).toBe(Math.trunc(data.received));
      const [found] = await snql(
        "transactions",
        "MATCH (transactions) SELECT event_id, trace_id, toString(span_id) AS span_text, transaction_name, transaction_op, transaction_source, transaction_status, duration, " +
          "start_ts, finish_ts, platform, environment, release, sdk_name, sdk_version, http_method, retention_days, " +
          "tags.key, tags.value, contexts.key, contexts.value, measurements.key, measurements.value, span_op_breakdowns.key, span_op_breakdowns.value, spans.op " +
          `WHERE project_id = ${event.project_id} AND finish_ts >= toDateTime('2023-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-01T00:00:00') ` +
          `AND event_id = '${hyphenated(event.event_id)}'`,
      );
      expect(found, file).toBeDefined();
      expect(found.trace_id, file).toBe(trace.trace_id);
      // Beyond 2^53: read as text, since the JSON number would not hold it.
      expect(found.span_text, file).toBe(BigInt(`0x${trace.span_id}`).toString());
      expect(found.transaction_name, file).toBe(data.transaction);
      expect(found.transaction_op, file).toBe(trace.op);
      expect(found.transaction_source, file).toBe(data.transaction_info.source);
      expect(found.transaction_status, file).toBe(0); // "ok"
      expect(found.duration, file).toBe(Math.floor((data.timestamp - data.start_timestamp) * 1000));
      expect(new Date(found.start_ts).getTime(), file).toBe(Math.floor(data.start_timestamp) * 1000);
      expect(new Date(found.finish_ts).getTime(), file).toBe(Math.floor(data.timestamp) * 1000);
      expect(found.platform, file).toBe(event.platform);
      expect(found.sdk_name, file).toBe(data.sdk.name);
      expect(found.sdk_version, file).toBe(data.sdk.version);
      expect(found.http_method, file).toBe(data.request?.method ?? null);
      expect(found.retention_days, file).toBe(event.retention_days ?? 90);

      const tags = zip(found["tags.key"], found["tags.value"]);
      const sentTags = data.tags.filter((pair: Json) => pair !== null && typeof pair[1] === "string" && pair[1] !== "");
      expect(tags.size, file).toBe(sentTags.length);
      for (const [key, value] of sentTags) expect(tags.get(key), `${file} tags[${key}]`).toBe(value);
      expect(found.environment, file).toBe(tags.get("environment") ?? null);
      expect(found.release, file).toBe(tags.get("sentry:release") ?? null);

      const contexts = zip(found["contexts.key"], found["contexts.value"]);
      for (const [key, value] of stringContextFields(data.contexts, new Set(["trace"]))) expect(contexts.get(key), `${file} contexts[${key}]`).toBe(value);
      expect(contexts.get("trace.op"), file).toBe(trace.op);
      expect(contexts.has("trace.trace_id") || contexts.has("trace.span_id") || contexts.has("trace.hash"), `${file}: promoted trace fields stay out of contexts`).toBe(false);

      const measurements = zip(found["measurements.key"], found["measurements.value"]);
      expect(Object.fromEntries(measurements), file).toEqual(Object.fromEntries(Object.entries(data.measurements ?? {}).map(([key, value]) => [key, (value as Json).value])));
      const breakdowns = zip(found["span_op_breakdowns.key"], found["span_op_breakdowns.value"]);
      expect(Object.fromEntries(breakdowns), file).toEqual(Object.fromEntries(Object.entries(data.breakdowns.span_ops).map(([key, value]) => [key, (value as Json).value])));

      // The root span (the trace context) and every span with an op, a hash and a time, ordered by op.
      const ops = [trace, ...data.spans].filter((span: Json) => span.op && span.hash && span.exclusive_time !== undefined).map((span: Json) => span.op as string);
      expect(found["spans.op"], file).toEqual(ops.sort());
    }
  });
});
