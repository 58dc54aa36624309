/**
 * Queries the engine refuses come back as typed `columnstore` errors a query's author can read:
 * HTTP 400 with the engine's code where the query is at fault, the engine's sentence without
 * Quarry's aliases (`_snuba_x`), the analyzer's qualifiers (`__table1.`) or the echoed SQL, and
 * the line and column of the function or column the sentence names when the query wrote it once.
 * Everything runs on the embedded engine: SnQL through the HTTP service, and the SQL of queries
 * Quarry's front end refuses first through the service's own execution (executeSql).
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorDetailSchema } from "../../gen/quarry/v1/common_pb.js";
import { QueryService, SnqlRequestSchema } from "../../gen/quarry/v1/query_pb.js";
import { QUERY_FAULT_CODES } from "../../src/clickhouse/clickhouse-error.js";
import { locatedEngineError } from "../../src/query/engine-error-position.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { executeSql } from "../../src/execution/execute-sql.js";
import { writtenNames } from "../../src/query/written-names.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
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

const WHERE = `${RANGE} AND project_id = 1`;

async function snql(query: string): Promise<{ status: number; error: Body }> {
  const response = await fetch(`${server.baseUrl}/events/snql`, {
    method: "POST",
    body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "test.engine-errors" } }),
  });
  const body = JSON.parse(await response.text()) as Body;
  expect(body.error, `${query} was answered`).toBeDefined();
  return { status: response.status, error: { ...body.error, sql: body.sql } };
}

/** The engine's own message for a statement, as the client gives it. */
async function rawEngineMessage(sql: string): Promise<string> {
  try {
    await (await server.columnstore.client.query({ query: sql, format: "JSONCompact" })).text();
  } catch (reason) {
    return (reason as Error).message;
  }
  throw new Error(`the engine ran ${sql}`);
}

/** What the service makes of a statement the engine refuses. */
async function serviceError(sql: string, settings: Record<string, string | number> = {}): Promise<QueryServiceError> {
  try {
    await executeSql(server.columnstore.client, sql, { columnNames: [], settings });
  } catch (reason) {
    expect(reason).toBeInstanceOf(QueryServiceError);
    return reason as QueryServiceError;
  }
  throw new Error(`the engine ran ${sql}`);
}

/** Where `fragment` starts in a one-line query (1-based), for the expected positions. */
function columnOf(query: string, fragment: string): number {
  const index = query.indexOf(fragment);
  expect(index, fragment).toBeGreaterThanOrEqual(0);
  expect(query.indexOf(fragment, index + 1), `${fragment} occurs once`).toBe(-1);
  return index + 1;
}

function expectReadable(message: string): void {
  expect(message).not.toMatch(/_snuba_|__table|In scope|In query|errors_local|While executing|:: \d|version \d/);
}

