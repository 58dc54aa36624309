/**
 * The ingestion consumers on one process, a real Kafka broker and the embedded engine (issue 64's
 * bench). Each consumer is built as `quarry consumer` builds it (IngestionConsumers, one storage,
 * the storage YAML's stream_loader, default batching), on topics of 4 partitions named per run:
 *   (a) resident memory under a backlog of 10 × maxBufferedRows counters, sampled every 200 ms
 *       while a fresh group catches up;
 *   (b) rows/s of the generic-metrics counters and the errors consumer: the messages are produced
 *       first, then the time from start() until the group's committed offsets equal the topic's
 *       end offsets (polled every 100 ms) — and, in the same run, a bare batched insert of the
 *       same rows (processed up front, 50,000-row JSONEachRow blocks, the consumer's own INSERT
 *       statement) into the truncated table, and the ratio of the two;
 *   (c) end-to-end freshness at half the errors rate: each event's `datetime` is its produce time,
 *       and a query polls max(timestamp_ms) every 100 ms.
 * The broker is the test services' (scripts/test-services) unless KAFKA_BROKERS names one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { Registry } from "prom-client";
import { ensureJava, ensureKafkaJars, startKafka, type RunningKafka } from "../../scripts/test-services/kafka-broker.js";
import { createColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { jsonEachRowLine } from "../../src/clickhouse/json-each-row-line.js";
import { MIGRATIONS_TABLE, runMigrations } from "../../src/clickhouse/migrations.js";
import type { StorageDefinition } from "../../src/datasets/definition-types.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { DEFAULT_BATCHING } from "../../src/ingestion/consumer-options.js";
import { IngestionConsumers } from "../../src/ingestion/ingestion-consumers.js";
import type { IngestMessage } from "../../src/ingestion/message-processor.js";
import { createProcessor } from "../../src/ingestion/processor-registry.js";
import { insertSettings, type RowWriter } from "../../src/ingestion/range-insert.js";
import type { BenchRow, BenchSection } from "../bench-row.js";
import { counterMessage, errorMessage, type BenchMessage } from "./consumer-bench-messages.js";

const PARTITIONS = 4;
const BARE_BLOCK_ROWS = 50_000;
const COMMIT_POLL_MS = 100;
const RSS_SAMPLE_MS = 200;
const FRESHNESS_POLL_MS = 100;
const COUNTERS = "generic_metrics_counters_raw";
const ERRORS = "errors";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: readonly number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);
const count = (n: number) => Math.round(n).toLocaleString("en");
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
const benchStarted = performance.now();
const log = (line: string) => process.stderr.write(`ingestion bench [${((performance.now() - benchStarted) / 1000).toFixed(1)} s]: ${line}\n`);

interface Setting {
  readonly run: string;
  readonly kafka: Kafka;
  readonly brokers: string[];
  readonly admin: Admin;
  readonly producer: Producer;
  readonly client: ClickHouseClient;
  /** The engine's row writer (ColumnstoreClient.insertRows), as `quarry consumer` uses it. */
  readonly writeRows: RowWriter;
  readonly storages: readonly StorageDefinition[];
  readonly nowSeconds: number;
}

/** One consumer's catch-up over a backlog. */
interface CatchUp {
  readonly rows: number;
  readonly seconds: number;
  /** From start() until it resolved (topics checked, group joined). */
  readonly startSeconds: number;
  /** Wall time during which one of the consumer's INSERTs was in the engine (queued or running). */
  readonly engineSeconds: number;
  readonly inserts: number;
  readonly rssBefore: number;
  readonly rssPeak: number;
  readonly heapPeak: number;
  readonly externalPeak: number;
  readonly heldRowsPeak: number;
  readonly heldBytesPeak: number;
}

/** The same rows as one bare batched insert. */
interface BareInsert {
  readonly rows: number;
  readonly seconds: number;
  /** Processor time and JSONEachRow encoding time of the same messages (done before the timed inserts). */
  readonly processSeconds: number;
  readonly encodeSeconds: number;
}

