/**
 * An embedded engine of its own in a temporary directory, for tests that ask ClickHouse itself
 * about tables they create.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { clickHouseCodeOf } from "../../src/clickhouse/clickhouse-error.js";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";

export interface ScratchEngine {
  readonly store: ColumnstoreClient;
  /** Whether the engine answers the query (any error is a refusal). */
  accepted(query: string): Promise<boolean>;
  /** The engine's error code for the query, or null when it answers. */
  code(query: string): Promise<number | null>;
  close(): Promise<void>;
}

export function openScratchEngine(name: string): ScratchEngine {
  const dir = mkdtempSync(join(tmpdir(), `quarry-${name}-`));
  const store = createColumnstoreClient({ dataDir: dir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  return {
    store,
    async accepted(query: string): Promise<boolean> {
      try {
        await (await store.client.query({ query, format: "JSONEachRow" })).json();
        return true;
      } catch {
        return false;
      }
    },
    async code(query: string): Promise<number | null> {
      try {
        await (await store.client.query({ query, format: "JSONEachRow" })).json();
        return null;
      } catch (error) {
        return clickHouseCodeOf(error);
      }
    },
    async close(): Promise<void> {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A scratch engine for the calling test file, with these statements run first: opened before its tests, closed after them. */
export function useStatementsEngine(name: string, statements: readonly string[]): ScratchEngine {
  return useScratchEngine(name, async () => {
    const engine = openScratchEngine(name);
    for (const statement of statements) await engine.store.client.command({ query: statement });
    return engine;
  });
}

/**
 * The storages' own tables (made by the migrations) in a scratch engine for the calling test file,
 * with these statements run after (rows to insert: an index is read only where a part exists).
 */
export function useMigratedEngine(name: string, statements: readonly string[] = []): ScratchEngine {
  return useScratchEngine(name, async () => {
    const engine = openScratchEngine(name);
    await runMigrations(engine.store.client, defaultRegistry());
    for (const statement of statements) await engine.store.client.command({ query: statement });
    return engine;
  });
}

/** An engine opened before the calling file's tests and closed after them; reached through the one returned. */
function useScratchEngine(name: string, open: () => Promise<ScratchEngine>): ScratchEngine {
  let opened: ScratchEngine | undefined;
  beforeAll(async () => {
    opened = await open();
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
  });
  const current = (): ScratchEngine => {
    if (opened === undefined) throw new Error(`the ${name} engine is opened before the file's tests run, not at import`);
    return opened;
  };
  return {
    get store() {
      return current().store;
    },
    accepted: (query) => current().accepted(query),
    code: (query) => current().code(query),
    close: () => current().close(),
  };
}
