/**
 * MQL against the demo data (a small deterministic load on embedded chDB): every query of the
 * bench corpus, written as snuba-sdk prints it, runs through the JSON route (both shapes) and
 * Connect; figures are cross-checked against SQL written by hand on the same tables.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueryService } from "../../gen/quarry/v1/query_pb.js";
import { MQL_CORPUS } from "../../bench/mql/mql-corpus.js";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { DEMO_INDEXER_MAPPINGS } from "../../src/demo-data/demo-indexer-mappings.js";
import { loadDemoData } from "../../src/demo-data/load-demo-data.js";
import { startServer, type QuarryServer } from "../../src/server/start-server.js";

const NOW = new Date("2026-11-22T10:37:12Z");
const START = "2026-11-15T00:00:00+00:00";
const END = "2026-11-22T00:00:00+00:00";

let store: ColumnstoreClient;
let server: QuarryServer;
let dataDir: string;
let baseUrl: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "quarry-mql-demo-"));
  store = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const registry = defaultRegistry();
  await runMigrations(store.client, registry);
  await loadDemoData(store.client, { rows: 40_000, log: () => {}, progress: false, now: NOW });
  server = await startServer({ host: "127.0.0.1", port: 0, definitions: registry, columnstore: store, storeIndexerMappings: DEMO_INDEXER_MAPPINGS });
  baseUrl = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server?.close();
  await store?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function context(useCase: string, rollup: Json): Json {
  return {
    start: START,
    end: END,
    rollup: { granularity: 3600, with_totals: "True", orderby: null, ...rollup },
    scope: { org_ids: [1], project_ids: [1, 2, 3], use_case_id: useCase },
    indexer_mappings: DEMO_INDEXER_MAPPINGS,
    limit: null,
    offset: null,
  };
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Json };
}

async function scalar(sql: string): Promise<number> {
  const result = await store.client.query({ query: sql, format: "JSONEachRow" });
  const [row] = await result.json<{ v: number }>();
  return Number(row!.v);
}

const WINDOW = "timestamp >= toDateTime('2026-11-15 00:00:00', 'UTC') AND timestamp < toDateTime('2026-11-22 00:00:00', 'UTC')";

describe("the bench corpus on demo data", () => {
  it.each(MQL_CORPUS.map((entry) => [entry.mql, entry] as const))("%s", async (_text, entry) => {
    // Daily buckets: the small load is sparse, and every query here must find rows.
    const rollup = { granularity: 86400, interval: entry.interval === null ? null : 86400 };
    const { status, json } = await post(`/${entry.dataset}/mql`, { query: entry.mql, mql_context: context(entry.useCase, rollup), tenant_ids: { organization_id: 1, referrer: "test.mql.demo" } });
    expect(status, JSON.stringify(json.error)).toBe(200);
    expect(json.data.length).toBeGreaterThan(0);
    expect(json.meta[0]).toMatchObject({ name: "aggregate_value" });
  });
});

describe("figures against hand-written SQL", () => {
  it("counts transactions per environment as the table holds them", async () => {
    const { json } = await post("/generic_metrics/mql", {
      mql: 'sum(c:transactions/count_per_root_project@none){environment:"production"}',
      mql_context: context("transactions", { interval: null }),
    });
    const expected = await scalar(
      `SELECT sumMerge(value) AS v FROM generic_metric_counters_aggregated_local WHERE metric_id = 125 AND granularity = 2 AND org_id = 1 AND use_case_id = 'transactions' AND ${WINDOW} AND arrayElement(tags.raw_value, indexOf(tags.key, 202)) = 'production'`,
    );
    expect(expected).toBeGreaterThan(0);
    expect(json.data).toEqual([{ aggregate_value: expected }]);
  });

  it("averages durations per bucket as sum / count, and the totals agree", async () => {
    const { json } = await post("/generic_metrics/mql", {
      mql: "(sum(d:transactions/duration@millisecond) / count(d:transactions/duration@millisecond))",
      mql_context: context("transactions", { interval: 86400, granularity: 86400 }),
    });
    const average = await scalar(
      `SELECT avgMerge(avg) AS v FROM generic_metric_distributions_aggregated_local WHERE metric_id = 101 AND granularity = 3 AND org_id = 1 AND use_case_id = 'transactions' AND ${WINDOW}`,
    );
    expect(json.totals.aggregate_value).toBeCloseTo(average, 6);
    expect(json.data.length).toBe(7);
  });

  it("answers the same over Connect, resolving names through the demo store's own ids when the request sends none", async () => {
    const client = createClient(QueryService, createConnectTransport({ baseUrl, httpVersion: "1.1" }));
    const response = await client.mql({
      dataset: "metrics",
      mql: "sum(c:sessions/session@none) by (session.status)",
      mqlContext: { start: START, end: END, rollup: { granularity: 86400 }, scope: { orgIds: [1n], projectIds: [1n, 2n, 3n], useCaseId: "sessions" } },
    });
    const crashed = await scalar(
      `SELECT sumMerge(value) AS v FROM metrics_counters_v2_local WHERE metric_id = 1 AND granularity = 86400 AND org_id = 1 AND use_case_id = 'sessions' AND ${WINDOW} AND arrayElement(tags.value, indexOf(tags.key, 209)) = 201`,
    );
    expect(crashed).toBeGreaterThan(0);
    expect(response.data.find((row) => row["session.status"] === 201)).toMatchObject({ aggregate_value: crashed });
  });
});

// getsentry/snuba tests/test_metrics_mql_api.py::test_histograms: histogram(5) of a distribution by
// a tag, in buckets with totals. Snuba's entity reads the stored histogram(250) states with 250
// buckets whatever count is written (CurriedFunctionBucketTransformer), so the answer is those.
describe("Snuba's histogram(5) query on a distribution", () => {
  const HISTOGRAM = "histogram(5)(d:transactions/duration@millisecond) by (status_code)";
  // No demo row carries status_code: every row falls in its one group, the empty value, as in Snuba.
  const STATUS_CODE_ID = 65_800;
  const DAILY = "toStartOfDay(timestamp, 'UTC')";
  const DURATIONS = `FROM generic_metric_distributions_aggregated_local WHERE metric_id = 101 AND granularity = 3 AND org_id = 1 AND project_id IN (1, 2, 3) AND use_case_id = 'transactions' AND ${WINDOW}`;
  type Bucket = [number, number, number];

  async function perDay(expression: string, by = ""): Promise<Map<string, number>> {
    const result = await store.client.query({
      query: `SELECT formatDateTime(${DAILY}, '%Y-%m-%dT%H:%i:%S+00:00') AS day, ${by ? `${by} AS key,` : "'' AS key,"} ${expression} AS v ${DURATIONS} GROUP BY day, key`,
      format: "JSONEachRow",
    });
    return new Map((await result.json<{ day: string; key: string; v: number }>()).map((row) => [`${row.day} ${row.key}`, Number(row.v)]));
  }

  /** The buckets are (lower, upper, height), in order, covering min..max, their heights the count of values. */
  function expectHistogram(buckets: Bucket[], count: number, min: number, max: number): void {
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets.length).toBeLessThanOrEqual(250);
    for (const [i, [lower, upper, height]] of buckets.entries()) {
      expect(lower).toBeLessThanOrEqual(upper);
      expect(height).toBeGreaterThan(0);
      if (i > 0) expect(lower).toBeCloseTo(buckets[i - 1]![1], 9);
    }
    expect(buckets.reduce((total, [, , height]) => total + height, 0)).toBeCloseTo(count, 6);
    expect(buckets[0]![0]).toBeCloseTo(min, 9);
    expect(buckets.at(-1)![1]).toBeCloseTo(max, 9);
  }

  it("answers with the stored histogram(250) buckets per day and status_code, and totals, as Snuba does", async () => {
    const { status, json } = await post("/generic_metrics/mql", {
      query: HISTOGRAM,
      mql_context: { ...context("transactions", { granularity: 86400, interval: 86400 }), indexer_mappings: { ...DEMO_INDEXER_MAPPINGS, status_code: STATUS_CODE_ID } },
      tenant_ids: { organization_id: 1, referrer: "test.mql.histogram" },
      debug: true,
    });
    expect(status, JSON.stringify(json.error)).toBe(200);
    expect(json.sql).toContain("histogramMerge(250)(histogram_buckets)");
    expect(json.meta).toEqual([
      { name: "aggregate_value", type: "Array(Tuple(Float64, Float64, Float64))" },
      { name: "status_code", type: "String" },
      { name: "time", type: "DateTime('Universal')" },
    ]);
    const [counts, mins, maxes] = await Promise.all([perDay("countMerge(count)"), perDay("minMerge(min)"), perDay("maxMerge(max)")]);
    // A row per day with data (seven in the window), each of the one status_code group.
    expect(json.data.map((row: Json) => `${row.time} ${row.status_code}`)).toEqual([...counts.keys()].sort());
    expect(json.data).toHaveLength(7);
    for (const row of json.data as Json[]) {
      const key = `${row.time} ${row.status_code}`;
      expectHistogram(row.aggregate_value, counts.get(key)!, mins.get(key)!, maxes.get(key)!);
    }
    const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
    expectHistogram(json.totals.aggregate_value, total, Math.min(...mins.values()), Math.max(...maxes.values()));
  });

  it("splits the buckets by a tag the demo rows carry (transaction.status)", async () => {
    const { status, json } = await post("/generic_metrics/mql", {
      query: "histogram(5)(d:transactions/duration@millisecond) by (transaction.status)",
      mql_context: context("transactions", { granularity: 86400, interval: null, with_totals: "False" }),
      tenant_ids: { organization_id: 1, referrer: "test.mql.histogram" },
    });
    expect(status, JSON.stringify(json.error)).toBe(200);
    const statusTag = "arrayElement(tags.raw_value, indexOf(tags.key, 213))";
    const [counts, mins, maxes] = await Promise.all(
      ["countMerge(count)", "minMerge(min)", "maxMerge(max)"].map(async (expression) => {
        const result = await store.client.query({ query: `SELECT ${statusTag} AS key, ${expression} AS v ${DURATIONS} GROUP BY key`, format: "JSONEachRow" });
        return new Map((await result.json<{ key: string; v: number }>()).map((row) => [row.key, Number(row.v)]));
      }),
    );
    expect(json.data.map((row: Json) => row["transaction.status"])).toEqual(["internal_error", "ok"]);
    for (const row of json.data as Json[]) {
      const key = row["transaction.status"] as string;
      expectHistogram(row.aggregate_value, counts!.get(key)!, mins!.get(key)!, maxes!.get(key)!);
    }
  });
});
