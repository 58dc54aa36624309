/**
 * Issue 65 end to end: subscriptions scheduled by the ingestion commit log publish exact counts
 * through a broker outage, where the wall clock publishes short ones.
 *
 * A private Kafka broker (it is SIGSTOPped; the shared one is never paused), and on it a Python
 * producer (confluent-kafka, i.e. librdkafka with its default partitioner, key = project id) that
 * produces error events without pause, each event's time being its produce time (Kafka timestamp,
 * `datetime`, `data.received`), every event to two topics. Two `quarry serve` processes side by side,
 * each with the errors consumer on its own topics and group and results on its own topic: A on the
 * commit-log clock (QUARRY_SUBSCRIPTION_CLOCK=auto: events follows its commit log in partition
 * mode, the topic having 16 partitions like the entity), B on the wall clock. Each has a count()
 * subscription (resolution 60, window 60) per project: three projects with events, one without
 * any (its partition stays empty, so the idle-partition rule is what moves it).
 *
 * About a minute after the subscriptions exist the broker is paused for 150 s; the producer keeps
 * producing into librdkafka's buffers, which go out when the broker answers again. Then A must
 * publish every window of the run, each with exactly the number of delivered events of its project
 * and minute; B, whose windows ran by the wall clock while the broker was paused (its consumer
 * could not fetch what was produced), must show at least one short count.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel, type Consumer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureConfluentKafka } from "../../scripts/test-services/confluent-kafka.js";
import { freePorts } from "../../scripts/test-services/free-port.js";
import { ensureJava, ensureKafkaJars, startKafka, type RunningKafka } from "../../scripts/test-services/kafka-broker.js";
import { partitionFor } from "../../src/subscriptions/scheduling/partitioner.js";
import { jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import { ROOT, startQuarry, waitFor, type QuarryProcess } from "../support/quarry-process.js";

const RUN = randomUUID().slice(0, 8);
/** The events entity's subscription partitions; the source topics get as many. */
const PARTITIONS = 16;
/** Projects with events and their share of them (3 : 5 : 7 of RATE, drawn at random): partitions 8, 2 and 4. */
const BUSY = [
  { project: 910_001, weight: 3 },
  { project: 910_002, weight: 5 },
  { project: 910_003, weight: 7 },
];
/** A subscribed project without events, on a partition (7) nothing is produced to. */
const IDLE_PROJECT = 910_004;
const PROJECTS = [...BUSY.map((busy) => busy.project), IDLE_PROJECT];
/** Events per second on average, over all projects (random arrivals: every minute counts differently). */
const RATE = 30;
/** How long the subscriptions run before the pause. */
const BEFORE_PAUSE_MS = 60_000;
const PAUSE_MS = 150_000;
/** The errors storage's subscription_delay_seconds: A's windows are due this long after the data. */
const DELAY_SECONDS = 30;
/** Beyond the delay, what the data needs to reach A's clock: a consumer batch (2 s), a commit-log read, a scheduling round. */
const LANDING_MARGIN_SECONDS = 8;
const PRODUCER = join(ROOT, "scripts/fixtures/error-event-producer.py");
const QUERY = "MATCH (events) SELECT count() AS count";

interface Side {
  readonly name: "A" | "B";
  readonly clock: "auto" | "wall";
  /** Snuba's topic names -> this side's. */
  readonly topics: Record<string, string>;
  readonly group: string;
  readonly resultTopic: string;
  readonly dataDir: string;
  port: number;
  serve?: QuarryProcess;
  /** Project -> subscription id. */
  readonly subscriptions: Map<number, string>;
}

interface Published {
  readonly subscriptionId: string;
  readonly windowEnd: number;
  readonly count: number;
}

interface Delivery {
  readonly topic: string;
  readonly partition: number;
  readonly project: number;
  readonly timestampMs: number;
}

function side(name: "A" | "B", clock: "auto" | "wall"): Side {
  const suffix = `${name.toLowerCase()}-${RUN}`;
  return {
    name,
    clock,
    topics: Object.fromEntries(["events", "snuba-commit-log", "snuba-dead-letter-events", "event-replacements"].map((topic) => [topic, `${topic}-${suffix}`])),
    group: `snuba-consumers-${suffix}`,
    resultTopic: `events-subscription-results-${suffix}`,
    dataDir: mkdtempSync(join(tmpdir(), `quarry-broker-pause-${name.toLowerCase()}-`)),
    port: 0,
    subscriptions: new Map(),
  };
}

