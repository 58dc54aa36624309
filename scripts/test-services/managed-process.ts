import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { log } from "./log.js";

/**
 * First `limit` lines of a log file matching `pattern`. A JVM that fails at startup
 * often logs its root cause hundreds of lines before the end of its shutdown noise.
 */
export function matchingLines(path: string, pattern: RegExp, limit = 10): string[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, "utf8").split("\n");
  const matches: string[] = [];
  for (let i = 0; i < lines.length && matches.length < limit; i++) {
    const line = lines[i] ?? "";
    if (!pattern.test(line)) continue;
    matches.push(line);
    // The exception's own message (e.g. "...: Address already in use") sits on the
    // line after the log record, as the head of its stack trace.
    const next = lines[i + 1];
    if (next !== undefined && !next.startsWith("[") && next.trim() !== "") matches.push(`    ${next}`);
  }
  return matches;
}

/** Last `lines` lines of a text file (reads at most the final 64 KiB). */
export function tailFile(path: string, lines = 40): string {
  if (!existsSync(path)) return `(${path} does not exist)`;
  const size = statSync(path).size;
  const length = Math.min(size, 64 * 1024);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  const text = buffer.toString("utf8").trimEnd();
  return text === "" ? `(${path} is empty)` : text.split("\n").slice(-lines).join("\n");
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number | undefined;
  /** Set once the process has exited, with a human-readable reason. */
  exitReason(): string | undefined;
  /** Tail of every log file this process writes, for error messages. */
  logTail(lines?: number): string;
  /** Sends `signal` if the process is still running (fault tests: SIGKILL, SIGSTOP, SIGCONT). */
  signal(signal: NodeJS.Signals): void;
  /** Resolves once the process has exited, however it ended. */
  exited(): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: readonly string[];
  cwd: string;
  /** Receives the process's stdout and stderr. */
  outputFile: string;
  /** Further log files the process writes itself (e.g. a log4j file appender). */
  extraLogFiles?: readonly string[];
  /** Log lines to quote in errors even when they are far from the tail, e.g. / ERROR /. */
  highlight?: RegExp;
}

// Children are plain (non-detached) processes, so nothing kills them if the parent
// exits without running teardown (uncaught error, process.exit in a reporter).
// This synchronous exit hook is the last line of defence against leaked brokers.
const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** Removes `dir` when the process exits, unless {@link releaseTempDir} ran first. */
export function registerTempDir(dir: string): void {
  tempDirs.add(dir);
}

export function releaseTempDir(dir: string): void {
  tempDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

export function spawnManaged(options: SpawnOptions): ManagedProcess {
  // The child writes straight into the file: no pipes for the parent to drain, and
  // the log survives the parent for post-mortems.
  const fd = openSync(options.outputFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(options.command, options.args, { cwd: options.cwd, stdio: ["ignore", fd, fd] });
  } finally {
    closeSync(fd);
  }
  live.add(child);
  let exitReason: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("error", (err) => {
      exitReason ??= `failed to start: ${err.message}`;
      live.delete(child);
      resolve();
    });
    child.once("exit", (code, signal) => {
      exitReason ??= signal ? `killed by ${signal}` : `exited with code ${code}`;
      live.delete(child);
      resolve();
    });
  });
  const logFiles = [options.outputFile, ...(options.extraLogFiles ?? [])];

  return {
    name: options.name,
    pid: child.pid,
    exitReason: () => exitReason,
    logTail(lines = 40) {
      return logFiles
        .map((file) => {
          const tail = `--- last ${lines} lines of ${file} ---\n${tailFile(file, lines)}`;
          const highlighted = options.highlight ? matchingLines(file, options.highlight) : [];
          return highlighted.length === 0
            ? tail
            : `--- first ${highlighted.length} lines of ${file} matching ${options.highlight} ---\n${highlighted.join("\n")}\n${tail}`;
        })
        .join("\n");
    },
    signal(signal) {
      if (exitReason === undefined) child.kill(signal);
    },
    exited: () => exited,
    async stop(graceMs = 15_000) {
      if (exitReason !== undefined) return;
      child.kill("SIGTERM");
      // A process a fault test stopped (SIGSTOP) would hold the SIGTERM pending until the grace
      // period ends; SIGCONT lets it act on it now, and does nothing to a running process.
      child.kill("SIGCONT");
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      });
      const escalate = await Promise.race([exited.then(() => false), timedOut]);
      clearTimeout(timer);
      if (escalate) {
        log(`${options.name} (pid ${child.pid}) ignored SIGTERM for ${graceMs} ms; sending SIGKILL`);
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

export interface WaitOptions {
  what: string;
  timeoutMs: number;
  intervalMs?: number;
  /** Stop waiting early once the process has died. */
  process: ManagedProcess;
}

/**
 * Retries `probe` until it resolves, the process exits, or the deadline passes. The
 * error names the last probe failure and includes the tail of the server's logs.
 */
export async function waitUntilReady(probe: () => Promise<void>, options: WaitOptions): Promise<void> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  let lastError = "no attempt finished";
  for (;;) {
    const reason = options.process.exitReason();
    if (reason !== undefined) {
      throw new Error(`${options.what} ${reason} before it became ready\n${options.process.logTail()}`);
    }
    try {
      await probe();
      log(`${options.what} ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `${options.what} not ready within ${options.timeoutMs / 1000} s (last probe error: ${lastError})\n` +
          options.process.logTail(),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
  }
}
