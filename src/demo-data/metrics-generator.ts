/**
 * Pre-aggregated metrics tables (generic_metrics_* and the legacy metrics_* tables).
 *
 * Rows are first written at the finest granularity, 10 seconds: row `number` belongs to one
 * series (a metric of a project with fixed tag values); each series' rows are spread evenly
 * over the window with a random offset inside their slot, so no two rows of a series share a
 * bucket. Each row aggregates a few samples into AggregateFunction states built from arrays
 * (`arrayReduce('quantilesState(...)', samples)`), typed exactly like the column.
 * The 60 / 3600 / 86400 second rows are then rolled up from the 10-second rows with
 * `-MergeState`, as Snuba's materialized views would have written them, so every granularity
 * agrees on sums and counts.
 *
 * Generic metrics store the granularity as an enum (10/60/3600/86400 -> 0/1/2/3), tag values as
 * raw strings (`tags.raw_value`, `tags.indexed_value` = 0); the legacy tables store seconds and
 * indexed tag values (`tags.value`, DEMO_TAG_VALUE_IDS).
 */
import { quoteIdentifier } from "../clickhouse/escaping.js";
import {
  mergeStateSql,
  parseAggregateFunctionType,
  stateFromArraysSql,
  type AggregateFunctionType,
} from "./aggregate-state-sql.js";
import { DEMO_TAG_KEY_IDS, DEMO_TAG_VALUE_IDS } from "./demo-indexer-mappings.js";
import type { MetricsTableSeries } from "./demo-metric-series.js";
import type { DemoTimeWindow } from "./demo-time-window.js";
import { DEMO_ORGANIZATION_ID } from "./demo-vocabulary.js";
import type { GeneratorPlan, TableColumn } from "./generator-plan.js";
import {
  hash,
  normal,
  numberArray,
  numberArrayArray,
  stringArray,
  stringArrayArray,
  uniform,
} from "./random-sql.js";

/** Granularities in seconds, finest first, and what generic metrics store for each. */
export const METRIC_GRANULARITIES = [10, 60, 3600, 86_400] as const;
const GENERIC_GRANULARITY_ENUM: Readonly<Record<number, number>> = { 10: 0, 60: 1, 3600: 2, 86_400: 3 };

const BASE_GRANULARITY = 10;

/** The stored value of a granularity in a table. */
function storedGranularity(generic: boolean, seconds: number): number {
  const stored = generic ? GENERIC_GRANULARITY_ENUM[seconds] : seconds;
  if (stored === undefined) throw new Error(`unsupported granularity ${seconds}`);
  return stored;
}

