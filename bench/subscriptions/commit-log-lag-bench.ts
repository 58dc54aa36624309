/**
 * Subscriptions scheduled by the ingestion commit log (issue 65): the lag behind the commit log,
 * p99, at 10,000 subscriptions.
 *
 * A real Kafka broker carries a commit-log topic of this run's own, written exactly as an
 * ingestion consumer writes it (storage-consumer.ts: the idempotent producer, acks from every
 * replica, partition 0, the topic's settings): one commit per second per source partition of the
 * events storage (16, `partition` mode), orig_message_ts = received_p99 = the time of sending,
 * each partition at its own sixteenth of the second. A CommitLogClock reads it, and a
 * SubscriptionScheduler takes its horizon through `horizonFor` (as `serve` wires it), with the
 * store, checkpoints and statuses in the embedded engine, `serve`'s defaults, and results
 * published to Kafka by the KafkaPublisher. The subscriptions (resolution 60, one per project,
 * three query shapes) are spread over the 16 partitions and every jitter second.
 *
 * The lag of a window: when Kafka acknowledged its result less when the commit that made it due
 * was sent (commit-log-lag-ledger.ts). Measured over the windows made due by commits sent during
 * `--duration` seconds after `--warmup` seconds; the run then goes on (the commit log too) for
 * up to `--drain` seconds so that late windows can still publish; those that do not count with
 * the lag they had by then, and the quantiles they reach are marked "≥".
 *
 * Twice in one run, with the same subscriptions, broker and engine:
 *   (a) an executor that runs no query (a fixed count at once): the clock, the scheduler and the
 *       publisher alone;
 *   (b) the PipelineExecutor on the embedded engine (allocation policies opened up, `serve`'s
 *       concurrency of 8, cache and query log as in `serve`) over synthetic events of every project.
 * The broker is the test services' when KAFKA_BROKERS names one, else one started here.
 */
