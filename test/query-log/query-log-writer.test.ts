/**
 * The query log cannot hurt serving: recording never waits; the buffer is bounded in rows and
 * characters; INSERTs are bounded batches; a row ClickHouse refuses is isolated, dropped and
 * logged with the reason while the rest of its batch is written; other failures back off.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { buildQueryLogRow } from "../../src/query-log/build-query-log-row.js";
import type { QueryLogRow } from "../../src/query-log/query-log-row.js";
import { DEFAULT_QUERY_LOG_OPTIONS, QueryLogWriter, type QueryLogOptions } from "../../src/query-log/query-log-writer.js";

let down: ColumnstoreClient;
let engine: ColumnstoreClient;
const dataDir = mkdtempSync(join(tmpdir(), "quarry-querylog-test-"));

beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  down = createColumnstoreClient({ clickhouseUrl: `http://127.0.0.1:${port}`, clickhouseUser: "default", clickhousePassword: "", dataDir: "/unused" });
  engine = createColumnstoreClient({ clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "", dataDir });
  await runMigrations(engine.client, defaultRegistry());
});
afterAll(async () => {
  await down?.close();
  await engine?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function row(i: number, query = `q${i}`): QueryLogRow {
  return buildQueryLogRow({
    request: { dataset: "events", query, tenantIds: { organization_id: 1, referrer: "test" }, debug: false, consistent: false, turbo: false, dryRun: false },
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

interface Counts {
  written: number;
  writes: number;
  dropped: Record<string, number>;
  failures: number;
  log: string[];
}

function writerOn(client: ColumnstoreClient, options: Partial<QueryLogOptions> = {}): { writer: QueryLogWriter; counts: Counts } {
  const counts: Counts = { written: 0, writes: 0, dropped: {}, failures: 0, log: [] };
  const writer = new QueryLogWriter(client.client, {
    ...DEFAULT_QUERY_LOG_OPTIONS,
    table: "querylog_local",
    flushIntervalMs: 60_000,
    onWritten: (rows) => {
      counts.written += rows;
      counts.writes += 1;
    },
    onDropped: (rows, reason) => (counts.dropped[reason] = (counts.dropped[reason] ?? 0) + rows),
    onFailure: () => counts.failures++,
    log: (line) => counts.log.push(line),
    ...options,
  });
  return { writer, counts };
}

async function loggedQueries(): Promise<string[]> {
  const result = await engine.client.query({ query: "SELECT query_text FROM querylog_local ORDER BY query_text", format: "JSONEachRow" });
  return (await result.json<{ query_text: string }>()).map((r) => r.query_text);
}

describe("QueryLogWriter with ClickHouse down", () => {
  it("keeps rows up to the row bound, drops and counts the oldest, and never throws", async () => {
    const { writer, counts } = writerOn(down, { maxBufferedRows: 3 });
    const started = performance.now();
    for (let i = 0; i < 5; i++) writer.record(row(i));
    // Recording is synchronous and cheap: it does not wait for ClickHouse.
    expect(performance.now() - started).toBeLessThan(50);
    expect(writer.buffered).toBe(3);
    expect(counts.dropped).toEqual({ buffer_full: 2 });
    await writer.flush();
    expect(counts.failures).toBe(1);
    // The failed batch is kept for the next attempt, after a backoff: an immediate flush does not retry.
    expect(writer.buffered).toBe(3);
    await writer.flush();
    expect(counts.failures).toBe(1);
    expect(counts.log.some((line) => line.includes("retrying in 1000 ms"))).toBe(true);
    await writer.close(200);
  });

  it("bounds the buffer in characters: big query texts do not grow memory past it", async () => {
    const { writer, counts } = writerOn(down, { maxBufferedChars: 1_000_000 });
    const big = "x".repeat(200_000);
    for (let i = 0; i < 50; i++) writer.record(row(i, big));
    expect(writer.bufferedChars).toBeLessThanOrEqual(1_000_000);
    expect(writer.buffered).toBeLessThanOrEqual(5);
    expect(counts.dropped.buffer_full).toBe(50 - writer.buffered);
    await writer.close(200);
  });
});

describe("QueryLogWriter on the embedded engine", () => {
  it("writes in bounded batches", async () => {
    await engine.client.command({ query: "TRUNCATE TABLE querylog_local" });
    const { writer, counts } = writerOn(engine, { batchRows: 3 });
    for (let i = 0; i < 10; i++) writer.record(row(i, `batch-${i}`));
    await writer.flush();
    expect(counts.written).toBe(10);
    expect(counts.writes).toBe(4);
    expect(writer.buffered).toBe(0);
    expect((await loggedQueries()).length).toBe(10);
    await writer.close();
  });

  it("keeps none of the rows it wrote once it has caught up", async () => {
    await engine.client.command({ query: "TRUNCATE TABLE querylog_local" });
    const { writer, counts } = writerOn(engine);
    // Fewer rows than the array's compaction threshold: those used to stay until the next burst.
    for (let i = 0; i < 500; i++) writer.record(row(i, `held-${i}`.padEnd(2000, "x")));
    expect(writer.heldLines).toBe(500);
    await writer.flush();
    expect(counts.written).toBe(500);
    expect(writer.heldLines).toBe(0);
    expect(writer.bufferedChars).toBe(0);
    // And it goes on recording and writing after that.
    writer.record(row(1, "after"));
    await writer.flush();
    expect(counts.written).toBe(501);
    expect(writer.heldLines).toBe(0);
    await writer.close();
  });

  it("isolates a row ClickHouse refuses: drops it with the reason, writes the rest of its batch", async () => {
    await engine.client.command({ query: "TRUNCATE TABLE querylog_local" });
    const { writer, counts } = writerOn(engine);
    for (let i = 0; i < 9; i++) {
      writer.record(row(i, `good-${i}`));
      if (i === 4) writer.record({ ...row(99, "bad"), timestamp: "not a time" });
    }
    await writer.flush();
    expect(counts.written).toBe(9);
    expect(counts.dropped).toEqual({ refused: 1 });
    expect(counts.log.find((line) => line.includes("refused a row"))).toMatch(/DateTime.*"query_text":"bad"/s);
    expect(await loggedQueries()).toEqual(Array.from({ length: 9 }, (_, i) => `good-${i}`));
    await writer.close();
  });

  it("backs off while the table is missing, then writes everything once it is back", async () => {
    await engine.client.command({ query: "TRUNCATE TABLE querylog_local" });
    await engine.client.command({ query: "RENAME TABLE querylog_local TO querylog_away" });
    const { writer, counts } = writerOn(engine, { retryInitialMs: 50, retryMaxMs: 100 });
    try {
      for (let i = 0; i < 5; i++) writer.record(row(i, `later-${i}`));
      await writer.flush();
      expect(counts.failures).toBe(1);
      expect(writer.buffered).toBe(5);
    } finally {
      await engine.client.command({ query: "RENAME TABLE querylog_away TO querylog_local" });
    }
    await new Promise((resolve) => setTimeout(resolve, 120));
    await writer.flush();
    expect(counts.written).toBe(5);
    expect(counts.dropped).toEqual({});
    await writer.close();
  });
});

describe("QueryLogWriter and odd text", () => {
  it("writes a query text with a lone UTF-16 surrogate (a client's bad input) as U+FFFD", async () => {
    await engine.client.command({ query: "TRUNCATE TABLE querylog_local" });
    const { writer, counts } = writerOn(engine);
    writer.record(row(1, "bad \uD800 surrogate"));
    writer.record(row(2, "pair \uD83D\uDE00 kept"));
    await writer.flush();
    expect(counts.written).toBe(2);
    expect(counts.dropped).toEqual({});
    expect(await loggedQueries()).toEqual(["bad \uFFFD surrogate", "pair \uD83D\uDE00 kept"]);
    await writer.close();
  });
});
