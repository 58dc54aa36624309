/**
 * TimeSeriesRequests serialised by Sentry's own sentry-protos package (installed by the test
 * setup; scripts/fixtures/time-series-requests.py builds them as Sentry's code does) sent to
 * POST /rpc/EndpointTimeSeries/v1 unchanged; every data point is checked against SQL written by
 * hand on the demo spans and logs.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TimeSeriesRequestSchema, TimeSeriesResponseSchema, type TimeSeriesResponse } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { ErrorSchema } from "../../gen/sentry_protos/snuba/v1/error_pb.js";
import { Reliability } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { loadDemoData } from "../../src/demo-data/load-demo-data.js";
import { startServer, type QuarryServer } from "../../src/server/start-server.js";
import { GENEROUS_POLICY_LIMITS } from "../server/fixture-server.js";
import { anyMap, baseWhere, boolAttribute, bucketSql } from "./hand-sql.js";

const NOW = new Date("2026-11-22T10:37:12Z");
const START = Date.parse("2026-11-20T00:00:00Z") / 1000;
const END = START + 86_400;
const SCRIPT = join(import.meta.dirname, "../../scripts/fixtures/time-series-requests.py");

const duration = anyMap("float", "sentry.duration_ms");
const op = anyMap("string", "sentry.op");
const status = anyMap("string", "sentry.status");
const statusCode = anyMap("float", "http.response.status_code");
const user = anyMap("string", "user.id");
const severity = anyMap("float", "sentry.severity_number");
const severityText = anyMap("string", "sentry.severity_text");
const isSegment = boolAttribute("sentry.is_segment");

/** What each request computes, written by hand: per-label SQL, the rows it reads, its group and buckets. */
interface Expected {
  readonly series: Record<string, string>;
  readonly where?: string;
  readonly group?: { readonly name: string; readonly sql: string };
  readonly itemType?: number;
  readonly granularity?: number;
  /** Relative tolerance (float32 on the wire; approximate quantiles). */
  readonly tolerance?: number;
}

const EXPECTED: Record<string, Expected> = {
  count_and_sum: { series: { count: `countIf(${duration.exists})`, sum: `sumIf(${duration.value}, ${duration.exists})` } },
  avg_min_max_by_op: {
    series: { avg: `avgIf(${duration.value}, ${duration.exists})`, min: `minIf(${duration.value}, ${duration.exists})`, max: `maxIf(${duration.value}, ${duration.exists})` },
    group: { name: "sentry.op", sql: `if(${op.exists}, ${op.value}, 'None')` },
  },
  percentiles: {
    series: Object.fromEntries([50, 75, 90, 95, 99].map((p) => [`p${p}`, `quantileIf(${p / 100})(${duration.value}, ${duration.exists})`])),
  },
  uniq_users: { series: { users: `uniqIf(${user.value}, ${user.exists})` } },
  and_filter: { series: { count: `countIf(${duration.exists})` }, where: `${op.exists} AND ${op.value} = 'db' AND ${duration.exists} AND ${duration.value} >= 10` },
  not_or_in_like: {
    series: { count: `countIf(${duration.exists})` },
    where: `NOT ((${op.exists} AND ${op.value} IN ('db', 'http.client')) OR (${op.exists} AND ${op.value} ILIKE 'cache%'))`,
  },
  segments_with_status_code: { series: { count: `countIf(${duration.exists})` }, where: `${statusCode.exists} AND ${isSegment.exists} AND ${isSegment.value} = false` },
  failure_rate_formula: {
    series: {
      failure_rate: `coalesce(countIf(${duration.exists} AND NOT (${status.exists} AND ${status.value} = 'ok')) / countIf(${duration.exists}), 0)`,
      avg_seconds: `avgIf(${duration.value}, ${duration.exists}) * 0.001`,
    },
  },
  weighted_count_and_p95: {
    series: {
      count: `sumIf(1 / sampling_factor, ${duration.exists})`,
      p95: `quantileTDigestWeightedIf(0.95)(${duration.value}, toUInt64(round(1000 / sampling_factor)), ${duration.exists})`,
    },
  },
  deprecated_aggregations_int_key: { series: { http_calls: `countIf(${statusCode.exists})` }, where: `${statusCode.exists} AND CAST(${statusCode.value}, 'Int64') >= 200` },
  logs_by_severity: {
    series: { logs: `countIf(${severity.exists})` },
    group: { name: "sentry.severity_text", sql: `if(${severityText.exists}, ${severityText.value}, 'None')` },
    itemType: 3,
    granularity: 1800,
  },
};

let store: ColumnstoreClient;
let server: QuarryServer;
let dataDir: string;
let fixtures: { name: string; request: string }[];