function storageOf(setting: Setting, name: string): StorageDefinition {
  const storage = setting.storages.find((candidate) => candidate.name === name);
  if (!storage?.streamLoader) throw new Error(`storage ${name} has no stream_loader`);
  return storage;
}

async function createTopic(setting: Setting, topic: string): Promise<void> {
  await setting.admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }], waitForLeaders: true });
}

/**
 * Produces messages 0..total-1 round-robin over the partitions, a few requests in flight. A request
 * stays under 2 MB, so each partition's batch is well under the broker's 1 MB message limit.
 */
async function produce(setting: Setting, topic: string, total: number, make: (index: number) => BenchMessage): Promise<void> {
  const inFlight: Promise<unknown>[] = [];
  let messages: (BenchMessage & { partition: number })[] = [];
  let bytes = 0;
  const flush = async () => {
    const sending = setting.producer.send({ topic, acks: 1, messages });
    // Observed at once, so a failure while older requests are awaited is not an unhandled rejection.
    sending.catch(() => {});
    inFlight.push(sending);
    messages = [];
    bytes = 0;
    if (inFlight.length >= 4) await inFlight.shift();
  };
  for (let index = 0; index < total; index++) {
    const message = make(index);
    messages.push({ ...message, partition: index % PARTITIONS });
    bytes += message.value.length;
    if (bytes >= 2_000_000 || messages.length >= 4000) await flush();
  }
  if (messages.length > 0) await flush();
  await Promise.all(inFlight);
}

async function tableRows(client: ClickHouseClient, table: string): Promise<number> {
  const result = await client.query({ query: `SELECT count() AS n FROM ${table}`, format: "JSONEachRow" });
  return Number((await result.json<{ n: string | number }>())[0]!.n);
}

/** Empties every table holding rows (the storage's and the aggregated tables its views feed). */
async function truncateAll(client: ClickHouseClient): Promise<void> {
  const result = await client.query({
    query: `SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' AND total_rows > 0 AND name != '${MIGRATIONS_TABLE}'`,
    format: "JSONEachRow",
  });
  for (const { name } of await result.json<{ name: string }>()) await client.command({ query: `TRUNCATE TABLE ${name}` });
}

async function histogramSum(registry: Registry, name: string): Promise<{ sum: number; count: number }> {
  const metric = (await registry.getMetricsAsJSON()).find((candidate) => candidate.name === name);
  const values = (metric?.values ?? []) as { metricName?: string; value: number }[];
  return {
    sum: values.filter((value) => value.metricName === `${name}_sum`).reduce((total, value) => total + value.value, 0),
    count: values.filter((value) => value.metricName === `${name}_count`).reduce((total, value) => total + value.value, 0),
  };
}

/**
 * Wall time during which at least one INSERT is in the engine. The embedded engine runs one
 * statement at a time (its connection queues the others), so this is how long the engine was
 * kept busy; the sum of the INSERTs' durations counts the queueing of each partition's range.
 */
class EngineBusyClock {
  seconds = 0;
  private inFlight = 0;
  private since = 0;

  /** The writer, with its calls (the consumer's INSERTs) timed. */
  wrap(write: RowWriter): RowWriter {
    return async (table, settings, body) => {
      if (this.inFlight++ === 0) this.since = performance.now();
      try {
        await write(table, settings, body);
      } finally {
        if (--this.inFlight === 0) this.seconds += (performance.now() - this.since) / 1000;
      }
    };
  }
}

/** The storage's consumer as `quarry consumer --storage <name>` builds it, in a group and on topics of this run. */
function consumersFor(setting: Setting, storageName: string, topic: string, group: string, metrics: Registry, writeRows: RowWriter = setting.writeRows): IngestionConsumers {
  const storage = storageOf(setting, storageName);
  const loader = storage.streamLoader!;
  const suffix = `-${setting.run}`;
  const topicMap: Record<string, string> = {
    [loader.sourceTopic]: topic,
    [loader.commitLogTopic]: loader.commitLogTopic + suffix,
    [loader.deadLetterTopic]: loader.deadLetterTopic + suffix,
  };
  if (loader.replacementTopic !== null) topicMap[loader.replacementTopic] = loader.replacementTopic + suffix;
  const storages = setting.storages.map((candidate) => (candidate === storage ? { ...storage, streamLoader: { ...loader, consumerGroup: group } } : candidate));
  return new IngestionConsumers({ storages, selection: [storageName], brokers: setting.brokers, client: setting.client, writeRows, topicMap, log }, metrics);
}

