/**
 * The query's rows → a TimeSeriesResponse, as Snuba's resolver builds it (facts B9.2):
 * one TimeSeries per (group, expression) that has at least one row, each with a data point for
 * every bucket in [start, end): `data_present` false and data 0 where the bucket has no row or
 * a null value. Group-by values are the text Snuba's Python gives them (`str(value)`): a missing
 * attribute is "None", a double 200 is "200.0", a boolean "True".
 */
import { create } from "@bufbuild/protobuf";
import { type TimeSeries, type TimeSeriesResponse, DataPointSchema, TimeSeriesResponseSchema, TimeSeriesSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { QueryInfoSchema, QueryMetadataSchema, QueryStatsSchema, ResponseMetaSchema } from "../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { Reliability } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import type { ResultRow } from "../query/query-result.js";
import { badRpcRequest } from "./rpc-request-error.js";
import type { QueryResult } from "../query/query-result.js";
import type { ScalarKind } from "./attribute-sql.js";
import type { SeriesColumns, TimeSeriesPlan } from "./translate-time-series.js";
import { TIME_COLUMN } from "./translate-time-series.js";

/**
 * At most this many data points (groups × expressions × buckets) in one response. Why: every
 * group gets a data point for every bucket, so a group-by on a high-cardinality attribute over
 * many buckets multiplies into more objects than the process can hold. The reliability fuzz
 * sent one (a group-by on `sentry.duration_ms` over 2,160 hourly buckets): it stalled the server
 * for seconds on 100,000 demo rows and ran it out of heap on 1,000,000. Snuba zero-fills without
 * a bound. A week by the minute (10,080 buckets) still fits 49 series; building and encoding
 * 1,000,000 points took 1.8 s of the event loop on this machine, half of that here.
 */
export const MAX_DATA_POINTS = 500_000;

/** A confidence interval within half the value counts as reliable (Snuba's threshold). */
const CONFIDENCE_INTERVAL_THRESHOLD = 0.5;
/** Percentiles from this many samples or fewer are never reliable. */
const PERCENTILE_SAMPLE_COUNT_THRESHOLD = 50;

export interface ResponseContext {
  readonly requestId: string;
  readonly debug: boolean;
}

export function timeSeriesResponse(plan: TimeSeriesPlan, result: QueryResult, context: ResponseContext): TimeSeriesResponse {
  const buckets: number[] = [];
  for (let t = plan.start; t < plan.end; t += plan.granularity) buckets.push(t);

  // Rows by group (in the order groups first appear) and by bucket.
  const groups = new Map<string, { attributes: Record<string, string>; rows: Map<number, ResultRow> }>();
  const pointsPerGroup = buckets.length * plan.series.length;
  for (const row of result.data) {
    const attributes: Record<string, string> = {};
    for (const g of plan.groupBy) attributes[g.name] = pythonText(row[g.column] ?? null, g.kind);
    const key = JSON.stringify(plan.groupBy.map((g) => attributes[g.name]));
    let group = groups.get(key);
    if (!group) {
      // Refused before any series is built: the bound is on what the zero-fill would allocate.
      if ((groups.size + 1) * pointsPerGroup > MAX_DATA_POINTS) throw tooManyDataPoints(groups.size + 1, plan.series.length, buckets.length);
      groups.set(key, (group = { attributes, rows: new Map() }));
    }
    group.rows.set(Number(row[TIME_COLUMN]), row);
  }

  const series: TimeSeries[] = [];
  for (const group of groups.values()) {
    for (const columns of plan.series) {
      series.push(
        create(TimeSeriesSchema, {
          label: columns.label,
          groupByAttributes: group.attributes,
          buckets: buckets.map((seconds) => ({ seconds: BigInt(seconds), nanos: 0 })),
          dataPoints: buckets.map((t) => dataPoint(columns, group.rows.get(t))),
        }),
      );
    }
  }

  const meta = create(ResponseMetaSchema, { requestId: context.requestId });
  if (context.debug && result.stats) {
    meta.queryInfo.push(
      create(QueryInfoSchema, {
        stats: create(QueryStatsSchema, { rowsRead: BigInt(result.stats.rows_read), progressBytes: BigInt(result.stats.bytes_read), maxThreads: result.stats.max_threads }),
        metadata: create(QueryMetadataSchema, {
          sql: result.sql ?? "",
          status: "success",
          clickhouseTable: result.stats.columnstore_table,
          final: result.stats.final,
          queryId: result.stats.query_id,
          consistent: result.stats.consistent,
          cacheHit: result.stats.cache_status === "hit",
        }),
      }),
    );
  }
  return create(TimeSeriesResponseSchema, { resultTimeseries: series, meta });
}

function tooManyDataPoints(groups: number, expressions: number, buckets: number) {
  const count = (n: number) => n.toLocaleString("en");
  return badRpcRequest(
    `This request is asking for too many datapoints (at least ${count(groups)} groups × ${count(expressions)} expressions × ${count(buckets)} buckets, ` +
      `more than ${count(MAX_DATA_POINTS)}): please raise your granularity_secs, shorten your time window, filter, or group by fewer attributes`,
  );
}

function dataPoint(columns: SeriesColumns, row: ResultRow | undefined) {
  const value = row?.[columns.value];
  if (row === undefined || value === null || value === undefined) return create(DataPointSchema, { data: 0, dataPresent: false });
  const data = Number(value);
  const sampleCount = columns.sampleCount ? Number(row[columns.sampleCount] ?? 0) : 0;
  const averageSampleRate = columns.averageSampleRate ? Number(row[columns.averageSampleRate] ?? 0) : 0;
  return create(DataPointSchema, {
    data,
    dataPresent: true,
    sampleCount: BigInt(Math.trunc(sampleCount)),
    avgSamplingRate: Number.isFinite(averageSampleRate) ? averageSampleRate : 0,
    reliability: reliability(columns, data, sampleCount, columns.confidenceInterval ? Number(row[columns.confidenceInterval]) : null),
  });
}

/**
 * Snuba's reliability: only for extrapolated aggregates with data. A confidence interval of 0
 * (nothing was sampled) is reliable; otherwise it must be within half the value. Percentiles
 * need more than 50 samples (Snuba also checks a percentile interval, which Quarry does not compute).
 */
function reliability(columns: SeriesColumns, value: number, sampleCount: number, confidenceInterval: number | null): Reliability {
  if (!columns.extrapolated || sampleCount <= 0) return Reliability.UNSPECIFIED;
  if (columns.percentile) return sampleCount <= PERCENTILE_SAMPLE_COUNT_THRESHOLD ? Reliability.LOW : Reliability.HIGH;
  if (confidenceInterval === null || !Number.isFinite(confidenceInterval)) return Reliability.UNSPECIFIED;
  if (confidenceInterval === 0) return Reliability.HIGH;
  if (value === 0) return Reliability.LOW;
  return Math.abs(confidenceInterval / value) <= CONFIDENCE_INTERVAL_THRESHOLD ? Reliability.HIGH : Reliability.LOW;
}

/** A group-by value as Python's `str()` prints it (Snuba builds group_by_attributes that way). */
function pythonText(value: unknown, kind: ScalarKind): string {
  if (value === null || value === undefined) return "None";
  switch (kind) {
    case "string":
      return String(value);
    case "bool":
      return value === true || value === 1 || value === "1" || value === "true" ? "True" : "False";
    case "int":
      return String(value);
    case "double":
      return pythonFloat(Number(value));
  }
}

function pythonFloat(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const exponent = Math.floor(Math.log10(Math.abs(n)));
  if (exponent >= 16 || exponent < -4) {
    const [mantissa, power] = n.toExponential().split("e") as [string, string];
    return `${mantissa}e${power[0]}${power.slice(1).padStart(2, "0")}`;
  }
  const text = String(n);
  return text.includes(".") ? text : `${text}.0`;
}
