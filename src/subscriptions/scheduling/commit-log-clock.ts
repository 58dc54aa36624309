/**
 * A subscription clock driven by the ingestion commit log (issue 65): for each followed entity it
 * reads the commit log of the storage that ingests its data, forms ticks (commit-log-ticks.ts)
 * and keeps how far the data has landed:
 *
 * - `partition` mode (events): per source partition, the upper time of its latest tick; a
 *   subscription's partition is its project's Kafka partition, so its windows wait for exactly the
 *   partition that holds its project's data;
 * - `global` mode (the others): the upper time of the latest tick the global watermark released
 *   (global-tick-buffer.ts), reached by every partition.
 *
 * `horizon(entity, partition)` gives the first firing second not yet due, the scheduler's own
 * notion (a window firing at t runs once t < horizon). The ticks' times are already moved back by
 * the entity's delay, so the scheduler adds none of its own in this mode.
 *
 * The scheduler takes it through its `horizonFor` option (test/subscriptions/commit-log-scheduling.test.ts);
 * `serve` and the scheduler cluster do not build one yet: they schedule on the wall clock.
 */
import { Kafka, logLevel, type Consumer } from "kafkajs";
import type { Registry } from "prom-client";
import { registerLabelledScrapeTimeGauge } from "../../metrics/scrape-time-gauge.js";
import { randomUUID } from "node:crypto";
import { decodeCommitLogMessage } from "../../ingestion/commit-log-message.js";
import { CommitLogTickFormer, type CommitLogTick, type SynchronizationTimestamp } from "./commit-log-ticks.js";
import { GlobalTickBuffer } from "./global-tick-buffer.js";

export interface FollowedEntity {
  readonly entity: string;
  /** Physical topic names. */
  readonly commitLogTopic: string;
  readonly sourceTopic: string;
  /** The ingesting consumer group whose commits count. */
  readonly group: string;
  readonly mode: "partition" | "global";
  readonly synchronization: SynchronizationTimestamp;
  readonly delaySeconds: number;
  /** Partitions of the source topic (the global watermark waits for each). */
  readonly sourcePartitions: number;
}

interface EntityTime {
  readonly followed: FollowedEntity;
  readonly former: CommitLogTickFormer;
  readonly buffer: GlobalTickBuffer;
  /** partition mode: per source partition; global mode: key -1. Upper tick time, seconds. */
  readonly landed: Map<number, number>;
}

const GLOBAL = -1;

export class CommitLogClock {
  private readonly entities = new Map<string, EntityTime>();
  private readonly byCommitLog = new Map<string, EntityTime[]>();
  private readonly consumer: Consumer;
  /** Commit-log lines read that did not decode (another writer's, a legacy format). */
  undecodable = 0;

  constructor(
    brokers: readonly string[],
    followed: readonly FollowedEntity[],
    private readonly log: (line: string) => void = () => {},
  ) {
    for (const entity of followed) {
      const time: EntityTime = {
        followed: entity,
        former: new CommitLogTickFormer({ group: entity.group, topic: entity.sourceTopic, synchronization: entity.synchronization, delaySeconds: entity.delaySeconds }),
        buffer: new GlobalTickBuffer(entity.sourcePartitions),
        landed: new Map(),
      };
      this.entities.set(entity.entity, time);
      const list = this.byCommitLog.get(entity.commitLogTopic) ?? [];
      list.push(time);
      this.byCommitLog.set(entity.commitLogTopic, list);
    }
    const kafka = new Kafka({ clientId: "quarry-commit-log-clock", brokers: [...brokers], logLevel: logLevel.NOTHING });
    // A group of its own that commits nothing: every start reads the (compacted) commit logs again.
    this.consumer = kafka.consumer({ groupId: `quarry-commit-log-clock-${randomUUID()}`, maxWaitTimeInMs: 200 });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.byCommitLog.keys()], fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, message }) => this.take(topic, message.key?.toString() ?? "", message.value?.toString() ?? ""),
    });
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }

  /**
   * The first firing second not yet due for `entity`'s subscriptions in `partition`, or null
   * before its commit log has given a tick there (its windows wait).
   */
  horizon(entity: string, partition: number): number | null {
    const time = this.entities.get(entity);
    if (!time) return null;
    const landed = time.landed.get(time.followed.mode === "partition" ? partition : GLOBAL);
    return landed === undefined ? null : Math.floor(landed) + 1;
  }

  /**
   * Per entity, how far its clock is behind the wall clock, in seconds: now less the time its
   * data has reached (the slowest partition's in partition mode), the delay not counted. Null
   * before its first tick. It grows while ingestion or the commit-log reader falls behind.
   */
  behindSeconds(entity: string, nowMs: number = Date.now()): number | null {
    const time = this.entities.get(entity);
    if (!time || time.landed.size === 0) return null;
    const slowest = Math.min(...time.landed.values()) + time.followed.delaySeconds;
    return Math.max(0, nowMs / 1000 - slowest);
  }

  /** Exports `quarry_subscription_clock_behind_seconds{entity}` on `registry`. */
  registerMetrics(registry: Registry): void {
    registerLabelledScrapeTimeGauge(
      registry,
      "quarry_subscription_clock_behind_seconds",
      "How far an entity's commit-log clock is behind the wall clock: now less the time its ingested data has reached (the slowest partition's in partition mode), the delay not counted; absent before its first tick.",
      ["entity"],
      () => {
        const now = Date.now();
        return [...this.entities.keys()].flatMap((entity) => {
          const behind = this.behindSeconds(entity, now);
          return behind === null ? [] : [[{ entity }, behind] as const];
        });
      },
    );
  }

  /** Ticks of a partition the global watermark still holds, per entity (how far a slow partition holds the others back). */
  heldTicks(entity: string): number[] {
    return this.entities.get(entity)?.buffer.held() ?? [];
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
      const tick = time.former.add(commit);
      if (!tick) continue;
      if (time.followed.mode === "partition") {
        this.advance(time, tick.partition, tick);
      } else {
        let released: CommitLogTick[];
        try {
          released = time.buffer.push(tick);
        } catch (reason) {
          // A partition beyond the count the entity was configured with: the source topic grew.
          this.log(`commit-log clock ${time.followed.entity}: ${reason instanceof Error ? reason.message : String(reason)}`);
          continue;
        }
        for (const done of released) this.advance(time, GLOBAL, done);
      }
    }
  }

  private advance(time: EntityTime, slot: number, tick: CommitLogTick): void {
    const before = time.landed.get(slot);
    if (before === undefined || tick.timestamps.upper > before) time.landed.set(slot, tick.timestamps.upper);
  }
}
