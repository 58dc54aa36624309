/**
 * The subscription API on both wires: create (every validation of facts B5.3, in Snuba's order
 * and messages, and odd bodies), list, get and delete; what is refused is never stored; what is
 * accepted survives a restart.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorDetailSchema } from "../../gen/quarry/v1/common_pb.js";
import { SubscriptionService } from "../../gen/quarry/v1/subscription_pb.js";
import { partitionFor } from "../../src/subscriptions/scheduling/partitioner.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.close();
});

const VALID = {
  project_id: 1,
  time_window: 3600,
  resolution: 60,
  query: "MATCH (events) SELECT count() AS count WHERE level = 'error'",
  tenant_ids: { organization_id: 1, referrer: "test.subscriptions" },
};

async function call(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; text: string; json: () => unknown; type: string | null }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? "POST",
    ...(init.body === undefined ? {} : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as unknown, type: response.headers.get("content-type") };
}

async function storedIds(): Promise<string[]> {
  const result = await server.columnstore.client.query({ query: "SELECT partition, uuid FROM subscriptions_local FINAL WHERE deleted = 0", format: "JSONEachRow" });
  return (await result.json<{ partition: number; uuid: string }>()).map((row) => `${row.partition}/${row.uuid}`).sort();
}

describe("POST /{dataset}/{entity}/subscriptions", () => {
  it("answers 202 with Snuba's <partition>/<uuid hex> id, partition = crc32(project) % 16, stored before it answers", async () => {
    const response = await call("/events/events/subscriptions", { body: { ...VALID, project_id: 42 } });
    expect(response.status).toBe(202);
    expect(response.type).toContain("application/json");
    const { subscription_id: id } = response.json() as { subscription_id: string };
    expect(id).toMatch(/^\d+\/[0-9a-f]{32}$/);
    expect(Number(id.split("/")[0])).toBe(partitionFor(42, 16));
    expect(Number(id.split("/")[0])).toBe(8);
    expect(await storedIds()).toContain(id);
  });

  it("accepts Snuba's extra keys and a body without subscription_type", async () => {
    const response = await call("/events/events/subscriptions", { body: { ...VALID, organization: 1, some_metadata: "kept out" } });
    expect(response.status).toBe(202);
  });

  const refusals: [string, string, unknown, number, string, RegExp, string?][] = [
    ["an unknown dataset", "/nope/events/subscriptions", VALID, 404, "invalid_query", /dataset 'nope' does not exist/],
    ["a dataset and entity that do not pair", "/events/transactions/subscriptions", VALID, 400, "subscription", /^Invalid subscription dataset and entity combination$/, "entity"],
    ["an unknown entity", "/events/nope/subscriptions", VALID, 400, "subscription", /^Invalid subscription dataset and entity combination$/, "entity"],
    ["time_window 59", "/events/events/subscriptions", { ...VALID, time_window: 59 }, 400, "subscription", /^Time window must be greater than or equal to 1 minute$/, "time_window"],
    ["time_window 86401", "/events/events/subscriptions", { ...VALID, time_window: 86401 }, 400, "subscription", /^Time window must be less than or equal to 24 hours$/, "time_window"],
    ["resolution 59", "/events/events/subscriptions", { ...VALID, resolution: 59 }, 400, "subscription", /^Resolution must be greater than or equal to 1 minute$/, "resolution"],
    ["time_window before resolution", "/events/events/subscriptions", { ...VALID, time_window: 10, resolution: 10 }, 400, "subscription", /^Time window/, "time_window"],
    ["an entity without subscriptions", "/discover/discover/subscriptions", { ...VALID, query: "MATCH (discover) SELECT count() AS c" }, 400, "subscription", /Entity discover does not support subscriptions/, "entity"],
    ["subscription_type rpc on an entity other than eap_items", "/events/events/subscriptions", { ...VALID, subscription_type: "rpc" }, 400, "subscription", /subscription_type 'rpc' runs on eap_items/, "subscription_type"],
    ["an unknown subscription_type", "/events/events/subscriptions", { ...VALID, subscription_type: "sql" }, 400, "subscription", /'snql' or 'rpc', got 'sql'/, "subscription_type"],
    ["a missing project_id", "/events/events/subscriptions", { ...VALID, project_id: undefined }, 400, "subscription", /'project_id' is required/, "project_id"],
    ["project_id as a string", "/events/events/subscriptions", { ...VALID, project_id: "1" }, 400, "subscription", /'project_id' must be an integer .* got string "1"/, "project_id"],
    ["a fractional project_id", "/events/events/subscriptions", { ...VALID, project_id: 1.5 }, 400, "subscription", /'project_id' must be an integer/, "project_id"],
    ["a negative project_id", "/events/events/subscriptions", { ...VALID, project_id: -3 }, 400, "subscription", /positive integer/, "project_id"],
    ["time_window as a string", "/events/events/subscriptions", { ...VALID, time_window: "3600" }, 400, "subscription", /'time_window' must be an integer/, "time_window"],
    ["resolution null", "/events/events/subscriptions", { ...VALID, resolution: null }, 400, "subscription", /'resolution' is required/, "resolution"],
    ["no tenant_ids", "/events/events/subscriptions", { ...VALID, tenant_ids: undefined }, 400, "subscription", /'tenant_ids' is required/, "tenant_ids"],
    ["tenant_ids as a list", "/events/events/subscriptions", { ...VALID, tenant_ids: [1] }, 400, "subscription", /'tenant_ids' must be an object, got array/, "tenant_ids"],
    ["no organization_id", "/events/events/subscriptions", { ...VALID, tenant_ids: { referrer: "x" } }, 400, "subscription", /'organization_id' is required/, "organization_id"],
    ["no query", "/events/events/subscriptions", { ...VALID, query: undefined }, 400, "subscription", /'query' is required/, "query"],
    ["a blank query", "/events/events/subscriptions", { ...VALID, query: "   " }, 400, "subscription", /'query' is required/, "query"],
    ["a numeric query", "/events/events/subscriptions", { ...VALID, query: 42 }, 400, "subscription", /'query' must be a string/, "query"],
    ["malformed JSON", "/events/events/subscriptions", "{\"project_id\": 1,", 400, "invalid_query", /not valid JSON/],
    ["a JSON array body", "/events/events/subscriptions", "[1, 2]", 400, "invalid_query", /must be a JSON object, got an array/],
    ["an empty body", "/events/events/subscriptions", "", 400, "invalid_query", /body is empty/],
    ["a SnQL syntax error", "/events/events/subscriptions", { ...VALID, query: "MATCH (events) SELECT count() AS c WHERE" }, 400, "invalid_query", /line 1, column 41/],
    ["an unknown column", "/events/events/subscriptions", { ...VALID, query: "MATCH (events) SELECT count() AS c, nope AS d" }, 400, "invalid_query", /column 'nope' does not exist/],
    ["another entity in MATCH", "/events/events/subscriptions", { ...VALID, query: "MATCH (transactions) SELECT count() AS c" }, 400, "invalid_query", /reads MATCH \(transactions\)/],
    ["a time condition of its own", "/events/events/subscriptions", { ...VALID, query: "MATCH (events) SELECT count() AS c WHERE timestamp >= toDateTime('2024-01-01T00:00:00')" }, 400, "invalid_query", /^Cannot have existing conditions on time field timestamp/],
    ["HAVING", "/events/events/subscriptions", { ...VALID, query: "MATCH (events) SELECT count() AS c BY level HAVING c > 1" }, 400, "invalid_query", /^invalid clause having in subscription query$/],
    ["ORDER BY", "/events/events/subscriptions", { ...VALID, query: "MATCH (events) SELECT count() AS c BY level ORDER BY c DESC" }, 400, "invalid_query", /^invalid clause orderby in subscription query$/],
    ["two columns on transactions", "/transactions/transactions/subscriptions", { ...VALID, query: "MATCH (transactions) SELECT count() AS c, max(duration) AS d" }, 400, "invalid_query", /^A maximum of 1 aggregation is allowed in the select$/],
    ["eleven columns on events", "/events/events/subscriptions", { ...VALID, query: `MATCH (events) SELECT ${Array.from({ length: 11 }, (_, i) => `count() AS c${i}`).join(", ")}` }, 400, "invalid_query", /^A maximum of 10 aggregations are allowed in the select$/],
    ["an unpinned group-by on metrics", "/metrics/metrics_counters/subscriptions", { ...VALID, query: "MATCH (metrics_counters) SELECT sum(value) AS total BY metric_id" }, 400, "invalid_query", /^Every field in groupby must have a corresponding condition in where clause. missing condition for field metric_id$/],
    ["a test run ClickHouse refuses", "/events/events/subscriptions", { ...VALID, query: "MATCH (events) SELECT sum(arrayElement(array(toDate(timestamp)), 1)) AS c" }, 400, "columnstore", /sum/],
  ];

  it.each(refusals)("refuses %s with a typed error and stores nothing", async (_name, path, body, status, type, message, field) => {
    const before = await storedIds();
    const response = await call(path, { body });
    expect(response.status, response.text).toBe(status);
    const error = (response.json() as { error: { type: string; message: string; field?: string } }).error;
    expect(error.type).toBe(type);
    expect(error.message).toMatch(message);
    if (field) expect(error.field).toBe(field);
    expect(await storedIds()).toEqual(before);
  });

  it("pins metrics subscriptions to the body's organization, else the tenant's", async () => {
    const query = "MATCH (metrics_counters) SELECT sum(value) AS total WHERE metric_id = 7";
    const withOrg = await call("/metrics/metrics_counters/subscriptions", { body: { ...VALID, query, organization: 5 } });
    const withoutOrg = await call("/metrics/metrics_counters/subscriptions", { body: { ...VALID, query, tenant_ids: { organization_id: 9 } } });
    expect([withOrg.status, withoutOrg.status]).toEqual([202, 202]);
    const list = (await call("/metrics/metrics_counters/subscriptions", { method: "GET" })).json() as { data: { subscription_id: string; tenant_ids: { organization_id: number } }[] };
    const org = (response: typeof withOrg) => list.data.find((s) => s.subscription_id === (response.json() as { subscription_id: string }).subscription_id)?.tenant_ids.organization_id;
    expect([org(withOrg), org(withoutOrg)]).toEqual([5, 9]);
  });

  it("refuses other methods with 405", async () => {
    expect((await call("/events/events/subscriptions", { method: "PUT", body: VALID })).status).toBe(405);
    expect((await call("/events/events/subscriptions/1/" + "a".repeat(32), { method: "POST", body: VALID })).status).toBe(405);
  });
});

describe("GET, DELETE /{dataset}/{entity}/subscriptions/{partition}/{key}", () => {
  it("lists, gets and deletes; a second delete is 202 again (Snuba's idempotent delete); an id never created is 404", async () => {
    const created = await call("/transactions/transactions/subscriptions", {
      body: { ...VALID, project_id: 3, time_window: 600, resolution: 120, query: "MATCH (transactions) SELECT count() AS count" },
    });
    const id = (created.json() as { subscription_id: string }).subscription_id;
    const [partition, key] = id.split("/") as [string, string];

    const list = (await call("/transactions/transactions/subscriptions", { method: "GET" })).json() as { data: Record<string, unknown>[] };
    expect(list.data).toContainEqual(
      expect.objectContaining({
        subscription_id: id,
        dataset: "transactions",
        entity: "transactions",
        project_id: 3,
        time_window: 600,
        resolution: 120,
        subscription_type: "snql",
        query: "MATCH (transactions) SELECT count() AS count",
        status: { last_window: null, last_run_at: null, last_result_at: null, last_error: null, last_error_at: null, published: 0, failed: 0, skipped_stale: 0 },
      }),
    );
    const dashed = `${key.slice(0, 8)}-${key.slice(8, 12)}-${key.slice(12, 16)}-${key.slice(16, 20)}-${key.slice(20)}`;
    const one = await call(`/transactions/transactions/subscriptions/${partition}/${dashed.toUpperCase()}`, { method: "GET" });
    expect(one.status).toBe(200);
    expect((one.json() as { subscription_id: string }).subscription_id).toBe(id);

    const deleted = await call(`/transactions/transactions/subscriptions/${id}`, { method: "DELETE" });
    expect([deleted.status, deleted.text, deleted.type]).toEqual([202, "ok", "text/plain"]);
    expect(await storedIds()).not.toContain(id);
    expect((await call(`/transactions/transactions/subscriptions/${id}`, { method: "DELETE" })).status).toBe(202);
    expect((await call(`/transactions/transactions/subscriptions/${id}`, { method: "GET" })).status).toBe(404);

    const unknown = await call(`/transactions/transactions/subscriptions/${partition}/${"0".repeat(32)}`, { method: "DELETE" });
    expect(unknown.status).toBe(404);
    expect((unknown.json() as { error: { type: string; message: string } }).error).toEqual({
      type: "not_found",
      message: `subscription ${partition}/${"0".repeat(32)} does not exist on entity transactions`,
    });
  });

  it.each([
    ["a key that is not a UUID", "/events/events/subscriptions/1/not-a-uuid", 400, "subscription", "key"],
    ["a partition that is not a number", `/events/events/subscriptions/x/${"a".repeat(32)}`, 400, "subscription", "partition"],
    ["a wrong pair", `/events/transactions/subscriptions/1/${"a".repeat(32)}`, 400, "subscription", "entity"],
  ])("refuses %s", async (_name, path, status, type, field) => {
    const response = await call(path, { method: "DELETE" });
    expect(response.status).toBe(status);
    expect((response.json() as { error: { type: string; field: string } }).error).toMatchObject({ type, field });
  });
});

describe("SubscriptionService over Connect and gRPC", () => {
  it.each([
    ["Connect", () => createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" })],
    ["gRPC", () => createGrpcTransport({ baseUrl: server.baseUrl })],
  ])("%s: create, get, list, delete, and typed errors", async (_name, transport) => {
    const client = createClient(SubscriptionService, transport());
    const { subscriptionId } = await client.createSubscription({
      dataset: "events",
      entity: "events",
      projectId: 2n,
      query: "MATCH (events) SELECT count() AS count",
      timeWindow: 300,
      resolution: 60,
      tenantIds: { organizationId: 1n, referrer: "test.rpc" },
    });
    expect(subscriptionId).toMatch(/^13\/[0-9a-f]{32}$/);
    const [partition, key] = subscriptionId.split("/") as [string, string];
    const got = await client.getSubscription({ dataset: "events", entity: "events", partition: Number(partition), key });
    expect(got).toMatchObject({ subscriptionId, projectId: 2n, timeWindow: 300, resolution: 60, subscriptionType: "snql", organizationId: 1n });
    expect(got.status?.published).toBe(0n);
    const listed = await client.listSubscriptions({ dataset: "events", entity: "events" });
    expect(listed.subscriptions.map((s) => s.subscriptionId)).toContain(subscriptionId);
    await client.deleteSubscription({ dataset: "events", entity: "events", partition: Number(partition), key });
    expect(await storedIds()).not.toContain(subscriptionId);

    const refused = await client
      .createSubscription({ dataset: "events", entity: "events", projectId: 2n, query: "MATCH (events) SELECT count() AS c", timeWindow: 30, resolution: 60, tenantIds: { organizationId: 1n } })
      .catch((reason: unknown) => reason);
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.InvalidArgument);
    const [detail] = (refused as ConnectError).findDetails(ErrorDetailSchema);
    expect(detail).toMatchObject({ type: "subscription", message: "Time window must be greater than or equal to 1 minute", field: "time_window" });

    const missing = await client.getSubscription({ dataset: "events", entity: "events", partition: 1, key: "0".repeat(32) }).catch((reason: unknown) => reason);
    expect((missing as ConnectError).code).toBe(Code.NotFound);
  });
});