/** Starts a fresh group on a produced backlog and waits until its committed offsets reach the end offsets. */
async function catchUp(setting: Setting, storageName: string, topic: string, phase: string): Promise<CatchUp> {
  const group = `bench-${storageName}-${phase}-${setting.run}`;
  const ends = new Map((await setting.admin.fetchTopicOffsets(topic)).map(({ partition, high }) => [partition, high]));
  const rows = [...ends.values()].reduce((total, high) => total + Number(high), 0);
  const metrics = new Registry();
  const engine = new EngineBusyClock();
  const consumers = consumersFor(setting, storageName, topic, group, metrics, engine.wrap(setting.writeRows));
  let rssPeak = 0;
  let heapPeak = 0;
  let externalPeak = 0;
  let heldRowsPeak = 0;
  let heldBytesPeak = 0;
  const sample = () => {
    const memory = process.memoryUsage();
    rssPeak = Math.max(rssPeak, memory.rss);
    heapPeak = Math.max(heapPeak, memory.heapTotal);
    externalPeak = Math.max(externalPeak, memory.external);
    const status = consumers.statuses()[0];
    if (status) {
      heldRowsPeak = Math.max(heldRowsPeak, status.heldRows);
      heldBytesPeak = Math.max(heldBytesPeak, status.heldBytes);
    }
  };
  const rssBefore = process.memoryUsage.rss();
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  const started = performance.now();
  try {
    await consumers.start();
    const startSeconds = (performance.now() - started) / 1000;
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const [offsets] = await setting.admin.fetchOffsets({ groupId: group, topics: [topic] });
      if ((offsets?.partitions ?? []).every(({ partition, offset }) => offset === ends.get(partition)) && offsets!.partitions.length === ends.size) break;
      const status = consumers.statuses()[0]!;
      if (status.state === "crashed") throw new Error(`the ${storageName} consumer crashed: ${status.error}`);
      if (Date.now() > deadline) throw new Error(`the ${storageName} consumer did not catch up within 10 minutes: ${JSON.stringify(status.partitions)}`);
      await sleep(COMMIT_POLL_MS);
    }
    const seconds = (performance.now() - started) / 1000;
    sample();
    const inserts = await histogramSum(metrics, "quarry_consumer_insert_duration_seconds");
    return { rows, seconds, startSeconds, engineSeconds: engine.seconds, inserts: inserts.count, rssBefore, rssPeak, heapPeak, externalPeak, heldRowsPeak, heldBytesPeak };
  } finally {
    clearInterval(sampler);
    await consumers.stop();
  }
}

/**
 * The same messages through the storage's processor and JSONEachRow encoding up front, then
 * INSERTed in 50,000-row blocks with the consumer's statement (deduplication token and settings),
 * one block at a time, timed.
 */
