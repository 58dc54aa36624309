/**
 * MQL end to end on the embedded engine: each construct against known rows (test/mql/mql-fixture.ts),
 * through the JSON route in both request shapes and through the Connect Mql RPC.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MqlRequestSchema, QueryService } from "../../gen/quarry/v1/query_pb.js";
import { END, MAPPINGS, START, startMqlFixture, type MqlFixture } from "./mql-fixture.js";

let server: MqlFixture;

beforeAll(async () => {
  server = await startMqlFixture();
});
afterAll(async () => {
  await server?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function context(overrides: Json = {}, rollup: Json = {}, scope: Json = {}): Json {
  return {
    start: START,
    end: END,
    rollup: { granularity: 60, interval: null, with_totals: null, orderby: null, ...rollup },
    scope: { org_ids: [1], project_ids: [1, 2, 3], use_case_id: "custom", ...scope },
    indexer_mappings: MAPPINGS,
    limit: null,
    offset: null,
    ...overrides,
  };
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

/** Shape A (`mql` + `mql_context`) on /generic_metrics/mql; fails the test on an error. */
async function mql(query: string, ctx: Json = context(), dataset = "generic_metrics"): Promise<Json> {
  const { status, json } = await post(`/${dataset}/mql`, { mql: query, mql_context: ctx });
  if (status !== 200) throw new Error(`${status}: ${JSON.stringify(json.error)}`);
  return json;
}

async function mqlError(query: string, ctx: Json = context(), dataset = "generic_metrics"): Promise<{ status: number; type: string; message: string }> {
  const { status, json } = await post(`/${dataset}/mql`, { mql: query, mql_context: ctx });
  return { status, type: json.error?.type, message: json.error?.message };
}

const PAGE_VIEWS = "c:custom/page_views@none";

