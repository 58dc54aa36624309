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

/** A call made, or still waiting its turn, once the connection is closing. */
export class EngineClosedError extends Error {
  constructor() {
    super("the embedded ClickHouse is closed: the service is shutting down");
    this.name = "EngineClosedError";
  }
}

export class SerializedEmbeddedConnection {
  readonly connectionName = "chdb";
  readonly supportsZeroCopyStreaming = false;
  private tail: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | null = null;
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

  /**
   * JSONEachRow bytes into `table` through chDB's raw insert: the engine parses the bytes itself
   * (the statement it builds carries `settings` as a SETTINGS clause, so nothing stays on the
   * session). In turn with every other call, drained after a failure like them.
   */
  async rawInsert(table: string, settings: Readonly<Record<string, string | number>>, body: string): Promise<void> {
    await this.inOrder(async () => {
      try {
        await this.inner.chdb.rawInsert({ table, format: "JSONEachRow", settings: { ...settings }, values: Buffer.from(body) });
      } catch (reason) {
        throw this.inner.mapError(reason);
      }
    });
  }

  ping(params: Parameters<ChdbConnection["ping"]>[0]) {
    // A ping answers whether the engine is there; it does not throw (the Connection contract).
    return this.inOrder(() => this.inner.ping(params)).catch((error: unknown) => ({ success: false as const, error: this.mapError(error) }));
  }

  /**
   * Calls still waiting their turn fail with EngineClosedError; the one in the engine (and its
   * drain) finishes first. chDB's own close() only defers the teardown behind a running call and
   * returns, so a process that exits then still has the engine running: its exit handlers race the
   * engine's background threads (SIGSEGV in BgSchPool, seen when SIGTERM came under load).
   */
  close(): Promise<void> {
    this.closing ??= this.tail.then(() => this.inner.close());
    return this.closing;
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
    if (this.closing) return Promise.reject(new EngineClosedError());
    const run = this.tail.then(async () => {
      if (this.closing) throw new EngineClosedError();
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
