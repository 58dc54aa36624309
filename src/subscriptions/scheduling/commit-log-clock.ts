/**
 * A subscription clock driven by the ingestion commit log (issue 65): for each followed entity it
 * reads the commit log of the storage that ingests its data, forms ticks (commit-log-ticks.ts)
 * and keeps how far the data has landed (entity-watermark.ts: per source partition in `partition`
 * mode, the slowest partition in `global` mode, with the idle-partition rule).
 *
 * `horizon(entity, partition)` gives the first firing second not yet due, the scheduler's own
 * notion (a window firing at t runs once t < horizon). The times are already moved back by the
 * entity's delay, so the scheduler adds none of its own in this mode.
 *
 * Besides the commit logs it reads, once a second, the end offsets of the source topics (the
 * idle rule's observations) and of the commit logs (how far its own reading lags).
 *
 * It reads the commit logs from their start at every start, under a group of its own that
 * commits nothing: the log is compacted to a commit per partition and group, and one commit per
 * partition is enough to know how far the data has landed, so nothing needs to be resumed. The
 * scheduler's checkpoints say which windows ran (scheduler.ts).
 */
import { Kafka, logLevel, type Admin, type Consumer } from "kafkajs";
import type { Registry } from "prom-client";
import { registerLabelledScrapeTimeGauge } from "../../metrics/scrape-time-gauge.js";
import { randomUUID } from "node:crypto";
import { decodeCommitLogMessage } from "../../ingestion/commit-log-message.js";
import { CommitLogTickFormer, type SynchronizationTimestamp } from "./commit-log-ticks.js";
import { EntityWatermark, type SchedulingMode } from "./entity-watermark.js";

export interface FollowedEntity {
  readonly entity: string;
  /** Physical topic names. */
  readonly commitLogTopic: string;
  readonly sourceTopic: string;
  /** The ingesting consumer group whose commits count. */
  readonly group: string;
  readonly mode: SchedulingMode;
  readonly synchronization: SynchronizationTimestamp;
  readonly delaySeconds: number;
  /** Partitions of the source topic (the global watermark waits for each). */
  readonly sourcePartitions: number;
}

interface EntityTime {
  readonly followed: FollowedEntity;
  readonly former: CommitLogTickFormer;
  readonly watermark: EntityWatermark;
}

export interface CommitLogClockOptions {
  /** How often the source topics' and commit logs' end offsets are read (default 1000 ms). */
  readonly observeIntervalMs?: number;
  readonly log?: (line: string) => void;
}

export class CommitLogClock {
  private readonly entities = new Map<string, EntityTime>();
  private readonly byCommitLog = new Map<string, EntityTime[]>();
  private readonly kafka: Kafka;
  private consumer: Consumer | null = null;
  private readonly admin: Admin;
  /** Commit-log topic -> the next offset this clock will read (one partition each). */
  private readonly readTo = new Map<string, bigint>();
  /** Commit-log topic -> messages written to it and not yet read here. */
  private readonly readerLag = new Map<string, number>();
  private observing: NodeJS.Timeout | null = null;
  /** Source topic -> the failure last logged for reading its end offsets (each logged once, not every second). */
  private readonly observeFailures = new Map<string, string>();
  private stopped = false;
  private readonly log: (line: string) => void;
  /** Commit-log lines read that did not decode (another writer's, a legacy format). */
  undecodable = 0;

  constructor(
    brokers: readonly string[],
    followed: readonly FollowedEntity[],
    private readonly options: CommitLogClockOptions = {},
  ) {
    this.log = options.log ?? (() => {});
    for (const entity of followed) {
      const time: EntityTime = {
        followed: entity,
        former: new CommitLogTickFormer({ group: entity.group, topic: entity.sourceTopic, synchronization: entity.synchronization, delaySeconds: entity.delaySeconds }),
        watermark: new EntityWatermark(entity.mode, entity.delaySeconds, entity.sourcePartitions, 5 * (options.observeIntervalMs ?? 1000)),
      };
      this.entities.set(entity.entity, time);
      const list = this.byCommitLog.get(entity.commitLogTopic) ?? [];
      list.push(time);
      this.byCommitLog.set(entity.commitLogTopic, list);
    }
    this.kafka = new Kafka({ clientId: "quarry-commit-log-clock", brokers: [...brokers], logLevel: logLevel.NOTHING });
    this.admin = this.kafka.admin();
  }