describe("single timeseries", () => {
  it("sums a counter over the window, reading one rollup, one use case and the organization only", async () => {
    const json = await mql(`sum(${PAGE_VIEWS})`);
    expect(json.data).toEqual([{ aggregate_value: 17 }]);
    expect(json.meta).toEqual([{ name: "aggregate_value", type: "Float64" }]);
    expect(json.totals).toBeUndefined();
  });

  it("reads a scope of 40,000 project ids: SQL past ClickHouse's default 256 KiB query size runs (was code 62)", async () => {
    const projectIds = [1, 2, 3, ...Array.from({ length: 40_000 }, (_, i) => 1_000_000 + i)];
    const json = await mql(`sum(${PAGE_VIEWS})`, context({}, {}, { project_ids: projectIds }));
    expect(json.data).toEqual([{ aggregate_value: 17 }]);
  });

  it("refuses a scope of 100,000 project ids as the engine's AST bound, a 400 (was a 500)", async () => {
    const projectIds = [1, 2, 3, ...Array.from({ length: 100_000 }, (_, i) => 1_000_000 + i)];
    const { status, json } = await post("/generic_metrics/mql", { mql: `sum(${PAGE_VIEWS})`, mql_context: context({}, {}, { project_ids: projectIds }) });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ type: "columnstore", code: 168 });
  });

  it("groups by a tag, named as written", async () => {
    const json = await mql(`sum(${PAGE_VIEWS}) by (page)`);
    expect(json.data).toEqual([
      { aggregate_value: 12, page: "/" },
      { aggregate_value: 5, page: "/pricing" },
    ]);
  });

  it("filters by equality, negation, IN lists, prefixes and OR", async () => {
    expect((await mql(`sum(${PAGE_VIEWS}){environment:production} by page`)).data).toEqual([
      { aggregate_value: 5, page: "/" },
      { aggregate_value: 5, page: "/pricing" },
    ]);
    expect((await mql(`sum(${PAGE_VIEWS}){!page:"/"}`)).data).toEqual([{ aggregate_value: 5 }]);
    expect((await mql(`sum(${PAGE_VIEWS}){page:["/pricing", "/docs"]}`)).data).toEqual([{ aggregate_value: 5 }]);
    expect((await mql(`sum(${PAGE_VIEWS}){page:/pr*}`)).data).toEqual([{ aggregate_value: 5 }]);
    expect((await mql(`sum(${PAGE_VIEWS}){environment:staging OR page:"/pricing"}`)).data).toEqual([{ aggregate_value: 12 }]);
    expect((await mql(`sum(${PAGE_VIEWS}){(environment:staging OR page:"/pricing") AND !page:/pr*}`)).data).toEqual([{ aggregate_value: 7 }]);
  });

  it("applies the project scope", async () => {
    const json = await mql(`sum(${PAGE_VIEWS})`, context({}, {}, { project_ids: [2] }));
    expect(json.data).toEqual([{ aggregate_value: 7 }]);
  });

  it("filters and groups by scope columns that are not tags", async () => {
    expect((await mql(`sum(${PAGE_VIEWS}){project_id:2}`)).data).toEqual([{ aggregate_value: 7 }]);
    expect((await mql(`sum(${PAGE_VIEWS}) by project_id`)).data).toEqual([
      { aggregate_value: 10, project_id: 1 },
      { aggregate_value: 7, project_id: 2 },
    ]);
  });

  it("buckets by interval, ordered by time, with totals", async () => {
    const json = await mql(`sum(${PAGE_VIEWS}) by (page)`, context({}, { interval: 3600, with_totals: "True" }));
    expect(json.data).toEqual([
      { aggregate_value: 3, page: "/", time: "2024-01-01T00:00:00+00:00" },
      { aggregate_value: 5, page: "/pricing", time: "2024-01-01T00:00:00+00:00" },
      { aggregate_value: 9, page: "/", time: "2024-01-01T01:00:00+00:00" },
    ]);
    expect(json.totals.aggregate_value).toBe(17);
    expect(json.meta.map((m: Json) => m.name)).toEqual(["aggregate_value", "page", "time"]);
  });

  it("answers an empty result with totals over nothing", async () => {
    const json = await mql(`sum(${PAGE_VIEWS}){page:"/nowhere"} by (page)`, context({}, { interval: 3600, with_totals: "True" }));
    expect(json.data).toEqual([]);
    expect(json.totals).toEqual({ aggregate_value: 0, page: "", time: "1970-01-01T00:00:00+00:00" });
    expect(json.meta.map((m: Json) => m.name)).toEqual(["aggregate_value", "page", "time"]);
  });

  it("keeps every bucket of an ungrouped series whatever the limit: limit and offset count groups", async () => {
    const one = context({ limit: 1 }, { interval: 1800 });
    expect((await mql(`sum(${PAGE_VIEWS})`, one)).data).toHaveLength(3);
    expect((await mql(`sum(${PAGE_VIEWS})`, context({ offset: 1 }, { interval: 1800 }))).data).toEqual([]);
  });

  it("returns no rows for empty buckets, as Snuba does", async () => {
    const json = await mql(`sum(${PAGE_VIEWS})`, context({}, { interval: 1800 }));
    expect(json.data.map((row: Json) => row.time)).toEqual([
      "2024-01-01T00:00:00+00:00",
      "2024-01-01T01:00:00+00:00",
      "2024-01-01T01:30:00+00:00",
    ]);
  });

  it("reads the hourly rollup when the granularity asks for it", async () => {
    const json = await mql(`sum(${PAGE_VIEWS})`, context({}, { granularity: 3600 }));
    expect(json.data).toEqual([{ aggregate_value: 1000 }]);
  });

  it("orders groups by value without an interval, and pages groups with limit and offset", async () => {
    const ordered = await mql(`sum(${PAGE_VIEWS}) by page`, context({}, { orderby: "ASC" }));
    expect(ordered.data.map((row: Json) => row.page)).toEqual(["/pricing", "/"]);
    const paged = await mql(`sum(${PAGE_VIEWS}) by page`, context({ limit: 1, offset: 1 }, { interval: 3600 }));
    // The second group keeps every one of its buckets.
    expect(paged.data).toEqual([{ aggregate_value: 5, page: "/pricing", time: "2024-01-01T00:00:00+00:00" }]);
    const first = await mql(`sum(${PAGE_VIEWS}) by page`, context({ limit: 1 }, { interval: 3600 }));
    expect(first.data.map((row: Json) => row.aggregate_value)).toEqual([3, 9]);
  });

  it("honours a UTC offset in start and end", async () => {
    // 01:00+01:00 is 00:00 UTC: the window [00:00, 01:00) UTC holds 3 + 5.
    const json = await mql(`sum(${PAGE_VIEWS})`, context({ start: "2024-01-01T01:00:00+01:00", end: "2024-01-01T02:00:00+01:00" }));
    expect(json.data).toEqual([{ aggregate_value: 8 }]);
  });
});

