/**
 * The embedded engine's connection, made safe to share: calls run one at a time, and a failed
 * call is followed by a throwaway query before the next caller's.
 *
 * Why: chDB (3.4) keeps the output a failed query had begun writing (the JSONCompact header and
 * an empty `data`, e.g. after TOO_MANY_ROWS_OR_BYTES) and hands it to the *next* query on the
 * session, prepended to that query's own answer. The next caller could be anyone — a health
 * probe, a subscription store read — and would fail to parse its answer. Draining after each
 * failure keeps one query's error from leaking into another's result. The session runs one query
 * at a time anyway (two concurrent queries take twice as long as one), so running calls in
 * order costs no parallelism and guarantees the drain runs right after the failure.
 */
import type { Readable } from "node:stream";
import type { createChdbConnection } from "chdb/connection";

type ChdbConnection = ReturnType<typeof createChdbConnection>;

/** Answers nothing of interest; its only job is to take whatever output chDB left behind. */
const DRAIN_SQL = "SELECT 1 FORMAT TabSeparated";

export class SerializedEmbeddedConnection {
  readonly connectionName = "chdb";
  readonly supportsZeroCopyStreaming = false;
  private tail: Promise<unknown> = Promise.resolve();
  /** Failures followed by a drain; visible for tests. */
  drains = 0;

  constructor(private readonly inner: ChdbConnection) {}

  query(params: Parameters<ChdbConnection["query"]>[0]) {
    return this.inOrder(() => this.inner.query(params));
  }

  exec(params: Parameters<ChdbConnection["exec"]>[0]) {
    return this.inOrder(() => this.inner.exec(params));
  }

  command(params: Parameters<ChdbConnection["command"]>[0]) {
    return this.inOrder(() => this.inner.command(params));
  }

  insert(params: Parameters<ChdbConnection["insert"]>[0]) {
    return this.inOrder(() => this.inner.insert(params));
  }

  ping(params: Parameters<ChdbConnection["ping"]>[0]) {
    return this.inOrder(() => this.inner.ping(params));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  mapError(err: unknown): Error {
    return this.inner.mapError(err);
  }

  get serverVersion(): Promise<string> {
    return this.inner.serverVersion;
  }

  get serverTimezone(): Promise<string> {
    return this.inner.serverTimezone;
  }

  private inOrder<T>(call: () => Promise<T>): Promise<T> {
    const run = this.tail.then(async () => {
      try {
        return await call();
      } catch (reason) {
        await this.drain();
        throw reason;
      }
    });
    // The chain waits for every call to settle but never inherits its failure.
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async drain(): Promise<void> {
    this.drains++;
    try {
      const result = await this.inner.query({ query: DRAIN_SQL });
      await consume(result.stream);
    } catch {
      // A drain that fails has nothing more to take; the next query proceeds as it would.
    }
  }
}

async function consume(stream: Readable): Promise<void> {
  for await (const chunk of stream) void chunk;
}
