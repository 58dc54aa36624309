/**
 * Gives memory back to the operating system once the server has gone quiet.
 *
 * After a burst of requests three kinds of memory stay resident although nothing uses them:
 * - the V8 heap's garbage: V8 collects when allocation asks it to, and an idle process
 *   allocates nothing, so the heap a burst grew stays at its size until the next burst; and
 *   pages the burst left sparsely used stay reserved until a collection compacts them;
 * - glibc's free lists: the embedded engine frees its query buffers into malloc arenas, and
 *   glibc returns only the top of each arena to the kernel, not the free chunks below it;
 * - the embedded engine's own allocator (chDB is built with jemalloc): jemalloc returns freed
 *   pages to the kernel only as later allocations pass by, so after a burst the engine's pages
 *   stay resident until the next one. `SYSTEM JEMALLOC PURGE` returns them at once; before it,
 *   the engine drops its query condition cache, which a burst of distinct filters filled.
 * None is a leak, but resident memory is what an operator (and an OOM killer) watches, and
 * it cannot tell "free but kept" from "leaked". So when no request has started for `idleMs`
 * after some did, this runs one full, compacting garbage collection, `malloc_trim(0)` and
 * (embedded engine) the condition and compiled-expression cache drops and jemalloc purge — once per quiet period, never
 * while a request is in progress. The trim runs on a libuv worker thread; the collection pauses the event loop for
 * about a tenth of a second, which is why it waits for quiet.
 */
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Counter, type Registry } from "prom-client";
import { registerScrapeTimeGauge } from "../metrics/scrape-time-gauge.js";

/** What a release does; real ones by default, a test passes its own to watch the timing. */
export interface MemoryReleaseActions {
  /** A full V8 collection, or null where this runtime offers none. */
  readonly collectGarbage: (() => void) | null;
  /** Returns freed malloc memory to the kernel; null where the C library has no malloc_trim. */
  readonly trimMalloc: (() => Promise<void>) | null;
  /** Empties the embedded engine's condition cache and returns its freed allocator pages to the kernel (ENGINE_IDLE_RELEASE_SQL); null for a remote engine. */
  readonly releaseEngineMemory: (() => Promise<void>) | null;
  readonly residentBytes: () => number;
}

export interface IdleMemoryReleaseOptions {
  /** Quiet time before a release; 0 turns releases off. */
  readonly idleMs: number;
  /** Requests started so far, health checks and metric scrapes left out (only its changes matter). */
  readonly requestsStarted: () => number;
  /** Requests being answered now. */
  readonly activeRequests: () => number;
  readonly registry: Registry;
  /** The embedded engine's release (ENGINE_IDLE_RELEASE_SQL); absent for a remote engine. */
  readonly releaseEngineMemory?: () => Promise<void>;
  readonly actions?: MemoryReleaseActions;
  readonly now?: () => number;
}