import { loadSyntheticEvents } from "./synthetic-events.js";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { Registry } from "prom-client";
import { ensureJava, ensureKafkaJars, startKafka, type RunningKafka } from "../../scripts/test-services/kafka-broker.js";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import type { DefinitionLookup } from "../../src/datasets/definition-lookup.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { encodeCommitLogMessage } from "../../src/ingestion/commit-log-message.js";
import { QueryBackend } from "../../src/pipeline/query-backend.js";
import { PipelineExecutor, type SubscriptionExecutor, type WindowResult } from "../../src/subscriptions/execution/executor.js";
import type { CompiledSubscription } from "../../src/subscriptions/execution/subscription-query.js";
import { KafkaPublisher } from "../../src/subscriptions/publishing/kafka-publisher.js";
import type { PublishableResult } from "../../src/subscriptions/publishing/result-message.js";
import type { ResultPublisher } from "../../src/subscriptions/publishing/result-publisher.js";
import { systemClock } from "../../src/subscriptions/scheduling/clock.js";
import { CommitLogClock, type FollowedEntity } from "../../src/subscriptions/scheduling/commit-log-clock.js";
import { followedEntities } from "../../src/subscriptions/scheduling/followed-entities.js";
import { allPartitions } from "../../src/subscriptions/scheduling/partition-assignment.js";
import { partitionFor } from "../../src/subscriptions/scheduling/partitioner.js";
import { dueWindows, jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import { DEFAULT_STALE_THRESHOLD_SECONDS, SubscriptionScheduler } from "../../src/subscriptions/scheduling/scheduler.js";
import { SubscriptionMetrics } from "../../src/subscriptions/scheduling/subscription-metrics.js";
import { ClickHouseCheckpointStore } from "../../src/subscriptions/store/clickhouse-checkpoint-store.js";
import { ClickHouseStatusStore } from "../../src/subscriptions/store/clickhouse-status-store.js";
import { ClickHouseSubscriptionStore } from "../../src/subscriptions/store/clickhouse-subscription-store.js";
import { SubscriptionStatusBook } from "../../src/subscriptions/store/subscription-status.js";
import { formatSubscriptionId, type Subscription } from "../../src/subscriptions/store/subscription.js";
import type { BenchRow, BenchSection } from "../bench-row.js";
import { LagLedger, lagQuantile, quantile, type ExpectedWindow, type LagFigures, type LagSample } from "./commit-log-lag-ledger.js";

const ENTITY = "events";
const RESOLUTION = 60;
const TIME_WINDOW = 3600;
/** `serve`'s QUARRY_SUBSCRIPTION_CONCURRENCY default. */
const ENGINE_CONCURRENCY = 8;
const EVENTS_PER_PROJECT = 20;
const HORIZON_POLL_MS = 10;
const SAMPLE_MS = 1000;
/** Three query shapes Sentry's alert rules use, spread over the subscriptions (as subscription-bench.ts). */
const QUERIES = ["MATCH (events) SELECT count() AS count", "MATCH (events) SELECT uniq(user) AS users WHERE level = 'error'", "MATCH (events) SELECT count() AS count BY level"];
/** One organization owns every subscription: its default policies would allow 50 queries a second. */
const OPEN_POLICIES = {
  ConcurrentRateLimitAllocationPolicy: { concurrent_limit: 100_000 },
  PerSecondRateLimitAllocationPolicy: { per_second_limit: 1_000_000 },
  BytesScannedWindowAllocationPolicy: { org_limit_bytes_scanned: 1e18 },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (n: number) => Math.round(n).toLocaleString("en");
const seconds = (ms: number) => (Number.isNaN(ms) ? "–" : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);
const benchStarted = performance.now();
const log = (line: string) => process.stderr.write(`commit-log lag bench [${((performance.now() - benchStarted) / 1000).toFixed(1)} s]: ${line}\n`);

interface LagOptions {
  readonly subscriptions: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly drainSeconds: number;
}

/** `--<name> <n>` on the command line (npm run bench -- --only commit-log-lag --duration 300). */
function numberFlag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number, not '${process.argv[index + 1] ?? ""}'`);
  return value;
}

function lagOptions(quick: boolean): LagOptions {
  if (quick) return { subscriptions: 300, warmupSeconds: 30, durationSeconds: 20, drainSeconds: 15 };
  return {
    subscriptions: Math.round(numberFlag("subscriptions", 10_000)),
    warmupSeconds: numberFlag("warmup", 60),
    durationSeconds: numberFlag("duration", 180),
    drainSeconds: numberFlag("drain", 60),
  };
}

/** A uuid (32 hex digits) whose jitter at resolution 60 is `jitter`. */
function uuidWithJitter(jitter: number): string {
  const value = BigInt(`0x${randomBytes(15).toString("hex")}`);
  return (value - (value % 60n) + BigInt(jitter)).toString(16).padStart(32, "0");
}

/** The executor of run (a): no query, one fixed row at once. */
class FixedCountExecutor implements SubscriptionExecutor {
  readonly inFlight = 0;

  run(): Promise<WindowResult> {
    return Promise.resolve({ data: [{ count: 1 }], meta: [{ name: "count", type: "UInt64" }] });
  }
}

/** Another executor, with each call and answer written to the ledger. */
class RecordedExecutor implements SubscriptionExecutor {
  constructor(
    private readonly inner: SubscriptionExecutor,
    private readonly ledger: LagLedger,
  ) {}

  get inFlight(): number {
    return this.inner.inFlight;
  }

  async run(compiled: CompiledSubscription, windowEnd: number, referrer?: string): Promise<WindowResult> {
    this.ledger.runStarted(compiled.subscription.id, windowEnd, Date.now());
    const result = await this.inner.run(compiled, windowEnd, referrer);
    this.ledger.runFinished(compiled.subscription.id, windowEnd, Date.now());
    return result;
  }
}

/** Another publisher, with the moment each result was acknowledged written to the ledger. */
class RecordedPublisher implements ResultPublisher {
  readonly description: string;

  constructor(
    private readonly inner: ResultPublisher,
    private readonly ledger: LagLedger,
  ) {
    this.description = inner.description;
  }

  async publish(result: PublishableResult): Promise<void> {
    await this.inner.publish(result);
    this.ledger.published(result.key, result.windowEnd, Date.now());
  }

  health(): string {
    return this.inner.health();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * Commits of every source partition, once a second each, partition p at p/16 of the second, as
 * the ingestion consumer produces them; the offsets grow by 100 per commit.
 */
class CommitSender {
  private readonly sends = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  failures = 0;
  sent = 0;

  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
    private readonly followed: FollowedEntity,
    private readonly ledger: LagLedger,
  ) {}

  /** Starts at `baseMs` (a whole second). */
  start(baseMs: number): void {
    const partitions = this.followed.sourcePartitions;
    const slotMs = 1000 / partitions;
    let slot = 0;
    const next = () => {
      if (this.stopped) return;
      this.timer = setTimeout(
        () => {
          this.send(slot % partitions, BigInt(100 * (Math.floor(slot / partitions) + 1)));
          slot += 1;
          next();
        },
        Math.max(0, baseMs + slot * slotMs - Date.now()),
      );
    };
    next();
  }

  private send(partition: number, offset: bigint): void {
    const now = Date.now();
    const line = encodeCommitLogMessage({ topic: this.followed.sourceTopic, partition, group: this.followed.group, offset, origMessageTsMs: now, originTimestamps: [now / 1000] });
    this.ledger.commitSent(partition, now, now);
    const sending = this.producer
      .send({ topic: this.topic, acks: -1, messages: [{ key: line.key, value: line.value, partition: 0 }] })
      .then(
        () => {
          this.sent += 1;
        },
        (reason: unknown) => {
          this.failures += 1;
          log(`commit-log send failed: ${reason instanceof Error ? reason.message : String(reason)}`);
        },
      )
      .finally(() => this.sends.delete(sending));
    this.sends.add(sending);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.sends]);
  }
}

interface Setting {
  readonly run: string;
  readonly brokers: string[];
  readonly kafka: Kafka;
  readonly admin: Admin;
  readonly columnstore: ColumnstoreClient;
  readonly definitions: DefinitionLookup;
  readonly followed: FollowedEntity;
  readonly subscriptions: readonly Subscription[];
  readonly options: LagOptions;
}

interface RunFigures {
  readonly label: string;
  readonly lag: LagFigures;
  /** Windows acknowledged per second during the measured span, and the rate they came due at. */
  readonly publishedPerSecond: number;
  readonly duePerSecond: number;
  /** Runs in progress (scheduled, not yet published) at each second of the measured span. */
  readonly inProgress: number[];
  readonly commitsSent: number;
  readonly commitFailures: number;
  /** Messages on the results topic against results acknowledged. */
  readonly onResultsTopic: number;
  readonly acknowledged: number;
  readonly failedRuns: number;
  readonly skippedStale: number;
  readonly spanStartMs: number;
  /** The machine's 1-minute load average at the span's start and end (other processes share it). */
  readonly load: readonly [number, number];
  /** Runs in progress when the measurement ended (they go on, unmeasured, into a closed publisher). */
  readonly inProgressAtEnd: number;
}

async function createSubscriptions(columnstore: ColumnstoreClient, definitions: DefinitionLookup, total: number): Promise<Subscription[]> {
  const partitions = definitions.entity(ENTITY)!.subscriptions!.partitions;
  const store = new ClickHouseSubscriptionStore(columnstore.client);
  const createdAt = Date.now();
  const subscriptions: Subscription[] = [];
  for (let i = 0; i < total; i++) {
    const projectId = 1 + i;
    const partition = partitionFor(projectId, partitions);
    const uuid = uuidWithJitter(i % RESOLUTION);
    subscriptions.push({
      id: formatSubscriptionId(partition, uuid),
      dataset: "events",
      entity: ENTITY,
      partition,
      uuid,
      projectId,
      timeWindow: TIME_WINDOW,
      resolution: RESOLUTION,
      type: "snql",
      query: QUERIES[i % QUERIES.length]!,
      organizationId: 1,
      createdAt,
    });
  }
  // The store writes one row per create; a few at a time keep the engine's queue short.
  for (let i = 0; i < subscriptions.length; i += 50) await Promise.all(subscriptions.slice(i, i + 50).map((subscription) => store.create(subscription)));
  return subscriptions;
}

/** Synthetic events over the last two hours, EVENTS_PER_PROJECT per project, so every window holds some. */
async function loadEvents(columnstore: ColumnstoreClient, projects: number): Promise<void> {
  await loadSyntheticEvents(columnstore.client, projects, projects * EVENTS_PER_PROJECT);
}

async function createTopic(admin: Admin, topic: string, configEntries: { name: string; value: string }[] = []): Promise<void> {
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: 1, configEntries }] });
}

/** One run: its own commit log and results topic, a fresh clock and scheduler over `executor`. */
async function measureRun(setting: Setting, label: string, executor: SubscriptionExecutor): Promise<RunFigures> {
  const { options, followed, columnstore, definitions } = setting;
  const commitLogTopic = `snuba-commit-log-lag-bench-${setting.run}-${label}`;
  const resultTopic = `events-subscription-results-lag-bench-${setting.run}-${label}`;
  // The commit log's settings as the ingestion consumer creates it (consumer-topics.ts).
  await createTopic(setting.admin, commitLogTopic, [
    { name: "cleanup.policy", value: "compact,delete" },
    { name: "min.compaction.lag.ms", value: String(60 * 60 * 1000) },
    { name: "retention.ms", value: String(24 * 60 * 60 * 1000) },
  ]);
  await createTopic(setting.admin, resultTopic);
  const runFollowed: FollowedEntity = { ...followed, commitLogTopic };
  const ledger = new LagLedger(runFollowed.delaySeconds);
  const clock = new CommitLogClock(setting.brokers, [runFollowed], { log });
  const producer = setting.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  // After the run, runs still queued in the executor find the publisher closed: not logged.
  let closing = false;
  const publisher = new KafkaPublisher({ brokers: setting.brokers, clientId: `lag-bench-${label}`, log: (line) => closing || log(line) });
  const metricsRegistry = new Registry();
  const metrics = new SubscriptionMetrics(metricsRegistry);
  const checkpoints = new ClickHouseCheckpointStore(columnstore.client);
  const scheduler = new SubscriptionScheduler({
    definitions,
    store: new ClickHouseSubscriptionStore(columnstore.client),
    checkpoints,
    assignment: allPartitions(definitions),
    executor: new RecordedExecutor(executor, ledger),
    publisher: new RecordedPublisher(publisher, ledger),
    status: new SubscriptionStatusBook(new ClickHouseStatusStore(columnstore.client), () => Date.now()),
    metrics,
    clock: systemClock,
    topicFor: () => resultTopic,
    horizonFor: (entity, partition) => (entity === ENTITY ? clock.horizon(entity, partition) : undefined),
    staleThresholdSeconds: DEFAULT_STALE_THRESHOLD_SECONDS,
    log,
  });
  const sender = new CommitSender(producer, commitLogTopic, runFollowed, ledger);
  const partitions = runFollowed.sourcePartitions;
  let poller: NodeJS.Timeout | undefined;
  let sampler: NodeJS.Timeout | undefined;
  try {
    await producer.connect();
    await publisher.connect();
    await clock.start();
    // Every events partition starts where the commit log will first put it (the runs share the
    // store: without this, a partition would resume from the previous run's checkpoint, or from
    // the subscriptions' creation).
    const firstSecond = Math.floor(Date.now() / 1000) - runFollowed.delaySeconds + 1;
    await checkpoints.save(Array.from({ length: partitions }, (_, partition) => ({ entity: ENTITY, partition, nextSecond: firstSecond, epoch: 0 })));
    await scheduler.start();
    poller = setInterval(() => {
      const now = Date.now();
      for (let partition = 0; partition < partitions; partition++) ledger.horizonSeen(partition, clock.horizon(ENTITY, partition), now);
    }, HORIZON_POLL_MS);

    const baseMs = Math.ceil(Date.now() / 1000) * 1000;
    sender.start(baseMs);
    const spanStartMs = baseMs + options.warmupSeconds * 1000;
    const spanEndMs = spanStartMs + options.durationSeconds * 1000;
    // The windows made due by the commits sent during the span: those firing in [F0, F1).
    const firstFiring = spanStartMs / 1000 - runFollowed.delaySeconds;
    const expected: ExpectedWindow[] = [];
    for (const subscription of setting.subscriptions) {
      const jitter = jitterSeconds(subscription);
      for (const window of dueWindows(subscription, firstFiring, firstFiring + options.durationSeconds, jitter)) {
        expected.push({ subscriptionId: subscription.id, partition: subscription.partition, windowEnd: window.windowEnd, firesAt: window.firesAt });
      }
    }
    log(`${label}: commits from ${new Date(baseMs).toISOString()}; measuring ${count(expected.length)} windows made due from ${new Date(spanStartMs).toISOString()} for ${options.durationSeconds} s`);
    const inProgress: number[] = [];
    const load: number[] = [];
    sampler = setInterval(() => {
      const now = Date.now();
      if (now >= spanStartMs && now < spanEndMs) {
        inProgress.push(scheduler.inProgress);
        load.push(loadavg()[0]!);
      }
    }, SAMPLE_MS);

    // The span, then until every expected window is published or the drain time is up; the
    // commit log goes on meanwhile.
    let reported = Date.now();
    const deadline = spanEndMs + 1000 + options.drainSeconds * 1000;
    for (;;) {
      const now = Date.now();
      if (now >= deadline) break;
      if (now > spanEndMs + 1000 && expected.every((window) => ledger.isPublished(window.subscriptionId, window.windowEnd))) break;
      if (now - reported >= 15_000) {
        reported = now;
        const behind = clock.behindSeconds(ENTITY, now);
        log(`${label}: ${count(ledger.publishedCount)} published, ${count(scheduler.inProgress)} in progress, clock ${behind === null ? "not started" : `${behind.toFixed(1)} s`} behind the wall clock, ${sender.sent} commits sent`);
      }
      await sleep(500);
    }
    const endMs = Date.now();
    const inProgressAtEnd = scheduler.inProgress;
    const lag = ledger.measure(expected, endMs);
    const acknowledgedInSpan = ledger.acknowledgements.filter((at) => at >= spanStartMs && at < spanEndMs).length;
    clearInterval(poller);
    clearInterval(sampler);
    await sender.stop();
    await scheduler.stop(5000);
    closing = true;
    await publisher.close();
    const onResultsTopic = (await setting.admin.fetchTopicOffsets(resultTopic)).reduce((total, { high }) => total + Number(high), 0);
    return {
      label,
      lag,
      publishedPerSecond: acknowledgedInSpan / options.durationSeconds,
      duePerSecond: expected.length / options.durationSeconds,
      inProgress,
      commitsSent: sender.sent,
      commitFailures: sender.failures,
      onResultsTopic,
      acknowledged: ledger.acknowledgements.length,
      failedRuns: await metricTotal(metricsRegistry, "quarry_subscription_runs_failed_total"),
      skippedStale: await metricTotal(metricsRegistry, "quarry_subscription_windows_skipped_stale_total"),
      spanStartMs,
      load: [load[0] ?? NaN, load[load.length - 1] ?? NaN],
      inProgressAtEnd,
    };
  } finally {
    clearInterval(poller);
    clearInterval(sampler);
    await sender.stop();
    await scheduler.stop(0);
    await publisher.close().catch(() => {});
    await clock.stop().catch(() => {});
    await producer.disconnect().catch(() => {});
  }
}

/** A counter's total over its label sets. */
async function metricTotal(registry: Registry, name: string): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  return (await metric.get()).values.reduce((total, sample) => total + sample.value, 0);
}

function lagText(samples: readonly LagSample[]): string {
  const at = (p: number) => {
    const q = lagQuantile(samples, p);
    return `${q.atLeast ? "≥ " : ""}${seconds(q.ms)}`;
  };
  const published = samples.filter((sample) => !sample.censored).length;
  return `p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)} over ${count(samples.length)} windows (${count(published)} published)`;
}

function partsText(figures: LagFigures): string {
  const part = (name: string, values: number[]) => `${name} ${seconds(quantile(values, 0.5))} / ${seconds(quantile(values, 0.99))}`;
  const { parts } = figures;
  return `where it went, p50 / p99: ${[
    part("commit sent → clock past the window", parts.commitToClock),
    part("→ executor called (next scheduler round)", parts.clockToRun),
    part("→ executor answered", parts.run),
    part("→ Kafka acknowledged", parts.publish),
  ].join("; ")}`;
}

/**
 * p50 and max of the lag of the windows published in each 30 s from the span's start: flat when
 * the scheduler keeps up, growing when a backlog builds.
 */
function growthText(run: RunFigures): string {
  const sliceMs = 30_000;
  const published = run.lag.samples.filter((sample) => !sample.censored);
  const last = Math.max(...published.map((sample) => sample.madeDueAtMs + sample.ms));
  const slices: string[] = [];
  for (let from = run.spanStartMs; from <= last; from += sliceMs) {
    const inSlice = published.filter((sample) => sample.madeDueAtMs + sample.ms >= from && sample.madeDueAtMs + sample.ms < from + sliceMs).map((sample) => sample.ms);
    if (inSlice.length === 0) continue;
    const start = (from - run.spanStartMs) / 1000;
    slices.push(`${start}–${start + sliceMs / 1000} s: ${seconds(quantile(inSlice, 0.5))} / ${seconds(Math.max(...inSlice))}`);
  }
  return `lag p50 / max of the windows published in each 30 s from the span's start: ${slices.join("; ")}`;
}

