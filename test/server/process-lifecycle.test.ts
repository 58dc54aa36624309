/**
 * `quarry serve` as a real process: SIGTERM lets a request in flight finish and exits 0 within
 * its deadline; a request that never ends is answered a typed 503 at the deadline; a second signal exits at once;
 * a start that cannot open its data directory or its port says why and exits 1, leaving no
 * process behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/test-services/free-port.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "src/cli/main.ts");

interface Quarry {
  readonly child: ChildProcess;
  output: string;
  readonly exited: Promise<{ code: number | null; at: number }>;
}

function quarry(env: NodeJS.ProcessEnv): Quarry {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "serve", "--bootstrap"], {
    cwd: ROOT,
    env: { ...process.env, QUARRY_DEMO_ROWS: "2000", QUARRY_SCHEDULER: "off", KAFKA_BROKERS: "", NATS_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const running: Quarry = { child, output: "", exited: new Promise((resolve) => child.once("exit", (code) => resolve({ code, at: Date.now() }))) };
  child.stdout!.on("data", (chunk: Buffer) => (running.output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (running.output += chunk.toString()));
  return running;
}

async function ready(port: number, process: Quarry): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null) throw new Error(`quarry exited early:\n${process.output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`quarry did not answer on ${port}:\n${process.output}`);
}

/** A POST whose body arrives slowly: the request is in flight at the server until the last byte. */
function slowQuery(port: number, body: string, chunkEveryMs: number, chunks: number): { done: Promise<{ status: number; text: string }> } {
  const req = request({ host: "127.0.0.1", port, method: "POST", path: "/events/snql", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } });
  // The request starts now at the server (headers sent), its body trickles in.
  req.flushHeaders();
  const done = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    req.on("error", reject);
  });
  const size = Math.ceil(body.length / chunks);
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= body.length) {
      clearInterval(timer);
      req.end();
      return;
    }
    req.write(body.slice(sent, sent + size));
    sent += size;
  }, chunkEveryMs);
  return { done };
}

const QUERY = JSON.stringify({
  query: `MATCH (events) SELECT count() AS n WHERE timestamp >= toDateTime('${new Date(Date.now() - 14 * 86_400_000).toISOString().slice(0, 19)}') AND timestamp < toDateTime('${new Date(Date.now() + 86_400_000).toISOString().slice(0, 19)}') AND project_id = 1`,
  tenant_ids: { organization_id: 1, referrer: "test.lifecycle" },
});

describe("quarry serve as a process", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-lifecycle-"));
  const otherDir = mkdtempSync(join(tmpdir(), "quarry-lifecycle-other-"));
  let port = 0;
  let first: Quarry;

  beforeAll(async () => {
    port = await freePort();
    first = quarry({ QUARRY_DATA_DIR: dataDir, PORT: String(port), QUARRY_SHUTDOWN_TIMEOUT_MS: "8000" });
    await ready(port, first);
  }, 150_000);

  afterAll(async () => {
    if (first?.child.exitCode === null) {
      first.child.kill("SIGKILL");
      await first.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDir, { recursive: true, force: true });
  });

  it("refuses a second server on a data directory in use: exit 1, the reason, no process left", async () => {
    const second = quarry({ QUARRY_DATA_DIR: dataDir, PORT: String(await freePort()) });
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.output).toMatch(/cannot open the embedded ClickHouse in .* another quarry process may be using it/);
    expect(() => process.kill(second.child.pid!, 0)).toThrow();
  }, 60_000);

  it("refuses a port in use: exit 1, naming the port", async () => {
    const third = quarry({ QUARRY_DATA_DIR: otherDir, PORT: String(port) });
    const { code } = await third.exited;
    expect(code).toBe(1);
    expect(third.output).toContain(`port ${port} on 127.0.0.1 is in use`);
  }, 120_000);

  it("on SIGTERM lets a request in flight finish, refuses new connections, and exits 0", async () => {
    // 2.5 s of upload: in flight when the signal comes.
    const inFlight = slowQuery(port, QUERY, 250, 10);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const signalled = Date.now();
    first.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await fetch(`http://127.0.0.1:${port}/health`).then(() => "answered", () => "refused");
    const answer = await inFlight.done;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).data).toEqual([{ n: expect.any(Number) }]);
    expect(refused).toBe("refused");
    const { code, at } = await first.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(8000);
    expect(first.output).toContain("SIGTERM: shutting down within 8000 ms");
  }, 60_000);
});

describe("shutdown deadlines", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-lifecycle-deadline-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("answers a request that never ends a typed 503 at the deadline and is gone by it, on a busy machine; a second signal exits at once", async () => {
    const port = await freePort();
    const server = quarry({ QUARRY_DATA_DIR: dataDir, PORT: String(port), QUARRY_SHUTDOWN_TIMEOUT_MS: "1500" });
    await ready(port, server);
    // Never finishes its body.
    const stuck = slowQuery(port, QUERY, 60_000, 2);
    const stuckAnswer = stuck.done.catch((error: Error) => ({ status: 0, text: error.message }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Both cores busy while the server stops: closing the engine and exiting take longest then.
    const burners = [0, 1].map(() => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
    let signalled: number;
    let stopped: { code: number | null; at: number };
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      signalled = Date.now();
      server.child.kill("SIGTERM");
      stopped = await server.exited;
    } finally {
      for (const burner of burners) burner.kill("SIGKILL");
    }
    expect(stopped.code).toBe(0);
    // The request had the deadline less its tail (600 ms of 1,500); the process is gone by the deadline.
    expect(stopped.at - signalled).toBeGreaterThanOrEqual(850);
    expect(stopped.at - signalled).toBeLessThanOrEqual(1500);
    expect(server.output).toContain("SIGTERM: shutting down within 1500 ms");
    // Cut at the deadline, it is answered a typed 503 rather than left with a reset connection.
    const cut = await stuckAnswer;
    expect(cut.status).toBe(503);
    expect(JSON.parse(cut.text).error).toEqual({ type: "storage-not-available", message: expect.stringContaining("still running at its stop deadline") });

    const again = quarry({ QUARRY_DATA_DIR: dataDir, PORT: String(port), QUARRY_SHUTDOWN_TIMEOUT_MS: "60000" });
    await ready(port, again);
    slowQuery(port, QUERY, 60_000, 2).done.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    again.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const secondSignal = Date.now();
    again.child.kill("SIGTERM");
    const second = await again.exited;
    expect(second.code).toBe(130);
    expect(second.at - secondSignal).toBeLessThan(1500);
    expect(again.output).toContain("SIGTERM again: exiting now");
  }, 240_000);
});
