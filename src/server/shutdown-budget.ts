/**
 * How a stop shares its deadline (`QUARRY_SHUTDOWN_TIMEOUT_MS`). The promise is that the process
 * is gone by the deadline, not that it stops waiting for requests then: after the wait come the
 * subscription runs' checkpoints, the query log's last rows, closing the engine and leaving the
 * process, which take tens of milliseconds on an idle machine and more on a loaded one (a CI run
 * saw a stop end 34 ms late when a request held on to the whole deadline).
 *
 * So requests in flight may use the deadline less a tail: two fifths of it, at most a second (with
 * both cores of a 2-core machine busy, exiting alone took 150–250 ms: the engine library unloads).
 * Subscription runs and the query log have until half that tail is left, plus whatever the
 * requests did not use; the last half is for closing the engine and exiting.
 */
export interface ShutdownBudget {
  /** How long requests in flight may take, from the signal. */
  readonly requestsMs: number;
  /** When, from the signal, subscription runs and the query log must be done. */
  readonly drainedByMs: number;
}

const TAIL_SHARE = 0.4;
const MAX_TAIL_MS = 1000;

export function shutdownBudget(deadlineMs: number): ShutdownBudget {
  const tail = Math.min(MAX_TAIL_MS, Math.round(Math.max(0, deadlineMs) * TAIL_SHARE));
  return { requestsMs: Math.max(0, deadlineMs - tail), drainedByMs: Math.max(0, deadlineMs - Math.round(tail / 2)) };
}
