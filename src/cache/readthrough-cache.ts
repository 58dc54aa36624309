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

  /** A stored value without running anything (no single-flight). */
  peek(key: string): V | undefined {
    return this.stored.get(key);
  }

  /**
   * The stored value, or a running execution's, or `compute()`'s. Synchronous up to the
   * decision, so two calls in the same tick cannot both miss.
   */
  get(key: string, compute: () => Promise<V>): { readonly status: CacheStatus; readonly value: Promise<V> } {
    const hit = this.stored.get(key);
    if (hit !== undefined) return { status: "hit", value: Promise.resolve(hit) };
    const inFlight = this.running.get(key);
    if (inFlight) return { status: "waited", value: inFlight };
    const execution = compute().then(
      (value) => {
        this.running.delete(key);
        this.stored.set(key, value, this.sizeOf(value));
        return value;
      },
      (reason: unknown) => {
        this.running.delete(key);
        throw reason;
      },
    );
    this.running.set(key, execution);
    return { status: "miss", value: execution };
  }
}
