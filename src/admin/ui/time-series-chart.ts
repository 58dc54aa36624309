/**
 * A result as a time series chart (uPlot): when a column holds time buckets, the last numeric
 * column is the value (SELECT items come after the BY columns), every other column is part of
 * the group key, and every group is one series over the buckets.
 */
import uPlot from "uplot";

type Row = Record<string, unknown>;

const PALETTE = ["#2f6fde", "#d9534f", "#3a9d5d", "#e08e0b", "#8e44ad", "#16a2b8", "#7f8c8d", "#c0392b"];

/** The time column of a result: `time` or `bucketed_time`, or a column whose values are all datetimes. */
export function timeColumn(columns: readonly string[], rows: readonly Row[]): string | null {
  if (rows.length === 0) return null;
  for (const preferred of ["time", "bucketed_time"]) if (columns.includes(preferred)) return preferred;
  return columns.find((column) => rows.every((row) => typeof row[column] === "string" && !Number.isNaN(Date.parse(row[column] as string)) && /^\d{4}-\d{2}-\d{2}T/.test(row[column] as string))) ?? null;
}

export interface SeriesData {
  readonly valueColumn: string;
  readonly groups: readonly string[];
  readonly data: uPlot.AlignedData;
}

/** Buckets (seconds) x groups, gaps as null; null when there is no numeric column to draw. */
export function seriesOf(columns: readonly string[], rows: readonly Row[], time: string): SeriesData | null {
  const valueColumn = [...columns].reverse().find((column) => column !== time && rows.some((row) => typeof row[column] === "number"));
  if (!valueColumn) return null;
  const groupColumns = columns.filter((column) => column !== time && column !== valueColumn);
  const buckets = [...new Set(rows.map((row) => Date.parse(String(row[time])) / 1000))].sort((a, b) => a - b);
  const index = new Map(buckets.map((bucket, i) => [bucket, i]));
  const series = new Map<string, (number | null)[]>();
  for (const row of rows) {
    const group = groupColumns.map((column) => String(row[column] ?? "")).join(" / ") || valueColumn;
    let values = series.get(group);
    if (!values) series.set(group, (values = buckets.map(() => null)));
    const value = row[valueColumn];
    values[index.get(Date.parse(String(row[time])) / 1000)!] = typeof value === "number" ? value : null;
  }
  return { valueColumn, groups: [...series.keys()], data: [buckets, ...series.values()] };
}

export function drawChart(container: HTMLElement, series: SeriesData): uPlot {
  const options: uPlot.Options = {
    width: Math.max(400, container.clientWidth || 800),
    height: 300,
    series: [{}, ...series.groups.map((group, i) => ({ label: group, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: false, points: { show: true } }))],
    axes: [{}, { label: series.valueColumn }],
  };
  return new uPlot(options, series.data, container);
}
