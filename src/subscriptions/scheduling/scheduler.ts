/**
 * The subscription scheduler: it walks time forward per owned partition and runs every window
 * that comes due, through the executor, into the publisher.
 *
 * Per partition it keeps `scheduledTo`, the first firing second it has not yet looked at, and the
 * firing seconds of the runs still in progress. The partition's checkpoint is the earliest of
 * those, so it never passes a window whose result is not yet published (or counted as failed or
 * skipped). A restart resumes from the saved checkpoint: nothing is skipped, and after a clean
 * stop nothing runs twice. A window older than the stale threshold is not run: it is counted,
 * logged and recorded on the subscription. A failed run is retried with exponential backoff until
 * it would be stale; then it is counted as failed, logged and recorded.
 *
 * Time comes from a Clock, and `tick()` does one round, so tests can drive a simulated day.
 */
import type { DefinitionLookup } from "../../datasets/definition-lookup.js";
import { QueryServiceError } from "../../errors/query-service-error.js";
import { partitionKey, type Checkpoint, type CheckpointStore } from "../store/checkpoint-store.js";
import type { Clock } from "./clock.js";
import type { SubscriptionExecutor } from "../execution/executor.js";
import type { OwnedPartition, PartitionAssignment } from "./partition-assignment.js";
import { encodeResult, naiveIsoTimestamp, type PublishableResult } from "../publishing/result-message.js";
import type { ResultPublisher } from "../publishing/result-publisher.js";
import { countWindows, dueWindows, jitterSeconds, type DueWindow } from "./schedule.js";
import type { SubscriptionMetrics } from "./subscription-metrics.js";
import { compileSubscription, type CompiledSubscription } from "../execution/subscription-query.js";
import type { SubscriptionStatusBook } from "../store/subscription-status.js";
import type { SubscriptionStore } from "../store/subscription-store.js";
import type { Subscription } from "../store/subscription.js";

export interface SchedulerOptions {
  readonly definitions: DefinitionLookup;
  readonly store: SubscriptionStore;
  readonly checkpoints: CheckpointStore;
  readonly assignment: PartitionAssignment;
  readonly executor: SubscriptionExecutor;
  readonly publisher: ResultPublisher;
  readonly status: SubscriptionStatusBook;
  readonly metrics: SubscriptionMetrics;
  readonly clock: Clock;
  /** The topic of an entity's results. */
  readonly topicFor: (entity: string) => string;
  /** Seconds after T before a window runs (late data); defaults to the entity's `delay_seconds`. */
  readonly delayFor?: (entity: string) => number;
  /**
   * Up to where an entity partition's windows are due when another clock says so (the commit-log
   * clock, commit-log-clock.ts): the first firing second not yet due; null while nothing is due
   * there (its windows wait for data); undefined for an entity that follows `clock` and its delay.
   */
  readonly horizonFor?: (entity: string, partition: number) => number | null | undefined;
  /** A window whose end is older than this (seconds) is not run, or no longer retried. */
  readonly staleThresholdSeconds: number;
  /** Runs in progress at most before the scheduler stops looking further ahead. */
  readonly maxPendingRuns?: number;
  readonly retryInitialMs?: number;
  readonly retryMaxMs?: number;
  /** How often the subscription list is re-read from the store (besides `subscriptionsChanged`). */
  readonly refreshIntervalMs?: number;
  /** How often changed checkpoints and statuses are written. */
  readonly checkpointIntervalMs?: number;
  readonly statusIntervalMs?: number;
  readonly log?: (line: string) => void;
}

interface LoadedSubscription {
  readonly subscription: Subscription;
  readonly jitter: number;
  /** null when the stored query no longer compiles (definitions changed): its windows fail. */
  readonly compiled: CompiledSubscription | null;
  readonly compileError: string | null;
}

