/**
 * Hostile strings (quotes, backslashes, comments, NUL, unicode) in every literal position of SnQL
 * come back as data, never as SQL: selected literals return byte for byte, conditions match
 * nothing, and the engine never sees a syntax it did not expect.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quoteSnqlString } from "../../src/snql/print-snql.js";
import { RANGE, startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Body = Record<string, any>;

async function snql(query: string): Promise<Body> {
  const response = await fetch(`${server.baseUrl}/events/snql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "test.hostile-literals" } }),
  });
  const json = JSON.parse(await response.text()) as Body;
  expect(json.error, `${query}\n${JSON.stringify(json.error)}`).toBeUndefined();
  expect(response.status).toBe(200);
  return json;
}

const HOSTILE = [
  "'",
  "\\",
  "\\'",
  "''",
  "'; DROP TABLE errors_local; --",
  "') OR 1 = 1 OR ('",
  "/* comment */ 1",
  "-- comment",
  "\n\r\t",
  "\u0000",
  "`back`tick`",
  "naïve ☃ 💥 𝔘 ﷽",
  "${x} %s {0}",
];
const WHERE = `${RANGE} AND project_id = 1`;

describe("texts the engine reads as an array", () => {
  // A text compared with an array is read as one ('[...]'). One the engine cannot read as an
  // array (no closing bracket, an element not quoted) is its parse error, the query's fault: a
  // typed 400 with the engine's code.
  async function compared(value: string): Promise<{ status: number; json: Body }> {
    const response = await fetch(`${server.baseUrl}/events/snql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `MATCH (events) SELECT count() AS c WHERE ${WHERE} AND ${quoteSnqlString(value)} > array(message, message)`, tenant_ids: { organization_id: 1, referrer: "test.hostile-literals" } }),
    });
    return { status: response.status, json: JSON.parse(await response.text()) as Body };
  }

  it.each(["[\\o", "[1, 'a", "['a'"])("%j, not written as an array, is the engine's typed 400", async (value) => {
    const { status, json } = await compared(value);
    expect(status, JSON.stringify(json)).toBe(400);
    expect(json.error.type).toBe("columnstore");
    expect(json.error.code).toBeGreaterThan(0);
  });

  it("an array text whose elements do not read is a 400 columnstore error (code 130)", async () => {
    const { status, json } = await compared("['a' x]");
    expect(status, JSON.stringify(json)).toBe(400);
    expect(json.error).toMatchObject({ type: "columnstore", code: 130 });
  });
});

describe("hostile strings in literal positions", () => {
  it.each(HOSTILE)("%j comes back as data", async (value) => {
    const text = quoteSnqlString(value);
    const selected = await snql(
      `MATCH (events) SELECT ${text} AS v, concat(${text}, '') AS w, arrayExists((\`x\`) -> equals(\`x\`, ${text}), tags.value) AS found ` +
        `WHERE ${WHERE} ORDER BY timestamp ASC LIMIT 1`,
    );
    expect(selected.data).toEqual([{ v: value, w: value, found: 0 }]);

    const filtered = await snql(
      `MATCH (events) SELECT count() AS c WHERE ${WHERE} AND (message = ${text} OR message IN tuple(${text}, 'x') OR tags[browser] = ${text})`,
    );
    expect(filtered.data).toEqual([{ c: 0 }]);

    const grouped = await snql(`MATCH (events) SELECT count() AS c BY project_id WHERE ${WHERE} HAVING any(message) = ${text}`);
    expect(grouped.data).toEqual([]);
  });

  it.each(HOSTILE.filter((value) => !/[[\]]/.test(value) && !value.includes("\u0000")))("subscript key %j is a key, not SQL", async (key) => {
    const json = await snql(`MATCH (events) SELECT tags[${key}] AS t WHERE ${WHERE} ORDER BY timestamp ASC LIMIT 1`);
    expect(json.data).toEqual([{ t: "" }]);
  });

  it("back-quoted aliases name the output column verbatim", async () => {
    const json = await snql(`MATCH (events) SELECT count() AS \`c'--/*\\\` WHERE ${WHERE}`);
    expect(json.data).toEqual([{ "c'--/*\\": 3 }]);
  });

  it("an integer past 2^53 reaches the engine as written, not as the nearest double", async () => {
    const json = await snql(
      `MATCH (events) SELECT 9007199254740993 - 9007199254740992 AS d, toString(18446744073709551615) AS s ` +
        `WHERE ${WHERE} AND 18446744073709551615 > 18446744073709551614 ORDER BY timestamp ASC LIMIT 1`,
    );
    expect(json.data).toEqual([{ d: 1, s: "18446744073709551615" }]);
  });

  it("any unicode string selected as a literal returns unchanged", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 20 }), async (value) => {
        const json = await snql(`MATCH (events) SELECT ${quoteSnqlString(value)} AS v WHERE ${WHERE} LIMIT 1`);
        expect(json.data).toEqual([{ v: value }]);
      }),
      { numRuns: 40 },
    );
  });
});
