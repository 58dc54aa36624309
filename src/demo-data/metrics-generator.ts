/**
 * Metrics demo data (generic_metrics_* and the release-health metrics_* tables), written as
 * ingestion writes it: one row per series and 10-second bucket into the storage's raw table
 * (generic_metric_*_raw_local, metrics_raw_v2_local), whose materialized view aggregates every
 * inserted block into the aggregated table at each granularity (10 s, 60 s, 1 h, 1 day). One
 * insert feeds every granularity, so they agree on sums and counts by construction.
 *
 * A raw row is what one Relay-aggregated message carries: row `number` belongs to one series (a
 * metric of a project with fixed tag values); each series' rows are spread evenly over the window
 * with a random offset inside their slot, so no two rows of a series share a 10-second bucket.
 * Each row holds a few samples: a count (counters), observed values (distributions), member ids
 * (sets) or the min/max/sum/count/last of the values (gauges).
 *
 * Columns are the ones the ingestion processors write (src/ingestion/processors/): the
 * materialization version each view selects, `timeseries_id`, raw tag values for generic metrics
 * (`tags.indexed_value` = 0) with the message's retention for the minute rows, indexed tag
 * values for release health (`tags.value`, DEMO_TAG_VALUE_IDS). Two generic-metrics columns take
 * what two aggregation options would give, both at once (a message carries one option): every
 * granularity in `granularities` (`ten_second`), so 10-second queries have data, and
 * `enable_histogram` on distributions (`hist`), so histogram queries do.
 */
import { MATERIALIZATION_VERSIONS } from "../ingestion/processors/generic-metrics-processor.js";
import { genericTimeseriesId, releaseHealthTimeseriesId } from "../ingestion/processors/metric-timeseries-id.js";
import { RELEASE_HEALTH_MATERIALIZATION_VERSION } from "../ingestion/processors/release-health-metrics-processor.js";
import { DEMO_TAG_KEY_IDS, DEMO_TAG_VALUE_IDS } from "./demo-indexer-mappings.js";
import type { MetricSeries, MetricsTableSeries } from "./demo-metric-series.js";
import type { DemoTimeWindow } from "./demo-time-window.js";
import { DEMO_ORGANIZATION_ID } from "./demo-vocabulary.js";
import type { GeneratorPlan } from "./generator-plan.js";
import { hash, normal, numberArray, numberArrayArray, stringArray, stringArrayArray, uniform } from "./random-sql.js";

/** The finest granularity: one raw row per series and bucket of this many seconds. */
export const BASE_GRANULARITY_SECONDS = 10;

/** Every granularity of the generic tables' enum (0 = 10 s, 1 = 60 s, 2 = 1 h, 3 = 1 day). */
const GENERIC_GRANULARITIES = [0, 1, 2, 3] as const;

/** The retention the demo rows ask for (the views clamp the 10-second rows to the table's 7 days). */
export const DEMO_METRICS_RETENTION_DAYS = 90;

/** Rows per series, proportional to sqrt(weight) (largest remainder), each at most `max`. */
export function allocateRows(weights: readonly number[], rows: number, max: number): number[] {
  const shares = weights.map((w) => Math.sqrt(Math.max(w, 0)));
  const total = shares.reduce((a, b) => a + b, 0) || 1;
  const exact = shares.map((s) => (s / total) * rows);
  const counts = exact.map((e) => Math.min(max, Math.floor(e)));
  let left = rows - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    if ((counts[i] ?? 0) < max) {
      counts[i] = (counts[i] ?? 0) + 1;
      left -= 1;
    }
  }
  return counts;
}

/** The indexer id of a release-health tag value. */
export function demoTagValueId(value: string): number {
  const id = (DEMO_TAG_VALUE_IDS as Record<string, number>)[value];
  if (id === undefined) throw new Error(`tag value '${value}' has no id in DEMO_TAG_VALUE_IDS`);
  return id;
}

/** The `timeseries_id` a processor computes for a message of this series (tag keys as id text). */
export function seriesTimeseriesId(series: MetricSeries, generic: boolean): number {
  const ids = [BigInt(DEMO_ORGANIZATION_ID), BigInt(series.project), BigInt(series.metricId)] as const;
  if (generic) return genericTimeseriesId(...ids, series.tags.map(([key, value]) => [String(DEMO_TAG_KEY_IDS[key]), value] as const));
  return releaseHealthTimeseriesId(...ids, series.tags.map(([key, value]) => [String(DEMO_TAG_KEY_IDS[key]), BigInt(demoTagValueId(value))] as const));
}

