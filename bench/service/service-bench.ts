/**
 * The service end to end, one run, on embedded ClickHouse (chDB) with ≥ 1 M error rows:
 *   (a) latency of POST /events/snql (uncached) against the raw engine time of the same SQL;
 *   (b) cache-hit throughput of the JSON route, driven by a load generator in another process;
 *   (c) resident memory before the server started and after the load.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { withSettingsClause } from "../../src/execution/execute-sql.js";
import { startServer } from "../../src/server/start-server.js";
import type { BenchSection } from "../bench-row.js";

const RANGE = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";
const PROJECTS = "project_id IN tuple(1, 2, 3, 4)";

/** Uncached query shapes, each taking well over 10 ms on a million rows. */
const LATENCY_QUERIES = [
  `MATCH (events) SELECT count() AS n, uniq(user) AS users BY project_id WHERE ${RANGE} AND ${PROJECTS} ORDER BY n DESC`,
  `MATCH (events) SELECT count() AS n BY group_id WHERE ${RANGE} AND ${PROJECTS} ORDER BY n DESC LIMIT 10`,
  `MATCH (events) SELECT uniq(user) AS users BY toStartOfHour(timestamp) AS hour WHERE ${RANGE} AND ${PROJECTS} ORDER BY hour ASC LIMIT 24`,
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => Math.round(bytes / 1048576);

interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
}

function runLoadGenerator(url: string, body: string, concurrency: number, durationMs: number): Promise<LoadResult> {
  const self = fileURLToPath(import.meta.url);
  // Compiled (npm run bench) the generator is a .js next to this file; under tsx it is the .ts.
  const script = self.replace(/service-bench\.(js|ts)$/, "load-generator.$1");
  const args = self.endsWith(".ts") ? ["--import", "tsx", script] : [script];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, url, body, String(concurrency), String(durationMs)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited with ${code}`))));
  });
}

/** Keep-alive connections of the load generator: enough to keep the server busy on two cores. */
const LOAD_CONNECTIONS = 16;

export const serviceBench: BenchSection = async ({ quick }) => {
  const rssAtStart = process.memoryUsage().rss;
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-service-bench-"));
  const columnstore = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  const registry = defaultRegistry();
  await runMigrations(columnstore.client, registry);
  const rows = 1_000_000;
  await columnstore.client.command({
    query: `INSERT INTO errors_local (project_id, timestamp, received, event_id, primary_hash, group_id, platform, user, release, level, retention_days, deleted)
      SELECT 1 + number % 4, toDateTime('2024-01-01 00:00:00') + intDiv(number * 86399, ${rows}), toDateTime('2024-01-01 00:00:00'),
        generateUUIDv4(), generateUUIDv4(), number % 5000, 'python', toString(cityHash64(number) % 200000),
        concat('backend@1.', toString(number % 20)), ['error', 'warning', 'info'][1 + number % 3], 90, 0
      FROM numbers(${rows})`,
  });
  await columnstore.client.command({ query: "OPTIMIZE TABLE errors_local FINAL" });

  // The engine's memory after loading settles over a few seconds; measure once it has.
  await new Promise((resolve) => setTimeout(resolve, quick ? 100 : 3000));
  const rssBefore = process.memoryUsage().rss;
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    definitions: registry,
    columnstore,
    backend: {
      cacheTtlMs: 0,
      policyOverrides: {
        ConcurrentRateLimitAllocationPolicy: { concurrent_limit: 100_000 },
        PerSecondRateLimitAllocationPolicy: { per_second_limit: 1_000_000 },
        BytesScannedWindowAllocationPolicy: { org_limit_bytes_scanned: 1e18 },
      },
    },
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const post = async (query: string, referrer: string, debug = false) => {
    const response = await fetch(`${baseUrl}/events/snql`, {
      method: "POST",
      body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer }, ...(debug ? { debug: true } : {}) }),
    });
    const body = (await response.json()) as { sql?: string; stats?: { max_threads: number }; error?: unknown };
    if (response.status !== 200) throw new Error(`bench query failed: ${JSON.stringify(body.error)}`);
    return body;
  };

  // (a) Interleave raw and end-to-end runs so drift affects both alike.
  const iterations = quick ? 3 : 15;
  const ratios: string[] = [];
  let worst = 0;
  for (const [index, query] of LATENCY_QUERIES.entries()) {
    const described = await post(query, "bench.latency", true);
    const rawSql = withSettingsClause(described.sql!, { max_execution_time: 30, max_threads: described.stats!.max_threads });
    const raw: number[] = [];
    const endToEnd: number[] = [];
    for (let i = -1; i < iterations; i++) {
      let t0 = performance.now();
      await (await columnstore.client.query({ query: rawSql, format: "JSONCompact", clickhouse_settings: { output_format_json_quote_64bit_integers: 1 } })).json();
      const rawMs = performance.now() - t0;
      t0 = performance.now();
      await post(query, "bench.latency");
      const e2eMs = performance.now() - t0;
      if (i >= 0) {
        raw.push(rawMs);
        endToEnd.push(e2eMs);
      }
    }
    const ratio = median(endToEnd) / median(raw);
    if (median(raw) >= 10) worst = Math.max(worst, ratio);
    ratios.push(`Q${index + 1} ${median(endToEnd).toFixed(1)} ms vs ${median(raw).toFixed(1)} ms = ${ratio.toFixed(2)}`);
  }

  // (b) One query, answered from the cache by a fresh server on the same engine (a long TTL).
  const cachedServer = await startServer({
    host: "127.0.0.1",
    port: 0,
    definitions: registry,
    columnstore,
    backend: {
      cacheTtlMs: 3_600_000,
      queryLog: false,
      policyOverrides: {
        ConcurrentRateLimitAllocationPolicy: { concurrent_limit: 100_000 },
        PerSecondRateLimitAllocationPolicy: { per_second_limit: 1_000_000 },
      },
    },
  });
  const cachedQuery = LATENCY_QUERIES[0]!;
  const body = JSON.stringify({ query: cachedQuery, tenant_ids: { organization_id: 1, referrer: "bench.cache" } });
  await fetch(`http://127.0.0.1:${cachedServer.port}/events/snql`, { method: "POST", body }).then((r) => r.arrayBuffer());
  const load = await runLoadGenerator(`http://127.0.0.1:${cachedServer.port}/events/snql`, body, LOAD_CONNECTIONS, quick ? 1000 : 8000);
  const rssAfter = process.memoryUsage().rss;

  await cachedServer.close();
  await server.close();
  await columnstore.close();
  rmSync(dataDir, { recursive: true, force: true });

  return [
    {
      bench: `Service latency: POST /events/snql (uncached) vs raw engine time of the same SQL, ${rows.toLocaleString("en")} rows, median of ${iterations}`,
      figure: `${ratios.join("; ")}; worst ratio (queries ≥ 10 ms) ${worst.toFixed(2)}`,
      target: "ratio ≤ 1.2",
    },
    {
      bench: `Cache-hit throughput: POST /events/snql, ${LOAD_CONNECTIONS} keep-alive connections, load generator in its own process`,
      figure: `${load.requestsPerSecond.toLocaleString("en")} req/s; p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms; ${load.errors} errors`,
      target: "≥ 10,000 req/s",
    },
    {
      bench: "Resident memory (bench process: server + embedded ClickHouse)",
      figure: `${mb(rssAtStart)} MB at start; ${mb(rssBefore)} MB with ${rows.toLocaleString("en")} rows loaded, before the server; ${mb(rssAfter)} MB after the load`,
      target: "—",
    },
  ];
};