describe("distributions, sets, gauges", () => {
  const DURATION = "d:transactions/duration@millisecond";
  const transactions = (rollup: Json = {}) => context({}, rollup, { use_case_id: "transactions" });

  it("maps each aggregate to its -Merge state", async () => {
    const rows = async (query: string) => (await mql(query, transactions())).data;
    expect(await rows(`sum(${DURATION})`)).toEqual([{ aggregate_value: 200 }]);
    expect(await rows(`count(${DURATION})`)).toEqual([{ aggregate_value: 5 }]);
    expect(await rows(`avg(${DURATION})`)).toEqual([{ aggregate_value: 40 }]);
    expect(await rows(`max(${DURATION}) by transaction`)).toEqual([
      { aggregate_value: 40, transaction: "a" },
      { aggregate_value: 100, transaction: "b" },
    ]);
    expect(await rows(`min(\`${DURATION}\`)`)).toEqual([{ aggregate_value: 10 }]);
  });

  it("makes single-level quantiles a number and several levels an array", async () => {
    const single = await mql(`quantiles(0.5)(${DURATION}){transaction:a}`, transactions());
    expect(single.data).toEqual([{ aggregate_value: 25 }]);
    const several = await mql(`quantiles(0, 1)(${DURATION}){transaction:a}`, transactions());
    expect(several.data).toEqual([{ aggregate_value: [10, 40] }]);
  });

  it("aggregates a distribution with histogram: buckets of the stored histogram(250) states, every value counted once", async () => {
    for (const query of [`histogram(${DURATION}){transaction:a}`, `histogram(250)(${DURATION}){transaction:a}`]) {
      const json = await mql(query, transactions());
      const buckets = json.data[0].aggregate_value as [number, number, number][];
      expect(buckets.length).toBeGreaterThan(0);
      // (lower, upper, height) per bucket: the four values of transaction a (10, 20, 30, 40).
      expect(buckets.reduce((total, [, , height]) => total + height, 0)).toBeCloseTo(4);
      expect(Math.min(...buckets.map(([lower]) => lower))).toBe(10);
      expect(Math.max(...buckets.map(([, upper]) => upper))).toBe(40);
    }
  });

  it("counts unique values of a set, merging states across buckets for the totals", async () => {
    const json = await mql("uniq(s:custom/active_organizations@none)", context({}, { interval: 3600, with_totals: "True" }));
    expect(json.data.map((row: Json) => row.aggregate_value)).toEqual([3, 2]);
    expect(json.totals.aggregate_value).toBe(4);
  });

  it("computes a gauge average from its sum and count", async () => {
    const json = await mql("avg(g:custom/queue.depth@none) by queue", context());
    expect(json.data).toEqual([{ aggregate_value: 20 / 3, queue: "emails" }]);
    expect((await mql("last(g:custom/queue.depth@none)", context())).data).toEqual([{ aggregate_value: 10 }]);
  });

  it("resolves tag values to ids on the legacy metrics dataset", async () => {
    const sessions = context({}, {}, { use_case_id: "sessions" });
    expect((await mql("sum(c:sessions/session@none){session.status:init}", sessions, "metrics")).data).toEqual([{ aggregate_value: 15 }]);
    expect((await mql("sum(c:sessions/session@none) by (session.status)", sessions, "metrics")).data).toEqual([
      { aggregate_value: 2, "session.status": 201 },
      { aggregate_value: 15, "session.status": 206 },
    ]);
  });
});

