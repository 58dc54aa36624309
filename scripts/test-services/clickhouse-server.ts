import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePorts, retryOnPortClash } from "./free-port.js";
import { log } from "./log.js";
import { registerTempDir, releaseTempDir, spawnManaged, waitUntilReady, type ManagedProcess } from "./managed-process.js";
import { ensureCommand, run } from "./system-packages.js";

/**
 * A real ClickHouse server for tests, run from the libchdb.so that the `chdb` npm package ships
 * (no ClickHouse server package installs here). libchdb.so is clickhouse-local, and its
 * `chdb_query_cmdline` entry point takes clickhouse-local's command line: with HTTP and TCP ports
 * and a multiquery that starts the listeners and then runs a query that never ends, it serves
 * ClickHouse's HTTP and native interfaces like a server. This entry point is undocumented, which
 * is why package.json pins chdb exactly and test/integration/clickhouse-server.test.ts checks it.
 *
 * Keeper, `ON CLUSTER` DDL and replicated tables do not work this way.
 */

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const launcherSource = fileURLToPath(new URL("./chdb-server-launcher.c", import.meta.url));

/**
 * Tagged so that it can be told apart in system.processes. A `KILL QUERY` that matches it ends the
 * server; kill queries by their own query_id only.
 */
export const KEEP_ALIVE_QUERY =
  "SELECT /* quarry-keep-alive */ sleepEachRow(1) FROM system.numbers SETTINGS max_block_size = 1 FORMAT Null";

/** libchdb.so of the installed `chdb` package (its per-platform subpackage). */
export function libchdbPath(): string {
  if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) {
    throw new Error(`the chDB ClickHouse server needs linux on x64 or arm64, not ${process.platform}/${process.arch}`);
  }
  // Resolved from chdb's own location, because the subpackage is chdb's optional dependency.
  const fromChdb = createRequire(createRequire(import.meta.url).resolve("chdb/package.json"));
  const subpackage = `@chdb/lib-linux-${process.arch}-gnu`;
  const library = join(dirname(fromChdb.resolve(`${subpackage}/package.json`)), "libchdb.so");
  if (!existsSync(library)) throw new Error(`${subpackage} has no libchdb.so at ${library}; reinstall chdb`);
  return library;
}

/**
 * The compiled launcher, built once with `cc` into `.cache/chdb-server-launcher/<source hash>/`
 * (a changed source gets a new directory). Compiled in a staging dir and renamed, so a concurrent
 * or interrupted build never leaves a half-written binary behind.
 */
