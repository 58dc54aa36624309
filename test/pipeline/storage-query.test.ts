/**
 * POST /query on a storage directly (MATCH STORAGE(name)): the back end runs it under that
 * storage's allocation policies; here the query log itself is read back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

async function post(body: Record<string, unknown>) {
  const response = await fetch(`${server.baseUrl}/query`, { method: "POST", body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe("POST /query on a storage", () => {
  it("applies the storage's policies and reads the query log", async () => {
    const events = await post({ dataset: "events", query: `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1`, tenant_ids: { organization_id: 1, referrer: "test.storage" } });
    expect(events.status).toBe(200);
    await server.backend.queryLog!.flush();
    const now = new Date();
    const from = new Date(now.getTime() - 3_600_000).toISOString().slice(0, 19);
    const to = new Date(now.getTime() + 3_600_000).toISOString().slice(0, 19);
    const answer = await post({
      dataset: "events",
      query: `MATCH STORAGE(querylog) SELECT count() AS n WHERE timestamp >= toDateTime('${from}') AND timestamp < toDateTime('${to}') AND referrer = 'test.storage'`,
      tenant_ids: { organization_id: 1, referrer: "test.storage" },
      debug: true,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([{ n: 1 }]);
    expect(answer.body.stats.columnstore_table).toBe("querylog_local");
    expect(answer.body.quota_allowance.details.ConcurrentRateLimitAllocationPolicy.explanation.storage_key).toBe("querylog");
  });
});
