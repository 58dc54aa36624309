/**
 * A local copy of (part of) a KV bucket, kept current by a watch: reads are free and every node
 * sees another node's writes within milliseconds. The copy may lag; whoever acts on it writes
 * with a revision check, so a stale view costs a retry, never a wrong write. The watch is an
 * ordered consumer; if it ends (a NATS outage), it is opened again.
 */
import type { KV, KvEntry } from "nats";

export interface MirroredEntry {
  readonly key: string;
  readonly value: Uint8Array;
  readonly revision: number;
  readonly deleted: boolean;
}

export class KvMirror {
  private readonly entries = new Map<string, MirroredEntry>();
  private stopped = false;
  private readyPromise: Promise<void>;
  private markReady!: () => void;
  private listeners: ((entry: MirroredEntry) => void)[] = [];
  lastError: string | null = null;

  constructor(
    private readonly kv: KV,
    private readonly filter: string = ">",
    private readonly log: (line: string) => void = () => {},
  ) {
    this.readyPromise = new Promise((resolve) => (this.markReady = resolve));
    void this.run();
  }

  /** Resolves once the bucket's current values have arrived. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  onChange(listener: (entry: MirroredEntry) => void): void {
    this.listeners.push(listener);
  }

  get(key: string): MirroredEntry | undefined {
    return this.entries.get(key);
  }

  /** Live (not deleted) entries whose key starts with `prefix`. */
  *live(prefix = ""): Iterable<MirroredEntry> {
    for (const entry of this.entries.values()) if (!entry.deleted && entry.key.startsWith(prefix)) yield entry;
  }

  *all(prefix = ""): Iterable<MirroredEntry> {
    for (const entry of this.entries.values()) if (entry.key.startsWith(prefix)) yield entry;
  }

  /** Records what this node just wrote, so it need not wait for the watch to echo it. */
  observe(key: string, value: Uint8Array, revision: number, deleted = false): void {
    const known = this.entries.get(key);
    if (known && known.revision >= revision) return;
    const entry = { key, value, revision, deleted };
    this.entries.set(key, entry);
    for (const listener of this.listeners) listener(entry);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        let initialised = false;
        const watch = await this.kv.watch({
          key: this.filter,
          initializedFn: () => {
            initialised = true;
            this.markReady();
          },
        });
        this.watch = watch;
        for await (const entry of watch) {
          this.apply(entry);
          if (!initialised && entry.delta === 0) {
            initialised = true;
            this.markReady();
          }
        }
      } catch (reason) {
        this.lastError = reason instanceof Error ? reason.message : String(reason);
        if (!this.stopped) this.log(`nats: watch of ${this.filter} ended (${this.lastError}); watching again`);
      }
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  private watch: { stop(): void } | null = null;

  private apply(entry: KvEntry): void {
    this.observe(entry.key, entry.value, entry.revision, entry.operation !== "PUT");
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
  }
}