describe("formulas", () => {
  const DURATION = "d:transactions/duration@millisecond";
  const transactions = (rollup: Json = {}) => context({}, rollup, { use_case_id: "transactions" });

  it("applies arithmetic to one timeseries in place", async () => {
    expect((await mql(`sum(${PAGE_VIEWS}) * 2 + 1`)).data).toEqual([{ aggregate_value: 35 }]);
    expect((await mql(`-sum(${PAGE_VIEWS})`)).data).toEqual([{ aggregate_value: -17 }]);
    expect((await mql(`round(sum(${PAGE_VIEWS}) / 3, 1)`)).data).toEqual([{ aggregate_value: 5.7 }]);
  });

  it("divides two timeseries per matching group", async () => {
    const json = await mql(`(sum(${DURATION}) / count(${DURATION})) by transaction`, transactions());
    expect(json.data).toEqual([
      { aggregate_value: 25, transaction: "a" },
      { aggregate_value: 100, transaction: "b" },
    ]);
  });

  it("computes per bucket, with exact totals from merged states", async () => {
    const json = await mql(`sum(${DURATION}) by transaction / count(${DURATION}) by transaction`, transactions({ interval: 3600, with_totals: "True" }));
    expect(json.data).toEqual([
      { aggregate_value: 20, transaction: "a", time: "2024-01-01T00:00:00+00:00" },
      { aggregate_value: 100, transaction: "b", time: "2024-01-01T00:00:00+00:00" },
      { aggregate_value: 40, transaction: "a", time: "2024-01-01T01:00:00+00:00" },
    ]);
    expect(json.totals.aggregate_value).toBe(40);
  });

  it("keeps every term of a chain and joins different entities", async () => {
    const json = await mql(`sum(${PAGE_VIEWS}) + sum(${PAGE_VIEWS}) + count(d:custom/checkout.cart_value@none)`);
    expect(json.data).toEqual([{ aggregate_value: 36 }]);
    const ratio = await mql(`sum(${PAGE_VIEWS}) / count(d:custom/checkout.cart_value@none)`);
    expect(ratio.data).toEqual([{ aggregate_value: 8.5 }]);
  });

  it("pushes filters and by on a formula down to every timeseries", async () => {
    const json = await mql(`(sum(${DURATION}) / count(${DURATION})){transaction:a} by transaction`, transactions());
    expect(json.data).toEqual([{ aggregate_value: 25, transaction: "a" }]);
  });

  it("divides a grouped series by an ungrouped one (one-sided group-by), totals over the whole window", async () => {
    const json = await mql(`sum(${PAGE_VIEWS}) by page / sum(${PAGE_VIEWS})`, context({}, { with_totals: "True" }));
    expect(json.data).toEqual([
      { aggregate_value: 12 / 17, page: "/" },
      { aggregate_value: 5 / 17, page: "/pricing" },
    ]);
    expect(json.totals.aggregate_value).toBe(1);
  });

  it("computes totals over every group, whichever page of groups is returned", async () => {
    const json = await mql(`sum(${PAGE_VIEWS}) by page`, context({ limit: 1, offset: 1 }, { interval: 3600, with_totals: "True" }));
    expect(json.data.map((row: Json) => row.page)).toEqual(["/pricing"]);
    expect(json.totals.aggregate_value).toBe(17);
  });
});