interface PartitionState {
  readonly entity: string;
  readonly partition: number;
  readonly key: string;
  /** The lease epoch this node holds the partition under; its results carry it. */
  readonly epoch: number;
  /** Draining: its final checkpoint has been handed back. */
  handedBack: boolean;
  /** The first firing second not yet scheduled. */
  scheduledTo: number;
  /** Firing second -> runs of that second still in progress. */
  readonly pending: Map<number, number>;
  saved: number | null;
}

interface SkipRun {
  readonly subscription: Subscription;
  count: number;
  first: number;
  last: number;
}

/** Errors worth retrying: the engine, a policy or the publisher may answer differently later. */
export function isRetryable(error: QueryServiceError): boolean {
  switch (error.type) {
    case "rate-limited":
    case "internal_server_error":
    case "storage-not-available":
      return true;
    case "columnstore":
      return error.httpStatus >= 500;
    default:
      return false;
  }
}

/** The stale threshold when none is configured: 15 minutes. */
export const DEFAULT_STALE_THRESHOLD_SECONDS = 900;

/** Seconds of schedule looked at per step, so a backlog is taken in slices. */
const STEP_SECONDS = 60;

export class SubscriptionScheduler {
  private readonly partitions = new Map<string, PartitionState>();
  private readonly subscriptions = new Map<string, Map<string, LoadedSubscription>>();
  private readonly savedCheckpoints = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private readonly skips = new Map<string, SkipRun>();
  private readonly abort = new AbortController();
  private pendingRuns = 0;
  private backingOff = 0;
  private idleWaiters: (() => void)[] = [];
  private ticking: Promise<void> | null = null;
  private refreshRequested = true;
  private lastRefreshAt = -Infinity;
  private lastCheckpointAt = -Infinity;
  private lastStatusAt = -Infinity;
  private lastTickAt: number | null = null;
  private lastTickError: string | null = null;
  private loop: NodeJS.Timeout | null = null;
  private started = false;
  private loaded = false;
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {
    options.metrics.gauge("quarry_subscriptions", "Subscriptions loaded by this scheduler.", () => this.subscriptionCount);
    options.metrics.gauge("quarry_subscription_runs_in_progress", "Subscription windows running, retrying or waiting to publish.", () => this.pendingRuns);
    options.metrics.gauge("quarry_subscription_runs_backing_off", "Subscription windows waiting out a backoff before their next attempt.", () => this.backingOff);
    options.metrics.gauge("quarry_subscription_checkpoint_lag_seconds", "Now minus the oldest partition checkpoint of this scheduler.", () => this.checkpointLagSeconds());
  }

  private get log(): (line: string) => void {
    return this.options.log ?? (() => {});
  }

  private nowSecond(): number {
    return Math.floor(this.options.clock.now() / 1000);
  }

  /**
   * The first firing second not yet due: a window firing at second t is due once the clock
   * reaches t + delay.
   */
  private wallHorizon(entity: string): number {
    return this.nowSecond() - this.delay(entity) + 1;
  }

  /** The wall horizon, or the one `horizonFor` gives (null: nothing due yet). */
  private horizon(entity: string, partition: number): number | null {
    const followed = this.options.horizonFor?.(entity, partition);
    return followed === undefined ? this.wallHorizon(entity) : followed;
  }

  private delay(entity: string): number {
    return this.options.delayFor?.(entity) ?? this.options.definitions.entity(entity)?.subscriptions?.delaySeconds ?? 0;
  }

  get subscriptionCount(): number {
    let count = 0;
    for (const partition of this.subscriptions.values()) count += partition.size;
    return count;
  }

  get inProgress(): number {
    return this.pendingRuns;
  }

  /** Runs waiting out a backoff before their next attempt. */
  get waitingToRetry(): number {
    return this.backingOff;
  }