/** Rows per series, proportional to sqrt(weight) (largest remainder), each at most `max`. */
function allocateRows(weights: readonly number[], rows: number, max: number): number[] {
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

/** The time column of a metrics table: gauges use `rounded_timestamp`. */
function metricsTimeColumn(columns: readonly TableColumn[]): string {
  return columns.some((c) => c.name === "rounded_timestamp") ? "rounded_timestamp" : "timestamp";
}

function aggregateColumns(columns: readonly TableColumn[]): [TableColumn, AggregateFunctionType][] {
  return columns.flatMap((column) => {
    const parsed = parseAggregateFunctionType(column.type);
    return parsed ? [[column, parsed] as [TableColumn, AggregateFunctionType]] : [];
  });
}

/** The 10-second rows of one metrics table. */
export function metricsBasePlan(
  window: DemoTimeWindow,
  table: string,
  spec: MetricsTableSeries,
  columns: readonly TableColumn[],
  rows: number,
): GeneratorPlan {
  const buckets = Math.floor((window.end - window.start) / BASE_GRANULARITY);
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
    ["ts", `toUInt32(${window.start} + bucket * ${BASE_GRANULARITY})`],
    ["m", `toUInt32(1 + ${hash(salt + 1)} % ${at(numberArray(series.map((x) => x.maxSamples)))})`],
    ["median", at(numberArray(series.map((x) => x.median)))],
    ["sigma", at(numberArray(series.map((x) => x.sigma)))],
  ];
  switch (spec.kind) {
    case "counter":
      variables.push(["samples", "[toFloat64(m)]"]);
      break;
    case "distribution":
    case "gauge":
      variables.push(["samples", `arrayMap(i -> round(median * exp(sigma * ${normal(salt + 2, "number, i")}), 3), range(m))`]);
      break;
    case "set":
      variables.push([
        "ids",
        `arrayMap(i -> toUInt64(${at(numberArray(series.map((x) => x.project)))} * 1000000 + ${hash(salt + 2, "number, i")} % ${at(numberArray(series.map((x) => x.pool)))}), range(m))`,
      ]);
      variables.push(["samples", "arrayMap(x -> toFloat64(x), ids)"]);
      break;
  }
  variables.push(["times", "arrayMap(i -> toDateTime(ts + i), range(length(samples)))"]);

  const tagKeys = series.map((x) => x.tags.map(([key]) => DEMO_TAG_KEY_IDS[key]));
  const timeColumn = metricsTimeColumn(columns);
  const tagKeysSql = `arrayMap(x -> toUInt64(x), ${at(numberArrayArray(tagKeys))})`;
  const out: Record<string, string> = {
    org_id: `toUInt64(${DEMO_ORGANIZATION_ID})`,
    project_id: `toUInt64(${at(numberArray(series.map((x) => x.project)))})`,
    metric_id: `toUInt64(${at(numberArray(series.map((x) => x.metricId)))})`,
    use_case_id: at(stringArray(series.map((x) => x.useCase))),
    [timeColumn]: "toDateTime(ts)",
    retention_days: "toUInt16(90)",
    granularity: String(storedGranularity(spec.generic, BASE_GRANULARITY)),
    "tags.key": tagKeysSql,
  };
  if (spec.generic) {
    out["tags.indexed_value"] = `arrayMap(x -> toUInt64(0), ${tagKeysSql})`;
    out["tags.raw_value"] = at(stringArrayArray(series.map((x) => x.tags.map(([, value]) => value))));
  } else {
    const valueIds = series.map((x) =>
      x.tags.map(([, value]) => {
        const id = (DEMO_TAG_VALUE_IDS as Record<string, number>)[value];
        if (id === undefined) throw new Error(`tag value '${value}' has no id in DEMO_TAG_VALUE_IDS`);
        return id;
      }),
    );
    out["tags.value"] = `arrayMap(x -> toUInt64(x), ${at(numberArrayArray(valueIds))})`;
  }
  for (const [column, type] of aggregateColumns(columns)) {
    out[column.name] = stateFromArraysSql(type, (argumentType) => {
      if (argumentType === "Float64") return "samples";
      if (argumentType === "DateTime") return "times";
      if (argumentType === "UInt64") {
        return spec.kind === "set" && column.name === "value" ? "ids" : "arrayMap(x -> toUInt64(1), samples)";
      }
      throw new Error(`${table}.${column.name}: no demo values for an argument of type ${argumentType}`);
    });
  }
  return { label: "metrics", table, rows: ends[ends.length - 1] ?? 0, variables, columns: out };
}

/**
 * INSERT ... SELECT rolling the 10-second rows of a metrics table up to `seconds`: the same
 * dimensions with the time truncated, each aggregate column merged into one state.
 */
export function metricsRollupSql(table: string, columns: readonly TableColumn[], generic: boolean, seconds: number): string {
  const timeColumn = metricsTimeColumn(columns);
  const writable = columns.filter((c) => !["MATERIALIZED", "ALIAS", "EPHEMERAL"].includes(c.defaultKind));
  const names: string[] = [];
  const selects: string[] = [];
  const groupBy: string[] = [];
  for (const column of writable) {
    const name = quoteIdentifier(column.name);
    const aggregate = parseAggregateFunctionType(column.type);
    names.push(name);
    if (aggregate) {
      selects.push(mergeStateSql(aggregate, name));
    } else if (column.name === "granularity") {
      selects.push(String(storedGranularity(generic, seconds)));
    } else if (column.name === timeColumn) {
      const truncated = `toStartOfInterval(${name}, toIntervalSecond(${seconds}))`;
      selects.push(truncated);
      groupBy.push(truncated);
    } else {
      selects.push(name);
      groupBy.push(name);
    }
  }
  return (
    `INSERT INTO ${quoteIdentifier(table)} (${names.join(", ")})\n` +
    `SELECT ${selects.join(", ")}\nFROM ${quoteIdentifier(table)}\n` +
    `WHERE granularity = ${storedGranularity(generic, BASE_GRANULARITY)}\nGROUP BY ${groupBy.join(", ")}`
  );
}
