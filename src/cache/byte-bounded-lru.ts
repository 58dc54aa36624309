/**
 * An in-memory LRU whose entries expire after a TTL and whose total size (as the caller measures
 * it) stays under a byte budget: inserting past the budget evicts the least recently used. A
 * Map keeps insertion order, so re-inserting on access makes its first key the LRU one.
 */
export interface LruOptions {
  readonly ttlMs: number;
  readonly maxBytes: number;
  /** Milliseconds clock; tests pass a fake one. */
  readonly now?: () => number;
}

interface Entry<V> {
  readonly value: V;
  readonly bytes: number;
  readonly expiresAt: number;
}

export class ByteBoundedLru<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private totalBytes = 0;
  private readonly now: () => number;

  constructor(private readonly options: LruOptions) {
    this.now = options.now ?? Date.now;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    // Most recently used goes to the back.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores a value; one larger than the whole budget is not stored at all. */
  set(key: string, value: V, bytes: number): boolean {
    this.delete(key);
    if (bytes > this.options.maxBytes || this.options.ttlMs <= 0) return false;
    while (this.totalBytes + bytes > this.options.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    this.entries.set(key, { value, bytes, expiresAt: this.now() + this.options.ttlMs });
    this.totalBytes += bytes;
    return true;
  }

  /** Drops every expired entry, so that an idle cache gives its memory back. */
  sweepExpired(): number {
    const now = this.now();
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.delete(key);
        dropped += 1;
      }
    }
    return dropped;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }
}
