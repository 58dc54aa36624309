import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClickHouseServer, type RunningClickHouseServer } from "../../scripts/test-services/clickhouse-server.js";
import { createColumnstoreClient } from "../../src/clickhouse/client-factory.js";

// Smoke test of the ClickHouse server the test services run from chDB's libchdb.so through an
// undocumented entry point (chdb_query_cmdline): if a chDB upgrade changes it, this fails first.

/** Runs `sql` over the server's HTTP interface; a ClickHouse error fails with its text. */
async function query(server: RunningClickHouseServer, sql: string, timeoutMs = 10_000): Promise<string> {
  const response = await fetch(server.url, { method: "POST", body: sql, signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  if (!response.ok) throw new Error(`ClickHouse answered ${response.status}: ${text}`);
  return text.trim();
}

/** The error a request to the server fails with (its cause's code for a connection error). */
async function requestError(server: RunningClickHouseServer, timeoutMs = 2_000): Promise<string> {
  try {
    await query(server, "SELECT 1", timeoutMs);
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return cause?.code ?? (err as Error).name;
  }
  throw new Error("the request succeeded");
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilExited(pid: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (isRunning(pid)) {
    if (Date.now() - started > timeoutMs) throw new Error(`pid ${pid} still runs after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

describe("the chDB ClickHouse server", () => {
  let dataDir: string;
  let server: RunningClickHouseServer;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "quarry-clickhouse-smoke-"));
    server = await startClickHouseServer({ dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers over HTTP from the given data dir, with a MergeTree table", async () => {
    expect(await (await fetch(`${server.url}/ping`)).text()).toBe("Ok.\n");
    expect(await query(server, "SELECT path FROM system.disks WHERE name = 'default'")).toBe(`${dataDir}/`);
    await query(server, "CREATE TABLE smoke (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
    await query(server, "INSERT INTO smoke SELECT number, concat('row-', toString(number)) FROM numbers(1000)");
    expect(await query(server, "SELECT count(), sum(id), max(name) FROM smoke")).toBe("1000\t499500\trow-999");
  });

  it("serves the native protocol on its TCP port (remote() reads through it)", async () => {
    const sql = `SELECT count() FROM remote('127.0.0.1:${server.tcpPort}', currentDatabase(), smoke)`;
    expect(await query(server, sql)).toBe("1000");
  });

  it("refuses connections once SIGKILLed, and has the rows again after a restart on the same dir and URL", async () => {
    const killedPid = server.pid!;
    const url = server.url;
    server.kill("SIGKILL");
    await waitUntilExited(killedPid, 5_000);
    expect(await requestError(server)).toBe("ECONNREFUSED");

    const started = Date.now();
    await server.restart();
    const restartMs = Date.now() - started;
    expect(server.pid).not.toBe(killedPid);
    expect(server.url).toBe(url);
    expect(await query(server, "SELECT count(), sum(id) FROM smoke")).toBe("1000\t499500");
    // Well under the readiness timeout: the fault tests count on a quick return.
    expect(restartMs).toBeLessThan(15_000);
  });

  it("stops answering while SIGSTOPped and answers again after SIGCONT", async () => {
    server.kill("SIGSTOP");
    try {
      expect(await requestError(server, 1_000)).toBe("TimeoutError");
    } finally {
      server.kill("SIGCONT");
    }
    expect(await query(server, "SELECT count() FROM smoke")).toBe("1000");
  });

  it("lets Quarry's server-mode columnstore client write and read", async () => {
    const columnstore = createColumnstoreClient({
      clickhouseUrl: server.url,
      clickhouseUser: "default",
      clickhousePassword: "",
      dataDir: "/unused",
    });
    try {
      expect(columnstore.kind).toBe("server");
      await columnstore.client.command({
        query: "CREATE TABLE quarry_client (id UInt32, at DateTime('UTC')) ENGINE = MergeTree ORDER BY id",
      });
      await columnstore.client.insert({
        table: "quarry_client",
        values: [
          { id: 1, at: "2026-11-21 10:00:00" },
          { id: 2, at: "2026-11-21 11:00:00" },
        ],
        format: "JSONEachRow",
      });
      const result = await columnstore.client.query({ query: "SELECT id, at FROM quarry_client ORDER BY id", format: "JSONEachRow" });
      // Quarry's settings reach the server: 64-bit integers unquoted, ISO dates.
      expect(await result.json()).toEqual([
        { id: 1, at: "2026-11-21T10:00:00Z" },
        { id: 2, at: "2026-11-21T11:00:00Z" },
      ]);
      const count = await columnstore.client.query({ query: "SELECT count() AS n FROM quarry_client", format: "JSONEachRow" });
      expect(await count.json()).toEqual([{ n: 2 }]);
    } finally {
      await columnstore.close();
    }
  });

  it("exits on SIGTERM", async () => {
    const pid = server.pid!;
    server.kill("SIGTERM");
    expect(await waitUntilExited(pid, 10_000)).toBeLessThan(10_000);
    expect(await requestError(server)).toBe("ECONNREFUSED");
  });
});

describe("a chDB ClickHouse server of its own", () => {
  it("removes its temp data dir on stop, also when stopped while SIGSTOPped", async () => {
    const server = await startClickHouseServer();
    expect(existsSync(server.dataDir)).toBe(true);
    server.kill("SIGSTOP");
    const started = Date.now();
    await server.stop();
    // stop() resumes a stopped process so it acts on SIGTERM at once, not after the grace period.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(isRunning(server.pid!)).toBe(false);
    expect(existsSync(server.dataDir)).toBe(false);
  });

  it("fails with the server's own error when another server holds the data dir", async () => {
    const first = await startClickHouseServer();
    try {
      await expect(startClickHouseServer({ dataDir: first.dataDir })).rejects.toThrow(/Cannot lock file .*status/);
    } finally {
      await first.stop();
    }
  });
});
