import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { startServer } from "../../src/server/start-server.js";
import type { QuarryServer } from "../../src/server/start-server.js";
import { RANGE } from "./fixture-server.js";

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let server: QuarryServer;
let baseUrl: string;

beforeAll(async () => {
  const columnstore = createColumnstoreClient({
    clickhouseUrl: `http://127.0.0.1:${await closedPort()}`,
    clickhouseUser: "default",
    clickhousePassword: "",
    dataDir: "/unused",
  });
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    definitions: defaultRegistry(),
    columnstore,
    backend: { queryLogFlushIntervalMs: 60_000 },
  });
  baseUrl = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server?.close();
});

describe("with ClickHouse down", () => {
  it("/health answers 502 and names the failing dependency", async () => {
    const response = await fetch(`${baseUrl}/health`);
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body.status).toBe("down");
    expect(body.clickhouse).toMatch(/ECONNREFUSED|connect/i);
  });

  it("a query fails fast with a typed columnstore error", async () => {
    const response = await fetch(`${baseUrl}/events/snql`, {
      method: "POST",
      body: JSON.stringify({
        query: `MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 1`,
        tenant_ids: { organization_id: 1, referrer: "test.down" },
      }),
    });
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body.error).toMatchObject({ type: "columnstore", code: -1 });
    expect(body.sql).toContain("errors_local");
    expect(body.timing.marks_ms).toHaveProperty("execute");
  });

  it("keeps the query-log rows it cannot write, and counts the failure in /metrics", async () => {
    const started = performance.now();
    await server.backend.queryLog!.flush();
    // The failed flush answers at once instead of hanging on the dead engine.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(server.backend.queryLog!.buffered).toBeGreaterThanOrEqual(1);
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(text).toContain('quarry_clickhouse_errors_total{code="-1"} 1');
    expect(text).toMatch(/quarry_querylog_flush_failures_total [1-9]/);
    expect(text).toMatch(/quarry_querylog_buffered_rows [1-9]/);
  });
});
