/**
 * One assigned partition, for one assignment (a rebalance starts every partition afresh from its
 * committed offset): where the next range starts, the range being filled, the closed ranges
 * waiting to be written (the head one being written), and what the committed offset said.
 */
import type { RangeEntry } from "./message-outcome.js";
import { OffsetRange, type FlushReason } from "./offset-range.js";

export class PartitionState {
  /** Where the next range starts; null until the committed offset is read and says none. */
  private nextStart: bigint | null = null;
  /** The end a `pending:<end>` commit fixed for the first range: it is formed again exactly. */
  pendingEnd: bigint | null = null;
  /** The last committed offset (the next to read), as far as this consumer knows. */
  committed: bigint | null = null;
  /** The offset of the first message read, when nothing was committed (lag counts from it). */
  private firstRead: bigint | null = null;
  highWatermark: bigint | null = null;
  /** Broker timestamp of the last message written and committed, ms; null before the first. */
  private lastWrittenTimestampMs: number | null = null;
  open: OffsetRange | null = null;
  readonly closed: OffsetRange[] = [];
  /** The write loop of this partition's closed ranges, while one runs. */
  writing: Promise<void> | null = null;
  /** Its last write failed: the partition stays paused until one succeeds. */
  failing = false;
  /** Whether the committed offset has been read; messages wait for it. */
  loaded = false;

  constructor(
    readonly partition: number,
    /** The consumer's assignment epoch this state belongs to. */
    readonly epoch: number,
  ) {}

  /** Reading resumes at the committed offset (null: none), whose metadata may fix the first range's end. */
  resumeFrom(committed: bigint | null, pendingEnd: bigint | null): void {
    this.committed = committed;
    this.nextStart = committed;
    this.pendingEnd = committed === null ? null : pendingEnd;
    this.loaded = true;
  }

  /** Adds a processed message; false when it lies before what this partition has taken (nothing to do for it). */
  take(entry: RangeEntry, timestampMs: number, now: number): boolean {
    if (this.nextStart === null) {
      this.nextStart = entry.offset;
      this.firstRead = entry.offset;
    }
    const last = this.open ? this.open.end : this.nextStart - 1n;
    if (entry.offset <= last) return false;
    if (this.pendingEnd !== null && entry.offset > this.pendingEnd) {
      // The replayed range's last messages are gone (compaction, retention): it ends where it ended.
      if (this.open) this.seal("replay", this.pendingEnd);
      this.pendingEnd = null;
    }
    this.open ??= new OffsetRange(this.nextStart, now);
    this.open.add(entry, timestampMs);
    if (this.pendingEnd !== null && entry.offset === this.pendingEnd) {
      this.seal("replay");
      this.pendingEnd = null;
    }
    return true;
  }

  /**
   * Closes the open range, unless it is a replay still short of its fixed end (closing it early
   * would give it another token). True when a range was closed.
   */
  closeOpen(reason: FlushReason): boolean {
    if (this.open === null || this.pendingEnd !== null) return false;
    this.seal(reason);
    return true;
  }

  private seal(reason: FlushReason, end?: bigint): void {
    const range = this.open!;
    range.seal(reason, end);
    this.closed.push(range);
    this.nextStart = range.end + 1n;
    this.open = null;
  }

  /** The written head range is done: its end + 1 is committed. */
  written(range: OffsetRange): void {
    if (this.closed[0] === range) this.closed.shift();
    this.committed = range.end + 1n;
    if (range.entries.length > 0) this.lastWrittenTimestampMs = range.lastTimestampMs;
    this.failing = false;
  }

  openRows(): number {
    return this.open?.rows ?? 0;
  }

  openBytes(): number {
    return this.open?.bytes ?? 0;
  }

  /** Rows held: the open range's and the closed ones'. */
  heldRows(): number {
    return this.closed.reduce((sum, range) => sum + range.rows, this.openRows());
  }

  heldBytes(): number {
    return this.closed.reduce((sum, range) => sum + range.bytes, this.openBytes());
  }

  /**
   * How far behind the partition is in time: the age of the oldest message read and not yet
   * written, or, when nothing read is held, the age of the last message written (the next one is
   * newer, so this bounds the lag from above); 0 without lag.
   */
  lagSeconds(now: number): number {
    if (this.lagMessages() === 0) return 0;
    const oldestHeld = this.closed[0]?.firstTimestampMs ?? this.open?.firstTimestampMs;
    const since = oldestHeld ?? this.lastWrittenTimestampMs;
    return since === null || since === undefined ? 0 : Math.max(0, (now - since) / 1000);
  }

  /** Messages not yet committed: high watermark − committed offset. */
  lagMessages(): number {
    if (this.highWatermark === null) return 0;
    const from = this.committed ?? this.firstRead ?? this.highWatermark;
    return Math.max(0, Number(this.highWatermark - from));
  }
}
