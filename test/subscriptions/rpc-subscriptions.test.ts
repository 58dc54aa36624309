/**
 * RPC subscriptions (spec §2.5, §4.4 rule 5; facts B7): a base64 TimeSeriesRequest created on
 * eap_items, validated as Snuba does with nothing stored on a refusal, scheduled like a SnQL
 * subscription and published to `subscription-results-eap-items` on a real Kafka broker, valid
 * under sentry-kafka-schemas, each window's value checked against SQL written by hand.
 */
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { Kafka, logLevel, type Consumer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TimeSeriesRequestSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { CreateSubscriptionRequestSchema, CreateSubscriptionResponseSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_create_subscription_pb.js";
import { ErrorSchema } from "../../gen/sentry_protos/snuba/v1/error_pb.js";
import { TraceItemType } from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { AttributeKey_Type, ExtrapolationMode, Function as Fn } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { ComparisonFilter_Op } from "../../gen/sentry_protos/snuba/v1/trace_item_filter_pb.js";
import { loadDemoData } from "../../src/demo-data/load-demo-data.js";
import { ClickHouseSubscriptionStore } from "../../src/subscriptions/store/clickhouse-subscription-store.js";
import { PipelineExecutor } from "../../src/subscriptions/execution/executor.js";
import { KafkaPublisher } from "../../src/subscriptions/publishing/kafka-publisher.js";
import { RemoteExecutor } from "../../src/subscriptions/execution/remote-executor.js";
import { compileSubscription } from "../../src/subscriptions/execution/subscription-query.js";
import { ManualClock } from "../support/manual-clock.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { loadTopicSchema } from "../support/sentry-kafka-schemas.js";
import { drivenScheduler } from "./driven-scheduler.js";
import { anyMap } from "../rpc/hand-sql.js";

const DEMO_NOW = new Date("2026-11-22T10:37:12Z");
const START = Date.parse("2026-11-21T12:00:00Z");
const WINDOWS = 8;
const TOPIC = "subscription-results-eap-items";
const PATH = "/events_analytics_platform/eap_items/subscriptions";

type RequestInit = MessageInitShape<typeof TimeSeriesRequestSchema>;

const DURATION = { type: AttributeKey_Type.DOUBLE, name: "sentry.duration_ms" };
const OP = { type: AttributeKey_Type.STRING, name: "sentry.op" };
const META = { organizationId: 1n, projectIds: [1n], referrer: "alerts", traceItemType: TraceItemType.SPAN };
const COUNT_DB = {
  label: "count",
  expression: { case: "conditionalAggregation" as const, value: { aggregate: Fn.COUNT, key: DURATION, label: "count", extrapolationMode: ExtrapolationMode.NONE } },
};
const NOT_CACHE = { value: { case: "comparisonFilter" as const, value: { key: OP, op: ComparisonFilter_Op.NOT_EQUALS, value: { value: { case: "valStr" as const, value: "cache.get" } } } } };

const base64 = (init: RequestInit) => Buffer.from(toBinary(TimeSeriesRequestSchema, create(TimeSeriesRequestSchema, init))).toString("base64");

function body(init: RequestInit | string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    project_id: 1,
    time_window: 300,
    resolution: 60,
    subscription_type: "rpc",
    request_name: "TimeSeriesRequest",
    request_version: "v1",
    time_series_request: typeof init === "string" ? init : base64(init),
    tenant_ids: { organization_id: 1, referrer: "rpc-test" },
    ...extra,
  };
}

describe("RPC subscriptions", () => {
  let server: FixtureServer;
  const clock = new ManualClock(START);
  let consumer: Consumer | undefined;

  const post = async (payload: Record<string, unknown>) => {
    const response = await fetch(`${server.baseUrl}${PATH}`, { method: "POST", body: JSON.stringify(payload) });
    return { status: response.status, json: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const stored = async () => ((await (await fetch(`${server.baseUrl}${PATH}`)).json()) as { data: unknown[] }).data.length;

  beforeAll(async () => {
    server = await startFixtureServer({}, { subscriptions: { scheduler: false, clock } });
    await loadDemoData(server.columnstore.client, { rows: 150_000, log: () => {}, progress: false, now: DEMO_NOW });
  }, 120_000);
  afterAll(async () => {
    await consumer?.disconnect();
    await server?.close();
  });

  it("refuses what Snuba refuses, each with a typed 400 that says which, and stores nothing", async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [body("not base64!"), "time_series_request", /not valid base64/],
      [body("AAAA"), "time_series_request", /not a serialised TimeSeriesRequest: protobuf gave a decode error/],
      [body(""), "time_series_request", /'time_series_request' is required for subscription_type 'rpc'/],
      [body({ meta: META, expressions: [COUNT_DB] }, { request_name: "TraceItemTableRequest" }), "request_name", /^TraceItemTableRequest v1 not supported/],
      [body({ meta: META, expressions: [COUNT_DB] }, { request_version: "v2" }), "request_name", /^TimeSeriesRequest v2 not supported/],
      [body({ meta: META, expressions: [COUNT_DB] }, { request_name: undefined }), "request_name", /'request_name' is required for subscription_type 'rpc'/],
      [body({ meta: { ...META, projectIds: [] }, expressions: [COUNT_DB] }), "time_series_request", /^Project ID is required\.$/],
      [body({ meta: { ...META, projectIds: [1n, 2n] }, expressions: [COUNT_DB] }), "time_series_request", /^Multiple project IDs not supported\.$/],
      [body({ meta: META, expressions: [] }), "time_series_request", /^Exactly one expression required\.$/],
      [body({ meta: META, expressions: [COUNT_DB, { ...COUNT_DB, label: "again" }] }), "time_series_request", /^Exactly one expression required\.$/],
      [body({ meta: META, expressions: [COUNT_DB], groupBy: [OP] }), "time_series_request", /^Group bys not supported\.$/],
      [
        body({ meta: META, expressions: [{ label: "c", expression: { case: "conditionalAggregation", value: { aggregate: Fn.COUNT, key: DURATION, label: "c" } } }] }),
        "time_series_request",
        /^Extrapolation mode must be specified\.$/,
      ],
      [body({ meta: { ...META, projectIds: [2n] }, expressions: [COUNT_DB] }), "project_id", /'project_id' \(1\) must be the project of the TimeSeriesRequest/],
      [body({ meta: META, expressions: [COUNT_DB] }, { query: "MATCH (eap_items) SELECT count()" }), "query", /'query' is for subscription_type 'snql'/],
      [{ ...body({ meta: META, expressions: [COUNT_DB] }), time_series_request: 42 }, "time_series_request", /must be a string/],
    ];
    for (const [payload, field, message] of cases) {
      const answer = await post(payload);
      expect(answer.status, String(message)).toBe(400);
      expect(answer.json.error, String(message)).toMatchObject({ type: "subscription", field });
      expect(answer.json.error.message).toMatch(message);
    }
    // EndpointTimeSeries' own rules apply to the window: 7 minutes is no allowed granularity.
    const granularity = await post(body({ meta: META, expressions: [COUNT_DB] }, { time_window: 420 }));
    expect(granularity.status).toBe(400);
    expect(granularity.json.error.message).toMatch(/^Granularity of 420 is not valid/);
    // And an rpc request on an entity other than eap_items.
    const elsewhere = await fetch(`${server.baseUrl}/events/events/subscriptions`, { method: "POST", body: JSON.stringify(body({ meta: META, expressions: [COUNT_DB] })) });
    expect(elsewhere.status).toBe(400);
    expect(await stored()).toBe(0);
  });

  it("creates one (deprecated aggregations stored as expressions), runs its windows and publishes them to subscription-results-eap-items", async () => {
    // Hour windows every minute: the demo data has a few spans of project 1 per hour.
    const created = await post(body({ meta: META, filter: NOT_CACHE, aggregations: [{ aggregate: Fn.COUNT, key: DURATION, label: "count", extrapolationMode: ExtrapolationMode.NONE }] }, { time_window: 3600 }));
    expect(created.status).toBe(202);
    const id = created.json.subscription_id as string;
    const view = (await (await fetch(`${server.baseUrl}${PATH}/${id}`)).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ subscription_type: "rpc", request_name: "TimeSeriesRequest", request_version: "v1", project_id: 1, query: "" });
    const storedRequest = fromBinary(TimeSeriesRequestSchema, Buffer.from(view.time_series_request as string, "base64"));
    expect(storedRequest.aggregations).toHaveLength(0);
    expect(storedRequest.expressions).toHaveLength(1);

    const brokers = inject("kafkaBrokers");
    const publisher = new KafkaPublisher({ brokers });
    await publisher.connect();
    const driven = drivenScheduler(server, clock, { publisher, delayFor: () => 0 });
    await driven.scheduler.start({ loop: false });
    for (let i = 0; i < WINDOWS; i++) {
      await clock.advance(60_000);
      await driven.scheduler.tick();
      await driven.scheduler.idle();
    }
    await driven.scheduler.stop();
    await publisher.close();
    expect(driven.log.filter((line) => /error|fail/i.test(line))).toEqual([]);
    const published = await driven.metrics.published.value({ entity: "eap_items" });
    expect(published).toBeGreaterThanOrEqual(WINDOWS - 2);

    const kafka = new Kafka({ clientId: "quarry-rpc-subscriptions-test", brokers, logLevel: logLevel.NOTHING });
    consumer = kafka.consumer({ groupId: `quarry-rpc-test-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topics: [TOPIC], fromBeginning: true });
    const messages: Record<string, any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${messages.length} of ${published} results arrived within 60 s`)), 60_000);
      void consumer!.run({
        eachMessage: async ({ message }) => {
          if (message.key?.toString() !== id) return;
          messages.push(JSON.parse(message.value!.toString()));
          if (messages.length >= published) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });

    const validator = loadTopicSchema(inject("sentryKafkaSchemasDir"), TOPIC);
    const duration = anyMap("float", "sentry.duration_ms");
    const op = anyMap("string", "sentry.op");
    let nonZero = 0;
    for (const message of messages) {
      validator.validate(message);
      const payload = message.payload;
      expect(payload).toMatchObject({ subscription_id: id, entity: "eap_items", result: { meta: [] } });
      expect(payload.request).toMatchObject({ request_name: "TimeSeriesRequest", request_version: "v1" });
      const executed = fromBinary(TimeSeriesRequestSchema, Buffer.from(payload.request.request, "base64"));
      const end = Date.parse(`${payload.timestamp}Z`) / 1000;
      expect(Number(executed.meta!.endTimestamp!.seconds)).toBe(end);
      expect(Number(executed.meta!.startTimestamp!.seconds)).toBe(end - 3600);
      expect(executed.meta!.referrer).toBe("subscriptions_executor");
      expect(Number(executed.granularitySecs)).toBe(3600);
      expect(executed.expressions[0]!.expression.case).toBe("conditionalAggregation");

      const [row] = (await (
        await server.columnstore.client.query({
          query: `SELECT countIf(${duration.exists}) AS c FROM eap_items_1_local WHERE organization_id = 1 AND project_id = 1 AND item_type = 1 AND timestamp >= toDateTime(${end - 3600}) AND timestamp < toDateTime(${end}) AND NOT (${op.exists} AND ${op.value} = 'cache.get')`,
          format: "JSONEachRow",
          clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
        })
      ).json()) as { c: number }[];
      expect(payload.result.data, payload.timestamp).toEqual([{ count: row!.c === 0 ? null : row!.c }]);
      if (row!.c > 0) nonZero += 1;
    }
    expect(nonZero).toBeGreaterThan(0);
  }, 180_000);

  it("creates one through Snuba's RPC route, POST /rpc/CreateSubscriptionRequest/v1, and refuses a bad one with a serialized Error", async () => {
    const send = (init: MessageInitShape<typeof CreateSubscriptionRequestSchema>) =>
      fetch(`${server.baseUrl}/rpc/CreateSubscriptionRequest/v1`, { method: "POST", body: Buffer.from(toBinary(CreateSubscriptionRequestSchema, create(CreateSubscriptionRequestSchema, init))) });
    const before = await stored();
    const ok = await send({ timeSeriesRequest: { meta: META, expressions: [COUNT_DB] }, timeWindowSecs: 300, resolutionSecs: 60 });
    expect(ok.status).toBe(200);
    const id = fromBinary(CreateSubscriptionResponseSchema, new Uint8Array(await ok.arrayBuffer())).subscriptionId;
    expect(id).toMatch(/^\d+\/[0-9a-f]{32}$/);
    const view = (await (await fetch(`${server.baseUrl}${PATH}/${id}`)).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ subscription_type: "rpc", request_name: "TimeSeriesRequest", request_version: "v1", project_id: 1, time_window: 300, resolution: 60 });

    const bad = await send({ timeSeriesRequest: { meta: META, expressions: [COUNT_DB], groupBy: [OP] }, timeWindowSecs: 300, resolutionSecs: 60 });
    expect(bad.status).toBe(400);
    const error = fromBinary(ErrorSchema, new Uint8Array(await bad.arrayBuffer()));
    expect(error).toMatchObject({ code: 400, message: "Group bys not supported." });
    expect(await stored()).toBe(before + 1);
  });

  it("a scheduler node without the engine runs an rpc window through the query node (RunSubscriptionWindow) with the same result", async () => {
    const created = await post(body({ meta: META, expressions: [COUNT_DB] }, { time_window: 3600 }));
    expect(created.status).toBe(202);
    const [partition, uuid] = (created.json.subscription_id as string).split("/") as [string, string];
    const subscription = (await new ClickHouseSubscriptionStore(server.columnstore.client).get("eap_items", Number(partition), uuid))!;
    const windowEnd = Date.parse("2026-11-21T12:00:00Z") / 1000;
    const compiled = compileSubscription(server.definitions, subscription, windowEnd);
    expect(compiled.kind).toBe("rpc");
    const local = await new PipelineExecutor({ definitions: server.definitions, columnstore: server.columnstore, statsInResponse: false, backend: server.backend }, 1).run(compiled, windowEnd);
    const remote = await new RemoteExecutor(server.baseUrl, 1).run(compiled, windowEnd);
    expect(remote.data).toEqual(local.data);
    expect(Object.keys(local.data[0]!)).toEqual(["count"]);
  });
});
