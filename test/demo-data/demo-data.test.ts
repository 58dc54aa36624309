/**
 * Demo data against the real embedded engine: one chDB client for the whole file (chDB binds
 * one data directory per process), migrations, a 20k-row load with a fixed `now`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { fnv1a32 } from "../../src/clickhouse/fnv1a.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { parseAggregateFunctionType } from "../../src/demo-data/aggregate-state-sql.js";
import {
  DEMO_INDEXER_MAPPINGS,
  DEMO_METRIC_IDS,
  DEMO_TAG_KEY_IDS,
  DEMO_TAG_VALUE_IDS,
} from "../../src/demo-data/demo-indexer-mappings.js";
import { splitDemoRows } from "../../src/demo-data/demo-row-split.js";
import { demoTimeWindow } from "../../src/demo-data/demo-time-window.js";
import { tableColumns } from "../../src/demo-data/generator-plan.js";
import { hasDemoData, loadDemoData, type DemoDataSummary } from "../../src/demo-data/load-demo-data.js";
import { ProgressBar, renderProgressBar } from "../../src/demo-data/progress-bar.js";

const ROWS = 20_000;
const NOW = new Date("2026-11-22T10:37:12Z");
const WINDOW = demoTimeWindow(NOW);
const HOUR_START = "2026-11-22 10:00:00";
const WINDOW_START = "2026-11-08 10:00:00";

const GENERIC_TABLES = [
  "generic_metric_counters_aggregated_local",
  "generic_metric_distributions_aggregated_local",
  "generic_metric_sets_local",
  "generic_metric_gauges_aggregated_local",
] as const;
const LEGACY_TABLES = ["metrics_counters_v2_local", "metrics_distributions_v2_local", "metrics_sets_v2_local"] as const;
const METRICS_TABLES = [...GENERIC_TABLES, ...LEGACY_TABLES];
/** Where the metrics rows are written: the views fill the tables above from them. */
const RAW_TABLES = [
  "generic_metric_counters_raw_local",
  "generic_metric_distributions_raw_local",
  "generic_metric_sets_raw_local",
  "generic_metric_gauges_raw_local",
  "metrics_raw_v2_local",
] as const;
const GROUP_TABLES = ["groupedmessage_local", "groupassignee_local", "group_attributes_local"];
const ALL_TABLES = ["errors_local", ...GROUP_TABLES, "transactions_local", ...METRICS_TABLES, "eap_items_1_local"];

let store: ColumnstoreClient;
let dataDir: string;
let summary: DemoDataSummary;
const logLines: string[] = [];

async function rows<T = Record<string, unknown>>(sql: string): Promise<T[]> {
  const result = await store.client.query({ query: sql, format: "JSONEachRow" });
  return result.json<T>();
}

async function one<T = Record<string, unknown>>(sql: string): Promise<T> {
  const [row] = await rows<T>(sql);
  if (!row) throw new Error(`no row for ${sql}`);
  return row;
}

function timeColumnOf(table: string): string {
  return table.startsWith("generic_metric_gauges") ? "rounded_timestamp" : "timestamp";
}

/**
 * A checksum of a table's content that does not depend on how parts were merged: plain
 * columns hashed row by row, aggregate states finalized (and rounded where merge order could
 * change the last bits of a float).
 */
async function checksum(table: string): Promise<string> {
  const columns = (await tableColumns(store.client, table)) ?? [];
  const plain = columns.filter((c) => !c.type.startsWith("AggregateFunction("));
  const parts = [`count()`, `sum(cityHash64(formatRow('TSV', ${plain.map((c) => `\`${c.name}\``).join(", ")})))`];
  for (const column of columns) {
    const type = parseAggregateFunctionType(column.type);
    if (!type) continue;
    const value = `finalizeAggregation(\`${column.name}\`)`;
    if (type.name.startsWith("quantiles")) parts.push(`round(sum(arraySum(${value})), 3)`);
    else if (type.name === "histogram") parts.push(`sum(length(${value}))`);
    else parts.push(`round(sum(toFloat64(${value})), 3)`);
  }
  const row = await one<Record<string, unknown>>(`SELECT ${parts.join(", ")} FROM ${table}`);
  return JSON.stringify(Object.values(row));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "quarry-demo-data-"));
  store = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  await runMigrations(store.client, defaultRegistry());
  expect(await hasDemoData(store.client)).toBe(false);
  summary = await loadDemoData(store.client, { rows: ROWS, log: (line) => logLines.push(line), progress: false, now: NOW });
});