const sides = [side("A", "auto"), side("B", "wall")] as const;
const [commitLog, wall] = sides;
const scratch = mkdtempSync(join(tmpdir(), "quarry-broker-pause-"));
const deliveriesFile = join(scratch, "deliveries.tsv");
const startedAt = Date.now();
/** When each step happened, seconds from the file's start (printed with the table). */
const timeline: string[] = [];
const mark = (what: string) => timeline.push(`${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s  ${what}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

let broker: RunningKafka | undefined;
let kafka: Kafka;
let producer: ChildProcess | undefined;
let producerOutput = "";
let producerExited: Promise<number | null>;
let productionStartMs = 0;
let resultReader: Consumer | undefined;
const published = new Map<string, Published[]>(sides.map((s) => [s.resultTopic, []]));

function startProducer(python: string): void {
  const projects = BUSY.map((busy) => `${busy.project}:${busy.weight}`).join(",");
  const topics = sides.map((s) => s.topics.events!).join(",");
  producer = spawn(python, ["-I", PRODUCER, broker!.brokers.join(","), topics, deliveriesFile, String(RATE), projects, RUN], { stdio: ["ignore", "pipe", "pipe"] });
  producer.stdout!.on("data", (chunk: Buffer) => (producerOutput += chunk.toString()));
  producer.stderr!.on("data", (chunk: Buffer) => (producerOutput += chunk.toString()));
  producerExited = new Promise((resolve) => producer!.once("exit", (code) => resolve(code)));
  productionStartMs = Date.now();
}

function startServe(s: Side): void {
  // Migrated before (no demo data to load); a single node: the embedded store, no cluster.
  s.serve = startQuarry(["serve"], {
    QUARRY_DATA_DIR: s.dataDir,
    PORT: String(s.port),
    ADMIN_PORT: "0",
    NATS_URL: "",
    KAFKA_BROKERS: broker!.brokers.join(","),
    QUARRY_CONSUMERS: "errors",
    QUARRY_KAFKA_TOPICS: JSON.stringify(s.topics),
    QUARRY_CONSUMER_GROUPS: JSON.stringify({ "snuba-consumers": s.group }),
    QUARRY_SUBSCRIPTION_TOPICS: JSON.stringify({ events: s.resultTopic }),
    QUARRY_SUBSCRIPTION_CLOCK: s.clock,
  });
}

async function serveReady(s: Side): Promise<void> {
  await waitFor(
    `serve ${s.name} to report ok on /health with its scheduler running`,
    async () => {
      const body = (await (await fetch(`http://127.0.0.1:${s.port}/health`)).json()) as { status?: string };
      return body.status === "ok" && s.serve!.output.includes("scheduler running") ? true : undefined;
    },
    180_000,
  ).catch((reason: unknown) => {
    throw new Error(`${String(reason)}\n--- serve ${s.name} output ---\n${s.serve!.output}`);
  });
}

async function subscribe(s: Side, project: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${s.port}/events/events/subscriptions`, {
    method: "POST",
    body: JSON.stringify({ project_id: project, time_window: 60, resolution: 60, query: QUERY, tenant_ids: { organization_id: 1, referrer: "test.broker-pause" } }),
  });
  const body = (await response.json()) as { subscription_id?: string };
  if (response.status !== 202 || !body.subscription_id) throw new Error(`creating a subscription on serve ${s.name} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.subscription_id;
}

/** Reads both result topics from their start, for the rest of the run. */
async function startResultReader(): Promise<Consumer> {
  const consumer = kafka.consumer({ groupId: `broker-pause-results-${RUN}`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics: sides.map((s) => s.resultTopic), fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      const parsed = JSON.parse(message.value!.toString()) as { payload: { subscription_id: string; timestamp: string; result: { data: { count: number }[] } } };
      const { subscription_id: subscriptionId, timestamp, result } = parsed.payload;
      published.get(topic)!.push({ subscriptionId, windowEnd: Date.parse(`${timestamp}Z`) / 1000, count: result.data[0]!.count });
    },
  });
  return consumer;
}

/** The windows [T − 60, T) with T in [first, last], of a side's subscriptions, that it has not published yet. */
function missing(s: Side, first: number, last: number): string[] {
  const seen = new Set(published.get(s.resultTopic)!.map((p) => `${p.subscriptionId}@${p.windowEnd}`));
  const absent: string[] = [];
  for (const [project, id] of s.subscriptions) {
    for (let t = first; t <= last; t += 60) if (!seen.has(`${id}@${t}`)) absent.push(`project ${project} T=${iso(t)}`);
  }
  return absent;
}

