/**
 * What an operator sees of each subscription: its last run, last published result, last error
 * and counts. The scheduler records into the book as runs end; the book writes what changed to
 * its store in batches (and on stop), and the list/get API reads it.
 */
import type { Subscription } from "./subscription.js";

export interface SubscriptionStatus {
  /** The window end T (Unix seconds) of the last run that ended, published or failed. */
  lastWindow: number | null;
  /** Epoch milliseconds. */
  lastRunAt: number | null;
  lastResultAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
  published: number;
  failed: number;
  skippedStale: number;
}

export interface StatusEntry {
  readonly entity: string;
  readonly partition: number;
  readonly uuid: string;
  readonly status: SubscriptionStatus;
}

export interface StatusStore {
  load(): Promise<StatusEntry[]>;
  save(entries: readonly StatusEntry[]): Promise<void>;
}

function emptyStatus(): SubscriptionStatus {
  return { lastWindow: null, lastRunAt: null, lastResultAt: null, lastError: null, lastErrorAt: null, published: 0, failed: 0, skippedStale: 0 };
}

function keyOf(entity: string, partition: number, uuid: string): string {
  return `${entity}/${partition}/${uuid}`;
}

export class SubscriptionStatusBook {
  private readonly entries = new Map<string, StatusEntry>();
  private readonly dirty = new Set<string>();

  constructor(
    private readonly store: StatusStore,
    private readonly now: () => number,
  ) {}

  async load(): Promise<void> {
    for (const entry of await this.store.load()) this.entries.set(keyOf(entry.entity, entry.partition, entry.uuid), entry);
  }

  /**
   * A status written elsewhere (another node of the cluster): taken unless this book has changes
   * of its own still to write.
   */
  observe(entry: StatusEntry): void {
    const key = keyOf(entry.entity, entry.partition, entry.uuid);
    if (!this.dirty.has(key)) this.entries.set(key, { ...entry, status: { ...entry.status } });
  }

  get(entity: string, partition: number, uuid: string): SubscriptionStatus {
    return { ...(this.entries.get(keyOf(entity, partition, uuid))?.status ?? emptyStatus()) };
  }

  private touch(subscription: Subscription): SubscriptionStatus {
    const key = keyOf(subscription.entity, subscription.partition, subscription.uuid);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { entity: subscription.entity, partition: subscription.partition, uuid: subscription.uuid, status: emptyStatus() };
      this.entries.set(key, entry);
    }
    this.dirty.add(key);
    return entry.status;
  }

  published(subscription: Subscription, windowEnd: number): void {
    const status = this.touch(subscription);
    const now = this.now();
    status.lastWindow = Math.max(status.lastWindow ?? windowEnd, windowEnd);
    status.lastRunAt = now;
    status.lastResultAt = now;
    status.published += 1;
  }

  /** A run that will be retried: only the error is remembered. */
  retrying(subscription: Subscription, message: string): void {
    const status = this.touch(subscription);
    status.lastError = message;
    status.lastErrorAt = this.now();
  }

  failed(subscription: Subscription, windowEnd: number, message: string): void {
    const status = this.touch(subscription);
    const now = this.now();
    status.lastWindow = Math.max(status.lastWindow ?? windowEnd, windowEnd);
    status.lastRunAt = now;
    status.lastError = message;
    status.lastErrorAt = now;
    status.failed += 1;
  }

  skippedStale(subscription: Subscription, windows: number): void {
    this.touch(subscription).skippedStale += windows;
  }

  /** Writes the entries that changed since the last flush. */
  async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    const keys = [...this.dirty];
    this.dirty.clear();
    try {
      await this.store.save(keys.map((key) => this.entries.get(key)!));
    } catch (reason) {
      for (const key of keys) this.dirty.add(key);
      throw reason;
    }
  }
}
