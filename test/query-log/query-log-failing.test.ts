/**
 * Serving does not depend on the query log's health: with ClickHouse refusing every query-log
 * INSERT (its table gone), every query is still answered, the log's buffer stays within its
 * bound, its retries back off instead of hammering the engine, the drops are counted with their
 * reason, and the log catches up once the table is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;
const BOUND_CHARS = 300_000;

beforeAll(async () => {
  server = await startFixtureServer({ queryLogFlushIntervalMs: 20, queryLogMaxBufferedChars: BOUND_CHARS });
});
afterAll(async () => {
  await server?.close();
});

async function query(i: number): Promise<number> {
  const response = await fetch(`${server.baseUrl}/events/snql`, {
    method: "POST",
    body: JSON.stringify({ query: `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = ${1 + (i % 50)}`, tenant_ids: { organization_id: 1, referrer: `test.querylog.${i % 7}` } }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("the query log while ClickHouse refuses its inserts", () => {
  it("answers every query, stays bounded, backs off, counts drops, and catches up afterwards", async () => {
    const metrics = server.backend.metrics;
    await server.columnstore.client.command({ query: "RENAME TABLE querylog_local TO querylog_away" });
    let statuses: number[];
    const failuresBefore = (await metrics.queryLogFailures.get()).values[0]!.value;
    const started = Date.now();
    try {
      statuses = [];
      for (let round = 0; round < 30; round++) statuses.push(...(await Promise.all(Array.from({ length: 40 }, (_, i) => query(round * 40 + i)))));
      expect(server.backend.queryLog!.bufferedChars).toBeLessThanOrEqual(BOUND_CHARS);
    } finally {
      await server.columnstore.client.command({ query: "RENAME TABLE querylog_away TO querylog_local" });
    }
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await metrics.queryLogDropped.value({ reason: "buffer_full" })).toBeGreaterThan(0);
    // Flushes every 20 ms would be ~50 a second; backing off from 1 s, it is a handful in total.
    const failures = (await metrics.queryLogFailures.get()).values[0]!.value - failuresBefore;
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThanOrEqual(Math.ceil(Math.log2(elapsedSeconds + 1)) + 2);

    // Back: what is buffered is written (after the current backoff), nothing more is dropped.
    const dropped = await metrics.queryLogDropped.value({ reason: "buffer_full" });
    const buffered = server.backend.queryLog!.buffered;
    expect(buffered).toBeGreaterThan(0);
    const deadline = Date.now() + 40_000;
    while (server.backend.queryLog!.buffered > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.backend.queryLog!.buffered).toBe(0);
    expect(await metrics.queryLogDropped.value({ reason: "buffer_full" })).toBe(dropped);
    const rows = await server.columnstore.client.query({ query: "SELECT count() AS n FROM querylog_local WHERE referrer LIKE 'test.querylog.%'", format: "JSONEachRow" });
    expect(Number((await rows.json<{ n: number }>())[0]!.n)).toBe(buffered);
  }, 90_000);
});
