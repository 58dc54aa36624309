import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "nats";
import { freePort, retryOnPortClash } from "./free-port.js";
import { log } from "./log.js";
import { registerTempDir, releaseTempDir, spawnManaged, waitUntilReady } from "./managed-process.js";
import { ensureCommand, run } from "./system-packages.js";

/**
 * Path of nats-server, installing the Debian package if needed. That package is
 * NATS 2.9: JetStream KV with bucket-wide TTL, but no per-key TTL (2.11+), so code
 * under test must not rely on per-key TTLs.
 */
export function ensureNatsServer(): Promise<string> {
  return ensureCommand("nats-server", "nats-server");
}

export async function natsServerVersion(binary: string): Promise<string> {
  return (await run(binary, ["--version"], { timeoutMs: 10_000 })).trim();
}

export interface RunningNats {
  url: string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/** Starts a throw-away JetStream-enabled nats-server on 127.0.0.1 and a free port. */
export function startNats(binary: string): Promise<RunningNats> {
  return retryOnPortClash("nats-server", () => startNatsOnce(binary));
}

async function startNatsOnce(binary: string): Promise<RunningNats> {
  const dir = mkdtempSync(join(tmpdir(), "quarry-nats-"));
  registerTempDir(dir);
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  const server = spawnManaged({
    name: "nats-server",
    command: binary,
    // -sd: JetStream data in our temp dir, not the default /tmp/nats/jetstream that
    // parallel runs would share.
    args: ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", join(dir, "jetstream"), "-n", "quarry-test"],
    cwd: dir,
    outputFile: join(dir, "nats-server.log"),
  });
  const stop = async (): Promise<void> => {
    await server.stop(10_000);
    releaseTempDir(dir);
  };
  try {
    await waitUntilReady(
      async () => {
        const nc = await connect({ servers: url, timeout: 2_000, reconnect: false });
        try {
          // JetStream answers only once its store is initialised; a bare connect does not prove that.
          const jsm = await nc.jetstreamManager({ timeout: 2_000 });
          await jsm.getAccountInfo();
        } finally {
          await nc.close();
        }
      },
      { what: `nats-server on ${url}`, timeoutMs: READY_TIMEOUT_MS, intervalMs: 200, process: server },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  log(`nats-server pid ${server.pid} listening on ${url}`);
  return { url, stop };
}
