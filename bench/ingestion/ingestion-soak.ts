/**
 * The ingestion soak: messages on the five topics Sentry fills (1 % poison by default), consumed
 * by a `quarry consumer --storage all` process into a real ClickHouse server, while the consumer
 * is SIGKILLed again and again and the server is killed once and brought back. At the end every
 * count, sum and cardinality read back through SnQL must equal what was produced, every poison
 * message must be in its dead-letter topic with a reason, and each commit log's last line per
 * partition must name that partition's end offset.
 *
 * Run by bench/ingestion/run-ingestion-soak.ts (1,000,000 messages) and, small, by
 * test/ingestion/ingestion-soak.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { Kafka, logLevel, type Admin, type Message } from "kafkajs";
import { startClickHouseServer, type RunningClickHouseServer } from "../../scripts/test-services/clickhouse-server.js";
import { createColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { decodeCommitLogMessage } from "../../src/ingestion/commit-log-message.js";
import { startServer } from "../../src/server/start-server.js";
import { startQuarry, type QuarryProcess } from "../../test/support/quarry-process.js";
import { emptyExpectation, expect as addExpected, GENERIC_METRIC_ID, RELEASE_HEALTH_METRIC_ID, SOAK_ORG, SOAK_PROJECTS, SOAK_TOPICS, soakMessage, type SoakExpectation, type SoakTopic, type SoakWindow } from "./soak-messages.js";

export interface SoakOptions {
  readonly brokers: readonly string[];
  readonly messages: number;
  /** SIGKILLs of the consumer process, spread over the run. */
  readonly consumerKills: number;
  /** Whether the ClickHouse server is killed (and started again on its data) once mid-run. */
  readonly engineOutage: boolean;
  /** One in this many messages of each topic is poison; 0: none. */
  readonly poisonEvery: number;
  readonly partitions: number;
  /** Time between two faults (a consumer SIGKILL or the engine outage); the first comes this long after the start. */
  readonly faultGapMs: number;
  /** Messages per second the producer aims at (0: as fast as it can). */
  readonly produceRate: number;
  readonly log: (line: string) => void;
}

export interface SoakCheck {
  readonly what: string;
  readonly expected: number;
  readonly found: number;
}

export interface SoakReport {
  readonly messages: number;
  readonly consumerKills: number;
  readonly engineOutages: number;
  readonly produceSeconds: number;
  /** From the first message produced to the last committed offset. */
  readonly totalSeconds: number;
  readonly checks: readonly SoakCheck[];
  /** The consumer's /health answers while the engine was down (every 0.5 s). */
  readonly outageHealth: readonly { readonly status: number; readonly body: string }[];
  readonly ok: boolean;
}

/** The storages' source topics, commit logs and dead letters, renamed for this run. */
function topicMap(run: string): Record<string, string> {
  const names = [
    ...SOAK_TOPICS,
    "snuba-commit-log",
    "snuba-transactions-commit-log",
    "snuba-generic-metrics-counters-commit-log",
    "snuba-generic-metrics-sets-commit-log",
    "snuba-generic-metrics-distributions-commit-log",
    "snuba-generic-metrics-gauges-commit-log",
    "snuba-metrics-commit-log",
    "snuba-items-commit-log",
    "snuba-dead-letter-events",
    "snuba-dead-letter-transactions",
    "snuba-dead-letter-generic-metrics",
    "snuba-dead-letter-metrics",
    "snuba-dead-letter-items",
    "event-replacements",
  ];
  return Object.fromEntries(names.map((name) => [name, `${name}-${run}`]));
}

const DEAD_LETTERS: Record<SoakTopic, string> = {
  events: "snuba-dead-letter-events",
  transactions: "snuba-dead-letter-transactions",
  "snuba-generic-metrics": "snuba-dead-letter-generic-metrics",
  "snuba-metrics": "snuba-dead-letter-metrics",
  "snuba-items": "snuba-dead-letter-items",
};

/** Each storage's group on its source topic, and its commit log. */
function followedGroups(): { storage: string; topic: string; group: string; commitLog: string }[] {
  return defaultRegistry()
    .storages()
    .filter((storage) => storage.streamLoader !== undefined)
    .map((storage) => ({ storage: storage.name, topic: storage.streamLoader!.sourceTopic, group: storage.streamLoader!.consumerGroup, commitLog: storage.streamLoader!.commitLogTopic }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function endOffsets(admin: Admin, topic: string): Promise<Map<number, bigint>> {
  return new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.high)]));
}