beforeAll(async () => {
  fixtures = JSON.parse(execFileSync(inject("sentryProtosPython"), [SCRIPT, String(START), String(END)], { encoding: "utf8" })) as typeof fixtures;
  dataDir = mkdtempSync(join(tmpdir(), "quarry-rpc-protos-"));
  store = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const registry = defaultRegistry();
  await runMigrations(store.client, registry);
  await loadDemoData(store.client, { rows: 40_000, log: () => {}, progress: false, now: NOW });
  server = await startServer({ host: "127.0.0.1", port: 0, definitions: registry, columnstore: store, backend: { policyOverrides: GENEROUS_POLICY_LIMITS } });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await store?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function send(base64: string): Promise<TimeSeriesResponse> {
  const response = await fetch(`http://127.0.0.1:${server.port}/rpc/EndpointTimeSeries/v1`, { method: "POST", body: Buffer.from(base64, "base64") });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${response.status}: ${fromBinary(ErrorSchema, bytes).message}`);
  return fromBinary(TimeSeriesResponseSchema, bytes);
}

describe("TimeSeriesRequests from sentry-protos", () => {
  it("the fixture script builds at least ten requests, each one we check", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
    expect(fixtures.map((f) => f.name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("each answers what hand-written SQL computes on the same rows, bucket by bucket", async () => {
    for (const { name, request } of fixtures) {
      const expected = EXPECTED[name]!;
      const granularity = expected.granularity ?? 3600;
      const response = await send(request);
      const labels = Object.keys(expected.series);
      const groupSql = expected.group ? `, ${expected.group.sql} AS g` : "";
      const rows = (await (
        await store.client.query({
          query:
            `SELECT ${bucketSql(START, granularity)} AS t${groupSql}, ${labels.map((l, i) => `${expected.series[l]} AS v${i}`).join(", ")}` +
            ` FROM eap_items_1_local WHERE ${baseWhere(START, END, expected.itemType ?? 1)}${expected.where ? ` AND ${expected.where}` : ""} AND sampling_factor > 0 AND sampling_factor <= 1` +
            ` GROUP BY t${expected.group ? ", g" : ""}`,
          format: "JSONEachRow",
          clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
        })
      ).json()) as Record<string, number | string>[];
      expect(rows.length, name).toBeGreaterThan(0);
      const buckets = (END - START) / granularity;
      const groups = new Set(rows.map((r) => String(r.g ?? "")));
      expect(response.resultTimeseries.length, name).toBe(groups.size * labels.length);
      for (const series of response.resultTimeseries) {
        expect(series.dataPoints, name).toHaveLength(buckets);
        const index = labels.indexOf(series.label);
        expect(index, `${name}: unexpected series ${series.label}`).toBeGreaterThanOrEqual(0);
        const group = expected.group ? series.groupByAttributes[expected.group.name]! : "";
        series.dataPoints.forEach((point, i) => {
          const t = START + i * granularity;
          expect(Number(series.buckets[i]!.seconds)).toBe(t);
          const row = rows.find((r) => Number(r.t) === t && String(r.g ?? "") === group);
          const want = row === undefined ? null : row[`v${index}`];
          if (want === null || want === undefined) {
            expect(point.dataPresent, `${name} ${series.label} ${group} @${t}`).toBe(false);
            return;
          }
          expect(point.dataPresent, `${name} ${series.label} ${group} @${t}`).toBe(true);
          const tolerance = expected.tolerance ?? 1e-6;
          expect(Math.abs(point.data - Number(want)), `${name} ${series.label} ${group} @${t}: ${point.data} vs ${want}`).toBeLessThanOrEqual(Math.abs(Number(want)) * tolerance + 1e-6);
        });
      }
    }
  });

  it("extrapolated figures carry their sample count, sampling rate and reliability", async () => {
    const fixture = fixtures.find((f) => f.name === "weighted_count_and_p95")!;
    const response = await send(fixture.request);
    const count = response.resultTimeseries.find((s) => s.label === "count")!;
    for (const point of count.dataPoints.filter((p) => p.dataPresent)) {
      expect(Number(point.sampleCount)).toBe(point.data);
      expect(point.avgSamplingRate).toBe(1);
      expect(point.reliability).toBe(Reliability.HIGH);
    }
    // Bytes Quarry decodes are the bytes sentry-protos wrote: our schema reads every field.
    const decoded = fromBinary(TimeSeriesRequestSchema, Buffer.from(fixture.request, "base64"));
    expect(decoded.meta?.referrer).toBe("api.explore.timeseries");
    expect(decoded.expressions.map((e) => e.label)).toEqual(["count", "p95"]);
  });
});
