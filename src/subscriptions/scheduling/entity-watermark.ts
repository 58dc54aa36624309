/**
 * How far one entity's data has landed, from its commit log (commit-log-clock.ts reads it): the
 * time of each source partition's latest commit, moved back by the entity's delay, combined per
 * scheduling mode (facts: snuba-ingestion.md §3.3):
 *
 * - `partition` (events): each partition on its own; a subscription's partition is its
 *   project's Kafka partition, so its windows wait for exactly the partition holding its data.
 * - `global` (the others): the slowest partition's time, which every partition has reached. That
 *   is the upper time of the latest tick Snuba's watermark buffer would have released.
 *
 * A partition with no new data would hold both back for ever (Snuba's global mode stalls on one
 * idle partition): it commits nothing, so its time stays where its last message left it. The
 * idle rule: a partition whose consumer has committed the partition's end offset, as read from
 * the broker at wall time W, has written everything appended before W. It may then advance to the
 * latest time any partition of the entity has reached, but never past W less the delay (a message
 * created before that reaches the broker within the delay; the delay is there for that gap). Only
 * observations made while the broker has answered without a gap for the delay are trusted: after
 * a broker outage the producers flush what they buffered, and an empty partition is not yet idle.
 *
 * Times only move forward: a window once due stays due.
 */

export type SchedulingMode = "partition" | "global";

/** The source topic's offsets as the broker gave them, read at `observedAtMs` (wall clock). */
export interface EndOffsetObservation {
  readonly observedAtMs: number;
  /** Partition -> [low, high): the first offset held and the next offset to be written. */
  readonly partitions: ReadonlyMap<number, { readonly low: bigint; readonly high: bigint }>;
}

interface PartitionCommit {
  readonly offset: bigint;
  /** Seconds, moved back by the delay. */
  readonly upper: number;
}

const GLOBAL = -1;

export class EntityWatermark {
  private readonly commits = new Map<number, PartitionCommit>();
  /** Slot (a partition, or GLOBAL) -> landed time, seconds. */
  private readonly landed = new Map<number, number>();
  private partitionCount: number;
  private observation: EndOffsetObservation | null = null;
  /** Since when (wall ms) the broker has answered every observation without a gap. */
  private answeringSinceMs: number | null = null;
  private lastObservedMs: number | null = null;

  constructor(
    readonly mode: SchedulingMode,
    private readonly delaySeconds: number,
    sourcePartitions: number,
    /** Observations further apart than this break the broker's run of answers. */
    private readonly maxObservationGapMs: number = 5000,
  ) {
    if (!Number.isInteger(sourcePartitions) || sourcePartitions < 1) throw new RangeError(`an entity's source topic has at least one partition, got ${sourcePartitions}`);
    this.partitionCount = sourcePartitions;
  }

  /** A commit of `partition` (its next offset to read, and its time already moved back by the delay). */
  commit(partition: number, offset: bigint, upper: number): void {
    const before = this.commits.get(partition);
    if (before && upper < before.upper) return;
    this.commits.set(partition, { offset, upper });
    this.recompute();
  }

  /** The broker's end offsets for the source topic, read now (its partition count is taken as live). */
  observe(observation: EndOffsetObservation): void {
    const gap = this.lastObservedMs === null ? Infinity : observation.observedAtMs - this.lastObservedMs;
    if (gap > this.maxObservationGapMs) this.answeringSinceMs = observation.observedAtMs;
    this.lastObservedMs = observation.observedAtMs;
    this.observation = observation;
    if (observation.partitions.size > 0) this.partitionCount = Math.max(...observation.partitions.keys()) + 1;
    this.recompute();
  }

  /** The broker did not answer an observation: idle partitions wait for a fresh run of answers. */
  observationFailed(): void {
    this.answeringSinceMs = null;
    this.lastObservedMs = null;
  }

  /** The time `partition`'s windows may reach (seconds, delay applied), or null before any. */
  landedSeconds(partition: number): number | null {
    return this.landed.get(this.mode === "partition" ? partition : GLOBAL) ?? null;
  }

  /** The slowest slot's landed time, or null before any. */
  slowestSeconds(): number | null {
    if (this.landed.size === 0) return null;
    return Math.min(...this.landed.values());
  }

  /** Partitions counted idle at the latest observation. */
  idlePartitions(): number[] {
    const idle: number[] = [];
    for (let partition = 0; partition < this.partitionCount; partition++) if (this.idleBound(partition) !== null) idle.push(partition);
    return idle;
  }

  /** Where an idle partition may advance to (seconds, delay applied), or null when it is not idle. */
  private idleBound(partition: number): number | null {
    const observation = this.observation;
    if (!observation || this.answeringSinceMs === null) return null;
    // The observation is trusted once the broker has answered for the delay without a gap.
    if (observation.observedAtMs - this.answeringSinceMs < this.delaySeconds * 1000) return null;
    const offsets = observation.partitions.get(partition);
    if (!offsets) return null;
    const commit = this.commits.get(partition);
    const caughtUp = offsets.high <= offsets.low || (commit !== undefined && commit.offset >= offsets.high);
    if (!caughtUp) return null;
    let latest = -Infinity;
    for (const other of this.commits.values()) latest = Math.max(latest, other.upper);
    if (latest === -Infinity) return null;
    return Math.min(latest, observation.observedAtMs / 1000 - this.delaySeconds);
  }

  private effective(partition: number): number | null {
    const own = this.commits.get(partition)?.upper ?? null;
    const idle = this.idleBound(partition);
    if (own === null) return idle;
    return idle === null ? own : Math.max(own, idle);
  }

  private recompute(): void {
    if (this.mode === "partition") {
      for (let partition = 0; partition < this.partitionCount; partition++) this.advance(partition, this.effective(partition));
      return;
    }
    let slowest = Infinity;
    for (let partition = 0; partition < this.partitionCount; partition++) {
      const time = this.effective(partition);
      if (time === null) return;
      slowest = Math.min(slowest, time);
    }
    this.advance(GLOBAL, slowest);
  }

  private advance(slot: number, time: number | null): void {
    if (time === null) return;
    const before = this.landed.get(slot);
    if (before === undefined || time > before) this.landed.set(slot, time);
  }
}