function runRow(what: string, run: RunFigures, options: LagOptions): BenchRow {
  const { lag } = run;
  const unpublished = lag.samples.filter((sample) => sample.censored).length;
  const inProgress = run.inProgress.length === 0 ? "–" : `${count(run.inProgress[0]!)} at its start, ${count(run.inProgress[run.inProgress.length - 1]!)} at its end, at most ${count(Math.max(...run.inProgress))}`;
  const checks = [
    `${count(run.acknowledged)} results acknowledged, ${count(run.onResultsTopic)} on the results topic`,
    `${count(run.commitsSent)} commits sent${run.commitFailures > 0 ? `, ${run.commitFailures} failed` : ""}`,
    ...(run.failedRuns > 0 ? [`${count(run.failedRuns)} runs failed`] : []),
    ...(run.skippedStale > 0 ? [`${count(run.skippedStale)} windows skipped as stale`] : []),
    ...(run.inProgressAtEnd > 0 ? [`${count(run.inProgressAtEnd)} runs still in progress when the measurement ended`] : []),
    ...(lag.neverDue > 0 ? [`${count(lag.neverDue)} windows no commit made due`] : []),
  ];
  return {
    bench: what,
    figure:
      `lag ${lagText(lag.samples)}` +
      (unpublished > 0 ? `, ${count(unpublished)} not published ${options.drainSeconds} s after the span (counted with the lag they had then)` : "") +
      `; ${partsText(lag)}; published ${run.publishedPerSecond.toFixed(1)} windows/s during the span, due ${run.duePerSecond.toFixed(1)}/s; runs in progress ${inProgress}; ${growthText(run)}; load average ${run.load[0].toFixed(1)} at the span's start, ${run.load[1].toFixed(1)} at its end; ${checks.join(", ")}`,
    target: "—",
  };
}

