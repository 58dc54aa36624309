/**
 * Writes query-log rows to ClickHouse in the background, so that the log can never hurt serving:
 *
 * - `record` encodes the row once (a JSONEachRow line) and appends it: O(1), no I/O, no waiting.
 * - The buffer is bounded in rows and in characters; past either bound the oldest rows are
 *   dropped, counted and logged (ClickHouse has been failing for a while).
 * - A flush sends at most `batchRows` rows and `batchChars` characters in one INSERT, built from
 *   the lines encoded at record time (nothing is re-encoded), then the next batch.
 * - A batch ClickHouse refuses because of its data is split in halves until the row it refuses is
 *   alone; that row is dropped, counted and logged with ClickHouse's reason, the rest is written.
 * - Any other failure (ClickHouse down, table missing) backs off exponentially; the batch stays at
 *   the head of the buffer.
 * - `close()` writes what it can within a deadline: a clean shutdown loses nothing unless
 *   ClickHouse is failing.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { insertIsolatingRefusals, refusalText } from "../clickhouse/isolate-refused-rows.js";
import { jsonEachRowLine } from "../clickhouse/json-each-row-line.js";
import type { QueryLogRow } from "./query-log-row.js";

export interface QueryLogOptions {
  readonly table: string;
  readonly flushIntervalMs: number;
  /** Rows per INSERT at most. */
  readonly batchRows: number;
  /** Characters of encoded rows per INSERT at most (a row longer than this goes alone). */
  readonly batchChars: number;
  readonly maxBufferedRows: number;
  readonly maxBufferedChars: number;
  /** First wait after a failed write; doubles up to `retryMaxMs`. */
  readonly retryInitialMs?: number;
  readonly retryMaxMs?: number;
  readonly onWritten?: (rows: number) => void;
  /** Rows given up on; `reason` is `buffer_full` or `refused`. */
  readonly onDropped?: (rows: number, reason: "buffer_full" | "refused") => void;
  readonly onFailure?: (reason: unknown) => void;
  readonly log?: (line: string) => void;
}

export const DEFAULT_QUERY_LOG_OPTIONS: Omit<QueryLogOptions, "table"> = {
  flushIntervalMs: 1000,
  batchRows: 1000,
  batchChars: 4 * 1024 * 1024,
  maxBufferedRows: 100_000,
  maxBufferedChars: 32 * 1024 * 1024,
};

/** Seconds between two log lines about the same kind of trouble. */
const LOG_EVERY_MS = 10_000;

export class QueryLogWriter {
  private lines: string[] = [];
  /** Index of the first line still buffered (lines before it were taken): no O(n) shifts. */
  private head = 0;
  private chars = 0;
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private retryAt = 0;
  private backoffMs: number;
  private readonly lastLogAt = new Map<string, number>();

  constructor(
    private readonly client: ClickHouseClient,
    private readonly options: QueryLogOptions,
  ) {
    this.backoffMs = options.retryInitialMs ?? 1000;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    // The log must not keep a finished process alive.
    this.timer.unref();
  }

  /** Rows waiting to be written. */
  get buffered(): number {
    return this.lines.length - this.head;
  }

  /** Characters of encoded rows waiting to be written. */
  get bufferedChars(): number {
    return this.chars;
  }

  record(row: QueryLogRow): void {
    if (this.closed) return;
    const line = jsonEachRowLine(row);
    this.lines.push(line);
    this.chars += line.length;
    let dropped = 0;
    while (this.buffered > this.options.maxBufferedRows || (this.chars > this.options.maxBufferedChars && this.buffered > 1)) {
      this.chars -= this.lines[this.head]!.length;
      this.head += 1;
      dropped += 1;
    }
    if (dropped > 0) {
      this.options.onDropped?.(dropped, "buffer_full");
      this.logThrottled("buffer_full", `query log: buffer full (${this.options.maxBufferedRows} rows / ${this.options.maxBufferedChars} characters), dropped the oldest rows`);
    }
    this.compact();
    if (this.buffered >= this.options.batchRows && Date.now() >= this.retryAt) void this.flush();
  }

  /**
   * Lines held, those already taken (written or dropped) included until the array is compacted:
   * 0 once everything is written.
   */
  get heldLines(): number {
    return this.lines.length;
  }

  /**
   * Drops taken lines from the array: all of them once nothing is left to write (a quiet log
   * held up to 1,024 written rows, with their query texts and SQL, for as long as it stayed quiet),
   * else once they are the larger part of it.
   */
  private compact(): void {
    if (this.head > 0 && this.head === this.lines.length) {
      this.lines = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }

  /** Writes what is buffered, batch by batch, until empty or a write fails. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.buffered > 0 && Date.now() >= this.retryAt) {
      const count = this.nextBatchSize();
      const batch = this.lines.slice(this.head, this.head + count);
      const ok = await this.writeIsolating(batch);
      if (!ok) return;
      // Taken only now: rows dropped from the head for space while the write ran are not lost twice.
      const taken = Math.min(count, this.buffered);
      for (let i = 0; i < taken; i++) this.chars -= this.lines[this.head + i]!.length;
      this.head += taken;
      this.compact();
    }
  }

  private nextBatchSize(): number {
    let count = 0;
    let chars = 0;
    const available = this.buffered;
    while (count < available && count < this.options.batchRows) {
      const length = this.lines[this.head + count]!.length;
      if (count > 0 && chars + length > this.options.batchChars) break;
      chars += length;
      count += 1;
    }
    return count;
  }

  /**
   * Writes a batch; a data error splits it until the refused rows are alone and dropped
   * (isolate-refused-rows.ts). False when the failure was not the data's (the batch stays
   * buffered and the writer backs off).
   */
  private async writeIsolating(batch: string[]): Promise<boolean> {
    try {
      await insertIsolatingRefusals(batch, {
        insert: async (part) => {
          await this.client.command({ query: `INSERT INTO ${this.options.table} FORMAT JSONEachRow\n${part.join("")}` });
        },
        onWritten: (part) => {
          this.options.onWritten?.(part.length);
          this.backoffMs = this.options.retryInitialMs ?? 1000;
        },
        onRefused: (line, reason) => {
          this.options.onDropped?.(1, "refused");
          this.options.log?.(`query log: ClickHouse refused a row, dropped it: ${refusalText(reason)}; row: ${line.slice(0, 300)}`);
        },
        onFailure: (reason) => this.options.onFailure?.(reason),
      });
      return true;
    } catch (reason) {
      this.retryAt = Date.now() + this.backoffMs;
      this.logThrottled("failing", `query log: writing ${batch.length} row(s) failed, retrying in ${this.backoffMs} ms (${this.buffered} rows buffered): ${refusalText(reason)}`);
      this.backoffMs = Math.min(this.backoffMs * 2, this.options.retryMaxMs ?? 30_000);
      return false;
    }
  }

  private logThrottled(kind: string, line: string): void {
    const now = Date.now();
    if (now - (this.lastLogAt.get(kind) ?? 0) < LOG_EVERY_MS) return;
    this.lastLogAt.set(kind, now);
    this.options.log?.(line);
  }

  /** Stops the timer and writes what is left, giving up after `deadlineMs`. */
  async close(deadlineMs = 5000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.retryAt = 0;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.flush(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadlineMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    if (this.buffered > 0) {
      this.options.log?.(`query log: ${this.buffered} row(s) not written at shutdown`);
      this.options.onDropped?.(this.buffered, "buffer_full");
    }
  }
}