/** Whether every storage's group has committed its topic's end offset on every partition. */
async function caughtUp(admin: Admin, topics: Record<string, string>): Promise<boolean> {
  for (const { topic, group } of followedGroups()) {
    const physical = topics[topic]!;
    const ends = await endOffsets(admin, physical);
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [physical] });
    for (const [partition, end] of ends) {
      const offset = committed?.partitions.find((p) => p.partition === partition)?.offset ?? "-1";
      // A partition that never held a message has nothing to commit (events are keyed by project: some partitions stay empty).
      if (end === 0n) continue;
      if (BigInt(offset) !== end) return false;
    }
  }
  return true;
}

/** The consumer process's /health answer, once it has printed its port; null before that or when it does not answer. */
async function consumerHealth(consumer: QuarryProcess): Promise<{ status: number; body: string } | null> {
  const port = /\/health and \/metrics on http:\/\/[\d.]+:(\d+)/.exec(consumer.output)?.[1];
  if (!port) return null;
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) });
    return { status: response.status, body: await response.text() };
  } catch {
    return null;
  }
}

/** How much of the produced messages the storages' groups have committed, e.g. "41 %". */
async function committedShare(admin: Admin, topics: Record<string, string>): Promise<string> {
  let ends = 0n;
  let committed = 0n;
  for (const { topic, group } of followedGroups()) {
    const physical = topics[topic]!;
    const topicEnds = await endOffsets(admin, physical);
    const [offsets] = await admin.fetchOffsets({ groupId: group, topics: [physical] });
    for (const [partition, end] of topicEnds) {
      ends += end;
      const offset = BigInt(offsets?.partitions.find((p) => p.partition === partition)?.offset ?? "-1");
      if (offset > 0n) committed += offset;
    }
  }
  return ends === 0n ? "nothing produced yet, 0 %" : `${Number((committed * 1000n) / ends) / 10} %`;
}

/** Reads a topic from the beginning to its current end. */
async function readAll(kafka: Kafka, admin: Admin, topic: string): Promise<{ partition: number; key: string | null; value: Buffer | null; headers: Record<string, string> }[]> {
  const ends = await endOffsets(admin, topic);
  const total = [...ends.values()].reduce((sum, end) => sum + end, 0n);
  const read: { partition: number; key: string | null; value: Buffer | null; headers: Record<string, string> }[] = [];
  if (total === 0n) return read;
  const consumer = kafka.consumer({ groupId: `soak-reader-${randomUUID()}`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  const seen = new Map<number, bigint>();
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async ({ partition, message }) => {
        read.push({
          partition,
          key: message.key?.toString() ?? null,
          value: message.value,
          headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)])),
        });
        seen.set(partition, BigInt(message.offset) + 1n);
        if ([...ends].every(([p, end]) => end === 0n || (seen.get(p) ?? 0n) >= end)) resolve();
      },
    });
  });
  await consumer.disconnect();
  return read;
}

async function produceAll(kafka: Kafka, topics: Record<string, string>, options: SoakOptions, window: SoakWindow, expectation: SoakExpectation): Promise<void> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const chunk = 2000;
  const started = Date.now();
  for (let first = 0; first < options.messages; first += chunk) {
    const byTopic = new Map<string, Message[]>();
    for (let index = first; index < Math.min(options.messages, first + chunk); index++) {
      const message = soakMessage(index, window, options.poisonEvery);
      addExpected(expectation, index, window, options.poisonEvery);
      const physical = topics[message.topic]!;
      const list = byTopic.get(physical) ?? [];
      list.push({ key: message.key, value: message.value, ...(message.headers ? { headers: message.headers } : {}) });
      byTopic.set(physical, list);
    }
    await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    if (options.produceRate > 0) {
      const due = started + ((first + chunk) / options.produceRate) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
    }
  }
  await producer.disconnect();
}

