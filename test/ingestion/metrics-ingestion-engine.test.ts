/**
 * Metrics messages through the processors into the raw tables of a real embedded engine, and
 * back out of the aggregated tables through SnQL: every example Sentry ships for
 * `snuba-generic-metrics` and `snuba-metrics` (read from the installed sentry-kafka-schemas
 * package), and insert deduplication through the materialized views, as the consumer will use it
 * (a block per partition, `insert_deduplication_token`, deduplicate_blocks_in_dependent_materialized_views).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import type { IngestMessage, IngestRow, MessageProcessor } from "../../src/ingestion/message-processor.js";
import { genericMetricsProcessor, type GenericMetricType } from "../../src/ingestion/processors/generic-metrics-processor.js";
import { releaseHealthMetricsProcessor } from "../../src/ingestion/processors/release-health-metrics-processor.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";
import { topicExamples } from "../support/sentry-kafka-schemas.js";

const registry = defaultRegistry();
let engine: ColumnstoreClient;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "quarry-metrics-ingestion-"));
  engine = createColumnstoreClient({ dataDir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  await runMigrations(engine.client, registry);
});

afterAll(async () => {
  await engine?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const TYPES: GenericMetricType[] = ["counter", "set", "distribution", "gauge"];
const PROCESSORS = new Map(TYPES.map((type) => [type, genericMetricsProcessor(type)]));
/** The raw storage each processor writes, as the storage YAML will name it for the consumer. */
const RAW_STORAGES: Record<GenericMetricType, string> = {
  counter: "generic_metrics_counters_raw",
  set: "generic_metrics_sets_raw",
  distribution: "generic_metrics_distributions_raw",
  gauge: "generic_metrics_gauges_raw",
};

function tableOf(storage: string): string {
  const table = registry.storage(storage)?.table;
  if (!table) throw new Error(`no storage ${storage}`);
  return table;
}

function kafka(topic: string, offset: number, body: unknown, headers: Record<string, string> = {}): IngestMessage {
  return { topic, partition: 0, offset: String(offset), timestampMs: 0, key: null, value: Buffer.from(JSON.stringify(body)), headers };
}

function rowsOf(processor: MessageProcessor, message: IngestMessage): IngestRow[] {
  const result = processor.process(message);
  return result.kind === "rows" ? [...result.rows] : [];
}

/** One insert block, as the consumer sends it: with a token, deduplicated through the views. */
async function insert(table: string, rows: readonly IngestRow[], token?: string): Promise<void> {
  await engine.client.insert({
    table,
    values: [...rows],
    format: "JSONEachRow",
    clickhouse_settings: token === undefined ? {} : { insert_deduplication_token: token, deduplicate_blocks_in_dependent_materialized_views: 1 },
  });
}

/** A SnQL query prepared by Quarry's front end and run on the engine: its one row, by output name. */
async function snqlRow(text: string): Promise<Record<string, unknown>> {
  const prepared = prepareSnqlQuery(registry, text, false);
  const result = await engine.client.query({ query: prepared.sql, format: "JSONCompactEachRow" });
  const rows = await result.json<unknown[]>();
  expect(rows, text).toHaveLength(1);
  return Object.fromEntries(prepared.columnNames.map((name, i) => [name, rows[0]![i]]));
}

function dayRange(timestamp: number): string {
  const start = Math.floor(timestamp / 86_400) * 86_400;
  const text = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);
  return `timestamp >= toDateTime('${text(start)}') AND timestamp < toDateTime('${text(start + 86_400)}')`;
}

/** The rows of one series (metric, tags, day): what its aggregates must equal. */
interface Series {
  readonly type: GenericMetricType;
  readonly rows: IngestRow[];
}

function seriesKey(type: string, row: IngestRow): string {
  const day = Math.floor(Number(row.timestamp) / 86_400);
  return JSON.stringify([type, row.org_id, row.project_id, row.metric_id, row["tags.key"], row["tags.raw_value"] ?? row["tags.value"], day]);
}

const numbers = (values: unknown) => (values as number[]).map(Number);

