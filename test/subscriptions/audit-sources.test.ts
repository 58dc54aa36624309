/**
 * The audit's reader of the result topics on a real broker: it returns the results published
 * from a moment on (older ones left out), with their lease epochs, across partitions, and skips
 * messages that are not results.
 */
import { randomBytes } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { describe, expect, inject, it } from "vitest";
import { readResultTopics } from "../../src/subscriptions/audit/audit-sources.js";
import { LEASE_EPOCH_HEADER } from "../../src/subscriptions/publishing/kafka-publisher.js";

const result = (id: string, timestamp: string) => JSON.stringify({ version: 3, payload: { subscription_id: id, request: {}, result: { data: [], meta: [] }, timestamp, entity: "events" } });

describe("readResultTopics", () => {
  it("reads every result from a moment on, with its epoch, and nothing older", async () => {
    const topic = `audit-sources-${randomBytes(4).toString("hex")}`;
    const kafka = new Kafka({ clientId: "audit-sources-test", brokers: inject("kafkaBrokers"), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    const before = Date.now() - 60_000;
    await producer.send({ topic, messages: [{ partition: 0, value: result("0/old", "2026-11-24T09:59:00"), timestamp: String(before) }] });
    const from = Date.now() - 1_000;
    await producer.send({
      topic,
      messages: [
        { partition: 0, value: result("0/a", "2026-11-24T10:00:00"), headers: { [LEASE_EPOCH_HEADER]: "4" } },
        { partition: 1, value: result("1/b", "2026-11-24T10:01:00") },
        { partition: 2, value: "not a result" },
        { partition: 2, value: result("2/c", "2026-11-24T10:02:00"), headers: { [LEASE_EPOCH_HEADER]: "7" } },
      ],
    });
    await producer.disconnect();

    const results = await readResultTopics(inject("kafkaBrokers"), [topic, "no-such-topic"], from, 30_000);
    expect(results.map((r) => [r.subscriptionId, r.windowEnd, r.epoch]).sort()).toEqual([
      ["0/a", Date.parse("2026-11-24T10:00:00Z") / 1000, 4],
      ["1/b", Date.parse("2026-11-24T10:01:00Z") / 1000, 0],
      ["2/c", Date.parse("2026-11-24T10:02:00Z") / 1000, 7],
    ]);
    expect(results.every((r) => r.topic === topic && r.publishedAtMs >= from)).toBe(true);
  });
});
