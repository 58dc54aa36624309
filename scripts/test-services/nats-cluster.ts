/**
 * A JetStream cluster of nats-server processes on loopback (3 by default), for fault tests:
 * each node can be killed by pid and started again on the same ports and data directory, so its
 * JetStream state survives, and `leaderOf` names the node leading a stream's RAFT group.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type NatsConnection } from "nats";
import { freePorts } from "./free-port.js";
import { log } from "./log.js";
import { registerTempDir, releaseTempDir, spawnManaged, tailFile, type ManagedProcess } from "./managed-process.js";

export interface NatsNode {
  /** The JetStream server name, e.g. "n1". */
  readonly name: string;
  readonly url: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  /** Sends a signal to the node's process (SIGKILL by default) and waits for it to exit when it is fatal. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the node again (same ports, same data directory); resolves once it accepts clients. */
  start(): Promise<void>;
}

export interface RunningNatsCluster {
  /** Every node's client URL, for `connect({ servers: urls })`. */
  readonly urls: string[];
  readonly nodes: NatsNode[];
  node(name: string): NatsNode;
  /** The server name of a stream's leader, waiting out an election in progress. */
  leaderOf(stream: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 45_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startNatsCluster(binary: string, options: { nodes?: number } = {}): Promise<RunningNatsCluster> {
  const count = options.nodes ?? 3;
  const dir = mkdtempSync(join(tmpdir(), "quarry-nats-cluster-"));
  registerTempDir(dir);
  const ports = await freePorts(count * 2);
  const specs = Array.from({ length: count }, (_, i) => ({ name: `n${i + 1}`, clientPort: ports[i]!, clusterPort: ports[count + i]! }));
  const routes = specs.map((s) => `nats://127.0.0.1:${s.clusterPort}`).join(",");
  const urls = specs.map((s) => `nats://127.0.0.1:${s.clientPort}`);

  const nodes = specs.map((spec) => {
    const store = join(dir, spec.name);
    mkdirSync(store, { recursive: true });
    const logFile = join(dir, `${spec.name}.log`);
    let process: ManagedProcess | null = null;
    const launch = () =>
      spawnManaged({
        name: `nats-server ${spec.name}`,
        command: binary,
        args: [
          "-js",
          "-a",
          "127.0.0.1",
          "-p",
          String(spec.clientPort),
          "-sd",
          store,
          "--server_name",
          spec.name,
          "--cluster_name",
          "quarry-test",
          "--cluster",
          `nats://127.0.0.1:${spec.clusterPort}`,
          "--routes",
          routes,
        ],
        cwd: dir,
        outputFile: logFile,
      });
    const url = `nats://127.0.0.1:${spec.clientPort}`;
    const node: NatsNode = {
      name: spec.name,
      url,
      get pid() {
        return process?.pid;
      },
      get running() {
        return process !== null && process.exitReason() === undefined;
      },
      async kill(signal = "SIGKILL") {
        if (!process || process.exitReason() !== undefined || process.pid === undefined) return;
        globalThis.process.kill(process.pid, signal);
        if (signal === "SIGKILL" || signal === "SIGTERM") {
          while (process.exitReason() === undefined) await sleep(50);
        }
      },
      async start() {
        process = launch();
        const deadline = Date.now() + READY_TIMEOUT_MS;
        for (;;) {
          try {
            const nc = await connect({ servers: url, timeout: 1_000, reconnect: false });
            await nc.close();
            break;
          } catch (reason) {
            if (process.exitReason() !== undefined || Date.now() > deadline) {
              throw new Error(`nats-server ${spec.name} on ${url} did not start (${process.exitReason() ?? String(reason)}):\n${tailFile(logFile, 30)}`);
            }
            await sleep(200);
          }
        }
      },
    };
    return node;
  });

  const stop = async () => {
    for (const node of nodes) await node.kill("SIGTERM").catch(() => {});
    releaseTempDir(dir);
  };

  try {
    await Promise.all(nodes.map((node) => node.start()));
    await waitForReplicatedStreams(urls, dir, nodes);
  } catch (reason) {
    await stop();
    throw reason;
  }
  log(`nats cluster of ${count} (${nodes.map((n) => `${n.name} pid ${n.pid}`).join(", ")}) on ${urls.join(",")}`);

  return {
    urls,
    nodes,
    node(name) {
      const node = nodes.find((n) => n.name === name);
      if (!node) throw new Error(`no NATS node named ${name}`);
      return node;
    },
    async leaderOf(stream, timeoutMs = 20_000) {
      const nc = await connect({ servers: urls, timeout: 2_000 });
      try {
        const jsm = await nc.jetstreamManager({ timeout: 2_000 });
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const leader = await jsm.streams
            .info(stream)
            .then((info) => info.cluster?.leader)
            .catch(() => undefined);
          if (leader) return leader;
          if (Date.now() > deadline) throw new Error(`stream ${stream} has no leader after ${timeoutMs} ms`);
          await sleep(250);
        }
      } finally {
        await nc.close();
      }
    },
    stop,
  };
}

/** Ready means a replicated (R3) stream can be created: the meta leader is elected and every peer joined. */
async function waitForReplicatedStreams(urls: string[], dir: string, nodes: NatsNode[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let nc: NatsConnection | null = null;
  let lastError = "";
  try {
    nc = await connect({ servers: urls, timeout: 2_000 });
    for (;;) {
      try {
        const jsm = await nc.jetstreamManager({ timeout: 3_000 });
        const name = `ready_${Date.now()}`;
        await jsm.streams.add({ name, subjects: [`${name}.>`], num_replicas: Math.min(3, nodes.length) });
        await jsm.streams.delete(name);
        return;
      } catch (reason) {
        lastError = reason instanceof Error ? reason.message : String(reason);
      }
      if (Date.now() > deadline) {
        throw new Error(`the NATS cluster could not create a replicated stream within ${READY_TIMEOUT_MS} ms (${lastError}):\n${nodes.map((n) => tailFile(join(dir, `${n.name}.log`), 10)).join("\n")}`);
      }
      await sleep(500);
    }
  } finally {
    await nc?.close();
  }
}
