import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorDetailSchema } from "../../gen/quarry/v1/common_pb.js";
import { HealthService } from "../../gen/quarry/v1/health_pb.js";
import { QueryService, SnqlRequestSchema } from "../../gen/quarry/v1/query_pb.js";
import { RANGE, startFixtureServer, type FixtureServer } from "./fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

const transports: [string, () => Transport][] = [
  ["Connect (HTTP/1.1)", () => createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" })],
  ["Connect (h2c)", () => createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "2" })],
  ["gRPC (h2c)", () => createGrpcTransport({ baseUrl: server.baseUrl })],
  ["gRPC-Web (HTTP/1.1)", () => createGrpcWebTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" })],
];

const request = create(SnqlRequestSchema, {
  dataset: "events",
  query: `MATCH (events) SELECT count() AS count BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2) ORDER BY project_id ASC`,
  tenantIds: { organizationId: 1n, referrer: "test.rpc" },
  settings: { debug: true },
});

describe.each(transports)("%s", (_name, makeTransport) => {
  it("answers a SnQL query with the same rows as the JSON route", async () => {
    const client = createClient(QueryService, makeTransport());
    const response = await client.snql(request);
    expect(response.data).toEqual([
      { project_id: 1, count: 3 },
      { project_id: 2, count: 2 },
    ]);
    expect(response.meta.map((m) => [m.name, m.type])).toEqual([
      ["project_id", "UInt64"],
      ["count", "UInt64"],
    ]);
    expect(response.sql).toContain("FROM errors_local");
    expect(response.stats?.columnstoreTable).toBe("errors_local");
    expect(Object.keys(response.timing?.marksMs ?? {})).toContain("execute");
    expect(response.quotaAllowance?.summary?.isSuccessful).toBe(true);
  });

  it("reports a bad query as InvalidArgument with a typed ErrorDetail", async () => {
    const client = createClient(QueryService, makeTransport());
    const failure = await client
      .snql({ ...request, query: "MATCH (events) SELECT count() WHERE project_id = 1" })
      .then(() => null, (error: unknown) => ConnectError.from(error));
    expect(failure?.code).toBe(Code.InvalidArgument);
    const [detail] = failure!.findDetails(ErrorDetailSchema);
    expect(detail?.type).toBe("invalid_query");
    expect(detail?.message).toContain("Missing >= condition");
  });

  it("checks health", async () => {
    const client = createClient(HealthService, makeTransport());
    const response = await client.check({});
    expect(response.status).toBe("ok");
    expect(response.dependencies).toEqual({ clickhouse: "ok" });
  });
});

describe("errors over RPC", () => {
  it("maps an unknown dataset to NotFound and a missing tenant to InvalidArgument", async () => {
    const client = createClient(QueryService, createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" }));
    const unknown = await client.snql({ ...request, dataset: "nosuch" }).catch((e: unknown) => ConnectError.from(e));
    expect((unknown as ConnectError).code).toBe(Code.NotFound);
    const noTenant = await client.query({ dataset: "events", query: request.query }).catch((e: unknown) => ConnectError.from(e));
    expect((noTenant as ConnectError).code).toBe(Code.InvalidArgument);
    expect((noTenant as ConnectError).rawMessage).toContain("'tenant_ids' is required");
  });
});

describe("oversized RPC messages", () => {
  it("are refused with ResourceExhausted, not buffered", async () => {
    const client = createClient(QueryService, createGrpcTransport({ baseUrl: server.baseUrl }));
    const failure = await client
      .snql({ ...request, query: `MATCH (events) SELECT count() WHERE message = '${"x".repeat(2 * 1024 * 1024)}'` })
      .then(() => null, (error: unknown) => ConnectError.from(error));
    expect(failure?.code).toBe(Code.ResourceExhausted);
  });
});