export async function ensureChdbServerLauncher(): Promise<string> {
  const source = readFileSync(launcherSource);
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const cacheDir = join(repoRoot, ".cache", "chdb-server-launcher");
  const target = join(cacheDir, hash);
  const binary = join(target, "chdb-server-launcher");
  if (existsSync(binary)) return binary;

  const cc = await ensureCommand("cc", "gcc");
  mkdirSync(cacheDir, { recursive: true });
  const staging = mkdtempSync(join(cacheDir, `.staging-${hash}-`));
  try {
    await run(cc, ["-O2", "-Wall", "-Werror", "-o", join(staging, "chdb-server-launcher"), launcherSource, "-ldl"], {
      timeoutMs: 120_000,
    });
    try {
      renameSync(staging, target);
    } catch (err) {
      if (!existsSync(binary)) throw err; // another run published it first otherwise
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`compiled the chDB server launcher: ${binary}`);
  return binary;
}

export interface ClickHouseServerOptions {
  /** The server's data (`--path`). Default: a temp dir that `stop()` removes; a given dir is kept. */
  dataDir?: string;
  /** Default: a free port. */
  httpPort?: number;
  /** The native protocol's port (remote(), Distributed tables). Default: a free port. */
  tcpPort?: number;
  /** A ClickHouse config file's text (`<clickhouse>...</clickhouse>`), e.g. `remote_servers`. */
  configXml?: string;
}

export interface RunningClickHouseServer {
  /** e.g. `http://127.0.0.1:40123` */
  readonly url: string;
  readonly httpPort: number;
  readonly tcpPort: number;
  /** The current server process's id (changes on restart). */
  readonly pid: number | undefined;
  readonly dataDir: string;
  /** Sends a signal to the server process, e.g. SIGKILL or SIGSTOP/SIGCONT for fault tests. */
  kill(signal: NodeJS.Signals): void;
  /**
   * Starts the server again on the same data dir and ports, stopping it first if it still runs,
   * and resolves once it answers: the server back at the same URL after a fault.
   */
  restart(): Promise<void>;
  /** Stops the server and removes its temp dir. Safe to call more than once. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Starts a ClickHouse server on 127.0.0.1 and waits until it answers `/ping` and `SELECT 1`. With
 * ports of its own choosing, a port another process took in the meantime means new ports and
 * another try.
 */
export function startClickHouseServer(options: ClickHouseServerOptions = {}): Promise<RunningClickHouseServer> {
  const fixedPorts = options.httpPort !== undefined || options.tcpPort !== undefined;
  return fixedPorts
    ? startClickHouseServerOnce(options)
    : retryOnPortClash("clickhouse", () => startClickHouseServerOnce(options));
}

function loggerConfigXml(dir: string): string {
  // The level comes from `--log-level` (chDB ignores <level> here).
  return `<clickhouse>
  <logger>
    <log>${join(dir, "server.log")}</log>
    <errorlog>${join(dir, "server.err.log")}</errorlog>
    <console>0</console>
  </logger>
</clickhouse>
`;
}

async function startClickHouseServerOnce(options: ClickHouseServerOptions): Promise<RunningClickHouseServer> {
  const library = libchdbPath();
  const launcher = await ensureChdbServerLauncher();
  // The run dir holds the config and the logs; the data lives in it too unless a dataDir is given.
  const dir = mkdtempSync(join(tmpdir(), "quarry-clickhouse-"));
  registerTempDir(dir);
  const dataDir = resolve(options.dataDir ?? join(dir, "data"));
  mkdirSync(dataDir, { recursive: true });
  const ownDataPaths = new Set([dataDir, realpathSync(dataDir)]);
  const [freeHttp, freeTcp] = await freePorts(2);
  const httpPort = options.httpPort ?? freeHttp;
  const tcpPort = options.tcpPort ?? freeTcp;
  if (httpPort === undefined || tcpPort === undefined) throw new Error("no free ports");
  const url = `http://127.0.0.1:${httpPort}`;

  // ClickHouse merges `<config dir>/config.d/*.xml` into config.xml, so the caller's config and
  // the logger's stay separate files.
  const configFile = join(dir, "config.xml");
  writeFileSync(configFile, options.configXml ?? "<clickhouse></clickhouse>\n");
  mkdirSync(join(dir, "config.d"));
  writeFileSync(join(dir, "config.d", "logger.xml"), loggerConfigXml(dir));

  const args = [
    library,
    "--path",
    dataDir,
    "--config-file",
    configFile,
    // Warnings and errors only: the log's tail goes into error messages, and chDB's default
    // (trace) writes several lines for every query.
    "--log-level=warning",
    // chDB sizes this pool for a library (2 threads; a server has 512). With Quarry's ~60 tables
    // their merge, cleanup and statistics tasks queued behind each other, and the server logged
    // ~50 "Temporarily pause scheduling" warnings a second after `quarry migrate`; 16 keeps up.
    "--background_schedule_pool_size=16",
    "--listen_host",
    "127.0.0.1",
    "--http_port",
    String(httpPort),
    "--tcp_port",
    String(tcpPort),
    "--multiquery",
    "--query",
    `SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; ${KEEP_ALIVE_QUERY}`,
  ];
  const launch = (): ManagedProcess =>
    spawnManaged({
      name: "clickhouse",
      command: launcher,
      args,
      cwd: dir,
      outputFile: join(dir, "stdout.log"),
      extraLogFiles: [join(dir, "server.err.log")],
    });
  let server = launch();
  const ready = (): Promise<void> =>
    waitUntilReady(
      async () => {
        const ping = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        const pong = await ping.text();
        if (pong.trim() !== "Ok.") throw new Error(`/ping answered ${ping.status}: ${pong.slice(0, 200)}`);
        // Also proves that the answer comes from this server: when another server holds the port,
        // this one fails to listen ("Address already in use") and exits, but that server answers
        // /ping meanwhile. Each server has its own data dir (ClickHouse locks it).
        const select = await fetch(`${url}/?query=${encodeURIComponent("SELECT 1, path FROM system.disks WHERE name = 'default'")}`, {
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        });
        const answer = (await select.text()).trim();
        if (!select.ok) throw new Error(`SELECT 1 answered ${select.status}: ${answer.slice(0, 200)}`);
        const [one, path] = answer.split("\t");
        if (one !== "1") throw new Error(`SELECT 1 answered ${answer.slice(0, 200)}`);
        if (!ownDataPaths.has((path ?? "").replace(/\/+$/, ""))) {
          throw new Error(`${url} is served by another ClickHouse server (data in ${path ?? "?"})`);
        }
      },
      { what: `ClickHouse server (chDB) on ${url}`, timeoutMs: READY_TIMEOUT_MS, intervalMs: 100, process: server },
    );

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await server.stop(10_000);
      releaseTempDir(dir);
    })();
    return stopping;
  };
  try {
    await ready();
  } catch (err) {
    await stop();
    throw err;
  }
  log(`clickhouse pid ${server.pid} listening on ${url} (native port ${tcpPort}), data in ${dataDir}`);
  return {
    url,
    httpPort,
    tcpPort,
    get pid() {
      return server.pid;
    },
    dataDir,
    kill(signal) {
      server.signal(signal);
    },
    async restart() {
      if (stopping !== undefined) throw new Error(`the ClickHouse server on ${url} was stopped; it cannot restart`);
      await server.stop(10_000);
      server = launch();
      await ready();
      log(`clickhouse pid ${server.pid} listening on ${url} again`);
    },
    stop,
  };
}