async function readBack(server: RunningClickHouseServer, window: SoakWindow): Promise<Record<string, number>> {
  const columnstore = createColumnstoreClient({ dataDir: "", clickhouseUrl: server.url, clickhouseUser: "default", clickhousePassword: "" });
  const query = await startServer({ host: "127.0.0.1", port: 0, definitions: defaultRegistry(), columnstore, subscriptions: { scheduler: false } });
  try {
    const from = new Date((window.start - 60) * 1000).toISOString().slice(0, 19);
    const to = new Date((window.end + 60) * 1000).toISOString().slice(0, 19);
    const projects = `project_id IN tuple(${SOAK_PROJECTS.join(", ")})`;
    const range = `timestamp >= toDateTime('${from}') AND timestamp < toDateTime('${to}')`;
    const snql = async (dataset: string, text: string): Promise<number> => {
      const response = await fetch(`http://127.0.0.1:${query.port}/${dataset}/snql`, {
        method: "POST",
        body: JSON.stringify({ query: text, tenant_ids: { organization_id: SOAK_ORG, referrer: "bench.ingestion-soak" }, consistent: true }),
      });
      const body = (await response.json()) as { data?: { v: number | string }[]; error?: unknown };
      if (response.status !== 200) throw new Error(`${text}: ${JSON.stringify(body.error)}`);
      return Number(body.data?.[0]?.v ?? 0);
    };
    const metric = (id: number) => `org_id = ${SOAK_ORG} AND ${projects} AND metric_id = ${id} AND ${range} GRANULARITY 60`;
    return {
      events: await snql("events", `MATCH (events) SELECT count() AS v WHERE ${projects} AND ${range}`),
      eventIds: await snql("events", `MATCH (events) SELECT uniqExact(event_id) AS v WHERE ${projects} AND ${range}`),
      transactions: await snql("transactions", `MATCH (transactions) SELECT count() AS v WHERE ${projects} AND finish_ts >= toDateTime('${from}') AND finish_ts < toDateTime('${to}')`),
      counterSum: await snql("generic_metrics", `MATCH (generic_metrics_counters) SELECT sum(value) AS v WHERE ${metric(GENERIC_METRIC_ID)}`),
      setMembers: await snql("generic_metrics", `MATCH (generic_metrics_sets) SELECT uniq(value) AS v WHERE ${metric(GENERIC_METRIC_ID)}`),
      distributionValues: await snql("generic_metrics", `MATCH (generic_metrics_distributions) SELECT count(value) AS v WHERE ${metric(GENERIC_METRIC_ID)}`),
      gauges: await snql("generic_metrics", `MATCH (generic_metrics_gauges) SELECT count(value) AS v WHERE ${metric(GENERIC_METRIC_ID)}`),
      releaseHealthSum: await snql("metrics", `MATCH (metrics_counters) SELECT sum(value) AS v WHERE ${metric(RELEASE_HEALTH_METRIC_ID)}`),
      items: await snql("events_analytics_platform", `MATCH (eap_items) SELECT count() AS v WHERE organization_id = ${SOAK_ORG} AND project_id IN tuple(1, 2, 3) AND ${range}`),
    };
  } finally {
    await query.close();
    await columnstore.close();
  }
}

