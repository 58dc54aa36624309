/**
 * The per-tenant windows of a counting policy (per-second starts, bytes scanned), kept only while
 * they still count something. Every organization id a caller sends gets a window; one seen once
 * would otherwise stay for the life of the process (a fuzz run of 200,000 inputs left ~30,000 of
 * them, 11 MB of the JS heap, on a server that had gone quiet).
 *
 * A window that has emptied is dropped by a sweep, which walks them all: one runs after
 * SWEEP_EVERY admissions (a burst of new tenants is shed within it) or once SWEEP_INTERVAL_MS
 * has passed since the last (a slow trickle of them is too), and the backend's timer calls
 * `sweep` when no admissions come at all (a quiet server sheds what the last burst left).
 */

/** Admissions between two sweeps at most. */
const SWEEP_EVERY = 4096;
/** Time between two sweeps at most, while something calls `admitted` or `sweep`. */
const SWEEP_INTERVAL_MS = 10_000;

export class TenantWindows<W> {
  private readonly windows = new Map<string, W>();
  private admissions = 0;
  private sweptAt = -Infinity;

  /** `isEmpty(window, nowMs)` prunes what left the window and says whether anything is left. */
  constructor(private readonly isEmpty: (window: W, nowMs: number) => boolean) {}

  get size(): number {
    return this.windows.size;
  }

  get(key: string): W | undefined {
    return this.windows.get(key);
  }

  getOrCreate(key: string, create: () => W): W {
    let window = this.windows.get(key);
    if (window === undefined) {
      window = create();
      this.windows.set(key, window);
    }
    return window;
  }

  entries(): IterableIterator<[string, W]> {
    return this.windows.entries();
  }

  /** Counts one admission, and sweeps when one is due. */
  admitted(nowMs: number): void {
    this.admissions += 1;
    this.sweep(nowMs);
  }

  /** Drops the windows that have emptied, when SWEEP_EVERY admissions or SWEEP_INTERVAL_MS have passed since the last sweep. */
  sweep(nowMs: number): void {
    if (this.admissions < SWEEP_EVERY && nowMs - this.sweptAt < SWEEP_INTERVAL_MS) return;
    this.admissions = 0;
    this.sweptAt = nowMs;
    for (const [key, window] of this.windows) {
      if (this.isEmpty(window, nowMs)) this.windows.delete(key);
    }
  }
}