  async start(): Promise<void> {
    await this.admin.connect();
    await this.read();
    await this.observe();
  }

  /**
   * Reads the commit logs from their start, under a group of its own that commits nothing. A
   * client that kafkajs gives up on (it restarts the retriable failures itself) is replaced by a
   * new one, which reads the logs again: the times only move forward, so nothing is lost.
   */
  private async read(): Promise<void> {
    const consumer = this.kafka.consumer({ groupId: `quarry-commit-log-clock-${randomUUID()}`, maxWaitTimeInMs: 200 });
    this.consumer = consumer;
    consumer.on(consumer.events.CRASH, (event) => {
      if (event.payload.restart || this.stopped) return;
      this.log(`commit-log clock: its Kafka client failed (${event.payload.error.message}); reading the commit logs again with a new one in 2 s`);
      this.readAgainSoon(consumer);
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [...this.byCommitLog.keys()], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, message }) => {
        this.readTo.set(topic, BigInt(message.offset) + 1n);
        this.take(topic, message.key?.toString() ?? "", message.value?.toString() ?? "");
      },
    });
  }

  private readAgainSoon(failed: Consumer): void {
    setTimeout(() => {
      if (this.stopped || this.consumer !== failed) return;
      void failed.disconnect().catch(() => {});
      for (const time of this.entities.values()) time.former.reset();
      this.read().catch((reason: unknown) => {
        this.log(`commit-log clock: cannot read the commit logs, trying again in 2 s: ${reason instanceof Error ? reason.message : String(reason)}`);
        if (this.consumer) this.readAgainSoon(this.consumer);
      });
    }, 2000);
  }

  /**
   * Stops reading within `withinMs`. Nothing of the clock needs saving, so a client that fails to
   * leave, or takes longer (kafkajs waits out its reconnect backoff after a broker restart), is
   * only logged and left behind: it must not hold up a shutdown.
   */
  async stop(withinMs = 2000): Promise<void> {
    this.stopped = true;
    if (this.observing) clearTimeout(this.observing);
    let timer: NodeJS.Timeout | undefined;
    const left = Promise.allSettled([this.consumer?.disconnect(), this.admin.disconnect()]).then((results) => {
      for (const result of results) {
        if (result.status === "rejected") this.log(`commit-log clock: leaving Kafka: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`);
      }
      return true;
    });
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), withinMs);
    });
    if (!(await Promise.race([left, late]))) this.log(`commit-log clock: its Kafka clients did not leave within ${withinMs} ms; stopping without them`);
    clearTimeout(timer);
  }

  /**
   * The first firing second not yet due for `entity`'s subscriptions in `partition`, or null
   * before its commit log has said anything there (its windows wait).
   */
  horizon(entity: string, partition: number): number | null {
    const landed = this.entities.get(entity)?.watermark.landedSeconds(partition) ?? null;
    return landed === null ? null : Math.floor(landed) + 1;
  }

  /**
   * Per entity, how far its clock is behind the wall clock, in seconds: now less the time its
   * data has reached (the slowest partition's in partition mode), the delay not counted. Null
   * before its first commit. It grows while ingestion or the commit-log reader falls behind.
   */
  behindSeconds(entity: string, nowMs: number = Date.now()): number | null {
    const time = this.entities.get(entity);
    const slowest = time?.watermark.slowestSeconds() ?? null;
    if (!time || slowest === null) return null;
    return Math.max(0, nowMs / 1000 - (slowest + time.followed.delaySeconds));
  }

  /** Source partitions of `entity` counted idle at the latest observation (the idle rule). */
  idlePartitions(entity: string): number[] {
    return this.entities.get(entity)?.watermark.idlePartitions() ?? [];
  }

  /** Commit-log messages written and not yet read by this clock, per commit-log topic (after the first observation). */
  readerLagMessages(topic: string): number | null {
    return this.readerLag.get(topic) ?? null;
  }

  /**
   * Exports `quarry_subscription_clock_behind_seconds{entity}` and
   * `quarry_subscription_commit_log_lag_messages{topic}` on `registry`.
   */
  registerMetrics(registry: Registry): void {
    registerLabelledScrapeTimeGauge(
      registry,
      "quarry_subscription_clock_behind_seconds",
      "How far an entity's commit-log clock is behind the wall clock: now less the time its ingested data has reached (the slowest partition's in partition mode), the delay not counted; absent before its first commit.",
      ["entity"],
      () => {
        const now = Date.now();
        return [...this.entities.keys()].flatMap((entity) => {
          const behind = this.behindSeconds(entity, now);
          return behind === null ? [] : [[{ entity }, behind] as const];
        });
      },
    );
    registerLabelledScrapeTimeGauge(
      registry,
      "quarry_subscription_commit_log_lag_messages",
      "Commit-log messages written and not yet read by this node's subscription clock, per commit-log topic (read once a second).",
      ["topic"],
      () => [...this.readerLag].map(([topic, lag]) => [{ topic }, lag] as const),
    );
  }

  private take(topic: string, key: string, value: string): void {
    let commit;
    try {
      commit = decodeCommitLogMessage(key, value);
    } catch {
      this.undecodable += 1;
      return;
    }
    for (const time of this.byCommitLog.get(topic) ?? []) {
      time.former.add(commit);
      const latest = time.former.latest(commit.partition);
      if (latest && commit.group === time.followed.group && commit.topic === time.followed.sourceTopic) {
        time.watermark.commit(commit.partition, latest.offset, latest.upper);
      }
    }
  }

  /** Reads the end offsets of the source topics and commit logs, then again a second later. */
  private async observe(): Promise<void> {
    const sources = new Map<string, EntityTime[]>();
    for (const time of this.entities.values()) sources.set(time.followed.sourceTopic, [...(sources.get(time.followed.sourceTopic) ?? []), time]);
    for (const [topic, times] of sources) {
      const observedAtMs = Date.now();
      try {
        const offsets = await this.admin.fetchTopicOffsets(topic);
        const partitions = new Map(offsets.map((o) => [o.partition, { low: BigInt(o.low), high: BigInt(o.high) }] as const));
        for (const time of times) time.watermark.observe({ observedAtMs, partitions });
        if (this.observeFailures.delete(topic)) this.log(`commit-log clock: reading the end offsets of ${topic} again`);
      } catch (reason) {
        for (const time of times) time.watermark.observationFailed();
        const message = reason instanceof Error ? reason.message : String(reason);
        if (!this.stopped && this.observeFailures.get(topic) !== message) {
          this.log(`commit-log clock: cannot read the end offsets of ${topic} (no partition counts as idle until it can): ${message}`);
        }
        this.observeFailures.set(topic, message);
      }
    }
    for (const topic of this.byCommitLog.keys()) {
      try {
        const [end] = await this.admin.fetchTopicOffsets(topic);
        if (end) this.readerLag.set(topic, Math.max(0, Number(BigInt(end.high) - (this.readTo.get(topic) ?? BigInt(end.low)))));
      } catch {
        // Logged with the source topics' failure above: the same broker.
      }
    }
    if (!this.stopped) {
      this.observing = setTimeout(() => void this.observe(), this.options.observeIntervalMs ?? 1000);
    }
  }
}
