/**
 * Snuba's `global` watermark (facts: snuba-ingestion.md §3.3): ticks of every source partition
 * are held until each partition has at least one, then the head ticks with the smallest upper
 * time are released (ties together). A released tick's upper time is then reached by every
 * partition's commit log, so a window ending there has all its data, whichever partition holds it.
 *
 * A partition holding more than `maxBuffered` ticks releases its oldest anyway (Snuba's
 * SUBSCRIPTIONS_DEFAULT_BUFFER_SIZE, 10,000), so a stalled partition delays the others by a
 * bounded amount. With one partition, or `maxBuffered` 0, every tick is released at once.
 */
import type { CommitLogTick } from "./commit-log-ticks.js";

export const DEFAULT_TICK_BUFFER_SIZE = 10_000;

export class GlobalTickBuffer {
  private readonly buffers: CommitLogTick[][];

  constructor(
    private readonly partitions: number,
    private readonly maxBuffered: number = DEFAULT_TICK_BUFFER_SIZE,
  ) {
    if (!Number.isInteger(partitions) || partitions < 1) throw new RangeError(`a tick buffer needs at least one partition, got ${partitions}`);
    this.buffers = Array.from({ length: partitions }, () => []);
  }

  /** Adds a tick; returns the ticks it releases, in release order. */
  push(tick: CommitLogTick): CommitLogTick[] {
    if (tick.partition < 0 || tick.partition >= this.partitions) {
      throw new RangeError(`tick of partition ${tick.partition}, but the buffer follows partitions 0-${this.partitions - 1}`);
    }
    if (this.partitions === 1 || this.maxBuffered === 0) return [tick];
    const buffer = this.buffers[tick.partition]!;
    buffer.push(tick);
    const released: CommitLogTick[] = [];
    // A partition over its bound gives up its oldest tick without waiting for the others.
    if (buffer.length > this.maxBuffered) released.push(buffer.shift()!);
    while (this.buffers.every((ticks) => ticks.length > 0)) {
      const lowest = Math.min(...this.buffers.map((ticks) => ticks[0]!.timestamps.upper));
      for (const ticks of this.buffers) if (ticks[0]!.timestamps.upper === lowest) released.push(ticks.shift()!);
    }
    return released;
  }

  /** Ticks held per partition (for a metric of how far the slowest partition holds the others back). */
  held(): number[] {
    return this.buffers.map((ticks) => ticks.length);
  }
}
