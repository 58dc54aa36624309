/**
 * A `quarry serve` process for the reliability runs: started on a free port with its own data
 * directory, watched through /proc (resident memory), stopped with SIGTERM and timed. Stopped by
 * its process id, never by name.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../scripts/test-services/free-port.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface ServerProcess {
  readonly baseUrl: string;
  readonly pid: number;
  readonly shutdownTimeoutMs: number;
  /** Resident memory of the server process, in MB. */
  rssMb(): number;
  /**
   * Its anonymous part (heap, buffers, caches), in MB: the rest is file-backed, mostly the
   * embedded engine's code, paged in as queries reach more of it and never a leak.
   */
  anonMb(): number;
  metrics(): Promise<Map<string, number>>;
  /** SIGTERM; resolves with the exit code and how long the process took to exit. */
  stop(): Promise<{ code: number | null; ms: number }>;
  output(): string;
}

export async function startServerProcess(options: { demoRows: number; shutdownTimeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-reliability-"));
  const port = await freePort();
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 5000;
  const source = join(ROOT, "src/cli/main.ts");
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", source, "serve", "--bootstrap"], {
    cwd: ROOT,
    env: {
      ...process.env,
      QUARRY_DATA_DIR: dataDir,
      PORT: String(port),
      QUARRY_DEMO_ROWS: String(options.demoRows),
      QUARRY_SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
      // Subscription runs would add query-log rows no request accounts for.
      QUARRY_SCHEDULER: "off",
      KAFKA_BROKERS: "",
      // A single node: the test run exports NATS_URL to every child, which would make this one join a cluster.
      NATS_URL: "",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`quarry exited during start:\n${output}`);
    if (await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`quarry did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const pid = child.pid!;
  return {
    baseUrl,
    pid,
    shutdownTimeoutMs,
    rssMb: () => statusMb(pid, "VmRSS"),
    anonMb: () => statusMb(pid, "RssAnon"),
    async metrics() {
      const text = await (await fetch(`${baseUrl}/metrics`)).text();
      const values = new Map<string, number>();
      for (const line of text.split("\n")) {
        if (line.startsWith("#") || line.trim() === "") continue;
        const space = line.lastIndexOf(" ");
        const key = line.slice(0, space);
        const name = key.replace(/\{.*$/, "");
        values.set(key, Number(line.slice(space + 1)));
        // Per metric name, the sum over its label sets.
        if (key !== name) values.set(`${name}:sum`, (values.get(`${name}:sum`) ?? 0) + Number(line.slice(space + 1)));
      }
      return values;
    },
    async stop() {
      const started = Date.now();
      child.kill("SIGTERM");
      const code = await exited;
      const ms = Date.now() - started;
      rmSync(dataDir, { recursive: true, force: true });
      return { code, ms };
    },
    output: () => output,
  };
}

function statusMb(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
