/**
 * `serve` with KAFKA_BROKERS publishes to Kafka (not to the results table), and /health reports
 * the publisher: ok while the broker takes results, the failure when it does not.
 */
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { KafkaPublisher } from "../../src/subscriptions/publishing/kafka-publisher.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

describe("the subscription runtime with KAFKA_BROKERS", () => {
  let server: FixtureServer;
  const topic = `quarry-runtime-test-${Date.now()}`;

  beforeAll(async () => {
    server = await startFixtureServer({}, { subscriptions: { scheduler: true, kafkaBrokers: inject("kafkaBrokers"), topics: { events: topic } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("publishes through an idempotent Kafka producer and reports it healthy", async () => {
    const { publisher } = server.subscriptions;
    expect(publisher.description).toBe(`kafka ${inject("kafkaBrokers").join(",")}`);
    await publisher.publish({ topic, key: "3/abc", value: '{"version":3}', entity: "events", projectId: 1, windowEnd: 1_700_000_000, resultRows: 0, epoch: 0 });
    expect(publisher.health()).toBe("ok");
    const health = await fetch(`${server.baseUrl}/health`);
    expect(health.status).toBe(200);

    const kafka = new Kafka({ clientId: "quarry-runtime-test", brokers: inject("kafkaBrokers"), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    expect(offsets.reduce((sum, partition) => sum + Number(partition.high), 0)).toBe(1);
    const rows = await server.columnstore.client.query({ query: "SELECT count() AS n FROM subscription_results_local", format: "JSONEachRow" });
    expect(await rows.json()).toEqual([{ n: 0 }]);
  });

  it("reports a publisher whose sends fail", async () => {
    const failing = startFailingPublisher();
    await expect(failing.publish({ topic, key: "3/abc", value: "{}", entity: "events", projectId: 1, windowEnd: 1, resultRows: 0, epoch: 0 })).rejects.toThrow();
    expect(failing.health()).toMatch(/^kafka send failed: /);
    await failing.close();
  });
});

function startFailingPublisher(): KafkaPublisher {
  // A port nothing listens on: every connection attempt is refused.
  return new KafkaPublisher({ brokers: ["127.0.0.1:1"], requestTimeoutMs: 1000 });
}