  /**
   * Starts scheduling: the first round runs now (loading statuses, checkpoints and subscriptions);
   * with `loop` (the default), a round follows every second of real time. A round that fails (the
   * store unreachable) is logged, shown by `health()` and tried again a second later.
   */
  async start(options: { loop?: boolean } = {}): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.tick();
    if (options.loop ?? true) {
      // Rounds start just after each whole second of real time, when a new second falls due.
      const next = () => {
        this.loop = setTimeout(
          () => {
            void this.tick().finally(() => {
              if (!this.stopped) next();
            });
          },
          1000 - (Date.now() % 1000) + 5,
        );
      };
      next();
    }
  }

  private async loadState(): Promise<void> {
    await this.options.status.load();
    for (const checkpoint of await this.options.checkpoints.load()) {
      this.savedCheckpoints.set(partitionKey(checkpoint.entity, checkpoint.partition), checkpoint.nextSecond);
    }
    this.loaded = true;
  }

  /** The store changed here (a create or delete): re-read it on the next tick. */
  subscriptionsChanged(): void {
    this.refreshRequested = true;
  }

  /** One round: refresh the subscriptions if due, schedule what came due, save progress. */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.ticking ??= this.round().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async round(): Promise<void> {
    const now = this.options.clock.now();
    try {
      if (!this.loaded) await this.loadState();
      if (this.refreshRequested || now - this.lastRefreshAt >= (this.options.refreshIntervalMs ?? 10_000)) await this.refresh();
      const owned = this.options.assignment.owned();
      this.forgetUnowned(owned);
      for (const partition of owned) {
        const state = this.partitionState(partition);
        if (partition.draining) this.handBackWhenIdle(state);
        else this.schedulePartition(state);
      }
      this.reportSkips();
      if (now - this.lastCheckpointAt >= (this.options.checkpointIntervalMs ?? 1000)) await this.saveCheckpoints();
      if (now - this.lastStatusAt >= (this.options.statusIntervalMs ?? 5000)) {
        this.lastStatusAt = now;
        await this.options.status.flush();
      }
      this.lastTickError = null;
    } catch (reason) {
      this.lastTickError = reason instanceof Error ? reason.message : String(reason);
      this.log(`subscription scheduler: round failed (retried next second): ${this.lastTickError}`);
    }
    this.lastTickAt = this.options.clock.now();
  }

  private async refresh(): Promise<void> {
    this.refreshRequested = false;
    const listed = await this.options.store.list();
    this.lastRefreshAt = this.options.clock.now();
    const seen = new Set<string>();
    for (const subscription of listed) {
      const key = partitionKey(subscription.entity, subscription.partition);
      seen.add(`${key}/${subscription.uuid}`);
      let partition = this.subscriptions.get(key);
      if (!partition) this.subscriptions.set(key, (partition = new Map()));
      if (partition.has(subscription.uuid)) continue;
      const loaded = this.load(subscription);
      partition.set(subscription.uuid, loaded);
      // Created after this partition's schedule already passed its first firing (it reached the
      // store between two refreshes): run what it missed.
      const state = this.partitions.get(key);
      if (state) this.scheduleRange(state, loaded, Math.ceil(subscription.createdAt / 1000), state.scheduledTo);
    }
    for (const [key, partition] of this.subscriptions) {
      for (const uuid of partition.keys()) if (!seen.has(`${key}/${uuid}`)) partition.delete(uuid);
    }
  }

  private load(subscription: Subscription): LoadedSubscription {
    const jitter = jitterSeconds(subscription);
    try {
      const compiled = compileSubscription(this.options.definitions, subscription, this.nowSecond());
      return { subscription, jitter, compiled, compileError: null };
    } catch (reason) {
      const message = QueryServiceError.from(reason).message;
      this.log(`subscription ${subscription.id} (${subscription.entity}): its query no longer compiles, its windows will fail: ${message}`);
      return { subscription, jitter, compiled: null, compileError: message };
    }
  }

  /**
   * Partitions this node no longer owns (lost its lease, or handed back): their state goes.
   * Runs still in progress finish, but publish only if the lease is still held (see runWindow).
   */
  private forgetUnowned(owned: readonly OwnedPartition[]): void {
    if (owned.length === this.partitions.size && owned.every((o) => this.partitions.get(partitionKey(o.entity, o.partition))?.epoch === o.epoch)) return;
    const current = new Map(owned.map((o) => [partitionKey(o.entity, o.partition), o.epoch]));
    for (const [key, state] of this.partitions) {
      if (current.get(key) !== state.epoch) this.partitions.delete(key);
    }
  }

  /** A draining partition hands back its checkpoint once nothing of it runs any more. */
  private handBackWhenIdle(state: PartitionState): void {
    if (state.handedBack || state.pending.size > 0) return;
    state.handedBack = true;
    this.options.assignment.handBack?.(state.entity, state.partition, state.epoch, this.checkpointOf(state));
  }

  private partitionState(owned: OwnedPartition): PartitionState {
    const key = partitionKey(owned.entity, owned.partition);
    let state = this.partitions.get(key);
    if (state) return state;
    // Where a partition never scheduled starts: now, by the wall clock (a commit-log clock may
    // not have said anything yet, and must not make it start in the past).
    const horizon = this.wallHorizon(owned.entity);
    // A leased partition resumes where its lease record says; a single node from its store.
    let start = owned.resumeFrom === undefined ? this.savedCheckpoints.get(key) : (owned.resumeFrom ?? undefined);
    if (start === undefined) {
      // Never scheduled: start at the first firing of its oldest subscription, if that is earlier.
      start = horizon;
      for (const loaded of this.subscriptions.get(key)?.values() ?? []) start = Math.min(start, Math.ceil(loaded.subscription.createdAt / 1000));
    }
    const saved = owned.resumeFrom === undefined ? (this.savedCheckpoints.get(key) ?? null) : owned.resumeFrom;
    state = { entity: owned.entity, partition: owned.partition, key, epoch: owned.epoch, handedBack: false, scheduledTo: start, pending: new Map(), saved };
    this.partitions.set(key, state);
    return state;
  }

  /**
   * Windows firing before this second are stale when they come due. On the wall clock that is
   * the threshold before now; on a commit-log clock, before the data's horizon, as Snuba measures
   * it from the tick: windows that waited for a backlog run once it is written.
   */
  private staleBefore(entity: string, partition: number): number {
    const followed = this.options.horizonFor?.(entity, partition);
    const now = typeof followed === "number" ? followed - 1 : this.nowSecond();
    return now - this.options.staleThresholdSeconds;
  }

  private schedulePartition(state: PartitionState): void {
    const horizon = this.horizon(state.entity, state.partition);
    if (horizon === null) return;
    const staleBefore = this.staleBefore(state.entity, state.partition);
    const maxPending = this.options.maxPendingRuns ?? 10_000;
    const loaded = [...(this.subscriptions.get(state.key)?.values() ?? [])];
    while (state.scheduledTo < horizon && this.pendingRuns < maxPending) {
      // A stretch that is all stale is taken in one step (it is only counted).
      const end = Math.min(horizon, Math.max(state.scheduledTo + STEP_SECONDS, staleBefore));
      for (const subscription of loaded) this.scheduleRange(state, subscription, state.scheduledTo, end);
      state.scheduledTo = end;
    }
  }

  /** Schedules the windows of one subscription that fire in [from, to). */
  private scheduleRange(state: PartitionState, loaded: LoadedSubscription, from: number, to: number): void {
    if (from >= to) return;
    const { subscription, jitter } = loaded;
    const staleBefore = this.staleBefore(state.entity, state.partition);
    // Windows firing before staleBefore end before it too: count them without listing them.
    const split = Math.min(to, Math.max(from, staleBefore));
    if (split > from) {
      const count = countWindows(subscription, from, split, jitter);
      if (count > 0) {
        const first = dueWindows(subscription, from, split, jitter, 1)[0]!;
        this.skipStale(subscription, count, first.windowEnd, lastWindowBefore(subscription, split, jitter));
      }
    }
    for (const window of dueWindows(subscription, split, to, jitter)) {
      if (window.windowEnd < staleBefore) this.skipStale(subscription, 1, window.windowEnd, window.windowEnd);
      else this.launch(state, loaded, window);
    }
  }

  private skipStale(subscription: Subscription, count: number, first: number, last: number): void {
    this.options.metrics.scheduled.inc({ entity: subscription.entity }, count);
    this.options.metrics.skippedStale.inc({ entity: subscription.entity }, count);
    this.options.status.skippedStale(subscription, count);
    const skip = this.skips.get(subscription.id);
    if (skip) {
      skip.count += count;
      skip.first = Math.min(skip.first, first);
      skip.last = Math.max(skip.last, last);
    } else {
      this.skips.set(subscription.id, { subscription, count, first, last });
    }
  }

  /** One log line per subscription and round for its stale windows, not one per window. */
  private reportSkips(): void {
    for (const skip of this.skips.values()) {
      this.log(
        `subscription ${skip.subscription.id} (${skip.subscription.entity}): skipped ${skip.count} stale window(s) ending ` +
          `${naiveIsoTimestamp(skip.first)} .. ${naiveIsoTimestamp(skip.last)}: older than the stale threshold of ${this.options.staleThresholdSeconds} s`,
      );
    }
    this.skips.clear();
  }

  private launch(state: PartitionState, loaded: LoadedSubscription, window: DueWindow): void {
    this.options.metrics.scheduled.inc({ entity: loaded.subscription.entity });
    state.pending.set(window.firesAt, (state.pending.get(window.firesAt) ?? 0) + 1);
    this.pendingRuns += 1;
    const run = this.runWindow(loaded, window, state.epoch).then((finished) => {
      this.running.delete(run);
      // An interrupted run (stop during a backoff) stays pending: the checkpoint stays before it.
      if (!finished) return;
      const left = (state.pending.get(window.firesAt) ?? 1) - 1;
      if (left > 0) state.pending.set(window.firesAt, left);
      else state.pending.delete(window.firesAt);
      this.pendingRuns -= 1;
      if (this.pendingRuns === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        waiters.forEach((resolve) => resolve());
      }
    });
    this.running.add(run);
  }

  /** Runs and publishes one window, retrying; false when interrupted by `stop`. */
  private async runWindow(loaded: LoadedSubscription, window: DueWindow, epoch: number): Promise<boolean> {
    const { subscription, compiled } = loaded;
    const { metrics, status, clock } = this.options;
    const entity = subscription.entity;
    let backoff = this.options.retryInitialMs ?? 1000;
    let result: PublishableResult | null = null;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      try {
        if (!compiled) throw new QueryServiceError("invalid_query", loaded.compileError ?? "the query does not compile");
        if (!result) {
          const output = await this.options.executor.run(compiled, window.windowEnd);
          metrics.executed.inc({ entity });
          result = encodeResult(subscription, window.windowEnd, output, this.options.topicFor(entity), epoch);
        }
        if (this.options.assignment.holds && !this.options.assignment.holds(entity, subscription.partition, epoch)) {
          // The lease moved on while this ran (a pause, a lost connection): the new owner runs
          // this window from its checkpoint, so publishing it here would only duplicate it.
          metrics.fenced.inc({ entity });
          this.log(`subscription ${subscription.id} (${entity}): window ending ${naiveIsoTimestamp(window.windowEnd)} not published: partition ${subscription.partition} is no longer held under epoch ${epoch}`);
          return true;
        }
        await this.options.publisher.publish(result);
        metrics.published.inc({ entity });
        metrics.lag.observe({ entity }, clock.now() / 1000 - window.windowEnd);
        status.published(subscription, window.windowEnd);
        return true;
      } catch (reason) {
        const error = QueryServiceError.from(reason);
        const what = `${error.type}: ${error.message}`;
        const staleAt = (window.windowEnd + this.options.staleThresholdSeconds) * 1000;
        if (this.stopped) return false;
        if (!isRetryable(error) || clock.now() + backoff >= staleAt) {
          metrics.failed.inc({ entity, error_type: error.type });
          status.failed(subscription, window.windowEnd, what);
          this.log(
            `subscription ${subscription.id} (${entity}): window ending ${naiveIsoTimestamp(window.windowEnd)} failed after ${attempts} attempt(s)` +
              `${isRetryable(error) ? " (retried until stale)" : ""}: ${what}`,
          );
          return true;
        }
        metrics.retried.inc({ entity, error_type: error.type });
        status.retrying(subscription, what);
        this.backingOff += 1;
        try {
          await clock.sleep(backoff, this.abort.signal);
        } catch {
          return false;
        } finally {
          this.backingOff -= 1;
        }
        backoff = Math.min(backoff * 2, this.options.retryMaxMs ?? 30_000);
      }
    }
  }

  private checkpointOf(state: PartitionState): number {
    let checkpoint = state.scheduledTo;
    for (const second of state.pending.keys()) if (second < checkpoint) checkpoint = second;
    return checkpoint;
  }

  private async saveCheckpoints(): Promise<void> {
    this.lastCheckpointAt = this.options.clock.now();
    const changed: Checkpoint[] = [];
    for (const state of this.partitions.values()) {
      const nextSecond = this.checkpointOf(state);
      if (nextSecond !== state.saved) changed.push({ entity: state.entity, partition: state.partition, nextSecond, epoch: state.epoch });
    }
    if (changed.length === 0) return;
    await this.options.checkpoints.save(changed);
    for (const checkpoint of changed) {
      const state = this.partitions.get(partitionKey(checkpoint.entity, checkpoint.partition));
      if (state) state.saved = checkpoint.nextSecond;
    }
  }

  private checkpointLagSeconds(): number {
    let oldest = Infinity;
    for (const state of this.partitions.values()) oldest = Math.min(oldest, this.checkpointOf(state));
    return oldest === Infinity ? 0 : Math.max(0, this.nowSecond() - oldest);
  }

  /** Resolves when no run is in progress (tests and benches). */
  idle(): Promise<void> {
    if (this.pendingRuns === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The checkpoint each partition would save now. */
  checkpoints(): Checkpoint[] {
    return [...this.partitions.values()].map((state) => ({ entity: state.entity, partition: state.partition, nextSecond: this.checkpointOf(state), epoch: state.epoch }));
  }

  /** "ok", or why the scheduler is not advancing. */
  health(): string {
    if (!this.started) return "not started";
    if (this.stopped) return "stopped";
    if (this.lastTickError) return `scheduling round failed: ${this.lastTickError}`;
    const sinceTick = this.lastTickAt === null ? Infinity : this.options.clock.now() - this.lastTickAt;
    if (sinceTick > 10_000) return `stalled: no scheduling round for ${Math.round(sinceTick / 1000)} s`;
    return "ok";
  }

  /**
   * Stops scheduling, lets runs in progress finish (up to `drainMs`), and saves the checkpoints
   * and statuses. Runs still unfinished keep the checkpoint before them: they run again.
   */
  async stop(drainMs = 10_000): Promise<void> {
    if (this.stopped) return;
    // First: no new round starts, and a failing run stops retrying (it stays before the checkpoint).
    this.stopped = true;
    if (this.loop) clearTimeout(this.loop);
    await this.ticking;
    this.abort.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, drainMs);
      }),
    ]);
    clearTimeout(timer);
    this.reportSkips();
    if (!this.loaded) return;
    await this.saveCheckpoints();
    await this.options.status.flush();
  }
}

/** The end T of the last window firing before `before`. */
function lastWindowBefore(subscription: Pick<Subscription, "resolution">, before: number, jitter: number): number {
  return Math.floor((before - 1 - jitter) / subscription.resolution) * subscription.resolution;
}
