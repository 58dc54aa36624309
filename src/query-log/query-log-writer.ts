/**
 * Writes query-log rows to ClickHouse in the background: `record` only appends to a buffer; a
 * flush (every `flushIntervalMs`, or as soon as `batchSize` rows wait) inserts the batch with
 * JSONEachRow. A query never waits for, or fails because of, the log. When ClickHouse is down the
 * rows stay buffered for the next flush, up to `maxBufferedRows`; past that the oldest are dropped
 * and counted. `close()` flushes what is left, so a clean shutdown loses nothing.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import type { QueryLogRow } from "./query-log-row.js";

export interface QueryLogOptions {
  readonly table: string;
  readonly batchSize: number;
  readonly flushIntervalMs: number;
  readonly maxBufferedRows: number;
  readonly onWritten?: (rows: number) => void;
  readonly onDropped?: (rows: number) => void;
  readonly onFailure?: (reason: unknown) => void;
}

export const DEFAULT_QUERY_LOG_OPTIONS: Omit<QueryLogOptions, "table"> = {
  batchSize: 1000,
  flushIntervalMs: 1000,
  maxBufferedRows: 100_000,
};

export class QueryLogWriter {
  private buffer: QueryLogRow[] = [];
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly client: ClickHouseClient,
    private readonly options: QueryLogOptions,
  ) {
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    // The log must not keep a finished process alive.
    this.timer.unref();
  }

  get buffered(): number {
    return this.buffer.length;
  }

  record(row: QueryLogRow): void {
    this.buffer.push(row);
    const overflow = this.buffer.length - this.options.maxBufferedRows;
    if (overflow > 0) {
      this.buffer.splice(0, overflow);
      this.options.onDropped?.(overflow);
    }
    if (this.buffer.length >= this.options.batchSize && !this.closed) void this.flush();
  }

  /** Writes everything buffered so far; resolves when written (or failed and re-buffered). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.write(batch).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(batch: QueryLogRow[]): Promise<void> {
    try {
      await this.client.insert({ table: this.options.table, format: "JSONEachRow", values: batch });
      this.options.onWritten?.(batch.length);
    } catch (reason) {
      this.options.onFailure?.(reason);
      // Put the batch back in front of what arrived meanwhile, for the next flush.
      this.buffer = batch.concat(this.buffer);
      const overflow = this.buffer.length - this.options.maxBufferedRows;
      if (overflow > 0) {
        this.buffer.splice(0, overflow);
        this.options.onDropped?.(overflow);
      }
    }
  }

  /** Stops the timer and writes what is left (one attempt). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
  }
}
