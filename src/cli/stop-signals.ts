/**
 * How a long-running `quarry` process stops: the first SIGINT or SIGTERM runs its shutdown
 * within a deadline and exits 0 (1 when the shutdown fails); a shutdown still running
 * `graceMs` past the deadline exits 1; a second signal exits 130 at once.
 */
export interface StopSignalOptions {
  readonly log: (line: string) => void;
  readonly deadlineMs: number;
  /** Time past the deadline for closing the engine and exiting before the process gives up. */
  readonly graceMs: number;
  /** What the shutdown does, for the log line after `SIGTERM: `. */
  doing(deadlineMs: number): string;
  shutdown(deadlineMs: number): Promise<void>;
}

/** Installs the handlers; `stopping()` tells whether a signal came. */
export function exitOnStopSignals(options: StopSignalOptions): { stopping(): boolean } {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      options.log(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    options.log(`${signal}: ${options.doing(options.deadlineMs)}`);
    const late = setTimeout(() => {
      options.log(`shutdown did not finish within ${options.deadlineMs} ms: exiting`);
      process.exit(1);
    }, options.deadlineMs + options.graceMs);
    late.unref();
    options.shutdown(options.deadlineMs).then(
      () => process.exit(0),
      (reason: unknown) => {
        options.log(`shutdown failed: ${reason instanceof Error ? reason.message : String(reason)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  return { stopping: () => stopping };
}
