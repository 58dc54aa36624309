/**
 * An embedded engine of its own in a temporary directory, for tests that hold a rule of the
 * typing pass to what ClickHouse itself takes or refuses on tables they create.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clickHouseCodeOf } from "../../src/clickhouse/clickhouse-error.js";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { probeTableStatements } from "../../src/pipeline/argument-classes.js";

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

/** A scratch engine holding the probe's two tables of these samples (`probe`, empty, and PROBE_ROW_TABLE, of one row). */
export async function openProbeTablesEngine(name: string, samples: Parameters<typeof probeTableStatements>[0]): Promise<ScratchEngine> {
  const engine = openScratchEngine(name);
  for (const statement of probeTableStatements(samples)) await engine.store.client.command({ query: statement });
  return engine;
}