describe("Sentry's snuba-generic-metrics examples", () => {
  const examples = () => topicExamples(inject("sentryKafkaSchemasDir"), "snuba-generic-metrics");

  it("are each taken by exactly the processor of their type, with or without the header", () => {
    const list = examples();
    expect(list.length).toBeGreaterThanOrEqual(8);
    const taken = new Set<GenericMetricType>();
    list.forEach((example, offset) => {
      const takers = TYPES.filter((type) => rowsOf(PROCESSORS.get(type)!, kafka("snuba-generic-metrics", offset, example)).length > 0);
      expect(takers, JSON.stringify(example).slice(0, 200)).toHaveLength(1);
      const type = takers[0]!;
      taken.add(type);
      const letter = type[0]!;
      for (const other of TYPES) {
        const withHeader = rowsOf(PROCESSORS.get(other)!, kafka("snuba-generic-metrics", offset, example, { metric_type: letter }));
        expect(withHeader).toEqual(other === type ? rowsOf(PROCESSORS.get(type)!, kafka("snuba-generic-metrics", offset, example)) : []);
      }
    });
    expect([...taken].sort()).toEqual(["counter", "distribution", "gauge", "set"]);
  });

  it("land in their raw tables and read back from the aggregated tables at every granularity, once although inserted twice", async () => {
    const series = new Map<string, Series>();
    const blocks: { table: string; rows: IngestRow[]; token: string }[] = [];
    examples().forEach((example, offset) => {
      for (const type of TYPES) {
        const rows = rowsOf(PROCESSORS.get(type)!, kafka("snuba-generic-metrics", offset, example));
        if (rows.length === 0) continue;
        blocks.push({ table: tableOf(RAW_STORAGES[type]), rows, token: `snuba-generic-metrics:0:${offset}-${offset}` });
        for (const row of rows) {
          const key = seriesKey(type, row);
          const entry = series.get(key) ?? { type, rows: [] };
          entry.rows.push(row);
          series.set(key, entry);
        }
      }
    });
    // The consumer replaying the same offsets after a crash: same blocks, same tokens.
    for (const block of [...blocks, ...blocks]) await insert(block.table, block.rows, block.token);

    let checked = 0;
    for (const { type, rows } of series.values()) {
      const first = rows[0]!;
      const keys = first["tags.key"] as (number | string)[];
      const values = first["tags.raw_value"] as string[];
      const where = `org_id = ${first.org_id} AND project_id = ${first.project_id} AND metric_id = ${first.metric_id} AND tags_raw[${keys[0]}] = '${values[0]}' AND ${dayRange(Number(first.timestamp))}`;
      for (const granularity of [60, 3600, 86400]) {
        const at = `${where} GRANULARITY ${granularity}`;
        switch (type) {
          case "counter": {
            const total = rows.reduce((sum, row) => sum + Number(row.count_value), 0);
            expect(await snqlRow(`MATCH (generic_metrics_counters) SELECT sum(value) AS total WHERE ${at}`)).toEqual({ total });
            break;
          }
          case "set": {
            const members = new Set(rows.flatMap((row) => numbers(row.set_values)));
            expect(await snqlRow(`MATCH (generic_metrics_sets) SELECT uniq(value) AS members WHERE ${at}`)).toEqual({ members: members.size });
            break;
          }
          case "distribution": {
            const all = rows.flatMap((row) => numbers(row.distribution_values));
            expect(await snqlRow(`MATCH (generic_metrics_distributions) SELECT count(value) AS n, min(value) AS low, max(value) AS high WHERE ${at}`)).toEqual({
              n: all.length,
              low: Math.min(...all),
              high: Math.max(...all),
            });
            break;
          }
          case "gauge": {
            const row = rows.at(-1)!;
            expect(await snqlRow(`MATCH (generic_metrics_gauges) SELECT last(value) AS last, min(value) AS low, max(value) AS high WHERE ${at}`)).toEqual({
              last: numbers(row["gauges_values.last"])[0],
              low: Math.min(...rows.flatMap((r) => numbers(r["gauges_values.min"]))),
              high: Math.max(...rows.flatMap((r) => numbers(r["gauges_values.max"]))),
            });
            break;
          }
        }
        checked += 1;
      }
    }
    expect(checked).toBe(series.size * 3);
    // Sentry's three set examples share a series: {1, 7} (base64 and zstd) and {0…5} (array).
    const sets = [...series.values()].filter((s) => s.type === "set");
    expect(sets.map((s) => new Set(s.rows.flatMap((row) => numbers(row.set_values))).size)).toEqual([7]);
  });
});

describe("Sentry's snuba-metrics examples", () => {
  it("land in metrics_raw and read back from metrics_sets at every granularity", async () => {
    const examples = topicExamples(inject("sentryKafkaSchemasDir"), "snuba-metrics");
    expect(examples.length).toBeGreaterThanOrEqual(2);
    const processor = releaseHealthMetricsProcessor();
    const rows = examples.flatMap((example, offset) => rowsOf(processor, kafka("snuba-metrics", offset, example)));
    expect(rows).toHaveLength(examples.length);
    await insert(tableOf("metrics_raw"), rows, "snuba-metrics:0:0-1");
    for (const row of rows) expect(row.retention_days).toBe(30);

    const first = rows[0]!;
    const members = new Set(rows.flatMap((row) => numbers(row.set_values)));
    const keys = first["tags.key"] as number[];
    const values = first["tags.value"] as number[];
    const where = `org_id = ${first.org_id} AND project_id = ${first.project_id} AND metric_id = ${first.metric_id} AND tags[${keys[0]}] = ${values[0]} AND ${dayRange(Number(first.timestamp))}`;
    for (const granularity of [10, 60, 3600, 86400]) {
      expect(await snqlRow(`MATCH (metrics_sets) SELECT uniq(value) AS members WHERE ${where} GRANULARITY ${granularity}`)).toEqual({ members: members.size });
    }
  });

  it("counters and distributions reach metrics_counters and metrics_distributions", async () => {
    const processor = releaseHealthMetricsProcessor();
    const message = (offset: number, type: string, value: unknown) =>
      kafka("snuba-metrics", offset, { org_id: 7, project_id: 8, metric_id: 9, type, value, timestamp: 1700000005, tags: { "4": 40 }, retention_days: 90 });
    const rows = [...rowsOf(processor, message(10, "c", 3)), ...rowsOf(processor, message(11, "c", 4.5)), ...rowsOf(processor, message(12, "d", [1, 2, 6]))];
    await insert(tableOf("metrics_raw"), rows, "snuba-metrics:0:10-12");
    const where = `org_id = 7 AND project_id = 8 AND metric_id = 9 AND tags[4] = 40 AND ${dayRange(1700000005)} GRANULARITY 10`;
    expect(await snqlRow(`MATCH (metrics_counters) SELECT sum(value) AS total WHERE ${where}`)).toEqual({ total: 7.5 });
    expect(await snqlRow(`MATCH (metrics_distributions) SELECT count(value) AS n, max(value) AS high WHERE ${where}`)).toEqual({ n: 3, high: 6 });
  });
});

