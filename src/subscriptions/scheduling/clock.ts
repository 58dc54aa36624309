/**
 * Where the subscription machinery reads time and waits. Production uses the system clock; tests
 * and benches drive a ManualClock (test/support/manual-clock.ts) through hours of schedule in seconds.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with an AbortError when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export function abortError(): Error {
  const error = new Error("the wait was aborted");
  error.name = "AbortError";
  return error;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  },
};
