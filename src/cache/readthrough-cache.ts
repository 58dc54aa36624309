/**
 * The readthrough result cache (facts §3.1 step 4, with the single-flight Snuba once had): a hit
 * answers from memory; a miss runs the query and stores its result; a query identical to one
 * already running waits for that execution instead of running again ("waited"). Failures are
 * shared with the waiters but never stored.
 */
import { ByteBoundedLru, type LruOptions } from "./byte-bounded-lru.js";

export type CacheStatus = "hit" | "miss" | "waited";

export interface CacheAnswer<V> {
  readonly value: V;
  readonly status: CacheStatus;
}

export class ReadthroughCache<V> {
  private readonly stored: ByteBoundedLru<V>;
  private readonly running = new Map<string, Promise<V>>();

  constructor(
    options: LruOptions,
    /** The size of a value in bytes, for the budget. */
    private readonly sizeOf: (value: V) => number,
  ) {
    this.stored = new ByteBoundedLru(options);
  }

  get bytes(): number {
    return this.stored.bytes;
  }

  get entries(): number {
    return this.stored.size;
  }

  /** Drops expired results (the owner calls it on a timer, so a quiet server holds none). */
  sweepExpired(): number {
    return this.stored.sweepExpired();
  }

  /**
   * A stored value ("hit") or a running identical execution ("waited"); null when the query has
   * to run. Synchronous, so a caller that gets null and then calls `run` in the same tick is
   * the only one running it.
   */
  lookup(key: string): { readonly status: "hit" | "waited"; readonly value: Promise<V> } | null {
    const hit = this.stored.get(key);
    if (hit !== undefined) return { status: "hit", value: Promise.resolve(hit) };
    const inFlight = this.running.get(key);
    return inFlight ? { status: "waited", value: inFlight } : null;
  }

  /** Runs `compute` as the one execution for `key`; identical lookups wait for it meanwhile. */
  run(key: string, compute: () => Promise<V>): Promise<V> {
    const execution = compute().then(
      (value) => {
        this.running.delete(key);
        // The key (the SQL text) is held as long as the value.
        this.stored.set(key, value, this.sizeOf(value) + key.length);
        return value;
      },
      (reason: unknown) => {
        this.running.delete(key);
        throw reason;
      },
    );
    this.running.set(key, execution);
    return execution;
  }

  /** `lookup`, else `run`: the stored value, a running execution's, or `compute()`'s. */
  get(key: string, compute: () => Promise<V>): { readonly status: CacheStatus; readonly value: Promise<V> } {
    return this.lookup(key) ?? { status: "miss", value: this.run(key, compute) };
  }
}