async function bareInsert(setting: Setting, storageName: string, total: number, make: (index: number) => BenchMessage): Promise<BareInsert> {
  const storage = storageOf(setting, storageName);
  const processor = createProcessor(storage.streamLoader!.processor)!;
  const blocks: string[] = [];
  let body = "";
  let rowsInBlock = 0;
  let processMs = 0;
  let encodeMs = 0;
  for (let index = 0; index < total; index++) {
    const message = make(index);
    const ingest: IngestMessage = {
      topic: "bench",
      partition: index % PARTITIONS,
      offset: String(Math.floor(index / PARTITIONS)),
      timestampMs: setting.nowSeconds * 1000,
      key: message.key === null ? null : Buffer.from(message.key),
      value: message.value,
      headers: message.headers ?? {},
    };
    const processStarted = performance.now();
    const processed = processor.process(ingest);
    const encodeStarted = performance.now();
    if (processed.kind !== "rows") throw new Error(`the bench's message ${index} made no rows (${processed.kind})`);
    for (const row of processed.rows) body += jsonEachRowLine(row);
    const encodeEnded = performance.now();
    processMs += encodeStarted - processStarted;
    encodeMs += encodeEnded - encodeStarted;
    rowsInBlock += processed.rows.length;
    if (rowsInBlock >= BARE_BLOCK_ROWS) {
      blocks.push(body);
      body = "";
      rowsInBlock = 0;
    }
  }
  if (body.length > 0) blocks.push(body);
  await truncateAll(setting.client);
  const started = performance.now();
  for (const [index, block] of blocks.entries()) {
    await setting.writeRows(storage.table, insertSettings(`bench:${setting.run}:${storageName}:${index}`), block);
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = await tableRows(setting.client, storage.table);
  if (rows !== total) throw new Error(`the bare insert wrote ${rows} rows of ${total}`);
  await truncateAll(setting.client);
  return { rows, seconds, processSeconds: processMs / 1000, encodeSeconds: encodeMs / 1000 };
}

/**
 * Kafka alone: a kafkajs consumer with the storage consumer's fetch settings that only counts the
 * messages; seconds from its first batch to the last message.
 */
async function fetchOnly(setting: Setting, topic: string, total: number): Promise<number> {
  const consumer = setting.kafka.consumer({ groupId: `bench-fetch-only-${topic}`, allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
  let seen = 0;
  let first = 0;
  let last = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        if (first === 0) first = performance.now();
        seen += batch.messages.length;
        if (seen >= total && last === 0) {
          last = performance.now();
          finished();
        }
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`fetching ${topic} took over 5 minutes`)), 5 * 60_000)));
    await Promise.race([done, timeout]).finally(() => clearTimeout(timer));
  } finally {
    await consumer.disconnect();
  }
  return (last - first) / 1000;
}

interface Throughput {
  readonly consumer: CatchUp;
  readonly bare: BareInsert;
  /** Kafka fetch and decode of the same messages alone. */
  readonly fetchSeconds: number;
}

/** Throughput of one storage's consumer and the bare insert of the same rows, in one run. */
async function throughput(setting: Setting, storageName: string, total: number, make: (index: number) => BenchMessage): Promise<Throughput> {
  const topic = `bench-${storageName}-throughput-${setting.run}`;
  await createTopic(setting, topic);
  log(`${storageName}: producing ${count(total)} messages`);
  await produce(setting, topic, total, make);
  log(`${storageName}: Kafka fetch alone`);
  const fetchSeconds = await fetchOnly(setting, topic, total);
  log(`${storageName}: bare insert`);
  const bare = await bareInsert(setting, storageName, total, make);
  log(`${storageName}: consumer`);
  const consumer = await catchUp(setting, storageName, topic, "throughput");
  const written = await tableRows(setting.client, storageOf(setting, storageName).table);
  if (written !== total) throw new Error(`the ${storageName} consumer wrote ${written} rows of ${total}`);
  await truncateAll(setting.client);
  return { consumer, bare, fetchSeconds };
}

