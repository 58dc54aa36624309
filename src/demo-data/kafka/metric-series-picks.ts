/**
 * The demo metrics as messages: a message is one 10-second bucket of one series of
 * demo-metric-series.ts (what Relay's aggregator flushes), its table drawn by the table's share
 * and its series by sqrt(weight), as the table generator spreads its rows. The value follows the
 * series' model: a count, log-normal samples, or member ids from the series' pool.
 */
import type { MetricSeries, MetricsTableSeries } from "../demo-metric-series.js";
import type { DemoRandom } from "./demo-message-random.js";

export interface PickedSeries {
  readonly table: MetricsTableSeries;
  readonly series: MetricSeries;
}

export function pickSeries(random: DemoRandom, tables: readonly MetricsTableSeries[]): PickedSeries {
  const table = random.weighted(tables, tables.map((t) => t.share));
  const series = random.weighted(table.series, table.series.map((s) => Math.sqrt(Math.max(s.weight, 0))));
  return { table, series };
}

/** How many samples the bucket holds: 1 .. maxSamples. */
export function sampleCount(random: DemoRandom, series: MetricSeries): number {
  return 1 + random.int(series.maxSamples);
}

export function samples(random: DemoRandom, series: MetricSeries, count: number): number[] {
  return Array.from({ length: count }, () => random.logNormal(series.median, series.sigma));
}

/** Set members: distinct ids from the series' pool, offset by project as the table generator does (u32-safe). */
export function setMembers(random: DemoRandom, series: MetricSeries, count: number): number[] {
  return [...new Set(Array.from({ length: count }, () => series.project * 1_000_000 + random.int(series.pool)))];
}

/** The bucket's start: the message time floored to 10 seconds, in epoch seconds. */
export function bucketSeconds(timestampMs: number): number {
  return Math.floor(timestampMs / 10_000) * 10;
}