/** The columns that hold one raw row's value, per metric kind (over the `samples` / `ids` variables). */
function valueColumns(spec: MetricsTableSeries): Record<string, string> {
  switch (spec.kind) {
    case "counter":
      return { count_value: "toFloat64(m)" };
    case "set":
      return { set_values: "ids" };
    case "distribution":
      return spec.generic ? { distribution_values: "samples", enable_histogram: "toUInt8(1)" } : { distribution_values: "samples" };
    case "gauge":
      return {
        "gauges_values.last": "[arrayElement(samples, -1)]",
        "gauges_values.min": "[arrayMin(samples)]",
        "gauges_values.max": "[arrayMax(samples)]",
        "gauges_values.sum": "[arraySum(samples)]",
        "gauges_values.count": "[toUInt64(length(samples))]",
      };
  }
}

/** The raw rows of one metrics table, `rows` of them, for its raw table `rawTable`. */
export function metricsRawPlan(window: DemoTimeWindow, rawTable: string, spec: MetricsTableSeries, rows: number): GeneratorPlan {
  const buckets = Math.floor((window.end - window.start) / BASE_GRANULARITY_SECONDS);
  const series = spec.series;
  const counts = allocateRows(series.map((s) => s.weight), rows, buckets);
  const ends: number[] = [];
  let running = 0;
  for (const count of counts) {
    running += count;
    ends.push(running);
  }
  const starts = ends.map((end, i) => end - (counts[i] ?? 0));
  const at = (values: string) => `arrayElement(${values}, s)`;
  const salt = 300 + spec.storage.length;

  const variables: [string, string][] = [
    ["s", `arrayFirstIndex(e -> e > number, ${numberArray(ends)})`],
    ["k", `number - ${at(numberArray(starts))}`],
    ["n", at(numberArray(counts))],
    ["bucket", `toUInt32(floor((k + ${uniform(salt)}) * ${buckets} / n))`],
    ["ts", `toUInt32(${window.start} + bucket * ${BASE_GRANULARITY_SECONDS})`],
    ["m", `toUInt32(1 + ${hash(salt + 1)} % ${at(numberArray(series.map((x) => x.maxSamples)))})`],
    ["median", at(numberArray(series.map((x) => x.median)))],
    ["sigma", at(numberArray(series.map((x) => x.sigma)))],
  ];
  if (spec.kind === "distribution" || spec.kind === "gauge") {
    variables.push(["samples", `arrayMap(i -> round(median * exp(sigma * ${normal(salt + 2, "number, i")}), 3), range(m))`]);
  }
  if (spec.kind === "set") {
    variables.push([
      "ids",
      `arrayMap(i -> toUInt64(${at(numberArray(series.map((x) => x.project)))} * 1000000 + ${hash(salt + 2, "number, i")} % ${at(numberArray(series.map((x) => x.pool)))}), range(m))`,
    ]);
  }

  const tagKeys = series.map((x) => x.tags.map(([key]) => DEMO_TAG_KEY_IDS[key]));
  const tagKeysSql = `arrayMap(x -> toUInt64(x), ${at(numberArrayArray(tagKeys))})`;
  const out: Record<string, string> = {
    use_case_id: at(stringArray(series.map((x) => x.useCase))),
    org_id: `toUInt64(${DEMO_ORGANIZATION_ID})`,
    project_id: `toUInt64(${at(numberArray(series.map((x) => x.project)))})`,
    metric_id: `toUInt64(${at(numberArray(series.map((x) => x.metricId)))})`,
    timestamp: "toDateTime(ts)",
    retention_days: `toUInt16(${DEMO_METRICS_RETENTION_DAYS})`,
    "tags.key": tagKeysSql,
    metric_type: `'${spec.kind}'`,
    materialization_version: String(spec.generic ? MATERIALIZATION_VERSIONS[spec.kind] : RELEASE_HEALTH_MATERIALIZATION_VERSION),
    timeseries_id: `toUInt32(${at(numberArray(series.map((x) => seriesTimeseriesId(x, spec.generic))))})`,
    ...valueColumns(spec),
  };
  if (spec.generic) {
    out["tags.indexed_value"] = `arrayMap(x -> toUInt64(0), ${tagKeysSql})`;
    out["tags.raw_value"] = at(stringArrayArray(series.map((x) => x.tags.map(([, value]) => value))));
    out.granularities = `CAST(${numberArray(GENERIC_GRANULARITIES)}, 'Array(UInt8)')`;
    out.min_retention_days = `toUInt8(${Math.min(DEMO_METRICS_RETENTION_DAYS, 255)})`;
    out.record_meta = "toUInt8(1)";
  } else {
    const valueIds = series.map((x) => x.tags.map(([, value]) => demoTagValueId(value)));
    out["tags.value"] = `arrayMap(x -> toUInt64(x), ${at(numberArrayArray(valueIds))})`;
  }
  return { label: "metrics", table: rawTable, rows: ends[ends.length - 1] ?? 0, variables, columns: out };
}