/** Errors produced at `rate` for `seconds`, each stamped with its produce time; (answer time − newest visible stamp) every 100 ms. */
async function freshness(setting: Setting, rate: number, seconds: number): Promise<{ lags: number[]; produced: number }> {
  const topic = `bench-errors-freshness-${setting.run}`;
  await createTopic(setting, topic);
  const metrics = new Registry();
  const consumers = consumersFor(setting, ERRORS, topic, `bench-errors-freshness-${setting.run}`, metrics);
  await consumers.start();
  const lags: number[] = [];
  let producing = true;
  let produced = 0;
  try {
    const poller = (async () => {
      const first = Date.now();
      for (let tick = 1; producing; tick++) {
        const result = await setting.client.query({ query: "SELECT max(toUnixTimestamp64Milli(timestamp_ms)) AS newest FROM errors_local", format: "JSONEachRow" });
        const [row] = await result.json<{ newest: string | number | null }>();
        const answeredAt = Date.now();
        const newest = Number(row?.newest ?? 0);
        if (newest > 0) lags.push(answeredAt - newest);
        await sleep(Math.max(0, first + tick * FRESHNESS_POLL_MS - Date.now()));
      }
    })();
    const started = Date.now();
    // A batch every 10 ms of what is due by then; each event's datetime is when its batch is built.
    while (Date.now() - started < seconds * 1000) {
      const due = Math.floor(((Date.now() - started) / 1000) * rate);
      if (due > produced) {
        const now = Date.now();
        const messages = [];
        for (; produced < due; produced++) messages.push({ ...errorMessage(1_000_000_000 + produced, now), partition: produced % PARTITIONS });
        await setting.producer.send({ topic, acks: 1, messages });
      }
      await sleep(10);
    }
    producing = false;
    await poller;
  } finally {
    producing = false;
    await consumers.stop();
  }
  return { lags: lags.sort((a, b) => a - b), produced };
}

async function brokers(): Promise<{ brokers: string[]; kafka: RunningKafka | null }> {
  if (process.env.KAFKA_BROKERS) return { brokers: process.env.KAFKA_BROKERS.split(","), kafka: null };
  const kafka = await startKafka(await ensureJava(), await ensureKafkaJars());
  return { brokers: kafka.brokers, kafka };
}

