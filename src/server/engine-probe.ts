/**
 * Whether the engine answers, for /health, measured in the background rather than per request.
 *
 * Why: the embedded engine runs one query at a time, so a `SELECT 1` sent when /health is asked
 * waits behind every query queued before it. Under load it took longer than the health timeout
 * and /health reported a working engine as down (15 of 5,248 checks in the reliability soak).
 * Here one probe at a time runs every `intervalMs`; the engine is healthy while a probe has
 * succeeded within the last `staleAfterMs`. A probe that fails (an error, not slowness) marks
 * it down at once, so a stopped ClickHouse server is reported as quickly as before.
 */
export interface EngineProbeOptions {
  /** The probe itself: resolves when the engine answered, rejects with why it did not. */
  readonly probe: () => Promise<void>;
  /** What the engine is called in messages, e.g. "clickhouse (embedded)". */
  readonly name: string;
  readonly intervalMs?: number;
  /** How long the last success counts: longer than any wait behind queued queries. */
  readonly staleAfterMs?: number;
  /** The first check, before any probe has answered, waits at most this long. */
  readonly firstAnswerTimeoutMs?: number;
  readonly now?: () => number;
}

export class EngineProbe {
  private readonly intervalMs: number;
  private readonly staleAfterMs: number;
  private readonly firstAnswerTimeoutMs: number;
  private readonly now: () => number;
  private lastOkAt = -Infinity;
  private lastFailure: { at: number; message: string } | null = null;
  private inFlight: Promise<void> | null = null;
  private inFlightSince = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: EngineProbeOptions) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.staleAfterMs = options.staleAfterMs ?? 10_000;
    this.firstAnswerTimeoutMs = options.firstAnswerTimeoutMs ?? 2000;
    this.now = options.now ?? Date.now;
  }

  /** "ok", or why the engine is not answering. Starts the background probing on first use. */
  async status(): Promise<string> {
    this.startProbing();
    const current = this.current();
    if (current !== null) return current;
    // No answer yet, or the last success is stale: wait a little for the probe in flight.
    await Promise.race([this.inFlight, new Promise((resolve) => setTimeout(resolve, this.firstAnswerTimeoutMs).unref())]);
    return this.current() ?? `${this.options.name} did not answer within ${this.lastOkAt === -Infinity ? this.firstAnswerTimeoutMs : this.staleAfterMs} ms`;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The answer the probes already give, or null when they have not said yet. */
  private current(): string | null {
    const now = this.now();
    if (this.lastFailure && this.lastFailure.at >= this.lastOkAt) return this.lastFailure.message;
    if (now - this.lastOkAt <= this.staleAfterMs) return "ok";
    if (this.inFlight && now - this.inFlightSince > this.staleAfterMs) return `${this.options.name} did not answer within ${this.staleAfterMs} ms`;
    return null;
  }

  private startProbing(): void {
    if (this.stopped) return;
    if (!this.timer) {
      this.timer = setInterval(() => this.probeOnce(), this.intervalMs);
      this.timer.unref();
    }
    if (this.lastOkAt === -Infinity || this.now() - this.lastOkAt > this.staleAfterMs) this.probeOnce();
  }

  private probeOnce(): void {
    if (this.inFlight) return;
    this.inFlightSince = this.now();
    this.inFlight = this.options
      .probe()
      .then(
        () => {
          this.lastOkAt = this.now();
        },
        (reason: unknown) => {
          this.lastFailure = { at: this.now(), message: reason instanceof Error ? reason.message : String(reason) };
        },
      )
      .finally(() => {
        this.inFlight = null;
      });
  }
}
