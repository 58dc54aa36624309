/**
 * A contiguous range of one partition's offsets, [start, end], and what its messages became: the
 * unit a consumer writes with one INSERT and commits at once. `start` is where reading resumed
 * (the committed offset, or the previous range's end + 1), so a replay that resumes from the
 * same committed offset forms a range with the same start; `end` is the last message's offset,
 * or the end a `pending:<end>` commit fixed.
 */
import type { DeadLetter, RangeEntry } from "./message-outcome.js";

/** Why a range was closed: its rows or bytes reached the storage's limit, its age did, a replay's fixed end, or a graceful stop. */
export type FlushReason = "rows" | "bytes" | "time" | "replay" | "stop";

export class OffsetRange {
  readonly entries: RangeEntry[] = [];
  end: bigint;
  rows = 0;
  bytes = 0;
  /** When the first message was taken (the time limit counts from it), ms. */
  readonly openedAt: number;
  /** Broker timestamps of the first and the last message, ms (0 while empty). */
  firstTimestampMs = 0;
  lastTimestampMs = 0;
  readonly originTimestamps: number[] = [];
  sealedBy: FlushReason | null = null;
  /** Messages whose rows the engine refused (known once the INSERT is done). */
  refused: DeadLetter[] = [];

  /** Which steps of the write are done: a retry after a failure resumes after them. */
  readonly done = { pendingCommitted: false, deadLettered: false, inserted: false, replacementsSent: false, commitLogSent: false };

  constructor(
    readonly start: bigint,
    now: number,
  ) {
    this.end = start - 1n;
    this.openedAt = now;
  }

  add(entry: RangeEntry, timestampMs: number): void {
    this.entries.push(entry);
    this.end = entry.offset;
    this.bytes += entry.bytes;
    if (this.entries.length === 1) this.firstTimestampMs = timestampMs;
    this.lastTimestampMs = timestampMs;
    if (entry.outcome.kind === "rows") {
      this.rows += entry.outcome.rows;
      if (entry.outcome.originTimestamp !== undefined) this.originTimestamps.push(entry.outcome.originTimestamp);
    }
  }

  /** Closes the range; `end` fixes it past its last message (a replay whose last messages are gone). */
  seal(reason: FlushReason, end: bigint = this.end): void {
    this.end = end;
    this.sealedBy = reason;
  }

  /** The messages to insert, in offset order. */
  rowEntries(): RangeEntry[] {
    return this.entries.filter((entry) => entry.outcome.kind === "rows");
  }
}
