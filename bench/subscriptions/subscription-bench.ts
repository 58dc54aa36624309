/**
 * Subscriptions on one node, embedded ClickHouse, results into the results table:
 *   (a) throughput: a backlog of windows (every subscription × 10 minutes) run through the
 *       normal pipeline and published, on the driven clock, timed on the wall clock;
 *   (b) scheduling lag on the real clock: now − T at publish, and how late each run was against
 *       its planned firing moment (T + jitter + delay), p50 and p99.
 * Allocation policies are opened up (one organization's defaults allow 50 queries a second).
 */
import { loadSyntheticEvents } from "./synthetic-events.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { startServer } from "../../src/server/start-server.js";
import { ManualClock } from "../../test/support/manual-clock.js";
import { jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import type { BenchSection } from "../bench-row.js";

const OPEN_POLICIES = {
  ConcurrentRateLimitAllocationPolicy: { concurrent_limit: 100_000 },
  PerSecondRateLimitAllocationPolicy: { per_second_limit: 1_000_000 },
  BytesScannedWindowAllocationPolicy: { org_limit_bytes_scanned: 1e18 },
};

/** Three query shapes Sentry's alert rules use, spread over the subscriptions. */
const QUERIES = [
  "MATCH (events) SELECT count() AS count",
  "MATCH (events) SELECT uniq(user) AS users WHERE level = 'error'",
  "MATCH (events) SELECT count() AS count BY level",
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function publishedCount(columnstore: ColumnstoreClient): Promise<number> {
  const result = await columnstore.client.query({ query: "SELECT count() AS n FROM subscription_results_local", format: "JSONEachRow" });
  return Number((await result.json<{ n: number | string }>())[0]!.n);
}

export const subscriptionBench: BenchSection = async ({ quick }) => {
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-subscription-bench-"));
  const columnstore = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const registry = defaultRegistry();
  await runMigrations(columnstore.client, registry);
  const subscriptionCount = quick ? 50 : 1000;
  const projects = 100;
  const rows = 1_000_000;
  // Events over the last two hours, so every window holds data.
  const nowSecond = Math.floor(Date.now() / 1000);
  await loadSyntheticEvents(columnstore.client, projects, rows);

  // (a) Throughput on the driven clock: subscriptions created 11 minutes ago, then 10 minutes of
  // windows at once (which leaves one minute for the live phase to catch up).
  const clock = new ManualClock((nowSecond - 660) * 1000);
  const driven = await startServer({
    host: "127.0.0.1",
    port: 0,
    definitions: registry,
    columnstore,
    backend: { cacheTtlMs: 0, policyOverrides: OPEN_POLICIES },
    subscriptions: { clock, loop: false, delaySeconds: 0, staleThresholdSeconds: 3600 },
  });
  const uuids: string[] = [];
  for (let i = 0; i < subscriptionCount; i++) {
    const id = await driven.subscriptions.service.create({
      dataset: "events",
      entity: "events",
      subscriptionType: "snql",
      projectId: 1 + (i % projects),
      query: QUERIES[i % QUERIES.length]!,
      timeWindow: 3600,
      resolution: 60,
      organizationId: 1,
      organization: null,
      referrer: "bench.subscriptions",
    });
    uuids.push(id.split("/")[1]!);
  }
  const scheduler = driven.subscriptions.scheduler!;
  await scheduler.tick();
  await scheduler.idle();
  const before = await publishedCount(columnstore);
  await clock.advance(10 * 60_000);
  const started = performance.now();
  await scheduler.tick();
  await scheduler.idle();
  const seconds = (performance.now() - started) / 1000;
  const runs = (await publishedCount(columnstore)) - before;
  await driven.close();

  // (b) Lag on the real clock: a fresh server resumes from the driven checkpoints (so it first
  // catches up the last minute or so, which is not measured), then runs every window as it comes
  // due; windows ending a minute or more after it started are measured.
  const lagSeconds = quick ? 130 : 180;
  const realStart = Math.floor(Date.now() / 1000);
  const live = await startServer({
    host: "127.0.0.1",
    port: 0,
    definitions: registry,
    columnstore,
    backend: { cacheTtlMs: 0, policyOverrides: OPEN_POLICIES },
    subscriptions: { delaySeconds: 0, staleThresholdSeconds: 3600 },
  });
  await new Promise((resolve) => setTimeout(resolve, lagSeconds * 1000));
  await live.close();
  const measured = await columnstore.client.query({
    query: `SELECT splitByChar('/', subscription_id)[2] AS uuid, toUnixTimestamp(timestamp) AS t, toUnixTimestamp64Milli(published_at) AS published_ms
      FROM subscription_results_local WHERE timestamp >= toDateTime(${realStart + 60})`,
    format: "JSONEachRow",
  });
  const samples = await measured.json<{ uuid: string; t: number | string; published_ms: number | string }>();
  const lags: number[] = [];
  const lateness: number[] = [];
  for (const sample of samples) {
    const t = Number(sample.t);
    const published = Number(sample.published_ms) / 1000;
    lags.push(published - t);
    lateness.push(published - (t + jitterSeconds({ uuid: sample.uuid, resolution: 60 })));
  }
  lags.sort((a, b) => a - b);
  lateness.sort((a, b) => a - b);
  await columnstore.close();
  rmSync(dataDir, { recursive: true, force: true });

  const steady = samples.length === 0 ? "no window completed (run longer)" : `lag (now − T) p50 ${percentile(lags, 0.5).toFixed(1)} s, p99 ${percentile(lags, 0.99).toFixed(1)} s; late against the planned firing (T + jitter) p50 ${(percentile(lateness, 0.5) * 1000).toFixed(0)} ms, p99 ${(percentile(lateness, 0.99) * 1000).toFixed(0)} ms; ${samples.length.toLocaleString("en")} windows`;
  return [
    {
      bench: `Subscription runs, one node: ${subscriptionCount.toLocaleString("en")} subscriptions (resolution 60, window 1 h, 3 query shapes) × 10 min backlog over ${rows.toLocaleString("en")} events, pipeline + results table`,
      figure: `${Math.round(runs / seconds).toLocaleString("en")} runs/s (${runs.toLocaleString("en")} runs in ${seconds.toFixed(1)} s)`,
      target: `≥ ${Math.ceil(subscriptionCount / 60)} runs/s (every subscription once a minute)`,
    },
    {
      bench: `Subscription scheduling lag on the real clock, ${subscriptionCount.toLocaleString("en")} subscriptions, delay 0, ${lagSeconds} s`,
      figure: steady,
      target: "late p99 ≤ 1 s",
    },
  ];
};