describe("insert deduplication through the materialized views", () => {
  const now = Math.floor(Date.now() / 1000);

  function counterRows(metricId: number, timestamps: number[]): IngestRow[] {
    return timestamps.flatMap((timestamp, offset) =>
      rowsOf(
        PROCESSORS.get("counter")!,
        kafka("snuba-generic-metrics", offset, {
          use_case_id: "custom",
          org_id: 1,
          project_id: 1,
          metric_id: metricId,
          timestamp,
          sentry_received_timestamp: timestamp,
          tags: { "5": "x" },
          retention_days: 90,
          type: "c",
          value: 2,
        }),
      ),
    );
  }

  async function counted(metricId: number): Promise<{ raw: number; aggregated: number }> {
    const raw = await engine.client.query({ query: `SELECT count() AS n FROM ${tableOf("generic_metrics_counters_raw")} WHERE metric_id = ${metricId}`, format: "JSONEachRow" });
    const aggregated = await engine.client.query({
      query: `SELECT sumMerge(value) AS total FROM ${tableOf("generic_metrics_counters")} WHERE metric_id = ${metricId} AND granularity = 3`,
      format: "JSONEachRow",
    });
    return { raw: Number((await raw.json<{ n: number }>())[0]!.n), aggregated: Number((await aggregated.json<{ total: number }>())[0]!.total) };
  }

  it("counts a block inserted again with the same token once, and with another token twice", async () => {
    // Recent rows stay in the raw table (older ones fall to its 7-day TTL at once); two of them
    // four days apart, so the block spans two of the raw table's 3-day partitions.
    const rows = counterRows(900_001, [now - 3600, now - 3600, now - 4 * 86_400]);
    await insert(tableOf("generic_metrics_counters_raw"), rows, "snuba-generic-metrics:3:100-102");
    expect(await counted(900_001)).toEqual({ raw: 3, aggregated: 6 });
    await insert(tableOf("generic_metrics_counters_raw"), rows, "snuba-generic-metrics:3:100-102");
    expect(await counted(900_001)).toEqual({ raw: 3, aggregated: 6 });
    await insert(tableOf("generic_metrics_counters_raw"), rows, "snuba-generic-metrics:3:103-105");
    expect(await counted(900_001)).toEqual({ raw: 6, aggregated: 12 });
  });

  it("does not take a later insert without a token for a duplicate of the last one with a token", async () => {
    const rows = counterRows(900_002, [now - 60]);
    await insert(tableOf("generic_metrics_counters_raw"), rows, "snuba-generic-metrics:4:7-7");
    // The embedded engine keeps a query's settings on its session: the token must not outlive its insert.
    await insert(tableOf("generic_metrics_counters_raw"), counterRows(900_002, [now - 120]));
    expect(await counted(900_002)).toEqual({ raw: 2, aggregated: 4 });
  });

  it("holds for release-health metrics too", async () => {
    const processor = releaseHealthMetricsProcessor();
    const rows = rowsOf(processor, kafka("snuba-metrics", 0, { org_id: 2, project_id: 2, metric_id: 31, type: "c", value: 5, timestamp: now - 30, tags: {}, retention_days: 90 }));
    const total = async () => {
      const result = await engine.client.query({ query: `SELECT sumMerge(value) AS total FROM ${tableOf("metrics_counters")} WHERE metric_id = 31 AND granularity = 60`, format: "JSONEachRow" });
      return Number((await result.json<{ total: number }>())[0]!.total);
    };
    await insert(tableOf("metrics_raw"), rows, "snuba-metrics:1:0-0");
    await insert(tableOf("metrics_raw"), rows, "snuba-metrics:1:0-0");
    expect(await total()).toBe(5);
    await insert(tableOf("metrics_raw"), rows, "snuba-metrics:1:1-1");
    expect(await total()).toBe(10);
  });
});
