/**
 * A clock that moves only when told to: `advance(ms)` wakes the sleepers whose time has come, in
 * order, letting each one's continuation run before the next wakes. Tests use it to run a day of
 * schedule (and its retries and backoffs) without waiting for it.
 */
import { abortError, type Clock } from "../../src/subscriptions/scheduling/clock.js";

interface Sleeper {
  readonly wakeAt: number;
  readonly sequence: number;
  readonly resolve: () => void;
}

/** Lets pending promise continuations (and I/O callbacks already due) run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class ManualClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];
  private sequence = 0;

  constructor(startMs: number) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const sleeper: Sleeper = {
        wakeAt: this.current + Math.max(0, ms),
        sequence: this.sequence++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(abortError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** Sleepers waiting now. */
  get waiting(): number {
    return this.sleepers.length;
  }

  /** Moves time forward by `ms`, waking every sleeper due on the way, earliest first. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      const due = this.sleepers.filter((s) => s.wakeAt <= target).sort((a, b) => a.wakeAt - b.wakeAt || a.sequence - b.sequence)[0];
      if (!due) break;
      this.sleepers = this.sleepers.filter((s) => s !== due);
      this.current = Math.max(this.current, due.wakeAt);
      due.resolve();
    }
    this.current = target;
    await settle();
  }

  /** Sets the time (forward only). */
  async advanceTo(epochMs: number): Promise<void> {
    await this.advance(Math.max(0, epochMs - this.current));
  }
}
