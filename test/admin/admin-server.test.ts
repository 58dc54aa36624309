/**
 * The admin server over HTTP against a real query server (embedded ClickHouse, known rows): the
 * page and its bundle, the read-only figures, and queries passed to the query server unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAdminServer, type AdminServer } from "../../src/admin/admin-server.js";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;
let admin: AdminServer;
let base: string;

beforeAll(async () => {
  server = await startFixtureServer();
  admin = await startAdminServer({
    host: "127.0.0.1",
    port: 0,
    queryUrl: server.baseUrl,
    columnstore: server.columnstore,
    registry: server.definitions,
    policyUsage: () => server.backend.policies.usage(Date.now()),
  });
  base = `http://127.0.0.1:${admin.port}`;
});
afterAll(async () => {
  await admin?.close();
  await server?.close();
});

describe("admin server", () => {
  it("serves the page, the bundled app with uPlot and its styles, from this port only", async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('<script src="/assets/admin.js"></script>');
    const script = await fetch(`${base}/assets/admin.js`);
    expect(script.headers.get("content-type")).toContain("javascript");
    const code = await script.text();
    // The bundle carries uPlot itself (no CDN) and the four pages.
    expect(code).toContain("uplot");
    for (const title of ["Query log", "Subscriptions", "System"]) expect(code).toContain(title);
    expect((await fetch(`${base}/assets/uplot.css`)).status).toBe(200);
  });

  it("runs a query through the query server's own route, and the query log then shows it", async () => {
    const query = `MATCH (events) SELECT count() AS c BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2) ORDER BY project_id ASC`;
    const answer = await fetch(`${base}/api/events/snql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, debug: true, tenant_ids: { organization_id: 7, referrer: "admin.test" } }),
    });
    expect(answer.status).toBe(200);
    const json = (await answer.json()) as { data: unknown[]; sql: string };
    expect(json.data).toEqual([{ project_id: 1, c: 3 }, { project_id: 2, c: 2 }]);
    expect(json.sql).toContain("GROUP BY");

    let rows: { referrer: string; organization_id: number; query_text: string; status: string }[] = [];
    for (let attempt = 0; attempt < 50 && rows.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const log = await fetch(`${base}/api/admin/querylog?referrer=admin.test&organization_id=7&status=success`);
      rows = ((await log.json()) as { data: typeof rows }).data;
    }
    expect(rows[0]).toMatchObject({ referrer: "admin.test", organization_id: 7, query_text: query, status: "success" });
  });

  it("shows tables with their rows, the migrations applied and the policies in force", async () => {
    const system = (await (await fetch(`${base}/api/admin/system`)).json()) as {
      tables: { table: string; rows: number; bytes: number }[];
      migrations: { id: string }[];
      policies: { storage: string; policy: string; args: Record<string, unknown> }[];
      usage: { storage: string; policy: string; bucket: string; used: number; unit: string }[];
    };
    expect(system.tables.find((t) => t.table === "errors_local")).toMatchObject({ rows: 6 });
    expect(system.tables.find((t) => t.table === "errors_local")!.bytes).toBeGreaterThan(0);
    expect(system.migrations.map((m) => m.id)).toContain("create_errors");
    expect(system.policies).toContainEqual(expect.objectContaining({ storage: "errors", policy: "ConcurrentRateLimitAllocationPolicy" }));
    // Organization 7's query of the test before was charged its bytes in the 10-minute window.
    const charged = system.usage.find((row) => row.policy === "BytesScannedWindowAllocationPolicy" && row.storage === "errors" && row.bucket.includes("7"));
    expect(charged).toMatchObject({ unit: "bytes" });
    expect(charged!.used).toBeGreaterThan(0);
  });

  it("is read-only and answers bad input with typed errors", async () => {
    const write = await fetch(`${base}/api/admin/system`, { method: "POST", body: "{}" });
    expect(write.status).toBe(405);
    const bad = await fetch(`${base}/api/admin/querylog?limit=lots`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("limit must be a non-negative integer");
    expect((await fetch(`${base}/api/admin/nope`)).status).toBe(404);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    // A query's own error comes back as the query server gave it.
    const invalid = await fetch(`${base}/api/events/snql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "MATCH (events) SELEC" }) });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { type: string } }).error.type).toBe("invalid_query");
  });
});
