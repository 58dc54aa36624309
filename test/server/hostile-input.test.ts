import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RANGE, startFixtureServer, type FixtureServer } from "./fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

const TYPED_STATUSES = new Set([200, 400, 404, 413, 501]);

async function send(path: string, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.baseUrl}${path}`, { method: "POST", body });
  return { status: response.status, text: await response.text() };
}

/** Every answer is 200 with data, or a typed error body; never a bare 500 or a dropped socket. */
function expectTypedAnswer(status: number, text: string): void {
  expect(TYPED_STATUSES.has(status), `status ${status}: ${text.slice(0, 200)}`).toBe(true);
  const body = JSON.parse(text);
  if (status === 200) expect(Array.isArray(body.data)).toBe(true);
  else expect(typeof body.error?.type).toBe("string");
}

describe("hostile input", () => {
  it("answers any JSON body with a typed error or a result", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        const { status, text } = await send("/events/snql", JSON.stringify(value));
        expectTypedAnswer(status, text);
      }),
      { numRuns: 150 },
    );
  });

  it("answers any query text with a typed error or a result", async () => {
    const fragments = fc.constantFrom(
      "MATCH", "(events)", "(", ")", "SELECT", "count()", "BY", "WHERE", "AND", "OR", "=", "IN", "tuple(1,", "'",
      "\\'", "tags[", "]", "project_id", "timestamp", ">=", "toDateTime('2024-01-01')", "LIMIT", "-1", "99999", ",",
      "NULL", "ORDER BY", "DESC", "GRANULARITY", "0", "😀", "\u0000", "`", "{", "}",
    );
    const texts = fc.oneof(fc.string({ maxLength: 200 }), fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join(" ")));
    await fc.assert(
      fc.asyncProperty(texts, async (query) => {
        const { status, text } = await send(
          "/events/snql",
          JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "test.hostile" } }),
        );
        expectTypedAnswer(status, text);
      }),
      { numRuns: 300 },
    );
  });

  it("answers raw bytes, huge bodies and odd paths", async () => {
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256)).toString("latin1");
    expectTypedAnswer(...Object.values(await send("/events/snql", junk)) as [number, string]);
    const huge = await send("/events/snql", `{"query": "${"x".repeat(2 * 1024 * 1024)}"}`);
    expect(huge.status).toBe(413);
    for (const path of ["/%zz/snql", "/events/snql/extra/parts/here/too", "/" + "a/".repeat(50)]) {
      const response = await fetch(`${server.baseUrl}${path}`, { method: "POST", body: "{}" });
      expect([400, 404]).toContain(response.status);
      expect(typeof (await response.json()).error.type).toBe("string");
    }
    // Still serving afterwards.
    const after = await send("/events/snql", JSON.stringify({ query: `MATCH (events) SELECT count() AS c WHERE ${RANGE} AND project_id = 2`, tenant_ids: { organization_id: 1, referrer: "t" } }));
    expect(JSON.parse(after.text).data).toEqual([{ c: 2 }]);
  });
});

describe("hostile input on the Connect paths", () => {
  const path = "/quarry.v1.QueryService/Snql";

  it("answers protobuf bytes that are not a request with 400 invalid_argument, not a 500", async () => {
    for (const bytes of [Buffer.from('{"query": 1}'), Buffer.from([0xff, 0xff, 0xff]), Buffer.from([0x0a, 0x50, 0x01])]) {
      const response = await fetch(`${server.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/proto" }, body: bytes });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe("invalid_argument");
      expect(body.message).toMatch(/^parse binary/);
    }
  });

  it("answers other methods and content types with typed Connect errors", async () => {
    const get = await fetch(`${server.baseUrl}${path}`);
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ code: "unimplemented" });
    const form = await fetch(`${server.baseUrl}${path}`, { method: "POST", headers: { "content-type": "text/plain" }, body: "query=MATCH" });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ code: "invalid_argument" });
  });

  it("still serves a well-formed Connect JSON call", async () => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dataset: "events", query: `MATCH (events) SELECT count() AS n WHERE ${RANGE} AND project_id = 1`, tenantIds: { organizationId: "1", referrer: "test" } }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([{ n: 3 }]);
  });
});