async function brokers(): Promise<{ brokers: string[]; kafka: RunningKafka | null }> {
  if (process.env.KAFKA_BROKERS) return { brokers: process.env.KAFKA_BROKERS.split(","), kafka: null };
  const kafka = await startKafka(await ensureJava(), await ensureKafkaJars());
  return { brokers: kafka.brokers, kafka };
}

export const commitLogLagBench: BenchSection = async ({ quick }) => {
  const options = lagOptions(quick);
  const broker = await brokers();
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-commit-log-lag-bench-"));
  const columnstore = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const kafka = new Kafka({ clientId: "commit-log-lag-bench", brokers: broker.brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  let backend: QueryBackend | null = null;
  try {
    await admin.connect();
    const registry = defaultRegistry();
    await runMigrations(columnstore.client, registry);
    const followed = followedEntities(registry, {
      mode: "commit_log",
      storages: registry.storages(),
      consumers: new Set(),
      topicMap: {},
      delayOverride: null,
      sourcePartitions: () => registry.entity(ENTITY)!.subscriptions!.partitions,
    }).find((candidate) => candidate.entity === ENTITY);
    if (!followed || followed.mode !== "partition") throw new Error(`the ${ENTITY} entity does not follow its commit log in partition mode`);
    log(`loading ${count(options.subscriptions * EVENTS_PER_PROJECT)} events and ${count(options.subscriptions)} subscriptions`);
    await loadEvents(columnstore, options.subscriptions);
    const subscriptions = await createSubscriptions(columnstore, registry, options.subscriptions);
    const setting: Setting = { run: randomUUID().slice(0, 8), brokers: broker.brokers, kafka, admin, columnstore, definitions: registry, followed, subscriptions, options };

    log("(a) no query");
    const noQuery = await measureRun(setting, "no-query", new FixedCountExecutor());
    log("(b) the embedded engine");
    backend = new QueryBackend(columnstore, { policyOverrides: OPEN_POLICIES, log });
    const engine = await measureRun(setting, "engine", new PipelineExecutor({ definitions: registry, columnstore, statsInResponse: false, backend }, ENGINE_CONCURRENCY));

    const ratio = (p: number) => {
      const a = lagQuantile(noQuery.lag.samples, p);
      const b = lagQuantile(engine.lag.samples, p);
      return `${b.atLeast ? "≥ " : ""}${(b.ms / a.ms).toFixed(1)}×`;
    };
    const partitionSizes = new Map<number, number>();
    for (const subscription of subscriptions) partitionSizes.set(subscription.partition, (partitionSizes.get(subscription.partition) ?? 0) + 1);
    const setup =
      `${count(options.subscriptions)} events subscriptions (resolution ${RESOLUTION}, window ${TIME_WINDOW / 60} min, 3 query shapes, one project each; ${Math.min(...partitionSizes.values())}–${Math.max(...partitionSizes.values())} per partition over ${partitionSizes.size} partitions, every jitter second), ` +
      `commit log of 16 source partitions (partition mode, ${followed.synchronization}, delay ${followed.delaySeconds} s) at one commit per partition per second, real Kafka, KafkaPublisher; ` +
      `${options.warmupSeconds} s warm-up, then windows made due during ${options.durationSeconds} s; lag = Kafka ack of the result − send of the commit that made the window due`;
    return [
      runRow(`Commit-log lag (a), clock + scheduler + publisher alone (an executor answering a fixed count at once): ${setup}`, noQuery, options),
      runRow(
        `Commit-log lag (b), PipelineExecutor on the embedded engine (${ENGINE_CONCURRENCY} runs at once, policies opened up, ${count(options.subscriptions * EVENTS_PER_PROJECT)} synthetic events over 2 h), same subscriptions, broker and engine, same run`,
        engine,
        options,
      ),
      {
        bench: "Commit-log lag, (b) against (a), same run",
        figure: `p50 ${ratio(0.5)}, p99 ${ratio(0.99)}; published ${engine.publishedPerSecond.toFixed(1)} against ${noQuery.publishedPerSecond.toFixed(1)} windows/s (due ${engine.duePerSecond.toFixed(1)}/s)`,
        target: "—",
      },
    ];
  } finally {
    await backend?.close(5000).catch(() => {});
    await admin.disconnect().catch(() => {});
    await columnstore.close();
    rmSync(dataDir, { recursive: true, force: true });
    await broker.kafka?.stop();
  }
};
