/**
 * A `quarry serve` process for the reliability runs: started on a free port with its own data
 * directory (removed after), watched through /proc (resident memory), stopped with SIGTERM and
 * timed. Stopped by its process id, never by name; SIGKILLed by its id only if it outlives its
 * deadline by far (and then reported as not stopping).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../scripts/test-services/free-port.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface StopResult {
  /** Exit code (null: killed by a signal). */
  readonly code: number | null;
  readonly signal: string | null;
  /** From SIGTERM to exit. */
  readonly ms: number;
  /** True when it had to be SIGKILLed. */
  readonly killed: boolean;
}

export interface ServerProcess {
  readonly baseUrl: string;
  readonly pid: number;
  readonly shutdownTimeoutMs: number;
  readonly startMs: number;
  /** Resident memory of the server process, in MB (VmRSS). */
  rssMb(): number;
  /** Its anonymous part (RssAnon: heap, buffers, caches), in MB; the rest is file-backed, mostly the engine's code. */
  anonMb(): number;
  /** Its threads (the engine's pool included). */
  threads(): number;
  /** Resident kB by what is mapped (a file's name, or `[anonymous]`, `[heap]`, `[stack]`…), from smaps. */
  residentByMapping(): Map<string, number>;
  metrics(): Promise<Map<string, number>>;
  /** SIGTERM; resolves with the exit code and how long the process took to exit. */
  stop(): Promise<StopResult>;
  /** Sends SIGTERM now; `stop()` then waits. */
  signal(): void;
  exited(): boolean;
  output(): string;
}

export async function startServerProcess(options: { demoRows: number; shutdownTimeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-reliability-"));
  const port = await freePort();
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 5000;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "serve", "--bootstrap"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      QUARRY_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      QUARRY_DEMO_ROWS: String(options.demoRows),
      QUARRY_SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
      // Subscription runs would add query-log rows no request accounts for.
      QUARRY_SCHEDULER: "off",
      // The suite is about the query port; the admin UI's port would clash between runs.
      ADMIN_PORT: "0",
      // As `npm start` and bin/quarry run the server (docs/reliability.md, memory).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
      KAFKA_BROKERS: "",
      // One node on the embedded engine: the test run exports NATS_URL to every child.
      NATS_URL: "",
      CLICKHOUSE_URL: "",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-500_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`quarry exited during start:\n${output.slice(-5000)}`);
    if (await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) }).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`quarry did not start within 300 s:\n${output.slice(-5000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const startMs = performance.now() - started;
  const pid = child.pid!;
  let signalledAt: number | null = null;
  const signal = () => {
    if (signalledAt === null) {
      signalledAt = performance.now();
      process.kill(pid, "SIGTERM");
    }
  };
  return {
    baseUrl,
    pid,
    shutdownTimeoutMs,
    startMs,
    rssMb: () => statusMb(pid, "VmRSS"),
    anonMb: () => statusMb(pid, "RssAnon"),
    threads: () => statusNumber(pid, "Threads"),
    residentByMapping: () => residentByMapping(pid),
    async metrics() {
      const text = await (await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
      return parseMetrics(text);
    },
    signal,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      signal();
      let killed = false;
      const hard = setTimeout(() => {
        killed = true;
        process.kill(pid, "SIGKILL");
      }, shutdownTimeoutMs + 60_000);
      const { code, signal: exitSignal } = await exit;
      clearTimeout(hard);
      const ms = Math.round(performance.now() - signalledAt!);
      rmSync(dataDir, { recursive: true, force: true });
      return { code, signal: exitSignal, ms, killed };
    },
    output: () => output,
  };
}

/** Prometheus text -> value by series (`name{labels}`), plus `name:sum` over each metric's label sets. */
export function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const space = line.lastIndexOf(" ");
    const key = line.slice(0, space);
    const value = Number(line.slice(space + 1));
    const name = key.replace(/\{.*$/, "");
    values.set(key, value);
    values.set(`${name}:sum`, (values.get(`${name}:sum`) ?? 0) + value);
  }
  return values;
}

function statusMb(pid: number, field: string): number {
  return Math.round(statusNumber(pid, field) / 1024);
}

/** A number field of /proc/<pid>/status (kB for memory fields), 0 once the process is gone. */
export function statusNumber(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Resident kB per mapping name, summed over /proc/<pid>/smaps (empty once the process is gone):
 * tells growth of the engine's code pages (file-backed) from growth of its heap (anonymous).
 */
export function residentByMapping(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return byName;
  }
  let name = "[anonymous]";
  for (const line of text.split("\n")) {
    // A mapping's header: `start-end perms offset dev inode [name]`.
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) {
      name = header[1]!.trim() === "" ? "[anonymous]" : header[1]!.trim().replace(/^.*\//, "");
      continue;
    }
    if (line.startsWith("Rss:")) byName.set(name, (byName.get(name) ?? 0) + Number(/(\d+)/.exec(line)?.[1] ?? 0));
  }
  return byName;
}

/** The largest changes between two `residentByMapping` readings, in MB: `libchdb.so +15.2 MB, [anonymous] +30.1 MB`. */
export function mappingChanges(before: Map<string, number>, after: Map<string, number>, top = 6): string {
  const names = new Set([...before.keys(), ...after.keys()]);
  const changes = [...names].map((name) => [name, (after.get(name) ?? 0) - (before.get(name) ?? 0)] as const).filter(([, kb]) => Math.abs(kb) >= 1024);
  changes.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  return changes.length === 0 ? "no mapping changed by 1 MB or more" : changes.slice(0, top).map(([name, kb]) => `${name} ${kb >= 0 ? "+" : ""}${(kb / 1024).toFixed(1)} MB`).join(", ");
}