describe("SnQL queries the engine refuses, through the service", () => {
  it("an unknown aggregate named as a string is a 400 (code 63), at the string's place, in the engine's words without the echoed SQL", async () => {
    const query = `MATCH (events) SELECT arrayReduce('sumI✘', array(1)) AS x WHERE ${WHERE}`;
    const { status, error } = await snql(query);
    expect(status, JSON.stringify(error)).toBe(400);
    expect(error).toMatchObject({ type: "columnstore", code: 63, line: 1, column: columnOf(query, "'sumI✘'") });
    expect(error.message).toBe(`Unknown aggregate function sumI✘ at line 1, column ${columnOf(query, "'sumI✘'")}`);
    // The engine's own message echoes the SQL with Quarry's alias; the service's does not.
    expect(error.sql).toContain("AS _snuba_x");
    expect(await rawEngineMessage(error.sql as string)).toContain("In scope SELECT arrayReduce('sumI✘', array(1)) AS _snuba_x");
  });

  it("a text the query reads as a number is a 400 (code 6) at the one call that reads it, the analyzer's qualifier gone", async () => {
    const query = `MATCH (events) SELECT toUInt32(title) AS x WHERE ${WHERE}`;
    const { status, error } = await snql(query);
    expect(status, JSON.stringify(error)).toBe(400);
    const column = columnOf(query, "toUInt32(");
    expect(error).toMatchObject({ type: "columnstore", code: 6, line: 1, column });
    expect(error.message).toMatch(new RegExp(`^Cannot parse string 'ValueError: boom \\d' as UInt32: .*: while executing function toUInt32 at line 1, column ${column}$`));
    expectReadable(error.message as string);
    expect(await rawEngineMessage(error.sql as string)).toContain("__table1.title");
  });

  it("over Connect the same error is InvalidArgument, its ErrorDetail carrying the code, line and column", async () => {
    const query = `MATCH (events) SELECT arrayReduce('sumI✘', array(1)) AS x WHERE ${WHERE}`;
    const client = createClient(QueryService, createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" }));
    const request = create(SnqlRequestSchema, { dataset: "events", query, tenantIds: { organizationId: 1n, referrer: "test.engine-errors" } });
    const failure = await client.snql(request).then(() => null, (error: unknown) => ConnectError.from(error));
    expect(failure?.code).toBe(Code.InvalidArgument);
    const [detail] = failure!.findDetails(ErrorDetailSchema);
    expect(detail).toMatchObject({ type: "columnstore", code: 63n, line: 1, column: columnOf(query, "'sumI✘'") });
  });

  it("the same call written twice gives no position: either could be the one", async () => {
    const query = `MATCH (events) SELECT toUInt32(title) AS x, toUInt32(message) AS y WHERE ${WHERE}`;
    const { status, error } = await snql(query);
    expect(status, JSON.stringify(error)).toBe(400);
    expect(error).toMatchObject({ type: "columnstore", code: 6 });
    expect(error.line).toBeUndefined();
    expect(error.column).toBeUndefined();
    expect(error.message).not.toContain(" at line");
    expectReadable(error.message as string);
  });

  it("toDateTime is written three times (twice in the time range), so its parse error (code 41) has no position", async () => {
    const { status, error } = await snql(`MATCH (events) SELECT toDateTime(title) AS x WHERE ${WHERE}`);
    expect(status, JSON.stringify(error)).toBe(400);
    expect(error).toMatchObject({ type: "columnstore", code: 41 });
    expect(error.line).toBeUndefined();
    expect(error.message).toBe("Cannot read DateTime: unexpected word: Cannot parse DateTime from String: while executing function toDateTime");
  });

  it("a division by zero the rows compute is a 400 (code 153) at the division", async () => {
    const query = `MATCH (events) SELECT intDiv(project_id, minus(project_id, project_id)) AS x WHERE ${WHERE}`;
    const { status, error } = await snql(query);
    expect(status, JSON.stringify(error)).toBe(400);
    expect(error).toMatchObject({ type: "columnstore", code: 153, line: 1, column: columnOf(query, "intDiv(") });
    expect(error.message).toBe(`Division by zero: while executing function intDiv at line 1, column ${columnOf(query, "intDiv(")}`);
  });

  it("a UUID parse error in WHERE (code 376) loses the pipeline's processor names", async () => {
    const { status, error } = await snql(`MATCH (events) SELECT count() AS c WHERE ${WHERE} AND toUUID(title) = toUUID(message)`);
    expect(status, JSON.stringify(error)).toBe(400);
    expect(error).toMatchObject({ type: "columnstore", code: 376 });
    expect(error.line).toBeUndefined();
    expect(error.message).toBe("Cannot parse uuid ValueError: boom 0: Cannot parse UUID from String: while executing function toUUID");
  });
});

/**
 * Queries Quarry's front end refuses before the engine today: the SQL it would send (its shape:
 * `_snuba_` aliases, the `deleted` condition) runs on the engine, and the failure is placed in
 * the SnQL text as the service places it.
 */
describe("engine failures placed in the SnQL text", () => {
  const TIME = "timestamp >= toDateTime('2024-01-01T00:00:00', 'Universal') AND timestamp < toDateTime('2024-01-02T00:00:00', 'Universal')";
  const SQL_WHERE = `FROM errors_local WHERE equals(deleted, 0) AND ${TIME} AND equals(project_id, 1)`;

  async function placed(sql: string, snqlText: string): Promise<QueryServiceError> {
    const error = await serviceError(sql);
    return locatedEngineError(error, writtenNames(parseSnql(snqlText)));
  }

  it("a string added to a number (code 43) points at plus, written once", async () => {
    const query = `MATCH (events) SELECT plus(title, 1) AS x WHERE ${WHERE}`;
    const error = await placed(`SELECT plus(title, 1) AS _snuba_x ${SQL_WHERE} LIMIT 1000`, query);
    expect(error).toMatchObject({ type: "columnstore", code: 43, httpStatus: 400, position: { line: 1, column: columnOf(query, "plus(") } });
    expect(error.message).toBe(`Illegal types String and UInt8 of arguments of function plus at line 1, column ${columnOf(query, "plus(")}`);
    expect(error.toErrorBody()).toMatchObject({ line: 1, column: columnOf(query, "plus(") });
  });

  it("an operator counts as its function: `title + 1` is plus at the `+`", async () => {
    const query = `MATCH (events) SELECT title + 1 AS x WHERE ${WHERE}`;
    const error = await placed(`SELECT plus(title, 1) AS _snuba_x ${SQL_WHERE} LIMIT 1000`, query);
    expect(error).toMatchObject({ code: 43, position: { line: 1, column: columnOf(query, "+ 1") } });
  });

  it("plus written twice gives no position", async () => {
    const query = `MATCH (events) SELECT plus(title, 1) AS x, plus(title, 2) AS y WHERE ${WHERE}`;
    const error = await placed(`SELECT plus(title, 1) AS _snuba_x, plus(title, 2) AS _snuba_y ${SQL_WHERE} LIMIT 1000`, query);
    expect(error).toMatchObject({ code: 43, httpStatus: 400, position: undefined });
    expect(error.message).toBe("Illegal types String and UInt8 of arguments of function plus");
  });

  it("a column outside BY and aggregates (code 215) is named as the query wrote it, at its place", async () => {
    const query = `MATCH (events) SELECT title, count() AS c WHERE ${WHERE}`;
    const error = await placed(`SELECT title AS _snuba_title, count() AS _snuba_c ${SQL_WHERE} LIMIT 1000`, query);
    const column = columnOf(query, "title,");
    expect(error).toMatchObject({ code: 215, httpStatus: 400, position: { line: 1, column } });
    expect(error.message).toBe(`Column 'title' at line 1, column ${column} is not under aggregate function and not in GROUP BY keys`);
  });

  it("an aggregate in WHERE (code 184) points after the whole call the engine names", async () => {
    const query = `MATCH (events) SELECT count() AS c WHERE ${WHERE} AND sum(project_id) > 1`;
    const error = await placed(`SELECT count() AS _snuba_c ${SQL_WHERE} AND greater(sum(project_id), 1) LIMIT 1000`, query);
    const column = columnOf(query, "sum(");
    expect(error).toMatchObject({ code: 184, httpStatus: 400, position: { line: 1, column } });
    expect(error.message).toBe(`Aggregate function sum(project_id) at line 1, column ${column} is found in WHERE`);
  });

  it("an alias the SQL defines twice (code 179) is named without Quarry's prefix", async () => {
    const error = await serviceError(`SELECT (1 AS _snuba_a), (2 AS _snuba_a) ${SQL_WHERE}`);
    expect(error).toMatchObject({ code: 179, httpStatus: 400 });
    expect(error.message).toBe("Multiple expressions (2) AS a and (1) AS a for alias a");
  });

  it("a name the SnQL text never wrote (the storage's, the translation's) gives no position", async () => {
    const query = `MATCH (events) SELECT count() AS c WHERE ${WHERE}`;
    const error = await placed(`SELECT plus(title, 1) AS _snuba_x ${SQL_WHERE}`, query);
    expect(error).toMatchObject({ code: 43, position: undefined });
  });
});

/**
 * One refusal per group of the codes that blame the query, run on the embedded engine through
 * the service's execution: each is the code expected, a 400, and reads without the SQL.
 */
const REFUSED: readonly (readonly [code: number, sql: string, settings?: Record<string, number>])[] = [
  [62, "SELECT title AS _snuba_x FROM errors_local ORDER BY"],
  [62, "SELECT title AS _snuba_x FROM errors_local", { max_query_size: 20 }],
  [167, `SELECT ${"plus(".repeat(120)}1${", 1)".repeat(120)} AS _snuba_x FROM errors_local`, { max_ast_depth: 100 }],
  [46, "SELECT nosuchfn(title) AS _snuba_x FROM errors_local"],
  [47, "SELECT nosuchcol AS _snuba_x FROM errors_local"],
  [50, "SELECT CAST(title, 'Foo') AS _snuba_x FROM errors_local"],
  [63, "SELECT arrayReduce('sumI✘', [1]) AS _snuba_x FROM errors_local"],
  [691, "SELECT CAST('x', 'Enum8(\\'a\\' = 1)') AS _snuba_x FROM errors_local"],
  [43, "SELECT count() AS _snuba_c FROM errors_local WHERE project_id = 1 AND title"],
  [386, "SELECT project_id AS _snuba_x FROM errors_local WHERE has(tags.value, 1)"],
  [455, "SELECT CAST(project_id, 'LowCardinality(UInt8)') AS _snuba_x FROM errors_local"],
  [184, "SELECT count() AS _snuba_c FROM errors_local GROUP BY count()"],
  [215, "SELECT title AS _snuba_title, count() AS _snuba_c FROM errors_local"],
  [125, "SELECT (SELECT project_id FROM errors_local) AS _snuba_x FROM errors_local"],
  [440, "SELECT project_id AS _snuba_x FROM errors_local LIMIT title"],
  [476, "SELECT count() AS _snuba_c FROM errors_local LIMIT 1 WITH TIES"],
  [41, "SELECT toDateTime(title) AS _snuba_x FROM errors_local"],
  [117, "SELECT base64Decode('!!!') AS _snuba_x FROM errors_local"],
  [376, "SELECT toUUID(title) AS _snuba_x FROM errors_local"],
  [12, "SELECT quantile(2)(project_id) AS _snuba_x FROM errors_local"],
  [69, "SELECT range(10000000000) AS _snuba_x FROM errors_local"],
  [131, "SELECT toFixedString('abcd', 2) AS _snuba_x FROM errors_local"],
  [153, "SELECT intDiv(1, 0) AS _snuba_x FROM errors_local"],
  [190, "SELECT arrayZip([1], [1, 2]) AS _snuba_x FROM errors_local"],
  [407, "SELECT toDecimal32(1e10, 2) AS _snuba_x FROM errors_local"],
  [36, "SELECT formatDateTime(timestamp, '%Q%') AS _snuba_x FROM errors_local"],
  [360, "SELECT convertCharset(title, 'nope', 'utf8') AS _snuba_x FROM errors_local"],
  [427, "SELECT match(title, '(') AS _snuba_x FROM errors_local"],
  [395, "SELECT throwIf(1) AS _snuba_x FROM errors_local"],
  [503, "SELECT aggThrow(1.0)(project_id) AS _snuba_x FROM errors_local"],
  [241, "SELECT groupArray(title) AS _snuba_x FROM errors_local", { max_memory_usage: 1000 }],
  [396, "SELECT title AS _snuba_x FROM errors_local", { max_result_rows: 1 }],
  [307, "SELECT title AS _snuba_x FROM errors_local", { max_bytes_to_read: 1 }],
  [158, "SELECT title AS _snuba_x FROM errors_local", { max_rows_to_read: 1 }],
  [191, "SELECT title AS _snuba_x FROM errors_local WHERE title IN (SELECT title FROM errors_local)", { max_rows_in_set: 1 }],
];

describe("codes that blame the query", () => {
  it.each(REFUSED.map(([code, sql, settings]) => ({ code, sql, settings })))("code $code is a 400 that reads without the SQL", async ({ code, sql, settings }) => {
    const error = await serviceError(sql, settings);
    expect(error.message).not.toBe("");
    expect({ type: error.type, code: error.code, httpStatus: error.httpStatus, message: error.message }).toMatchObject({ type: "columnstore", code, httpStatus: 400 });
    expectReadable(error.message);
    expect(error.message).not.toMatch(/SELECT|failed at position|Expected one of/);
  });

  it("every code in the list is the engine's code of that name", async () => {
    const codes = [...QUERY_FAULT_CODES.keys()];
    const result = await server.columnstore.client.query({
      query: `SELECT code, name FROM system.errors WHERE code IN (${codes.join(", ")}) SETTINGS system_events_show_zero_values = 1`,
      format: "JSONEachRow",
    });
    const rows = await result.json<{ code: number; name: string }>();
    const engineNames = new Map(rows.map((row) => [Number(row.code), row.name]));
    expect(Object.fromEntries(codes.map((code) => [code, engineNames.get(code)]))).toEqual(Object.fromEntries(QUERY_FAULT_CODES));
  });
});
