/**
 * Results on a real Kafka broker: Snuba's result topic per entity, key = subscription id, value
 * = the version-3 message, valid under the `subscription-results` schema of Sentry's own
 * sentry-kafka-schemas package (installed by the test setup), each window exactly once, and a
 * result counts as published only once the broker acknowledged it.
 */
import { Kafka, logLevel, type Consumer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { KafkaPublisher } from "../../src/subscriptions/publishing/kafka-publisher.js";
import { ManualClock } from "../support/manual-clock.js";
import { jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { subscriptionResultsValidator } from "../support/sentry-kafka-schemas.js";
import { drivenScheduler } from "./driven-scheduler.js";

const START = Date.parse("2024-01-01T00:50:00Z");
const END = Date.parse("2024-01-01T02:10:00Z");

function brokers(): string[] {
  const provided = inject("kafkaBrokers");
  if (!provided || provided.length === 0) throw new Error("kafkaBrokers was not provided by test/setup/global-services.ts");
  return provided;
}

interface Received {
  topic: string;
  key: string;
  value: Record<string, unknown>;
  headers: string[];
}

describe("subscription results on Kafka", () => {
  let server: FixtureServer;
  let consumer: Consumer;
  const clock = new ManualClock(START);
  const received: Received[] = [];
  const ids: Record<string, string> = {};
  const created: Record<string, number> = {};
  let finalHorizon = 0;

  beforeAll(async () => {
    server = await startFixtureServer({}, { subscriptions: { scheduler: false, clock } });
    const create = async (name: string, path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${server.baseUrl}${path}`, { method: "POST", body: JSON.stringify({ ...body, tenant_ids: { organization_id: 1, referrer: "kafka-test" } }) });
      expect(response.status).toBe(202);
      ids[name] = ((await response.json()) as { subscription_id: string }).subscription_id;
      created[name] = clock.now();
    };
    await create("errors", "/events/events/subscriptions", { project_id: 1, time_window: 3600, resolution: 60, query: "MATCH (events) SELECT count() AS count BY level" });
    await create("transactions", "/transactions/transactions/subscriptions", { project_id: 1, time_window: 86400, resolution: 600, query: "MATCH (transactions) SELECT avg(duration) AS avg_duration" });

    const publisher = new KafkaPublisher({ brokers: brokers() });
    await publisher.connect();
    const driven = drivenScheduler(server, clock, { publisher, delayFor: () => 30 });
    await driven.scheduler.start({ loop: false });
    while (clock.now() < END) {
      await clock.advance(60_000);
      await driven.scheduler.tick();
      await driven.scheduler.idle();
    }
    finalHorizon = Math.floor(clock.now() / 1000) - 30 + 1;
    await driven.scheduler.stop();
    await publisher.close();
    expect(await driven.metrics.published.value({ entity: "events" })).toBeGreaterThan(60);

    const kafka = new Kafka({ clientId: "quarry-kafka-results-test", brokers: brokers(), logLevel: logLevel.NOTHING });
    consumer = kafka.consumer({ groupId: `quarry-results-test-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topics: ["events-subscription-results", "transactions-subscription-results"], fromBeginning: true });
    const expectedCount = expectedWindows("errors").length + expectedWindows("transactions").length;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${expectedCount} results arrived within 60 s`)), 60_000);
      void consumer.run({
        eachMessage: async ({ topic, message }) => {
          const key = message.key?.toString() ?? "";
          if (!Object.values(ids).includes(key)) return;
          received.push({ topic, key, value: JSON.parse(message.value!.toString()) as Record<string, unknown>, headers: Object.keys(message.headers ?? {}) });
          if (received.length >= expectedCount) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  }, 240_000);

  afterAll(async () => {
    await consumer?.disconnect();
    await server?.close();
  });

  function expectedWindows(name: string): number[] {
    const resolution = name === "errors" ? 60 : 600;
    const jitter = jitterSeconds({ uuid: ids[name]!.split("/")[1]!, resolution });
    const windows: number[] = [];
    for (let t = Math.ceil((Math.ceil(created[name]! / 1000) - jitter) / resolution) * resolution; t + jitter < finalHorizon; t += resolution) windows.push(t);
    return windows;
  }

  const windowEnd = (message: Record<string, unknown>) => Date.parse(`${(message.payload as { timestamp: string }).timestamp}Z`) / 1000;

  it("lands on the entity's result topic, keyed by the subscription id, without headers", () => {
    for (const message of received) {
      expect(message.topic).toBe(message.key === ids.errors ? "events-subscription-results" : "transactions-subscription-results");
      expect((message.value.payload as { subscription_id: string }).subscription_id).toBe(message.key);
      expect(message.headers).toEqual([]);
    }
  });

  it("publishes every window exactly once", () => {
    for (const name of ["errors", "transactions"]) {
      const windows = received.filter((m) => m.key === ids[name]).map((m) => windowEnd(m.value));
      expect(windows.sort((a, b) => a - b), name).toEqual(expectedWindows(name));
    }
  });

  it("is valid under sentry-kafka-schemas' subscription-results schema, and the data is right", () => {
    const validator = subscriptionResultsValidator(inject("sentryKafkaSchemasDir"));
    for (const message of received) validator.validate(message.value);
    // The fixture's project-1 errors are at 01:00 and 01:30 (error) and 02:00 (warning).
    const at = (t: string) => received.find((m) => m.key === ids.errors && windowEnd(m.value) === Date.parse(t) / 1000)!.value;
    expect((at("2024-01-01T01:31:00Z").payload as { result: { data: unknown[] } }).result.data).toEqual([{ level: "error", count: 2 }]);
    expect((at("2024-01-01T01:00:00Z").payload as { result: { data: unknown[] } }).result.data).toEqual([]);
    expect(() => validator.validate({ version: 3, payload: { subscription_id: "1/x", request: {}, result: { data: [], meta: [] }, timestamp: "x" } })).toThrow(/entity/);
  });
});