export async function runIngestionSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log;
  const run = randomUUID().slice(0, 8);
  const topics = topicMap(run);
  const now = Math.floor(Date.now() / 1000);
  // Within the last hour: inside every table's retention and the read-back's range.
  const window: SoakWindow = { start: now - 3600, end: now };
  const kafka = new Kafka({ clientId: `soak-${run}`, brokers: [...options.brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-soak-"));
  const server = await startClickHouseServer({ dataDir: join(dataDir, "clickhouse") });
  let consumer: QuarryProcess | null = null;
  try {
    const migrations = createColumnstoreClient({ dataDir: "", clickhouseUrl: server.url, clickhouseUser: "default", clickhousePassword: "" });
    await runMigrations(migrations.client, defaultRegistry(), () => {});
    await migrations.close();
    await admin.createTopics({
      waitForLeaders: true,
      topics: SOAK_TOPICS.map((topic) => ({ topic: topics[topic]!, numPartitions: options.partitions, configEntries: [{ name: "message.timestamp.type", value: "LogAppendTime" }] })),
    });
    const env = {
      CLICKHOUSE_URL: server.url,
      KAFKA_BROKERS: options.brokers.join(","),
      QUARRY_KAFKA_TOPICS: JSON.stringify(topics),
      QUARRY_CONSUMER_PORT: "0",
      QUARRY_CONSUMER_MAX_BATCH_TIME_MS: "500",
      // A consumer that lags and cannot write for 2 s is reported on /health (the outage shows it).
      QUARRY_CONSUMER_STUCK_SECONDS: "2",
    };
    const startConsumer = () => {
      consumer = startQuarry(["consumer", "--storage", "all"], env);
      return consumer;
    };
    startConsumer();

    const expectation = emptyExpectation();
    const started = Date.now();
    let producing = true;
    let producedAt = 0;
    const production = produceAll(kafka, topics, options, window, expectation).finally(() => {
      producing = false;
      producedAt = Date.now();
    });
    production.catch(() => {});
    // Faults every `faultGapMs`, from the start of production on: each SIGKILL lands on a consumer
    // that has had that long to join its groups and write; the outage comes halfway through.
    const faults = options.consumerKills + (options.engineOutage ? 1 : 0);
    const outageHealth: { status: number; body: string }[] = [];
    let kills = 0;
    let outages = 0;
    for (let fault = 0; fault < faults; fault++) {
      await sleep(options.faultGapMs);
      const outageNow = options.engineOutage && outages === 0 && fault === Math.floor((faults - 1) / 2);
      if (outageNow) {
        log(`soak: killing the ClickHouse server (pid ${server.pid}) for 5 s`);
        server.kill("SIGKILL");
        const outageEnds = Date.now() + 5000;
        while (Date.now() < outageEnds) {
          const health = await consumerHealth(consumer!);
          if (health) outageHealth.push(health);
          await sleep(500);
        }
        await server.restart();
        outages += 1;
        continue;
      }
      const victim: QuarryProcess = consumer!;
      log(`soak: SIGKILL ${kills + 1} of the consumer (pid ${victim.pid})${producing ? "" : ", production done"}; ${await committedShare(admin, topics)} committed`);
      victim.signal("SIGKILL");
      await victim.exited;
      kills += 1;
      startConsumer();
    }
    await production;
    const produceSeconds = (producedAt - started) / 1000;
    log(`soak: ${options.messages} messages produced in ${produceSeconds.toFixed(1)} s; waiting for every group to commit the end offsets`);
    const deadline = Date.now() + 30 * 60_000;
    while (!(await caughtUp(admin, topics))) {
      if (Date.now() > deadline) throw new Error(`the consumers did not catch up within 30 minutes\n--- consumer output ---\n${(consumer as QuarryProcess | null)?.output.slice(-4000)}`);
      await sleep(1000);
    }
    const totalSeconds = (Date.now() - started) / 1000;
    const last = consumer as QuarryProcess | null;
    // SIGTERM once it runs (a signal before node has loaded the command ends it by the signal).
    const readyBy = Date.now() + 60_000;
    while (last && !/\/health and \/metrics on/.test(last.output) && Date.now() < readyBy) await sleep(200);
    last?.signal("SIGTERM");
    const code = await last?.exited;
    if (code !== 0) throw new Error(`the consumer exited ${code} on SIGTERM\n${last?.output.slice(-4000)}`);
    consumer = null;

    const found = await readBack(server, window);
    const checks: SoakCheck[] = [
      { what: "error events", expected: expectation.events, found: found.events! },
      { what: "distinct event ids", expected: expectation.eventIds, found: found.eventIds! },
      { what: "transactions", expected: expectation.transactions, found: found.transactions! },
      { what: "generic counter sum", expected: expectation.counterSum, found: found.counterSum! },
      { what: "generic set cardinality", expected: expectation.setMembers.size, found: found.setMembers! },
      { what: "generic distribution values", expected: expectation.distributionValues, found: found.distributionValues! },
      { what: "generic gauge samples", expected: expectation.gauges, found: found.gauges! },
      { what: "release-health counter sum", expected: expectation.releaseHealthSum, found: found.releaseHealthSum! },
      { what: "EAP items", expected: expectation.items, found: found.items! },
    ];
    // Poison: each topic's dead letters, by their original position (the four generic-metrics groups each send theirs).
    for (const topic of SOAK_TOPICS) {
      const letters = await readAll(kafka, admin, topics[DEAD_LETTERS[topic]]!);
      const withReason = letters.filter((letter) => (letter.headers.reason ?? "").length > 0);
      const positions = new Set(withReason.map((letter) => `${letter.headers.original_partition}:${letter.headers.original_offset}`));
      checks.push({ what: `poison on ${topic} in its dead-letter topic, with a reason`, expected: expectation.poison[topic], found: positions.size });
    }
    // The commit logs: per source partition and group, the last line names the partition's end offset.
    for (const { storage, topic, group, commitLog } of followedGroups()) {
      const ends = await endOffsets(admin, topics[topic]!);
      const lines = await readAll(kafka, admin, topics[commitLog]!);
      const lastOffsets = new Map<number, bigint>();
      for (const line of lines) {
        const decoded = decodeCommitLogMessage(line.key ?? "", line.value?.toString() ?? "");
        if (decoded.group === group) lastOffsets.set(decoded.partition, decoded.offset);
      }
      const matching = [...ends].filter(([partition, end]) => lastOffsets.get(partition) === end || (end === 0n && !lastOffsets.has(partition))).length;
      checks.push({ what: `${storage}: partitions whose last commit-log line is their end offset`, expected: ends.size, found: matching });
    }
    for (const check of checks) log(`soak: ${check.expected === check.found ? "ok  " : "FAIL"} ${check.what}: expected ${check.expected}, found ${check.found}`);
    return {
      messages: options.messages,
      consumerKills: kills,
      engineOutages: outages,
      produceSeconds,
      totalSeconds,
      checks,
      outageHealth,
      ok: checks.every((check) => check.expected === check.found),
    };
  } finally {
    const running = consumer as QuarryProcess | null;
    running?.signal("SIGKILL");
    await running?.exited;
    await admin.disconnect();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