describe("request shapes and wires", () => {
  it("accepts Snuba's shape (the text in `query`) with SnQL body fields, and returns sql and stats on debug", async () => {
    const { status, json } = await post("/generic_metrics/mql", {
      query: `sum(${PAGE_VIEWS}){environment:"production"} by (page)`,
      mql_context: context(),
      tenant_ids: { organization_id: 1, referrer: "test.mql" },
      debug: true,
    });
    expect(status).toBe(200);
    expect(json.data).toHaveLength(2);
    expect(json.sql).toContain("sumMerge(value)");
    expect(json.stats.columnstore_table).toBe("generic_metric_counters_aggregated_local");
    expect(json.stats.referrer).toBe("test.mql");
    expect(json.timing.marks_ms).toHaveProperty("prepare_query");
    expect(json.timing.marks_ms).toHaveProperty("validate_schema");
  });

  it("refuses a request without indexer_mappings when the store has no ids of its own", async () => {
    const { indexer_mappings: _omit, ...withoutMappings } = context();
    const error = await mqlError(`sum(${PAGE_VIEWS})`, withoutMappings);
    expect(error).toMatchObject({ status: 400, type: "invalid_query" });
    expect(error.message).toContain("'mql_context.indexer_mappings' is required");
  });

  it("answers the same rows over Connect and gRPC", async () => {
    const request = create(MqlRequestSchema, {
      dataset: "generic_metrics",
      mql: `sum(${PAGE_VIEWS}) by (page)`,
      mqlContext: {
        start: START,
        end: END,
        rollup: { granularity: 60, withTotals: true, interval: 3600 },
        scope: { orgIds: [1n], projectIds: [1n, 2n], useCaseId: "custom" },
        indexerMappings: Object.fromEntries(Object.entries(MAPPINGS).map(([k, v]) => [k, BigInt(v)])),
      },
      settings: { debug: true },
    });
    for (const transport of [
      createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" }),
      createGrpcTransport({ baseUrl: server.baseUrl }),
    ]) {
      const response = await createClient(QueryService, transport).mql(request);
      expect(response.data).toEqual([
        { aggregate_value: 3, page: "/", time: "2024-01-01T00:00:00+00:00" },
        { aggregate_value: 5, page: "/pricing", time: "2024-01-01T00:00:00+00:00" },
        { aggregate_value: 9, page: "/", time: "2024-01-01T01:00:00+00:00" },
      ]);
      expect(response.totals?.aggregate_value).toBe(17);
      expect(response.sql).toContain("toStartOfInterval");
    }
  });
});

describe("bad input over Connect", () => {
  it("answers InvalidArgument with the position of a syntax error", async () => {
    const client = createClient(QueryService, createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" }));
    const request = create(MqlRequestSchema, {
      dataset: "generic_metrics",
      mql: `sum(${PAGE_VIEWS}`,
      mqlContext: { start: START, end: END, rollup: { granularity: 60 }, scope: { orgIds: [1n], projectIds: [1n], useCaseId: "custom" } },
    });
    const error = await client.mql(request).then(
      () => null,
      (reason: unknown) => ConnectError.from(reason),
    );
    expect(error?.code).toBe(Code.InvalidArgument);
    expect(error?.rawMessage).toContain("unexpected end of MQL query at line 1, column 29: expected ')'");
    const noContext = await client.mql(create(MqlRequestSchema, { dataset: "generic_metrics", mql: `sum(${PAGE_VIEWS})` })).catch((reason: unknown) => ConnectError.from(reason));
    expect((noContext as ConnectError).rawMessage).toContain("'mql_context' is required");
  });
});

describe("bad input on the route", () => {
  it("answers invalid_query with a clear message", async () => {
    const cases: [string, Json, string][] = [
      ["sum(c:custom/unknown@none)", context(), "unknown metric 'c:custom/unknown@none'"],
      [`sum(${PAGE_VIEWS}) by (browser)`, context(), "Tag keys (browser) not resolved"],
      [`sum(${PAGE_VIEWS})`, context({}, { granularity: 30 }), "granularity '30' is not valid"],
      [`sum(${PAGE_VIEWS})`, context({ start: END, end: START }), "must be before"],
      [`sum(${PAGE_VIEWS})`, context({ start: "2000-01-01T00:00:00Z" }, { interval: 10, granularity: 10 }), "time buckets"],
      [`sum(${PAGE_VIEWS}) by page / sum(${PAGE_VIEWS}) by environment`, context(), "All terms in a formula must have the same groupby"],
      ["quantiles(0.5)(c:custom/page_views@none)", context(), "not available on generic_metrics_counters"],
      ["sum(g:custom/queue.depth@none)", context(), ""],
    ];
    for (const [query, ctx, message] of cases.slice(0, -1)) {
      const error = await mqlError(query, ctx);
      expect(error, query).toMatchObject({ status: 400, type: "invalid_query" });
      expect(error.message, query).toContain(message);
    }
    const gauge = await mqlError("sum(g:custom/queue.depth@none)", context(), "metrics");
    expect(gauge).toMatchObject({ status: 400, type: "invalid_query" });
    expect(gauge.message).toContain("invalid metric type g");
  });

  it("refuses an unknown dataset with 404", async () => {
    const { status, json } = await post("/nope/mql", { mql: `sum(${PAGE_VIEWS})`, mql_context: context() });
    expect(status).toBe(404);
    expect(json.error.type).toBe("invalid_query");
  });
});
