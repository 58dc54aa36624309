/**
 * The writer never blocks its caller: with ClickHouse unreachable, rows stay buffered up to the
 * bound, the oldest are dropped and counted, and a failed flush resolves instead of throwing.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { buildQueryLogRow } from "../../src/query-log/build-query-log-row.js";
import { QueryLogWriter } from "../../src/query-log/query-log-writer.js";

let down: ColumnstoreClient;

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  down = createColumnstoreClient({ clickhouseUrl: `http://127.0.0.1:${port}`, clickhouseUser: "default", clickhousePassword: "", dataDir: "/unused" });
});
afterAll(async () => {
  await down?.close();
});

function row(i: number) {
  return buildQueryLogRow({
    request: { dataset: "events", query: `q${i}`, tenantIds: { organization_id: 1, referrer: "test" }, debug: false, consistent: false, turbo: false, dryRun: false },
    entity: "events",
    sql: `SELECT ${i}`,
    timing: { timestamp: 1_700_000_000, duration_ms: 3, marks_ms: { execute: 3 }, tags: {} },
    cacheStatus: "miss",
    rowsRead: 1,
    bytesRead: 8,
    resultRows: 1,
    quotaAllowance: {},
    error: null,
  });
}

describe("QueryLogWriter with ClickHouse down", () => {
  it("keeps rows up to the bound, drops and counts the oldest, and never throws", async () => {
    let dropped = 0;
    let failures = 0;
    const writer = new QueryLogWriter(down.client, {
      table: "querylog_local",
      batchSize: 1000,
      flushIntervalMs: 60_000,
      maxBufferedRows: 3,
      onDropped: (n) => (dropped += n),
      onFailure: () => failures++,
    });
    const started = performance.now();
    for (let i = 0; i < 5; i++) writer.record(row(i));
    // Recording is synchronous and cheap: it does not wait for ClickHouse.
    expect(performance.now() - started).toBeLessThan(50);
    expect(writer.buffered).toBe(3);
    expect(dropped).toBe(2);
    await writer.flush();
    expect(failures).toBe(1);
    // The failed batch is kept for the next attempt.
    expect(writer.buffered).toBe(3);
    await writer.close();
  });
});
