/**
 * What the commit-log lag bench records while it runs, and the lag it computes from that: per
 * window, the time its result was published (Kafka acknowledged it) less the time the commit-log
 * message that made it due was sent, with where that time went.
 *
 * The message that made a window due is found the way the clock decides (commit-log-clock.ts):
 * a commit closes a tick of its source partition (the partition's first commit closes none), the
 * tick's upper time is the commit's timestamp less the entity's delay, and the partition's
 * horizon becomes ⌊upper⌋ + 1; a window firing at t is due once the horizon is past t. The
 * commits' timestamps only grow, so the first tick-closing commit whose horizon passes t is it.
 */

export interface SentCommit {
  readonly partition: number;
  /** The commit's orig_message_ts and received_p99, ms. */
  readonly timestampMs: number;
  /** Date.now() just before the produce call. */
  readonly sentMs: number;
  /** The horizon of the partition once the clock has read this commit; null for the first (it closes no tick). */
  readonly horizon: number | null;
}

/** A window the bench expects to be published. */
export interface ExpectedWindow {
  readonly subscriptionId: string;
  readonly partition: number;
  readonly windowEnd: number;
  readonly firesAt: number;
}

/** One window's lag, ms; `censored` when it was not published by the end (the lag is at least `ms`). */
export interface LagSample {
  readonly ms: number;
  readonly censored: boolean;
  /** When the commit that made it due was sent (ms since the epoch). */
  readonly madeDueAtMs: number;
}

/** Where the published windows' time went, ms each. */
export interface LagParts {
  /** Commit sent → the clock's horizon passed the window (the commit-log reader). */
  readonly commitToClock: number[];
  /** Clock → the executor was called (the scheduler's next round). */
  readonly clockToRun: number[];
  /** Executor called → it answered (its queue and the query). */
  readonly run: number[];
  /** Executor answered → Kafka acknowledged the result. */
  readonly publish: number[];
}

export interface LagFigures {
  readonly expected: number;
  readonly samples: LagSample[];
  readonly parts: LagParts;
  /** Expected windows for which no commit that made them due was sent. */
  readonly neverDue: number;
}

const key = (subscriptionId: string, windowEnd: number) => `${subscriptionId}@${windowEnd}`;

export class LagLedger {
  private readonly commits = new Map<number, SentCommit[]>();
  private readonly sightings = new Map<number, { horizon: number; atMs: number }[]>();
  private readonly runCalled = new Map<string, number>();
  private readonly runAnswered = new Map<string, number>();
  private readonly publishedAt = new Map<string, number>();
  /** Every publish acknowledgement time, in order (throughput over time). */
  readonly acknowledgements: number[] = [];

  constructor(private readonly delaySeconds: number) {}

  commitSent(partition: number, timestampMs: number, sentMs: number): void {
    let list = this.commits.get(partition);
    if (!list) this.commits.set(partition, (list = []));
    // The same arithmetic as the tick former and the clock (seconds as a float, less the delay).
    const horizon = list.length === 0 ? null : Math.floor(timestampMs / 1000 - this.delaySeconds) + 1;
    list.push({ partition, timestampMs, sentMs, horizon });
  }

  /** The clock's horizon for `partition`, polled; only changes are kept. */
  horizonSeen(partition: number, horizon: number | null, atMs: number): void {
    if (horizon === null) return;
    let list = this.sightings.get(partition);
    if (!list) this.sightings.set(partition, (list = []));
    if (list.length === 0 || list[list.length - 1]!.horizon < horizon) list.push({ horizon, atMs });
  }

  runStarted(subscriptionId: string, windowEnd: number, atMs: number): void {
    const k = key(subscriptionId, windowEnd);
    // A retried run keeps its first call.
    if (!this.runCalled.has(k)) this.runCalled.set(k, atMs);
  }

  runFinished(subscriptionId: string, windowEnd: number, atMs: number): void {
    this.runAnswered.set(key(subscriptionId, windowEnd), atMs);
  }

  published(subscriptionId: string, windowEnd: number, atMs: number): void {
    const k = key(subscriptionId, windowEnd);
    if (!this.publishedAt.has(k)) this.publishedAt.set(k, atMs);
    this.acknowledgements.push(atMs);
  }

  get publishedCount(): number {
    return this.publishedAt.size;
  }

  isPublished(subscriptionId: string, windowEnd: number): boolean {
    return this.publishedAt.has(key(subscriptionId, windowEnd));
  }

  /** The first tick-closing commit of `partition` whose horizon passes `firesAt`. */
  makingCommit(partition: number, firesAt: number): SentCommit | undefined {
    const list = this.commits.get(partition) ?? [];
    let low = 1;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (list[middle]!.horizon! > firesAt) high = middle;
      else low = middle + 1;
    }
    return list[low];
  }

  /** When the polled clock first had a horizon past `firesAt` for `partition`. */
  private clockPassed(partition: number, firesAt: number): number | undefined {
    return this.sightings.get(partition)?.find((sighting) => sighting.horizon > firesAt)?.atMs;
  }

  /** The lag of each expected window; those not published by `endMs` are censored at `endMs`. */
  measure(windows: readonly ExpectedWindow[], endMs: number): LagFigures {
    const samples: LagSample[] = [];
    const parts: LagParts = { commitToClock: [], clockToRun: [], run: [], publish: [] };
    let neverDue = 0;
    for (const window of windows) {
      const commit = this.makingCommit(window.partition, window.firesAt);
      if (!commit) {
        neverDue += 1;
        continue;
      }
      const k = key(window.subscriptionId, window.windowEnd);
      const published = this.publishedAt.get(k);
      if (published === undefined) {
        samples.push({ ms: endMs - commit.sentMs, censored: true, madeDueAtMs: commit.sentMs });
        continue;
      }
      samples.push({ ms: published - commit.sentMs, censored: false, madeDueAtMs: commit.sentMs });
      const clock = this.clockPassed(window.partition, window.firesAt);
      const called = this.runCalled.get(k);
      const answered = this.runAnswered.get(k);
      if (clock === undefined || called === undefined || answered === undefined) continue;
      parts.commitToClock.push(clock - commit.sentMs);
      parts.clockToRun.push(called - clock);
      parts.run.push(answered - called);
      parts.publish.push(published - answered);
    }
    return { expected: windows.length, samples, parts, neverDue };
  }
}

/**
 * The p-th quantile of the samples, ms. A window not published by the end counts with the lag it
 * had by then, a lower bound of its own; when one of those sorts at or below the quantile, the
 * true quantile can only be larger, and `atLeast` says so.
 */
export function lagQuantile(samples: readonly LagSample[], p: number): { ms: number; atLeast: boolean } {
  if (samples.length === 0) return { ms: NaN, atLeast: false };
  const sorted = [...samples].sort((a, b) => a.ms - b.ms);
  const index = Math.min(sorted.length - 1, Math.floor(sorted.length * p));
  let atLeast = false;
  for (let i = 0; i <= index && !atLeast; i++) atLeast = sorted[i]!.censored;
  return { ms: sorted[index]!.ms, atLeast };
}

export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}