export const ingestionConsumerBench: BenchSection = async ({ quick }) => {
  const countersTotal = quick ? 20_000 : 500_000;
  const errorsTotal = quick ? 5_000 : 100_000;
  const backlogTotal = quick ? 50_000 : 10 * DEFAULT_BATCHING.maxBufferedRows;
  const freshnessSeconds = quick ? 10 : 30;

  const broker = await brokers();
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-ingestion-bench-"));
  const columnstore = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const kafka = new Kafka({ clientId: "ingestion-bench", brokers: broker.brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  try {
    const registry = defaultRegistry();
    await runMigrations(columnstore.client, registry);
    await admin.connect();
    await producer.connect();
    const setting: Setting = {
      run: randomUUID().slice(0, 8),
      kafka,
      brokers: broker.brokers,
      admin,
      producer,
      client: columnstore.client,
      writeRows: (table, settings, body) => columnstore.insertRows(table, settings, body),
      storages: registry.storages(),
      nowSeconds: Math.floor(Date.now() / 1000),
    };
    const counters = (index: number) => counterMessage(index, setting.nowSeconds);
    const errors = (index: number) => errorMessage(index, (setting.nowSeconds - 3600) * 1000 + ((index * 7919) % 3_600_000));

    // (a) First, while the process holds nothing else of the bench's.
    const backlogTopic = `bench-${COUNTERS}-backlog-${setting.run}`;
    await createTopic(setting, backlogTopic);
    log(`backlog: producing ${count(backlogTotal)} counters`);
    await produce(setting, backlogTopic, backlogTotal, (index) => counterMessage(10_000_000 + index, setting.nowSeconds));
    const backlog = await catchUp(setting, COUNTERS, backlogTopic, "backlog");
    await truncateAll(setting.client);

    // (b)
    const countersRun = await throughput(setting, COUNTERS, countersTotal, counters);
    const errorsRun = await throughput(setting, ERRORS, errorsTotal, errors);

    // (c) At half the errors consumer's rate just measured.
    const errorsRate = errorsRun.consumer.rows / errorsRun.consumer.seconds;
    const freshRate = Math.max(100, Math.round(errorsRate / 2));
    log(`freshness: ${count(freshRate)} events/s for ${freshnessSeconds} s`);
    const fresh = await freshness(setting, freshRate, freshnessSeconds);

    const batchSeconds = DEFAULT_BATCHING.maxBatchTimeMs / 1000;
    return [
      throughputRow("Generic-metrics counters consumer (generic_metrics_counters_raw, its view into the aggregated table)", countersRun, 100_000),
      throughputRow("Errors consumer (errors)", errorsRun, 20_000),
      {
        bench: `Errors end-to-end freshness at half the errors rate (${count(freshRate)} events/s for ${freshnessSeconds} s, 4 partitions, default batching): produce time → visible to SELECT max(timestamp_ms), polled every ${FRESHNESS_POLL_MS} ms`,
        figure:
          fresh.lags.length === 0
            ? "no event became visible"
            : `p50 ${(percentile(fresh.lags, 0.5) / 1000).toFixed(2)} s, p99 ${(percentile(fresh.lags, 0.99) / 1000).toFixed(2)} s, max ${(fresh.lags[fresh.lags.length - 1]! / 1000).toFixed(2)} s (${count(fresh.lags.length)} polls, ${count(fresh.produced)} events; a poll's time is when its answer arrived)`,
        target: `p99 ≤ batch time + 1 s = ${(batchSeconds + 1).toFixed(0)} s`,
      },
      {
        bench: `Resident memory under a backlog of ${count(backlogTotal)} counters (${(backlogTotal / DEFAULT_BATCHING.maxBufferedRows).toFixed(1)} × maxBufferedRows), fresh group catching up; RSS of the whole process (Node and the embedded engine) every ${RSS_SAMPLE_MS} ms`,
        figure: `RSS peak ${mib(backlog.rssPeak)}, before start ${mib(backlog.rssBefore)} (+${mib(backlog.rssPeak - backlog.rssBefore)}); V8 heap peak ${mib(backlog.heapPeak)}, external peak ${mib(backlog.externalPeak)} (the rest is the engine's and the allocator's); the consumer held at most ${count(backlog.heldRowsPeak)} rows, ${mib(backlog.heldBytesPeak)}; caught up at ${count(backlog.rows / backlog.seconds)} rows/s`,
        target: `bounded: docs/ingestion.md states ≤ maxBufferedRows (${count(DEFAULT_BATCHING.maxBufferedRows)}) rows + one message and ≤ maxBufferedBytes (${mib(DEFAULT_BATCHING.maxBufferedBytes)}) + one message held, plus kafkajs's fetch buffers (≤ 10 MiB)`,
      },
    ];
  } finally {
    await producer.disconnect().catch(() => {});
    await admin.disconnect().catch(() => {});
    await columnstore.close();
    rmSync(dataDir, { recursive: true, force: true });
    await broker.kafka?.stop();
  }
};

function throughputRow(what: string, result: Throughput, target: number): BenchRow {
  const { consumer, bare, fetchSeconds } = result;
  const consumerRate = consumer.rows / consumer.seconds;
  const bareRate = bare.rows / bare.seconds;
  const perMessage = (seconds: number) => `${((seconds / consumer.rows) * 1e6).toFixed(1)} µs`;
  return {
    bench: `${what}: ${count(consumer.rows)} messages produced first on 4 partitions, start() → committed offsets = end offsets (polled every ${COMMIT_POLL_MS} ms); bare batched insert of the same rows (processed up front, ${count(BARE_BLOCK_ROWS)}-row JSONEachRow blocks, the consumer's INSERT statement) into the same engine`,
    figure:
      `consumer ${count(consumerRate)} rows/s (${consumer.seconds.toFixed(1)} s); bare insert ${count(bareRate)} rows/s (${bare.seconds.toFixed(1)} s); ratio ${(consumerRate / bareRate).toFixed(2)}. ` +
      `Where the time goes: an INSERT was in the engine ${consumer.engineSeconds.toFixed(1)} s of the ${consumer.seconds.toFixed(1)} s (${count(consumer.inserts)} INSERTs); ` +
      `per message on the JS thread, processing ${perMessage(bare.processSeconds)} and encoding the rows as JSONEachRow ${perMessage(bare.encodeSeconds)} (timed on the bare path); ` +
      `Kafka fetch and decode alone (kafkajs, same fetch settings) ${count(consumer.rows / fetchSeconds)} messages/s`,
    target: `≥ ${count(target)} rows/s; ratio ≥ 0.7`,
  };
}
