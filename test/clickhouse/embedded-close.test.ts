/**
 * Closing the embedded engine while a query runs in it and others wait their turn (a SIGTERM
 * under load): the running query finishes, the waiting ones fail at once with a typed error and
 * never reach the engine, and when close() resolves the engine is down. `quarry serve` exits right
 * after; an engine still up then (chDB defers its teardown behind a running query) raced the exit
 * handlers and the process died of SIGSEGV.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { EngineClosedError } from "../../src/clickhouse/embedded-connection.js";
import { readSettings } from "../../src/config/settings.js";

/** Threads of this process named `name`: the engine's background schedule pool lives as long as the engine. */
function threadsNamed(name: string): number {
  return readdirSync("/proc/self/task").filter((task) => {
    try {
      return readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim() === name;
    } catch {
      return false; // the thread ended meanwhile
    }
  }).length;
}

describe("closing the embedded engine with a query running and more waiting", () => {
  let dir: string;
  let store: ColumnstoreClient;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "quarry-close-"));
    store = createColumnstoreClient({ ...readSettings({}), clickhouseUrl: null, dataDir: dir });
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("finishes the running query, fails the waiting ones, and is down when close() resolves", async () => {
    await store.client.command({ query: "CREATE TABLE marks (n UInt64) ENGINE = MergeTree ORDER BY n" });
    expect(threadsNamed("BgSchPool")).toBeGreaterThan(0);
    const text = (query: string) => store.client.query({ query, format: "TabSeparated" }).then((r) => r.text());

    const running = text("SELECT sleep(0.8) + 1");
    // Queued behind it: the query log's INSERT and requests, as at a shutdown.
    const waiting = [store.client.command({ query: "INSERT INTO marks VALUES (1)" }), ...Array.from({ length: 5 }, (_, i) => text(`SELECT ${i}`))];
    const outcomes = Promise.allSettled(waiting);
    await new Promise((resolve) => setTimeout(resolve, 100));

    await store.close();
    expect(await running).toBe("1\n");
    for (const outcome of await outcomes) {
      expect(outcome.status).toBe("rejected");
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(EngineClosedError);
    }
    // The engine is shut down, not left running behind a deferred teardown.
    expect(threadsNamed("BgSchPool")).toBe(0);
    // A call after the close is refused the same way, without touching the engine.
    await expect(text("SELECT 1")).rejects.toBeInstanceOf(EngineClosedError);
  });
});