export class IdleMemoryRelease {
  private readonly actions: MemoryReleaseActions;
  private readonly now: () => number;
  private readonly releases: Counter;
  private readonly released: Counter;
  private lastSeen: number;
  private lastChangeAt: number;
  /** The request count at the last release: no new request since, no new release. */
  private releasedAt: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly options: IdleMemoryReleaseOptions) {
    this.actions = options.actions ?? defaultMemoryReleaseActions(options.releaseEngineMemory ?? null);
    this.now = options.now ?? Date.now;
    this.lastSeen = options.requestsStarted();
    this.releasedAt = this.lastSeen;
    this.lastChangeAt = this.now();
    // Unlabelled, both are written as 0 from the start: a dashboard sees them before the first release.
    this.releases = new Counter({
      name: "quarry_idle_memory_releases_total",
      help: "Memory releases (full GC, malloc_trim, the embedded engine's condition and compiled-expression cache drops and jemalloc purge) run after the server went quiet.",
      registers: [options.registry],
    });
    this.released = new Counter({ name: "quarry_idle_memory_released_bytes_total", help: "Resident memory the idle releases gave back to the operating system.", registers: [options.registry] });
    registerScrapeTimeGauge(options.registry, "quarry_idle_memory_release_enabled", "1 when the server gives memory back after going quiet (QUARRY_IDLE_MEMORY_RELEASE_MS > 0).", () => (options.idleMs > 0 ? 1 : 0));
  }

  start(): void {
    if (this.options.idleMs <= 0 || this.timer) return;
    // Checked four times per quiet period: a release lands between idleMs and 1.25 × idleMs.
    this.timer = setInterval(() => void this.check(), Math.max(50, Math.floor(this.options.idleMs / 4)));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One look at the server: releases when it has been quiet long enough since its last request. */
  async check(): Promise<void> {
    if (this.running) return;
    const started = this.options.requestsStarted();
    const now = this.now();
    if (started !== this.lastSeen) {
      this.lastSeen = started;
      this.lastChangeAt = now;
      return;
    }
    if (started === this.releasedAt) return;
    if (this.options.activeRequests() > 0 || now - this.lastChangeAt < this.options.idleMs) return;
    this.releasedAt = started;
    this.running = this.release().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  private async release(): Promise<void> {
    const before = this.actions.residentBytes();
    this.actions.collectGarbage?.();
    // Best effort: a trim that fails leaves memory where it was, which is no worse than before.
    await this.actions.trimMalloc?.().catch(() => undefined);
    await this.actions.releaseEngineMemory?.().catch(() => undefined);
    const after = this.actions.residentBytes();
    this.releases.inc();
    if (before > after) this.released.inc(before - after);
  }
}

/**
 * The real actions: V8's own full collection, glibc's malloc_trim through koffi, and the
 * engine's purge when the caller has an embedded engine to send it to.
 */
export function defaultMemoryReleaseActions(releaseEngineMemory: (() => Promise<void>) | null = null): MemoryReleaseActions {
  return { collectGarbage: fullGarbageCollection(), trimMalloc: mallocTrim(), releaseEngineMemory, residentBytes: () => process.memoryUsage.rss() };
}

/**
 * What the embedded engine runs in a release, in order: it drops its query condition cache and
 * its compiled expressions, then makes its jemalloc give the freed pages back.
 * - The condition cache holds, per part and distinct filter, which granules matched; a burst of
 *   distinct filters fills it to its bound, and it costs several times its counted size in
 *   allocator memory (in a fuzz run, 0.6 MB counted for 9,700 entries freed 5 MB when dropped).
 * - Each distinct expression a query repeats is JIT-compiled once and kept; distinct queries
 *   keep adding them (a 1,000,000-input fuzz run: 77 -> 730 expressions, 1 -> 10.5 MB counted),
 *   and the allocator holds about 1.2 times the counted size (16 MiB counted freed 19 MB).
 * After a quiet period most entries are for queries that will not come again; the next
 * queries rebuild what they use (an expression is compiled again after a few runs).
 */
export const ENGINE_IDLE_RELEASE_SQL: readonly string[] = ["SYSTEM DROP QUERY CONDITION CACHE", "SYSTEM DROP COMPILED EXPRESSION CACHE", "SYSTEM JEMALLOC PURGE"];

/**
 * One full collection that compacts the whole old generation. A plain full collection frees a
 * burst's garbage but keeps the pages the survivors sit on: V8 moves objects only off pages
 * that are 70 % empty or more, a few MB per collection, so a heap left half-used page by page
 * stays reserved (after a 200,000-input fuzz run: 99 MB reserved for 62 MB in use; in a test,
 * 277 MB reserved for 91 MB, and 273 MB after two more plain collections). With
 * `--compact-on-every-full-gc` the collection moves the survivors together and returns the
 * pages (125 MB in that test). The flag is V8's own, set only around this one collection, which
 * runs when the server is quiet: compacting about doubles its pause (~110 ms instead of ~50 ms
 * for 46 MB of live objects).
 */
function fullGarbageCollection(): (() => void) | null {
  const gc = garbageCollector();
  if (!gc) return null;
  return () => {
    setFlagsFromString("--compact-on-every-full-gc");
    try {
      gc();
    } finally {
      setFlagsFromString("--no-compact-on-every-full-gc");
    }
  };
}

function garbageCollector(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  try {
    // Node's documented way to reach V8's collector without a launch flag: expose it, then
    // take `gc` from a fresh context (the current one was created before the flag).
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

function mallocTrim(): (() => Promise<void>) | null {
  if (process.platform !== "linux") return null;
  try {
    const koffi = createRequire(import.meta.url)("koffi") as typeof import("koffi");
    const trim = koffi.load("libc.so.6").func("int malloc_trim(size_t pad)");
    // `.async` runs the call on a libuv worker: walking large arenas does not block requests.
    return () =>
      new Promise<void>((resolve, reject) => {
        trim.async(0, (error: unknown) => (error ? reject(error) : resolve()));
      });
  } catch {
    // musl and other C libraries have no malloc_trim: nothing to trim.
    return null;
  }
}
