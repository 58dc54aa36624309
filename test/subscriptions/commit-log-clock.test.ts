/**
 * The commit-log clock on the real broker: it reads commit logs (lines in the format the
 * ingestion consumers write), forms ticks per entity, and says up to which firing second each
 * entity's windows are due — per source partition in `partition` mode, over all partitions in
 * `global` mode — and lets a source partition that holds nothing new advance with the others.
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

    // Partition 0 of events: its latest commit, 1010, less the 30 s delay; windows firing up to 980 are due.
    expect(await until("events partition 0", () => (clock!.horizon("events", 0) === 981 ? 981 : null))).toBe(981);
    // Partition 1 has committed once: that is enough to know how far it has landed. Another group's line counted for nothing.
    expect(clock.horizon("events", 1)).toBe(971);
    expect(clock.undecodable).toBe(1);
    // Transactions: the global watermark is the slowest partition's time, partition 1's 100.
    expect(await until("the transactions watermark", () => clock!.horizon("transactions", 0))).toBe(101);

    // Partition 1 reaches 120: the watermark moves to it (partition 0 is at 130).
    await producer.send({ topic: transactions.log, messages: [line(transactions.source, "snuba-transactions-consumers", 1, 2, 120)] });
    expect(await until("the transactions watermark", () => (clock!.horizon("transactions", 0) === 121 ? 121 : null))).toBe(121);
    expect(clock.horizon("transactions", 1)).toBe(121);
    expect(clock.horizon("unknown-entity", 0)).toBeNull();
    // The source topics do not exist here: no partition counts as idle.
    expect(clock.idlePartitions("transactions")).toEqual([]);

    // How far each clock is behind the wall clock: now less its data's time (the slowest partition's), the delay not counted.
    const now = Date.now();
    expect(clock.behindSeconds("events", now)).toBeCloseTo(now / 1000 - 1000, 3);
    expect(clock.behindSeconds("transactions", now)).toBeCloseTo(now / 1000 - 120, 3);
    // Everything written to the commit logs has been read.
    expect(await until("the reader's lag", () => (clock!.readerLagMessages(events.log) === 0 ? 0 : null))).toBe(0);
    const registry = new Registry();
    clock.registerMetrics(registry);
    const text = await registry.metrics();
    expect(text).toMatch(/quarry_subscription_clock_behind_seconds\{entity="events"\} \d+/);
    expect(text).toMatch(/quarry_subscription_clock_behind_seconds\{entity="transactions"\} \d+/);
    expect(text).toContain(`quarry_subscription_commit_log_lag_messages{topic="${events.log}"} 0`);

    await producer.disconnect();
    await admin.disconnect();
  });

  it("lets a source partition whose consumer has written all it holds advance to the others' time (the idle rule)", async () => {
    const source = `generic-metrics-${RUN}`;
    const log = `snuba-generic-metrics-commit-log-${RUN}`;
    const group = "snuba-generic-metrics-counters-consumers";
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: log, numPartitions: 1 }, { topic: source, numPartitions: 3 }] });
    const producer = kafka.producer();
    await producer.connect();
    // Partition 0 has three messages, all written; partition 1 has one, not written yet; partition 2 none.
    await producer.send({ topic: source, messages: [0, 0, 0, 1].map((partition) => ({ partition, value: "{}" })) });
    const now = Math.floor(Date.now() / 1000);
    await producer.send({ topic: log, messages: [line(source, group, 0, 3, now - 5)] });
    const idleClock = new CommitLogClock(brokers, [
      { entity: "generic_metrics_counters", commitLogTopic: log, sourceTopic: source, group, mode: "global", synchronization: "orig_message_ts", delaySeconds: 0, sourcePartitions: 3 },
    ], { observeIntervalMs: 200 });
    try {
      await idleClock.start();
      // Partitions 0 and 2 are idle; partition 1 holds a message its consumer has not written: nothing is due.
      expect(await until("the idle partitions", () => (idleClock.idlePartitions("generic_metrics_counters").join() === "0,2" ? true : null))).toBe(true);
      expect(idleClock.horizon("generic_metrics_counters", 0)).toBeNull();
      // Partition 1's consumer writes it (at an older time): every partition is then caught up,
      // and the idle ones take partition 0's time.
      await producer.send({ topic: log, messages: [line(source, group, 1, 1, now - 20)] });
      expect(await until("the watermark", () => idleClock.horizon("generic_metrics_counters", 0))).toBe(now - 5 + 1);
      expect(idleClock.idlePartitions("generic_metrics_counters")).toEqual([0, 1, 2]);
    } finally {
      await idleClock.stop();
      await producer.disconnect();
      await admin.disconnect();
    }
  });
});
