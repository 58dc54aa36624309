/**
 * Ticks from an ingestion commit log, as Snuba's scheduler forms them (facts:
 * snuba-ingestion.md §3.2): a tick is two consecutive commits of one source partition, the
 * interval of data that partition's consumer wrote between them. A subscription scheduler that
 * follows the commit log advances its clock by ticks instead of by the wall clock, so a window
 * runs only once the data of its interval has landed.
 *
 * A tick's upper end is also how far its partition's data has landed; entity-watermark.ts
 * combines the partitions' latest times per scheduling mode.
 */
import type { DecodedCommitLogMessage } from "../../ingestion/commit-log-message.js";

/** Which commit-log time a storage's scheduler follows (its stream_loader's `subscription_synchronization_timestamp`). */
export type SynchronizationTimestamp = "orig_message_ts" | "received_p99";

export interface CommitLogTick {
  /** The source topic's partition whose consumer committed. */
  readonly partition: number;
  /** The offsets between the two commits: [lower, upper). */
  readonly offsets: { readonly lower: bigint; readonly upper: bigint };
  /** The two commits' times in seconds, each moved back by the entity's delay: [lower, upper). */
  readonly timestamps: { readonly lower: number; readonly upper: number };
}

export interface TickFormerOptions {
  /** Only this consumer group's commits count (the storage's `consumer_group`). */
  readonly group: string;
  /** Only commits of this source topic (physical name) count. */
  readonly topic: string;
  readonly synchronization: SynchronizationTimestamp;
  /** Seconds the ticks' times are moved back (the storage's `subscription_delay_seconds`). */
  readonly delaySeconds: number;
}

interface PartitionCommit {
  readonly offset: bigint;
  readonly timestamp: number;
}

export class CommitLogTickFormer {
  private readonly previous = new Map<number, PartitionCommit>();
  /** Commits dropped because their time went back from the previous one's (Snuba: `invalid_interval`). */
  invalidIntervals = 0;

  constructor(private readonly options: TickFormerOptions) {}

  /**
   * The tick a commit closes, or null: a commit of another group or topic, the first commit of a
   * partition since the start (or a reset), or one whose time is before the previous commit's
   * (dropped; the previous commit stays the interval's start, as in Snuba).
   */
  add(commit: DecodedCommitLogMessage): CommitLogTick | null {
    if (commit.group !== this.options.group || commit.topic !== this.options.topic) return null;
    const current: PartitionCommit = { offset: commit.offset, timestamp: this.timestampOf(commit) };
    const previous = this.previous.get(commit.partition);
    if (previous === undefined) {
      this.previous.set(commit.partition, current);
      return null;
    }
    if (current.timestamp < previous.timestamp) {
      this.invalidIntervals += 1;
      return null;
    }
    this.previous.set(commit.partition, current);
    const delay = this.options.delaySeconds;
    return {
      partition: commit.partition,
      offsets: { lower: previous.offset, upper: current.offset },
      timestamps: { lower: previous.timestamp - delay, upper: current.timestamp - delay },
    };
  }

  /**
   * The latest commit of `partition` counted (the first since the start included), with its time
   * moved back by the delay; undefined before any.
   */
  latest(partition: number): { readonly offset: bigint; readonly upper: number } | undefined {
    const commit = this.previous.get(partition);
    return commit && { offset: commit.offset, upper: commit.timestamp - this.options.delaySeconds };
  }

  /** Forgets every partition's last commit (a restart of the reading, a rebalance, a seek): the next commit of each opens no tick. */
  reset(): void {
    this.previous.clear();
  }

  private timestampOf(commit: DecodedCommitLogMessage): number {
    // received_p99 is null when the storage's messages carry no origin time: the broker's time stands in.
    if (this.options.synchronization === "received_p99" && commit.receivedP99 !== null) return commit.receivedP99;
    return commit.origMessageTs;
  }
}