function readDeliveries(): Delivery[] {
  return readFileSync(deliveriesFile, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => {
      const [topic, partition, , project, timestampMs] = line.split("\t");
      return { topic: topic!, partition: Number(partition), project: Number(project), timestampMs: Number(timestampMs) };
    });
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().slice(11, 19);

/** `quarry migrate` of a side's data dir: it needs no broker, so it runs while the broker starts. */
async function migrate(s: Side): Promise<void> {
  const migration = startQuarry(["migrate"], { QUARRY_DATA_DIR: s.dataDir, NATS_URL: "", KAFKA_BROKERS: "" });
  const code = await migration.exited;
  if (code !== 0) throw new Error(`quarry migrate for serve ${s.name} exited ${code}:\n${migration.output}`);
}

beforeAll(async () => {
  const migrations = Promise.all(sides.map((s) => migrate(s)));
  // Awaited below; until then a failure must not count as unhandled.
  migrations.catch(() => undefined);
  const [python, java, libs] = await Promise.all([ensureConfluentKafka(), ensureJava(), ensureKafkaJars()]);
  broker = await startKafka(java, libs);
  mark(`private broker up (pid ${broker.pid})`);
  kafka = new Kafka({ clientId: "broker-pause-test", brokers: broker.brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  // The source topics with the entity's 16 partitions (so A follows its commit log in partition
  // mode), before anything is produced; the result topics so the reader can subscribe at once.
  await admin.createTopics({
    waitForLeaders: true,
    topics: [...sides.map((s) => ({ topic: s.topics.events!, numPartitions: PARTITIONS })), ...sides.map((s) => ({ topic: s.resultTopic, numPartitions: 1 }))],
  });
  await admin.disconnect();
  startProducer(python);
  const ports = await freePorts(2);
  sides.forEach((s, i) => (s.port = ports[i]!));
  await migrations;
  mark("both data dirs migrated");
  for (const s of sides) startServe(s);
  await Promise.all(sides.map((s) => serveReady(s)));
  mark("both serves ready");
}, 360_000);

afterAll(async () => {
  await resultReader?.disconnect().catch(() => undefined);
  if (producer && producer.exitCode === null && producer.signalCode === null) {
    producer.kill("SIGKILL");
    await producerExited;
  }
  for (const s of sides) {
    s.serve?.signal("SIGKILL");
    await s.serve?.exited;
  }
  // A failure during the pause leaves the broker stopped: it must run to take SIGTERM.
  if (broker?.pid !== undefined) process.kill(broker.pid, "SIGCONT");
  await broker?.stop();
  for (const dir of [scratch, ...sides.map((s) => s.dataDir)]) rmSync(dir, { recursive: true, force: true });
  console.log(`commit-log-broker-pause: wall time ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
}, 120_000);

describe("subscriptions on the commit-log clock through a 150 s broker pause", () => {
  it("publish every window with the exact count, where the wall clock publishes short ones", async () => {
    // A follows the commit log per partition; B does not follow it at all.
    expect(commitLog.serve!.output).toContain(`subscriptions: events follows the commit log ${commitLog.topics["snuba-commit-log"]} (partition mode, received_p99, ${DELAY_SECONDS} s behind)`);
    expect(wall.serve!.output).not.toContain("follows the commit log");

    for (const s of sides) {
      for (const project of PROJECTS) {
        const id = await subscribe(s, project);
        // A subscription's partition is its project's Kafka partition (crc32 of the key).
        expect(id.split("/")[0]).toBe(String(partitionFor(project, PARTITIONS)));
        s.subscriptions.set(project, id);
      }
    }
    const createdAtMs = Date.now();
    mark("subscriptions created");
    const jitter = (id: string) => jitterSeconds({ uuid: id.split("/")[1]!, resolution: 60 });

    await sleep(Math.max(createdAtMs, productionStartMs) + BEFORE_PAUSE_MS - Date.now());
    const pausedAtMs = Date.now();
    process.kill(broker!.pid!, "SIGSTOP");
    mark("broker SIGSTOP");
    await sleep(PAUSE_MS);
    process.kill(broker!.pid!, "SIGCONT");
    const resumedAtMs = Date.now();
    mark("broker SIGCONT");
    resultReader = await startResultReader();

    // The checked windows: from the first minute after the subscriptions exist to the first
    // minute at least 10 s after the resume (every window the pause touched; the last one also
    // holds events that reached the broker as they were produced after it).
    const first = Math.ceil(createdAtMs / 1000 / 60) * 60;
    const last = Math.ceil((resumedAtMs / 1000 + 10) / 60) * 60;
    // A window fires at T + jitter and A runs it once its partition's data reaches that second
    // plus the delay: production goes on until every subscription's last window can be due.
    const maxJitter = Math.max(...[...commitLog.subscriptions.values()].map(jitter));
    await sleep((last + maxJitter + DELAY_SECONDS + LANDING_MARGIN_SECONDS) * 1000 - Date.now());
    const stoppedAtMs = Date.now();
    producer!.kill("SIGTERM");
    mark("producer SIGTERM");
    expect(await producerExited, producerOutput).toBe(0);
    const summary = JSON.parse(producerOutput.trim().split("\n").at(-1)!) as { produced: number; delivered: number; failed: number; undelivered: number };
    // Every event reached both topics: the buffers outlasted the pause.
    expect(summary, producerOutput).toMatchObject({ failed: 0, undelivered: 0, delivered: summary.produced * sides.length });

    const outputs = () => sides.map((s) => `--- serve ${s.name} ---\n${s.serve!.output}`).join("\n");
    for (const s of sides) {
      await waitFor(`serve ${s.name} to publish every window ending ${iso(first)} .. ${iso(last)}`, async () => (missing(s, first, last).length === 0 ? true : undefined), 120_000).catch(
        (reason: unknown) => {
          throw new Error(`${String(reason)}; missing: ${missing(s, first, last).join(", ")}\n${outputs()}`);
        },
      );
    }

    mark("every window published by A and B");

    const deliveries = readDeliveries();
    expect(deliveries.length).toBe(summary.delivered);
    // librdkafka put each project on crc32(key) % 16, the partition its subscriptions have; the idle project's stays empty.
    for (const delivery of deliveries) expect(delivery.partition).toBe(partitionFor(delivery.project, PARTITIONS));
    expect(deliveries.some((delivery) => delivery.partition === partitionFor(IDLE_PROJECT, PARTITIONS))).toBe(false);
    // The producer went on producing while the broker was stopped.
    const duringPause = deliveries.filter((d) => d.topic === commitLog.topics.events && d.timestampMs >= pausedAtMs && d.timestampMs < resumedAtMs - 1000).length;
    expect(duringPause).toBeGreaterThan(RATE * (PAUSE_MS / 1000) * 0.8);

    /** Delivered events of `project` on `topic` whose `timestamp` (seconds) is in [T − 60, T). */
    const exact = new Map<string, number>();
    for (const delivery of deliveries) {
      const second = Math.floor(delivery.timestampMs / 1000);
      const key = `${delivery.topic}|${delivery.project}|${Math.floor(second / 60) * 60 + 60}`;
      exact.set(key, (exact.get(key) ?? 0) + 1);
    }
    const exactCount = (s: Side, project: number, t: number) => exact.get(`${s.topics.events}|${project}|${t}`) ?? 0;
    const values = (s: Side, project: number, t: number) => {
      const id = s.subscriptions.get(project)!;
      return published.get(s.resultTopic)!.filter((p) => p.subscriptionId === id && p.windowEnd === t).map((p) => p.count);
    };

    const rows: string[] = [`pause ${iso(pausedAtMs / 1000)} .. ${iso(resumedAtMs / 1000)}, production stopped ${iso(stoppedAtMs / 1000)}; T (UTC), exact / A / B per project`];
    rows.push(`T        ${PROJECTS.map((p) => String(p).padEnd(18)).join("")}`);
    const short: string[] = [];
    for (let t = first; t <= last; t += 60) {
      const cells: string[] = [];
      for (const project of PROJECTS) {
        const a = values(commitLog, project, t);
        const b = values(wall, project, t);
        cells.push(`${exactCount(commitLog, project, t)}/${a.join("+")}/${b.join("+")}`.padEnd(18));
        // A: the window is there, each copy (a retried publish) with the exact count.
        expect(a.length, `A, project ${project}, T=${iso(t)}`).toBeGreaterThan(0);
        for (const value of a) expect(value, `A, project ${project}, T=${iso(t)}`).toBe(exactCount(commitLog, project, t));
        if (b.some((value) => value < exactCount(wall, project, t))) short.push(`project ${project} T=${iso(t)}`);
      }
      rows.push(`${iso(t)} ${cells.join("")}`);
    }
    console.log(`${timeline.join("\n")}\n${rows.join("\n")}`);
    // The windows spanning the pause counted events that reached the broker only after it.
    const pauseWindow = Math.ceil(pausedAtMs / 1000 / 60) * 60 + 60;
    expect(exactCount(commitLog, BUSY[0]!.project, pauseWindow)).toBeGreaterThan(0);
    // B ran the windows that came due by the wall clock while the broker was stopped on what its
    // consumer had fetched before the pause, and published those short counts after it.
    expect(short.length, rows.join("\n")).toBeGreaterThan(0);
  }, 900_000);
});
