/**
 * The storage consumer on a real Kafka broker and a real embedded engine, with a test processor
 * (consumer-fixture.ts): rows land exactly once, across a crash between INSERT and commit and a
 * consumer that leaves mid-write; dead letters carry the message unchanged with where it came
 * from and why; the commit log is Snuba's format and ends at each partition's end offset; a
 * failing engine pauses the partition with memory bounded; a partitioned commit log is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Registry } from "prom-client";
import { ConsumerMetrics } from "../../src/ingestion/consumer-metrics.js";
import { SimulatedCrash, type StorageConsumerConfig } from "../../src/ingestion/consumer-options.js";
import { ConsumerSetupError } from "../../src/ingestion/consumer-setup-error.js";
import { decodeCommitLogMessage, receivedP99 } from "../../src/ingestion/commit-log-message.js";
import { StorageConsumer } from "../../src/ingestion/storage-consumer.js";
import { CommitLogTickFormer } from "../../src/subscriptions/scheduling/commit-log-ticks.js";
import { useStatementsEngine } from "../support/scratch-engine.js";
import { brokers, KafkaFixture, TEST_TABLE_COLUMNS, testProcessor, waitFor, type ProducedMessage } from "./consumer-fixture.js";

const RUN = Date.now().toString(36);
const WINDOW = "SETTINGS non_replicated_deduplication_window = 10000";

const engine = useStatementsEngine("ingestion-consumer", [
  `CREATE TABLE ingest_basic ${TEST_TABLE_COLUMNS} ENGINE = MergeTree ORDER BY id ${WINDOW}`,
  `CREATE TABLE ingest_crash ${TEST_TABLE_COLUMNS} ENGINE = MergeTree ORDER BY id ${WINDOW}`,
  `CREATE TABLE ingest_crash_totals (k UInt8, total AggregateFunction(sum, UInt32), messages AggregateFunction(count)) ENGINE = AggregatingMergeTree ORDER BY k ${WINDOW}`,
  "CREATE MATERIALIZED VIEW ingest_crash_totals_mv TO ingest_crash_totals AS SELECT toUInt8(0) AS k, sumState(n) AS total, countState() AS messages FROM ingest_crash GROUP BY k",
  `CREATE TABLE ingest_leave ${TEST_TABLE_COLUMNS} ENGINE = MergeTree ORDER BY id ${WINDOW}`,
  `CREATE TABLE ingest_dead ${TEST_TABLE_COLUMNS} ENGINE = MergeTree ORDER BY id ${WINDOW}`,
  `CREATE TABLE ingest_down ${TEST_TABLE_COLUMNS} ENGINE = MergeTree ORDER BY id ${WINDOW}`,
  `CREATE TABLE ingest_split ${TEST_TABLE_COLUMNS} ENGINE = MergeTree ORDER BY id ${WINDOW}`,
  `CREATE TABLE ingest_replace ${TEST_TABLE_COLUMNS} ENGINE = MergeTree ORDER BY id ${WINDOW}`,
  `CREATE TABLE ingest_rebalance ${TEST_TABLE_COLUMNS} ENGINE = MergeTree ORDER BY id ${WINDOW}`,
]);

const kafka = new KafkaFixture();
const running: StorageConsumer[] = [];

beforeAll(async () => {
  await kafka.connect();
});

afterAll(async () => {
  for (const consumer of running) await consumer.abandon();
  await kafka.close();
});

function topicsOf(name: string) {
  return { source: `ingest-${name}-${RUN}`, commitLog: `ingest-${name}-commit-log-${RUN}`, deadLetter: `ingest-${name}-dlq-${RUN}` };
}

function consumerFor(name: string, table: string, extra: Partial<StorageConsumerConfig> = {}): StorageConsumer {
  const consumer = new StorageConsumer({
    storage: name,
    table,
    processor: testProcessor,
    topics: topicsOf(name),
    brokers: brokers(),
    client: engine.store.client,
    groupId: `quarry-test-${name}-${RUN}`,
    batching: { maxBatchRows: 100, maxBatchTimeMs: 200, retryInitialMs: 100, retryMaxMs: 500 },
    ...extra,
  });
  running.push(consumer);
  return consumer;
}

async function scalar(query: string): Promise<number> {
  const rows = await (await engine.store.client.query({ query, format: "JSONEachRow" })).json<Record<string, unknown>>();
  return Number(Object.values(rows[0] ?? {})[0]);
}

function messages(count: number, partitions: number, body: (i: number) => Record<string, unknown> = (i) => ({ id: i, n: i % 7, received: 1_700_000_000 + i / 10 })): ProducedMessage[] {
  return Array.from({ length: count }, (_, i) => ({ partition: i % partitions, key: `k-${i}`, value: JSON.stringify(body(i)) }));
}

describe("a storage consumer", () => {
  it("writes every message once, commits each partition's end offset, and writes Snuba's commit log", async () => {
    const name = "basic";
    const topics = topicsOf(name);
    const metrics = new ConsumerMetrics(new Registry());
    const consumer = consumerFor(name, "ingest_basic", { topicCreation: { sourcePartitions: 2 }, metrics });
    await consumer.start();
    const created = await kafka.admin.fetchTopicMetadata({ topics: [topics.source, topics.commitLog, topics.deadLetter] });
    expect(created.topics.map((t) => [t.name, t.partitions.length]).sort()).toEqual(
      [[topics.source, 2], [topics.commitLog, 1], [topics.deadLetter, 1]].sort(),
    );

    const produced = messages(600, 2);
    await kafka.produce(topics.source, produced);
    const ends = await kafka.waitCaughtUp(consumer.groupId, topics.source);
    expect([...ends.values()]).toEqual([300n, 300n]);
    expect(await scalar("SELECT count() FROM ingest_basic")).toBe(600);
    expect(await scalar("SELECT uniqExact(id) FROM ingest_basic")).toBe(600);
    expect(await scalar("SELECT countIf(offset != intDiv(id, 2)) FROM ingest_basic")).toBe(0);
    expect(await metrics.rowsWritten.value({ storage: name })).toBe(600);
    // The token went with its statement: nothing of it stays on the engine's session for the next writer.
    expect(await scalar("SELECT getSetting('insert_deduplication_token') = ''")).toBe(1);
    expect(consumer.status().partitions.map((p) => p.lagMessages)).toEqual([0, 0]);

    // The commit log: one line per written range, Snuba's bytes, increasing offsets per partition
    // that end at the partition's end offset, the broker time of each range's last message, and
    // the p99 of the processor's origin timestamps over the range.
    const source = await kafka.readTopic(topics.source, 600);
    const lines = await waitForCommitLog(topics.commitLog, 2, ends);
    const previous = new Map<number, bigint>([[0, 0n], [1, 0n]]);
    for (const line of lines) {
      expect(line.value).toMatch(/^\{"offset":\d+,"orig_message_ts":\d+\.\d+,"received_p99":\d+(\.\d+)?\}$/);
      const commit = decodeCommitLogMessage(line.key!, line.value);
      expect([commit.topic, commit.group]).toEqual([topics.source, consumer.groupId]);
      const from = previous.get(commit.partition)!;
      expect(commit.offset).toBeGreaterThan(from);
      const range = source.filter((m) => m.partition === commit.partition && m.offset >= from && m.offset < commit.offset);
      expect(commit.origMessageTs).toBe(range[range.length - 1]!.timestamp / 1000);
      expect(commit.receivedP99).toBe(receivedP99(range.map((m) => (JSON.parse(m.value) as { received: number }).received)));
      previous.set(commit.partition, commit.offset);
    }
    expect(previous).toEqual(ends);

    // A scheduler following this commit log forms ticks that tile each partition's offsets from
    // its first commit to its end offset, in time order, and its latest commit is the end.
    const former = new CommitLogTickFormer({ group: consumer.groupId, topic: topics.source, synchronization: "orig_message_ts", delaySeconds: 60 });
    const ticks = lines.flatMap((line) => former.add(decodeCommitLogMessage(line.key!, line.value)) ?? []);
    const firstCommit = new Map<number, bigint>();
    for (const line of lines) {
      const commit = decodeCommitLogMessage(line.key!, line.value);
      if (!firstCommit.has(commit.partition)) firstCommit.set(commit.partition, commit.offset);
    }
    for (const partition of [0, 1]) {
      const own = ticks.filter((t) => t.partition === partition);
      if (own.length > 0) {
        expect(own[0]!.offsets.lower).toBe(firstCommit.get(partition));
        expect(own[own.length - 1]!.offsets.upper).toBe(ends.get(partition));
      }
      for (let i = 1; i < own.length; i++) {
        expect(own[i]!.offsets.lower).toBe(own[i - 1]!.offsets.upper);
        expect(own[i]!.timestamps.upper).toBeGreaterThanOrEqual(own[i - 1]!.timestamps.upper);
      }
      expect(former.latest(partition)?.offset).toBe(ends.get(partition));
    }
    expect(former.invalidIntervals).toBe(0);
    await consumer.stop();
    expect(await consumer.stopped).toBeNull();
  });

  it("after a crash between its INSERT and its commit, the next consumer forms the same range: table and view count each message once", async () => {
    const name = "crash";
    const topics = topicsOf(name);
    const crashed: { range?: { start: bigint; end: bigint; rows: number } } = {};
    const first = consumerFor(name, "ingest_crash", {
      batching: { maxBatchRows: 150, maxBatchTimeMs: 300 },
      hooks: {
        afterInsert(_partition, range) {
          crashed.range = { start: range.start, end: range.end, rows: range.rows };
          throw new SimulatedCrash("after the insert");
        },
      },
    });
    await first.start();
    const produced = messages(500, 1);
    await kafka.produce(topics.source, produced);
    const crash = await first.stopped;
    expect(crash).toBeInstanceOf(SimulatedCrash);
    expect(first.status().state).toBe("crashed");
    const range = crashed.range!;
    expect(range.start).toBe(0n);
    // The range is in the table, and only its start is committed, with where it ends.
    expect(await scalar("SELECT count() FROM ingest_crash")).toBe(range.rows);
    const committed = await kafka.committed(first.groupId, topics.source);
    expect(committed.get(0)).toEqual({ offset: 0n, metadata: `pending:${range.end}` });

    // Another batching on purpose: the replayed range still ends where the pending commit says.
    const second = consumerFor(name, "ingest_crash", { batching: { maxBatchRows: 10_000, maxBatchTimeMs: 100 } });
    await second.start();
    const ends = await kafka.waitCaughtUp(second.groupId, topics.source);
    expect(ends.get(0)).toBe(500n);
    expect(await scalar("SELECT count() FROM ingest_crash")).toBe(500);
    expect(await scalar("SELECT uniqExact(id) FROM ingest_crash")).toBe(500);
    const sum = produced.reduce((total, m) => total + (JSON.parse(m.value) as { n: number }).n, 0);
    expect(await scalar("SELECT sumMerge(total) FROM ingest_crash_totals")).toBe(sum);
    expect(await scalar("SELECT countMerge(messages) FROM ingest_crash_totals")).toBe(500);
    const lines = await waitForCommitLog(topics.commitLog, 1, ends);
    // The crashed consumer never logged its range; the second logged it, at the same end.
    expect(decodeCommitLogMessage(lines[0]!.key!, lines[0]!.value).offset).toBe(range.end + 1n);
    await second.stop();
  });

  it("a consumer that leaves during an INSERT commits nothing more; the next one completes the range once", async () => {
    const name = "leave";
    const topics = topicsOf(name);
    let left = false;
    const first: StorageConsumer = consumerFor(name, "ingest_leave", {
      batching: { maxBatchRows: 120, maxBatchTimeMs: 300 },
      hooks: {
        async beforeInsert() {
          if (left) return;
          left = true;
          // The process goes while its INSERT is on the way: the INSERT lands, nothing after it happens.
          await first.abandon();
        },
      },
    });
    await first.start();
    await kafka.produce(topics.source, messages(400, 1));
    await waitFor("the first consumer to leave", () => first.status().state === "stopped");
    await waitFor("the abandoned INSERT to land", async () => (await scalar("SELECT count() FROM ingest_leave")) > 0);
    const committed = await kafka.committed(first.groupId, topics.source);
    expect(committed.get(0)?.offset).toBe(0n);
    expect(committed.get(0)?.metadata).toMatch(/^pending:\d+$/);

    const second = consumerFor(name, "ingest_leave");
    await second.start();
    await kafka.waitCaughtUp(second.groupId, topics.source);
    expect(await scalar("SELECT count() FROM ingest_leave")).toBe(400);
    expect(await scalar("SELECT uniqExact(id) FROM ingest_leave")).toBe(400);
    await second.stop();
  });

  it("across rebalances while messages keep coming and writes are in flight (a consumer joins, one leaves mid-write), writes each message once", async () => {
    const name = "rebalance";
    const topics = topicsOf(name);
    const groupId = `quarry-test-${name}-${RUN}`;
    // A slow engine, so that writes are in flight when the group rebalances.
    const hooks = { beforeInsert: () => sleep(150) };
    const first = consumerFor(name, "ingest_rebalance", { groupId, hooks, topicCreation: { sourcePartitions: 4 }, batching: { maxBatchRows: 60, maxBatchTimeMs: 150 } });
    const second = consumerFor(name, "ingest_rebalance", { groupId, hooks, batching: { maxBatchRows: 45, maxBatchTimeMs: 120 } });
    await first.start();
    const produced = messages(2400, 4);
    const producing = (async () => {
      for (let i = 0; i < 24; i++) {
        await kafka.produce(topics.source, produced.slice(i * 100, (i + 1) * 100));
        await sleep(60);
      }
    })();
    await sleep(500);
    await second.start();
    await waitFor("both consumers to hold partitions", () => first.status().partitions.length > 0 && second.status().partitions.length > 0);
    await sleep(300);
    await first.abandon();
    await producing;
    const ends = await kafka.waitCaughtUp(groupId, topics.source);
    expect([...ends.values()].reduce((sum, end) => sum + end, 0n)).toBe(2400n);
    expect(second.status().partitions).toHaveLength(4);
    expect(await scalar("SELECT count() FROM ingest_rebalance")).toBe(2400);
    expect(await scalar("SELECT uniqExact(id) FROM ingest_rebalance")).toBe(2400);
    await second.stop();
  });

  it("dead-letters what the processor and the engine refuse, unchanged and with where it came from and why; the rest lands", async () => {
    const name = "dead";
    const topics = topicsOf(name);
    const metrics = new ConsumerMetrics(new Registry());
    const consumer = consumerFor(name, "ingest_dead", { topicCreation: { sourcePartitions: 2 }, metrics, batching: { maxBatchRows: 40, maxBatchTimeMs: 200 } });
    await consumer.start();
    const poison = new Set([3, 50, 51, 120]);
    const refused = new Set([7, 8, 99, 150, 151, 152]);
    const skipped = new Set([10, 11]);
    const produced: ProducedMessage[] = messages(200, 2).map((m, i) => {
      if (poison.has(i)) return { ...m, value: `not json ${i}`, headers: { trace: `t-${i}`, original_offset: "from-upstream" } };
      if (refused.has(i)) return { ...m, value: JSON.stringify({ id: i, n: `abc${i}` }), headers: { trace: `t-${i}` } };
      if (skipped.has(i)) return { ...m, value: JSON.stringify({ skip: true }) };
      return m;
    });
    await kafka.produce(topics.source, produced);
    const ends = await kafka.waitCaughtUp(consumer.groupId, topics.source);
    const good = 200 - poison.size - refused.size - skipped.size;
    expect(await scalar("SELECT count() FROM ingest_dead")).toBe(good);
    expect(await scalar("SELECT uniqExact(id) FROM ingest_dead")).toBe(good);

    const source = await kafka.readTopic(topics.source, 200);
    const letters = await kafka.readTopic(topics.deadLetter, poison.size + refused.size);
    expect(letters).toHaveLength(poison.size + refused.size);
    for (const letter of letters) {
      const original = source.find((m) => m.key === letter.key)!;
      const index = Number(letter.key!.slice(2));
      expect(letter.value).toBe(original.value);
      expect(letter.headers.trace).toBe(`t-${index}`);
      expect(letter.headers.original_partition).toBe(String(original.partition));
      // The message had an original_offset header of its own: it is kept, Quarry's comes last.
      expect(letter.headers.original_offset).toBe(String(original.offset));
      if (poison.has(index)) expect(letter.headers.reason).toBe(`not JSON: not json ${index}`);
      else expect(letter.headers.reason).toMatch(/^ClickHouse refused the row\(s\): .*(Cannot parse|abc)/);
    }
    expect(await metrics.deadLetters.value({ storage: name, reason: "invalid_message" })).toBe(poison.size);
    expect(await metrics.deadLetters.value({ storage: name, reason: "refused_by_engine" })).toBe(refused.size);
    expect(await metrics.messages.value({ storage: name, kind: "skip" })).toBe(skipped.size);
    expect(await metrics.messages.value({ storage: name, kind: "dead_letter" })).toBe(poison.size + refused.size);
    // Skipped and dead-lettered messages advance the commit log as well.
    const lines = await waitForCommitLog(topics.commitLog, 2, ends);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    await consumer.stop();
  });

  it("replays a range whose refused rows were split off, after a crash, with the same parts: no row twice, each refused message dead-lettered once", async () => {
    const name = "split";
    const topics = topicsOf(name);
    const refused = new Set([17, 18, 40, 77]);
    const produced = messages(120, 1, (i) => ({ id: i, n: refused.has(i) ? `bad${i}` : i }));
    const crashed: { refused?: number } = {};
    const first = consumerFor(name, "ingest_split", {
      batching: { maxBatchRows: 10_000, maxBatchTimeMs: 300 },
      hooks: {
        afterInsert(_partition, range) {
          crashed.refused = range.refused.length;
          throw new SimulatedCrash("after the parts were written");
        },
      },
    });
    // All of it in one range: produced before the consumer starts.
    await kafka.admin.createTopics({ topics: [{ topic: topics.source, numPartitions: 1 }], waitForLeaders: true });
    await kafka.produce(topics.source, produced);
    await first.start();
    expect(await first.stopped).toBeInstanceOf(SimulatedCrash);
    expect(crashed.refused).toBe(refused.size);
    expect(await scalar("SELECT count() FROM ingest_split")).toBe(120 - refused.size);
    expect((await kafka.endOffsets(topics.deadLetter)).get(0)).toBe(0n);

    const second = consumerFor(name, "ingest_split", { batching: { maxBatchRows: 7, maxBatchTimeMs: 100 } });
    await second.start();
    await kafka.waitCaughtUp(second.groupId, topics.source);
    expect(await scalar("SELECT count() FROM ingest_split")).toBe(120 - refused.size);
    expect(await scalar("SELECT uniqExact(id) FROM ingest_split")).toBe(120 - refused.size);
    const letters = await kafka.readTopic(topics.deadLetter, refused.size);
    expect(letters.map((letter) => Number(letter.headers.original_offset)).sort((a, b) => a - b)).toEqual([...refused].sort((a, b) => a - b));
    expect((await kafka.endOffsets(topics.deadLetter)).get(0)).toBe(BigInt(refused.size));
    await second.stop();
  });

  it("forwards replacements unchanged, keyed by project, to its replacements topic; without one they are dead letters", async () => {
    const name = "replace";
    const topics = { ...topicsOf(name), replacements: `ingest-replace-replacements-${RUN}` };
    const metrics = new ConsumerMetrics(new Registry());
    const consumer = consumerFor(name, "ingest_replace", { topics, metrics });
    await consumer.start();
    const produced = messages(30, 1, (i) => (i % 10 === 5 ? { replacement: 100 + i, kind: "end_merge" } : { id: i, n: 1 }));
    await kafka.produce(topics.source, produced);
    await kafka.waitCaughtUp(consumer.groupId, topics.source);
    expect(await scalar("SELECT count() FROM ingest_replace")).toBe(27);
    const forwarded = await kafka.readTopic(topics.replacements, 3);
    expect(forwarded.map((m) => [m.key, m.value])).toEqual([5, 15, 25].map((i) => [String(100 + i), produced[i]!.value]));
    expect(await metrics.messages.value({ storage: name, kind: "replacement" })).toBe(3);
    await consumer.stop();

    const without = consumerFor(name, "ingest_replace", { groupId: `quarry-test-replace-without-${RUN}` });
    await without.start();
    await kafka.waitCaughtUp(without.groupId, topics.source);
    const letters = await kafka.readTopic(topics.deadLetter, 3);
    expect(letters.map((m) => m.headers.reason)).toEqual(Array(3).fill("TestJsonProcessor made a replacement, and this consumer has no replacements topic to forward it to"));
    await without.stop();
  });

  it("while its INSERTs fail it pauses, holds no more than its bound, commits nothing, and writes everything once when the engine is back", async () => {
    const name = "down";
    const topics = topicsOf(name);
    const metrics = new ConsumerMetrics(new Registry());
    let down = true;
    const consumer = consumerFor(name, "ingest_down", {
      metrics,
      batching: { maxBatchRows: 50, maxBufferedRows: 200, maxBatchTimeMs: 100, retryInitialMs: 50, retryMaxMs: 200 },
      hooks: {
        beforeInsert() {
          if (down) throw new Error("connect ECONNREFUSED 127.0.0.1:8123");
        },
      },
    });
    await consumer.start();
    await kafka.produce(topics.source, messages(1000, 1));
    let maxHeld = 0;
    await waitFor("the partition to pause with its buffer full", () => {
      const status = consumer.status();
      maxHeld = Math.max(maxHeld, status.heldRows);
      return status.heldRows >= 200 && status.partitions[0]?.paused === true;
    });
    const watchUntil = Date.now() + 1500;
    while (Date.now() < watchUntil) {
      maxHeld = Math.max(maxHeld, consumer.status().heldRows);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // One message over the bound at most: the one that reached it.
    expect(maxHeld).toBeLessThanOrEqual(201);
    expect(consumer.status().partitions[0]?.failing).toBe(true);
    expect(await metrics.insertFailures.value({ storage: name, kind: "insert" })).toBeGreaterThan(2);
    expect((await kafka.committed(consumer.groupId, topics.source)).get(0)?.offset).toBe(0n);
    expect(await scalar("SELECT count() FROM ingest_down")).toBe(0);

    down = false;
    await kafka.waitCaughtUp(consumer.groupId, topics.source);
    expect(await scalar("SELECT count() FROM ingest_down")).toBe(1000);
    expect(await scalar("SELECT uniqExact(id) FROM ingest_down")).toBe(1000);
    expect(consumer.status().partitions[0]?.paused).toBe(false);
    await consumer.stop();
  });

  it("refuses a commit-log topic of two partitions, and a group id a commit-log key cannot carry", async () => {
    const topics = topicsOf("refused");
    await kafka.admin.createTopics({ topics: [{ topic: topics.commitLog, numPartitions: 2 }], waitForLeaders: true });
    const consumer = consumerFor("refused", "ingest_basic");
    const failure = await consumer.start().then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(failure).toBeInstanceOf(ConsumerSetupError);
    expect((failure as Error).message).toContain(`the commit-log topic '${topics.commitLog}' has 2 partitions; a commit log must have exactly 1`);
    expect((failure as Error).message).toContain("Commit log cannot be partitioned");

    const colon = consumerFor("colon", "ingest_basic", { groupId: "snuba:consumers" });
    await expect(colon.start()).rejects.toThrow(/consumer group 'snuba:consumers' contains ':'/);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Commit-log lines once the last line of each partition says its end offset. */
async function waitForCommitLog(topic: string, partitions: number, ends: Map<number, bigint>) {
  let lines: Awaited<ReturnType<KafkaFixture["readTopic"]>> = [];
  await waitFor(
    `${topic} to reach the end offsets`,
    async () => {
      const count = (await kafka.endOffsets(topic)).get(0) ?? 0n;
      lines = await kafka.readTopic(topic, Number(count));
      const last = new Map<number, bigint>();
      for (const line of lines) {
        const commit = decodeCommitLogMessage(line.key!, line.value);
        last.set(commit.partition, commit.offset);
      }
      return last.size === partitions && [...ends].every(([partition, end]) => last.get(partition) === end);
    },
    30_000,
  );
  return lines;
}