afterAll(async () => {
  await store?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("loading", () => {
  it("reports every table, one log line per table plus a total", () => {
    expect(summary.skippedTables).toEqual([]);
    expect(summary.tables.map((t) => t.table).sort()).toEqual([...ALL_TABLES].sort());
    expect(logLines).toHaveLength(ALL_TABLES.length + 1);
    expect(summary.windowStart).toBe("2026-11-08T10:00:00.000Z");
    expect(summary.windowEnd).toBe("2026-11-22T10:00:00.000Z");
    expect(Math.abs(summary.totalRows - ROWS) / ROWS).toBeLessThan(0.1);
  });

  it("has one issue row per (project, group) of the events, for the joins", async () => {
    const issues = await one<{ n: number }>("SELECT count() AS n FROM (SELECT DISTINCT project_id, group_id FROM errors_local)");
    expect(Number(issues.n)).toBeGreaterThan(10);
    const grouped = await one<{ n: number; statuses: number; unmatched: number }>(
      `SELECT count() AS n, uniqExact(status) AS statuses,
        countIf((project_id, id) NOT IN (SELECT project_id, group_id FROM errors_local)) AS unmatched FROM groupedmessage_local`,
    );
    expect(Number(grouped.n)).toBe(Number(issues.n));
    expect(Number(grouped.statuses)).toBe(3);
    expect(Number(grouped.unmatched)).toBe(0);
    const attributes = await one<{ n: number }>("SELECT count() AS n FROM group_attributes_local");
    expect(Number(attributes.n)).toBe(Number(issues.n));
    const assigned = await one<{ n: number; mismatched: number }>(
      `SELECT count() AS n, countIf((project_id, group_id, user_id) NOT IN
        (SELECT project_id, group_id, assignee_user_id FROM group_attributes_local WHERE assignee_user_id IS NOT NULL)) AS mismatched
       FROM groupassignee_local`,
    );
    expect(Number(assigned.n)).toBeGreaterThan(0);
    expect(Number(assigned.n)).toBeLessThan(Number(issues.n));
    expect(Number(assigned.mismatched)).toBe(0);
  });

  it("writes the planned rows per table", async () => {
    const split = splitDemoRows(ROWS);
    const count = async (table: string) => Number((await one<{ c: number }>(`SELECT count() AS c FROM ${table}`)).c);
    expect(await count("errors_local")).toBe(split.events);
    expect(await count("transactions_local")).toBe(split.transactions);
    expect(await count("eap_items_1_local")).toBe(split.eapSpans + split.eapLogs);
    let metrics = 0;
    for (const table of METRICS_TABLES) {
      const n = await count(table);
      expect(n, table).toBeGreaterThan(0);
      metrics += n;
      expect(summary.tables.find((t) => t.table === table)?.rows).toBe(n);
    }
    expect(Math.abs(metrics - split.metrics) / split.metrics).toBeLessThan(0.35);
  });

  it("says the store has demo data", async () => {
    expect(await hasDemoData(store.client)).toBe(true);
  });
});

describe("scope and time", () => {
  it("has organization 1 and projects 1, 2 and 3 only", async () => {
    for (const table of ALL_TABLES) {
      const org = table.startsWith("eap") ? "organization_id" : table.includes("metric") ? "org_id" : "1";
      const r = await one<{ lo: number; hi: number; n: number; orgs: number[] }>(
        `SELECT min(project_id) AS lo, max(project_id) AS hi, uniqExact(project_id) AS n, groupUniqArray(${org}) AS orgs FROM ${table}`,
      );
      expect([r.lo, r.hi, r.orgs], table).toEqual([1, 3, [1]]);
      if (!table.startsWith("generic_metric_counters")) expect(r.n, table).toBe(3);
    }
  });

  it("keeps every timestamp in [hour(now) - 14 days, hour(now))", async () => {
    const within = async (table: string, column: string, where = "1") => {
      const r = await one<{ bad: number; n: number }>(
        `SELECT countIf(NOT (${column} >= toDateTime('${WINDOW_START}', 'UTC') AND ${column} < toDateTime('${HOUR_START}', 'UTC'))) AS bad, count() AS n FROM ${table} WHERE ${where}`,
      );
      expect(r.n, `${table}.${column}`).toBeGreaterThan(0);
      expect(r.bad, `${table}.${column}`).toBe(0);
    };
    await within("errors_local", "timestamp");
    await within("errors_local", "received");
    await within("transactions_local", "start_ts");
    await within("transactions_local", "finish_ts");
    await within("eap_items_1_local", "timestamp");
    for (const table of GENERIC_TABLES) await within(table, timeColumnOf(table), "granularity < 3");
    for (const table of LEGACY_TABLES) await within(table, "timestamp", "granularity < 86400");
    // Daily buckets start at midnight, the day of the window's start at the earliest.
    const daily = await one<{ lo: string }>(
      "SELECT toString(min(timestamp)) AS lo FROM generic_metric_distributions_aggregated_local WHERE granularity = 3",
    );
    expect(daily.lo).toBe("2026-11-08 00:00:00");
    expect(WINDOW.end - WINDOW.start).toBe(14 * 86_400);
  });

  it("spreads events over the whole window with a daily rhythm", async () => {
    const days = await one<{ d: number }>("SELECT uniqExact(toDate(timestamp)) AS d FROM errors_local");
    expect(days.d).toBe(15);
    const hours = await one<{ night: number; afternoon: number }>(
      "SELECT countIf(toHour(timestamp) BETWEEN 1 AND 4) AS night, countIf(toHour(timestamp) BETWEEN 12 AND 15) AS afternoon FROM errors_local",
    );
    expect(hours.afternoon).toBeGreaterThan(hours.night * 3);
  });
});

describe("events", () => {
  it("keeps tags consistent with the promoted columns", async () => {
    const r = await one<Record<string, number>>(`
      SELECT
        countIf(tags.value[indexOf(tags.key, 'environment')] != environment) AS bad_environment,
        countIf(tags.value[indexOf(tags.key, 'sentry:release')] != release) AS bad_release,
        countIf(tags.value[indexOf(tags.key, 'level')] != level) AS bad_level,
        countIf(tags.value[indexOf(tags.key, 'sentry:user')] != user) AS bad_user,
        countIf(tags.value[indexOf(tags.key, 'transaction')] != transaction_name) AS bad_transaction,
        countIf(ifNull(tags.value[indexOf(tags.key, 'sentry:dist')], '') != ifNull(dist, '')) AS bad_dist,
        countIf(length(tags.key) != length(tags.value)) AS bad_lengths,
        countIf(contexts.value[indexOf(contexts.key, 'trace.trace_id')] != replaceAll(toString(trace_id), '-', '')) AS bad_trace,
        countIf(contexts.value[indexOf(contexts.key, 'trace.span_id')] != leftPad(lower(hex(span_id)), 16, '0')) AS bad_span,
        countIf(type = 'error' AND tags.value[indexOf(tags.key, 'handled')] != if(exception_stacks.mechanism_handled[1] = 1, 'yes', 'no')) AS bad_handled,
        countIf(user != '' AND user != concat('id:', user_id)) AS bad_user_id,
        countIf(platform != ['python', 'javascript', 'node'][project_id]) AS bad_platform,
        countIf(NOT startsWith(release, ['backend@', 'frontend@', 'worker@'][project_id])) AS bad_release_package,
        countIf(tags.value[indexOf(tags.key, 'browser.name')] != contexts.value[indexOf(contexts.key, 'browser.name')]) AS bad_browser
      FROM errors_local`);
    expect(r).toEqual(Object.fromEntries(Object.keys(r).map((k) => [k, 0])));
  });

  it("has realistic levels, environments, issues and exceptions", async () => {
    const levels = await rows<{ level: string; c: number }>("SELECT level, count() AS c FROM errors_local GROUP BY level ORDER BY c DESC");
    expect(levels.map((l) => l.level)).toEqual(["error", "warning", "info", "fatal"]);
    const share = (name: string) => (levels.find((l) => l.level === name)?.c ?? 0) / ROWS / 0.45;
    expect(share("error")).toBeGreaterThan(0.6);
    expect(share("fatal")).toBeGreaterThan(0.02);
    const envs = await rows<{ e: string }>("SELECT environment AS e FROM errors_local GROUP BY e ORDER BY count() DESC");
    expect(envs.map((e) => e.e)).toEqual(["production", "staging", "development"]);
    const r = await one<Record<string, number>>(`
      SELECT uniqExact(group_id) AS groups, uniqExact(primary_hash) AS hashes, uniqExact(event_id) AS ids,
             uniqExact(release) AS releases, countIf(type = 'error' AND length(exception_stacks.type) != 1) AS bad_stacks,
             countIf(type = 'default' AND length(exception_stacks.type) != 0) AS bad_messages,
             countIf(type = 'error' AND title != exception_stacks.type[1] AND NOT startsWith(title, concat(exception_stacks.type[1], ': '))) AS bad_titles,
             countIf(retention_days != 90 OR deleted != 0) AS bad_meta, uniqExact(user_id) AS users
      FROM errors_local`);
    expect(r.groups).toBe(r.hashes);
    expect(r.groups).toBeGreaterThan(20);
    expect(r.ids).toBe(splitDemoRows(ROWS).events);
    expect(r.releases).toBe(15);
    expect([r.bad_stacks, r.bad_messages, r.bad_titles, r.bad_meta]).toEqual([0, 0, 0, 0]);
    expect(r.users).toBeGreaterThan(500);
  });
});

describe("transactions", () => {
  it("has consistent times, statuses and tags", async () => {
    const r = await one<Record<string, number>>(`
      SELECT
        countIf((toUnixTimestamp(finish_ts) * 1000 + finish_ms) - (toUnixTimestamp(start_ts) * 1000 + start_ms) != duration) AS bad_duration,
        countIf(tags.value[indexOf(tags.key, 'environment')] != environment) AS bad_environment,
        countIf(tags.value[indexOf(tags.key, 'sentry:release')] != release) AS bad_release,
        countIf(tags.value[indexOf(tags.key, 'transaction')] != transaction_name) AS bad_transaction,
        countIf(tags.value[indexOf(tags.key, 'transaction.op')] != transaction_op) AS bad_op,
        countIf((transaction_status = 0) != (tags.value[indexOf(tags.key, 'transaction.status')] = 'ok')) AS bad_status,
        countIf(length(measurements.key) != length(measurements.value)) AS bad_measurements,
        countIf(transaction_op = 'pageload' AND NOT has(measurements.key, 'lcp')) AS bad_vitals,
        countIf(project_id != 2 AND length(measurements.key) > 0) AS bad_backend_vitals,
        countIf(length(spans.op) != length(spans.exclusive_time)) AS bad_spans
      FROM transactions_local`);
    expect(r).toEqual(Object.fromEntries(Object.keys(r).map((k) => [k, 0])));
  });

  it("has log-normal durations around p50 ~120 ms, p95 ~1 s, mostly ok", async () => {
    const r = await one<{ q: number[]; ok: number; n: number; names: number }>(
      "SELECT quantiles(0.5, 0.95)(duration) AS q, countIf(transaction_status = 0) AS ok, count() AS n, uniqExact(transaction_name) AS names FROM transactions_local",
    );
    const [p50 = 0, p95 = 0] = r.q;
    expect(p50).toBeGreaterThan(70);
    expect(p50).toBeLessThan(200);
    expect(p95).toBeGreaterThan(500);
    expect(p95).toBeLessThan(2000);
    expect(r.ok / r.n).toBeGreaterThan(0.85);
    expect(r.names).toBe(18);
  });
});

describe("metrics", () => {
  it("uses the granularity encodings and aligns timestamps to them", async () => {
    for (const table of GENERIC_TABLES) {
      const r = await rows<{ g: number; misaligned: number }>(
        `SELECT granularity AS g, countIf(toUnixTimestamp(${timeColumnOf(table)}) % [10, 60, 3600, 86400][granularity + 1] != 0) AS misaligned FROM ${table} GROUP BY g ORDER BY g`,
      );
      expect(r, table).toEqual([0, 1, 2, 3].map((g) => ({ g, misaligned: 0 })));
    }
    for (const table of LEGACY_TABLES) {
      const r = await rows<{ g: number; misaligned: number }>(
        `SELECT granularity AS g, countIf(toUnixTimestamp(timestamp) % granularity != 0) AS misaligned FROM ${table} GROUP BY g ORDER BY g`,
      );
      expect(r, table).toEqual([10, 60, 3600, 86400].map((g) => ({ g, misaligned: 0 })));
    }
  });

  it("merges states, and every granularity agrees on totals", async () => {
    const counters = await rows<{ g: number; v: number }>(
      "SELECT granularity AS g, sumMerge(value) AS v FROM generic_metric_counters_aggregated_local GROUP BY g ORDER BY g",
    );
    expect(counters).toHaveLength(4);
    expect(counters[0]?.v).toBeGreaterThan(0);
    expect(new Set(counters.map((c) => c.v)).size).toBe(1);

    const duration = await one<{ q: number[]; n: number; lo: number; hi: number; avg: number }>(`
      SELECT quantilesMerge(0.5, 0.75, 0.9, 0.95, 0.99)(percentiles) AS q, countMerge(count) AS n, minMerge(min) AS lo,
             maxMerge(max) AS hi, avgMerge(avg) AS avg
      FROM generic_metric_distributions_aggregated_local
      WHERE metric_id = ${DEMO_METRIC_IDS["d:transactions/duration@millisecond"]} AND granularity = 2`);
    expect(duration.q).toHaveLength(5);
    expect([...duration.q].sort((a, b) => a - b)).toEqual(duration.q);
    expect(duration.n).toBeGreaterThan(0);
    expect(duration.lo).toBeLessThanOrEqual(duration.q[0] ?? 0);
    expect(duration.hi).toBeGreaterThanOrEqual(duration.q[4] ?? 0);

    const weighted = await one<{ a: number; b: number; h: number }>(`
      SELECT countMerge(count) AS a, sumMerge(count_weighted) AS b, length(histogramMerge(250)(histogram_buckets)) AS h
      FROM generic_metric_distributions_aggregated_local WHERE granularity = 1`);
    expect(weighted.a).toBe(weighted.b);
    expect(weighted.h).toBeGreaterThan(0);

    const sets = await rows<{ g: number; u: number }>(
      "SELECT granularity AS g, uniqCombined64Merge(value) AS u FROM generic_metric_sets_local GROUP BY g ORDER BY g",
    );
    expect(sets[0]?.u).toBeGreaterThan(0);
    expect(new Set(sets.map((s) => s.u)).size).toBe(1);

    const gauges = await rows<{ g: number; n: number; lo: number; hi: number; last: number }>(
      `SELECT granularity AS g, sumMerge(count) AS n, minMerge(min) AS lo, maxMerge(max) AS hi, argMaxMerge(last) AS last
       FROM generic_metric_gauges_aggregated_local WHERE metric_id = ${DEMO_METRIC_IDS["g:custom/queue.depth@none"]} GROUP BY g ORDER BY g`,
    );
    expect(gauges).toHaveLength(4);
    expect(new Set(gauges.map((x) => JSON.stringify([x.n, x.lo, x.hi, x.last]))).size).toBe(1);
    expect(gauges[0]?.lo).toBeLessThanOrEqual(gauges[0]?.last ?? 0);

    const legacy = await rows<{ g: number; v: number }>(
      "SELECT granularity AS g, sumMerge(value) AS v FROM metrics_counters_v2_local GROUP BY g ORDER BY g",
    );
    expect(legacy[0]?.v).toBeGreaterThan(0);
    expect(new Set(legacy.map((c) => c.v)).size).toBe(1);
    const legacyDurations = await one<{ q: number[] }>(
      "SELECT quantilesMerge(0.5, 0.75, 0.9, 0.95, 0.99)(percentiles) AS q FROM metrics_distributions_v2_local WHERE granularity = 3600",
    );
    expect(legacyDurations.q[0]).toBeGreaterThan(0);
  });

  it("uses only ids from DEMO_INDEXER_MAPPINGS, with raw tag values in generic metrics", async () => {
    const metricIds = new Set<number>(Object.values(DEMO_METRIC_IDS));
    const keyIds = new Set<number>(Object.values(DEMO_TAG_KEY_IDS));
    const valueIds = new Set<number>(Object.values(DEMO_TAG_VALUE_IDS));
    for (const table of METRICS_TABLES) {
      const r = await one<{ metrics: number[]; keys: number[]; uses: string[]; lengths: number }>(`
        SELECT groupUniqArray(metric_id) AS metrics, groupUniqArrayArray(tags.key) AS keys, groupUniqArray(use_case_id) AS uses,
               countIf(length(tags.key) != length(${table.startsWith("generic") ? "tags.raw_value" : "tags.value"})) AS lengths
        FROM ${table}`);
      for (const id of r.metrics) expect(metricIds.has(id), `${table} metric ${id}`).toBe(true);
      for (const id of r.keys) expect(keyIds.has(id), `${table} tag key ${id}`).toBe(true);
      expect(r.lengths).toBe(0);
      if (table.startsWith("generic")) {
        expect(r.uses.every((u) => ["transactions", "spans", "custom"].includes(u)), table).toBe(true);
      } else {
        expect(r.uses).toEqual(["sessions"]);
        const values = await one<{ v: number[] }>(`SELECT groupUniqArrayArray(tags.value) AS v FROM ${table}`);
        for (const id of values.v) expect(valueIds.has(id), `${table} tag value ${id}`).toBe(true);
      }
    }
    const generic = await one<{ nonzero: number; envs: string[] }>(`
      SELECT countIf(arrayExists(v -> v != 0, tags.indexed_value)) AS nonzero,
             groupUniqArray(tags.raw_value[indexOf(tags.key, ${DEMO_TAG_KEY_IDS.environment})]) AS envs
      FROM generic_metric_distributions_aggregated_local WHERE metric_id = ${DEMO_METRIC_IDS["d:transactions/duration@millisecond"]}`);
    expect(generic.nonzero).toBe(0);
    expect([...generic.envs].sort()).toEqual(["production", "staging"]);
    const uses = await rows<{ u: string }>("SELECT DISTINCT use_case_id AS u FROM generic_metric_counters_aggregated_local ORDER BY u");
    expect(uses.map((x) => x.u)).toEqual(["custom", "transactions"]);
  });

  it("has unique, JSON-safe indexer ids", () => {
    const ids = Object.values(DEMO_INDEXER_MAPPINGS);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
    expect(DEMO_INDEXER_MAPPINGS["d:transactions/duration@millisecond"]).toBe(101);
  });
});

describe("eap_items", () => {
  const bucket = (name: string) => fnv1a32(name) % 40;

  it("puts each attribute in its FNV-1a bucket and nowhere else", async () => {
    const cases: [string, "string" | "float", number][] = [
      ["sentry.op", "string", 1],
      ["sentry.description", "string", 1],
      ["sentry.duration_ms", "float", 1],
      ["sentry.body", "string", 3],
      ["sentry.severity_text", "string", 3],
      ["sentry.severity_number", "float", 3],
    ];
    for (const [name, type, itemType] of cases) {
      const own = `attributes_${type}_${bucket(name)}`;
      const others = Array.from({ length: 40 }, (_, i) => i)
        .filter((i) => i !== bucket(name))
        .map((i) => `mapContains(attributes_${type}_${i}, '${name}')`)
        .join(" OR ");
      const r = await one<{ missing: number; elsewhere: number; n: number }>(
        `SELECT countIf(NOT mapContains(${own}, '${name}')) AS missing, countIf(${others}) AS elsewhere, count() AS n
         FROM eap_items_1_local WHERE item_type = ${itemType}`,
      );
      expect(r.n, name).toBeGreaterThan(0);
      expect([r.missing, r.elsewhere], name).toEqual([0, 0]);
    }
  });

  it("has unsampled spans and logs with typed attributes", async () => {
    const r = await rows<{ t: number; n: number; w: number[]; f: number[]; ints: number }>(`
      SELECT item_type AS t, count() AS n, groupUniqArray(sampling_weight) AS w, groupUniqArray(sampling_factor) AS f,
             countIf(mapContains(attributes_int, 'sentry.severity_number')) AS ints
      FROM eap_items_1_local GROUP BY t ORDER BY t`);
    const split = splitDemoRows(ROWS);
    expect(r).toEqual([
      { t: 1, n: split.eapSpans, w: [1], f: [1], ints: 0 },
      { t: 3, n: split.eapLogs, w: [1], f: [1], ints: split.eapLogs },
    ]);
    const segments = await one<{ segments: number; n: number; traces: number }>(
      "SELECT countIf(attributes_bool['sentry.is_segment']) AS segments, count() AS n, uniqExact(trace_id) AS traces FROM eap_items_1_local WHERE item_type = 1",
    );
    expect(segments.segments).toBe(segments.traces);
    expect(segments.n / segments.traces).toBeCloseTo(6, 0);
    const ops = await rows<{ op: string }>(
      `SELECT attributes_string_${bucket("sentry.op")}['sentry.op'] AS op FROM eap_items_1_local WHERE item_type = 1 GROUP BY op ORDER BY count() DESC LIMIT 1`,
    );
    expect(ops[0]?.op).toBe("db");
  });
});

describe("helpers", () => {
  it("splits rows 45/45/6/4", () => {
    expect(splitDemoRows(1_000_000)).toEqual({ events: 450_000, transactions: 450_000, metrics: 60_000, eapSpans: 30_000, eapLogs: 10_000 });
    const big = splitDemoRows(5_000_000);
    expect(big.events + big.transactions + big.metrics + big.eapSpans + big.eapLogs).toBe(5_000_000);
    expect(() => splitDemoRows(-1)).toThrow();
  });

  it("draws a single-line progress bar", () => {
    expect(renderProgressBar(420_000, 1_000_000, "events", 10)).toBe("[####      ] 42% events 420000/1000000");
    const out: string[] = [];
    const bar = new ProgressBar(10, { write: (text: string) => out.push(text) }, 4);
    bar.update(5, "transactions");
    bar.update(10, "eap");
    bar.finish();
    // The shorter second line is padded to wipe the end of the first.
    expect(out).toEqual(["\r[##  ] 50% transactions 5/10", `\r[####] 100% eap 10/10${" ".repeat(7)}`, "\n"]);
  });
});

describe("determinism", () => {
  it("reloads identical rows within the same hour, different ones in another hour", async () => {
    const before = new Map<string, string>();
    for (const table of ALL_TABLES) before.set(table, await checksum(table));

    await loadDemoData(store.client, { rows: ROWS, log: () => undefined, progress: false, now: new Date("2026-11-22T10:05:00Z") });
    for (const table of ALL_TABLES) expect(await checksum(table), table).toBe(before.get(table));

    await loadDemoData(store.client, { rows: ROWS, log: () => undefined, progress: false, now: new Date("2026-11-22T11:05:00Z") });
    expect(await checksum("errors_local")).not.toBe(before.get("errors_local"));
    expect(await checksum("generic_metric_counters_aggregated_local")).not.toBe(
      before.get("generic_metric_counters_aggregated_local"),
    );
  });
});

/**
 * The raw tables keep rows 7 days by the real clock (their TTL), so this part loads a window
 * ending now and compares what lies in the last 6 days; it runs last, as it replaces the data.
 */
describe("metrics through the raw tables", () => {
  const recentDays = 6;
  let since = "";
  let windowEnd = 0;

  beforeAll(async () => {
    const now = new Date();
    await loadDemoData(store.client, { rows: ROWS, log: () => undefined, progress: false, now });
    windowEnd = demoTimeWindow(now).end;
    since = `toDateTime(${Math.floor(windowEnd / 86_400 - recentDays) * 86_400})`;
  });

  async function recentCounterSums(): Promise<{ raw: number; rawRows: number; aggregated: number[]; legacyRaw: number; legacy: number[] }> {
    return one(`
      SELECT (SELECT sum(count_value) FROM generic_metric_counters_raw_local WHERE timestamp >= ${since}) AS raw,
             (SELECT count() FROM generic_metric_counters_raw_local WHERE timestamp >= ${since}) AS rawRows,
             (SELECT groupArray(v) FROM (SELECT granularity, sumMerge(value) AS v FROM generic_metric_counters_aggregated_local
                WHERE timestamp >= ${since} GROUP BY granularity ORDER BY granularity)) AS aggregated,
             (SELECT sum(count_value) FROM metrics_raw_v2_local WHERE metric_type = 'counter' AND timestamp >= ${since}) AS legacyRaw,
             (SELECT groupArray(v) FROM (SELECT granularity, sumMerge(value) AS v FROM metrics_counters_v2_local
                WHERE timestamp >= ${since} GROUP BY granularity ORDER BY granularity)) AS legacy`);
  }

  it("writes every raw table, and each view fills its aggregated table at every granularity", async () => {
    for (const table of RAW_TABLES) {
      const r = await one<{ n: number }>(`SELECT count() AS n FROM ${table} WHERE timestamp >= ${since}`);
      expect(r.n, table).toBeGreaterThan(0);
    }
    const sums = await recentCounterSums();
    expect(sums.raw).toBeGreaterThan(0);
    expect(sums.aggregated).toEqual([sums.raw, sums.raw, sums.raw, sums.raw]);
    expect(sums.legacy).toEqual([sums.legacyRaw, sums.legacyRaw, sums.legacyRaw, sums.legacyRaw]);
    const types = await rows<{ t: string; v: number }>(
      "SELECT metric_type AS t, any(materialization_version) AS v FROM metrics_raw_v2_local GROUP BY t ORDER BY t",
    );
    expect(types).toEqual([
      { t: "counter", v: 4 },
      { t: "distribution", v: 4 },
      { t: "set", v: 4 },
    ]);
    const sets = await one<{ raw: number; aggregated: number }>(`
      SELECT (SELECT uniqExact(arrayJoin(set_values)) FROM generic_metric_sets_raw_local WHERE timestamp >= ${since}) AS raw,
             (SELECT uniqCombined64Merge(value) FROM generic_metric_sets_local WHERE granularity = 1 AND timestamp >= ${since}) AS aggregated`);
    expect(Math.abs(sets.aggregated - sets.raw) / sets.raw).toBeLessThan(0.02);
  });

  it("truncates the raw and the aggregated tables on reload, so nothing is counted twice", async () => {
    const before = await recentCounterSums();
    await loadDemoData(store.client, { rows: ROWS, log: () => undefined, progress: false, now: new Date() });
    const after = await recentCounterSums();
    // Within the same hour the data is the same; across an hour boundary the window moved.
    if (demoTimeWindow(new Date()).end === windowEnd) expect(after).toEqual(before);
    expect(after.rawRows).toBeLessThan(before.rawRows * 1.2);
    expect(after.aggregated).toEqual([after.raw, after.raw, after.raw, after.raw]);
  });
});
