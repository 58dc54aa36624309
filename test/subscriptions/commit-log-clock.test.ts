/**
 * The commit-log clock on the real broker: it reads commit logs (lines in the format the
 * ingestion consumers write), forms ticks per entity, and says up to which firing second each
 * entity's windows are due — per source partition in `partition` mode, over all partitions in
 * `global` mode.
 */
import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { Registry } from "prom-client";
import { afterAll, describe, expect, inject, it } from "vitest";
import { encodeCommitLogMessage } from "../../src/ingestion/commit-log-message.js";
import { CommitLogClock } from "../../src/subscriptions/scheduling/commit-log-clock.js";

const RUN = randomUUID().slice(0, 8);
const brokers = inject("kafkaBrokers");
const kafka = new Kafka({ clientId: "commit-log-clock-test", brokers, logLevel: logLevel.NOTHING });
let clock: CommitLogClock | null = null;

afterAll(async () => {
  await clock?.stop();
});

function line(topic: string, group: string, partition: number, offset: number, seconds: number) {
  const encoded = encodeCommitLogMessage({ topic, partition, group, offset: BigInt(offset), origMessageTsMs: seconds * 1000, originTimestamps: [] });
  return { key: encoded.key, value: encoded.value };
}

async function until<T>(what: string, probe: () => T | null, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the commit-log clock", () => {
  it("advances each entity by its own commit log: per partition for events, by the global watermark for transactions", async () => {
    const events = { source: `events-${RUN}`, log: `snuba-commit-log-${RUN}` };
    const transactions = { source: `transactions-${RUN}`, log: `snuba-transactions-commit-log-${RUN}` };
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [events.log, transactions.log].map((topic) => ({ topic, numPartitions: 1 })) });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: events.log,
      messages: [
        line(events.source, "snuba-consumers", 0, 10, 1000),
        line(events.source, "snuba-consumers", 1, 5, 1000),
        line(events.source, "another-group", 0, 15, 5000),
        { key: "not a commit-log key", value: "{}" },
        line(events.source, "snuba-consumers", 0, 20, 1010),
      ],
    });
    await producer.send({
      topic: transactions.log,
      messages: [
        line(transactions.source, "snuba-transactions-consumers", 0, 1, 100),
        line(transactions.source, "snuba-transactions-consumers", 1, 1, 100),
        line(transactions.source, "snuba-transactions-consumers", 0, 2, 110),
        line(transactions.source, "snuba-transactions-consumers", 0, 3, 130),
      ],
    });

    clock = new CommitLogClock(brokers, [
      { entity: "events", commitLogTopic: events.log, sourceTopic: events.source, group: "snuba-consumers", mode: "partition", synchronization: "received_p99", delaySeconds: 30, sourcePartitions: 2 },
      {
        entity: "transactions",
        commitLogTopic: transactions.log,
        sourceTopic: transactions.source,
        group: "snuba-transactions-consumers",
        mode: "global",
        synchronization: "received_p99",
        delaySeconds: 0,
        sourcePartitions: 2,
      },
    ]);
    await clock.start();

    // Partition 0 of events: the tick [1000, 1010] less the 30 s delay; windows firing up to 980 are due.
    expect(await until("events partition 0", () => clock!.horizon("events", 0))).toBe(981);
    // Partition 1 has committed once: no tick, its windows wait. Another group's line counted for nothing.
    expect(clock.horizon("events", 1)).toBeNull();
    expect(clock.undecodable).toBe(1);
    // Transactions: partition 1 has no tick yet, so the global watermark holds partition 0's.
    await until("partition 0's two transactions ticks", () => (clock!.heldTicks("transactions")[0] === 2 ? true : null));
    expect(clock.horizon("transactions", 0)).toBeNull();
    expect(clock.heldTicks("transactions")).toEqual([2, 0]);

    // Partition 1 reaches 120: partition 0's tick to 110 and then partition 1's to 120 are released.
    await producer.send({ topic: transactions.log, messages: [line(transactions.source, "snuba-transactions-consumers", 1, 2, 120)] });
    expect(await until("the transactions watermark", () => (clock!.horizon("transactions", 0) === 121 ? 121 : null))).toBe(121);
    expect(clock.horizon("transactions", 1)).toBe(121);
    expect(clock.heldTicks("transactions")).toEqual([1, 0]);
    expect(clock.horizon("unknown-entity", 0)).toBeNull();

    // How far each clock is behind the wall clock: now less its data's time (the slowest partition's), the delay not counted.
    const now = Date.now();
    expect(clock.behindSeconds("events", now)).toBeCloseTo(now / 1000 - 1010, 3);
    expect(clock.behindSeconds("transactions", now)).toBeCloseTo(now / 1000 - 120, 3);
    const registry = new Registry();
    clock.registerMetrics(registry);
    const text = await registry.metrics();
    expect(text).toMatch(/quarry_subscription_clock_behind_seconds\{entity="events"\} \d+/);
    expect(text).toMatch(/quarry_subscription_clock_behind_seconds\{entity="transactions"\} \d+/);

    await producer.disconnect();
    await admin.disconnect();
  });
});
