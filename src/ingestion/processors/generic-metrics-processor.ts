/**
 * The processors of `snuba-generic-metrics`, one per metric type, each writing the raw table of
 * its type (generic_metric_{counters,sets,distributions,gauges}_raw_local) as Snuba's
 * GenericCountersMetricsProcessor and, before Snuba dropped them, its sets, distributions and
 * gauges processors write it (facts: snuba-ingestion.md §1.4). The raw table's materialized view
 * aggregates each row into every granularity it lists.
 *
 * Every consumer of the topic reads every message and keeps those of its type:
 * - a `metric_type` header naming another type (c, s, d, g) skips the message unread;
 * - otherwise (no header, or another value) the body is read and a message of another `type` is
 *   skipped. A body that does not parse is invalid for every consumer that reads it; a value that
 *   does not decode only for the consumer of its type.
 * Rows are a function of the message alone (no clock, no state), so a replayed offset range
 * rebuilds the same rows, which the exactly-once insert token relies on.
 */
import type { ExactJsonValue } from "../exact-integer-json.js";
import { parseJsonMessage } from "../json-message.js";
import { InvalidMessage, type IngestMessage, type IngestRow, type MessageProcessor, type ProcessedMessage } from "../message-processor.js";
import { decodeSeries, F64_ELEMENT, U32_ELEMENT } from "./encoded-series.js";
import {
  asF64,
  asObject,
  asString,
  asU64,
  asUnsigned,
  jsonU64,
  optional,
  required,
  saturatingU32,
  saturatingU64,
  type JsonObject,
} from "./message-fields.js";
import { genericMetricTags } from "./metric-tags.js";
import { genericTimeseriesId } from "./metric-timeseries-id.js";
import { enforceRetention, SNUBA_RETENTION, type RetentionPolicy } from "./retention.js";

export type GenericMetricType = "counter" | "set" | "distribution" | "gauge";

/** The letter of a type in the message's `type` and in the `metric_type` header. */
const TYPE_LETTERS: Readonly<Record<string, GenericMetricType>> = { c: "counter", s: "set", d: "distribution", g: "gauge" };

/** Granularities a row is aggregated into: the raw table's view reads this enum (0 = 10 s … 3 = 1 day). */
const GRANULARITY_TEN_SECONDS = 0;
const GRANULARITIES_ALWAYS = [1, 2, 3] as const;

/**
 * The version each type's materialized view selects (`WHERE materialization_version = N`): a
 * row written with another is stored raw and aggregated nowhere.
 */
export const MATERIALIZATION_VERSIONS: Readonly<Record<GenericMetricType, number>> = { counter: 3, set: 2, distribution: 4, gauge: 3 };

/** Snuba's name of each processor, as a storage's stream_loader names it. */
export const GENERIC_METRICS_PROCESSOR_NAMES: Readonly<Record<GenericMetricType, string>> = {
  counter: "GenericCountersMetricsProcessor",
  set: "GenericSetsMetricsProcessor",
  distribution: "GenericDistributionsMetricsProcessor",
  gauge: "GenericGaugesMetricsProcessor",
};

export interface GenericMetricsProcessorOptions {
  readonly retention?: RetentionPolicy;
  /**
   * Use cases whose messages are skipped (Snuba's `generic_metrics_use_case_killswitch` option),
   * e.g. to shed a use case that floods the topic.
   */
  readonly disabledUseCases?: ReadonlySet<string>;
}

/** The fields every type shares, read as Snuba's `FromGenericMetricsMessage` reads them. */
interface GenericMetricMessage {
  readonly useCaseId: string;
  readonly orgId: bigint;
  readonly projectId: bigint;
  readonly metricId: bigint;
  readonly timestamp: number;
  readonly type: GenericMetricType;
  readonly tags: ReturnType<typeof genericMetricTags>;
  readonly value: ExactJsonValue;
  readonly retentionDays: number;
  readonly samplingWeight: number | null;
  readonly aggregationOption: string | null;
}

function metricType(value: ExactJsonValue | undefined, what: string): GenericMetricType {
  const type = TYPE_LETTERS[asString(value, what)];
  if (type === undefined) throw new InvalidMessage(`${what} is ${JSON.stringify(value)}; it must be one of c, s, d, g`);
  return type;
}

function readMessage(body: JsonObject): GenericMetricMessage {
  // Required although no row uses it: Snuba's message struct has it as a plain f64.
  required(body, "sentry_received_timestamp", asF64);
  // Read by type, after the type check: another type's bad value is not this consumer's problem.
  const value = body.value;
  if (value === undefined) throw new InvalidMessage("field 'value' is missing");
  return {
    useCaseId: required(body, "use_case_id", asString),
    orgId: required(body, "org_id", asU64),
    projectId: required(body, "project_id", asU64),
    metricId: required(body, "metric_id", asU64),
    timestamp: required(body, "timestamp", asF64),
    type: required(body, "type", metricType),
    tags: required(body, "tags", genericMetricTags),
    value,
    retentionDays: required(body, "retention_days", (value, what) => asUnsigned(value, 16, what)),
    samplingWeight: optional(body, "sampling_weight", asF64),
    aggregationOption: optional(body, "aggregation_option", asString),
  };
}

function finite(values: number[], what: string): number[] {
  // JSON has no NaN or Infinity, but f64 bytes do (and 1e400 reads as Infinity): no row may hold them.
  const bad = values.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) throw new InvalidMessage(`${what}[${bad}] is ${values[bad]}, not a finite number`);
  return values;
}

/** The columns of the row that hold the message's value. */
function valueColumns(message: GenericMetricMessage): IngestRow {
  switch (message.type) {
    case "counter":
      return { count_value: asF64(message.value, "field 'value'") };
    case "set":
      return { set_values: decodeSeries(message.value, U32_ELEMENT) };
    case "distribution": {
      const columns: IngestRow = { distribution_values: finite(decodeSeries(message.value, F64_ELEMENT), "the distribution's value") };
      if (message.aggregationOption === "hist") columns.enable_histogram = 1;
      if (message.aggregationOption === "disable_percentiles") columns.disable_percentiles = 1;
      return columns;
    }
    case "gauge": {
      const gauge = asObject(message.value, "field 'value'");
      const read = (field: string): number => finite([required(gauge, field, asF64)], `field 'value.${field}'`)[0]!;
      return {
        "gauges_values.last": [read("last")],
        "gauges_values.min": [read("min")],
        "gauges_values.max": [read("max")],
        "gauges_values.sum": [read("sum")],
        "gauges_values.count": [jsonU64(required(gauge, "count", asU64))],
      };
    }
  }
}

function rawRow(message: GenericMetricMessage, retention: RetentionPolicy): IngestRow {
  const retentionDays = enforceRetention(message.retentionDays, retention);
  const granularities: number[] = [...GRANULARITIES_ALWAYS];
  if (message.aggregationOption === "ten_second") granularities.push(GRANULARITY_TEN_SECONDS);
  const row: IngestRow = {
    use_case_id: message.useCaseId,
    org_id: jsonU64(message.orgId),
    project_id: jsonU64(message.projectId),
    metric_id: jsonU64(message.metricId),
    timestamp: saturatingU32(message.timestamp),
    retention_days: retentionDays,
    "tags.key": message.tags.keys.map(jsonU64),
    "tags.indexed_value": message.tags.keys.map(() => 0),
    "tags.raw_value": message.tags.entries.map(([, value]) => value),
    metric_type: message.type,
    materialization_version: MATERIALIZATION_VERSIONS[message.type],
    timeseries_id: genericTimeseriesId(message.orgId, message.projectId, message.metricId, message.tags.entries),
    granularities,
    // The minute granularity keeps the message's retention; the others take the table defaults
    // (7 days at 10 s, retention_days at an hour and a day). The column is a UInt8.
    min_retention_days: Math.min(retentionDays, 255),
    // The meta tables Snuba feeds from rows with record_meta = 1 leave escalating issues out.
    record_meta: message.useCaseId === "escalating_issues" ? 0 : 1,
    ...valueColumns(message),
  };
  // Sets carry no weight (their table has no such column); absent, the column's default is 1.
  if (message.samplingWeight !== null && message.type !== "set") row.sampling_weight = jsonU64(saturatingU64(message.samplingWeight));
  return row;
}

class GenericMetricsProcessor implements MessageProcessor {
  readonly name: string;
  private readonly retention: RetentionPolicy;
  private readonly disabledUseCases: ReadonlySet<string>;

  constructor(
    readonly metricType: GenericMetricType,
    options: GenericMetricsProcessorOptions,
  ) {
    this.name = GENERIC_METRICS_PROCESSOR_NAMES[metricType];
    this.retention = options.retention ?? SNUBA_RETENTION;
    this.disabledUseCases = options.disabledUseCases ?? new Set();
  }

  process(message: IngestMessage): ProcessedMessage {
    const header = message.headers.metric_type;
    const headerType = header === undefined ? undefined : TYPE_LETTERS[header];
    if (headerType !== undefined && headerType !== this.metricType) return { kind: "skip" };
    const body = asObject(parseJsonMessage(message.value), "the message");
    const useCase = body.use_case_id;
    if (typeof useCase === "string" && this.disabledUseCases.has(useCase)) return { kind: "skip" };
    const parsed = readMessage(body);
    if (parsed.type !== this.metricType) return { kind: "skip" };
    return { kind: "rows", rows: [rawRow(parsed, this.retention)] };
  }
}

/** The processor of one metric type's storage (generic_metrics_{counters,sets,distributions,gauges}_raw). */
export function genericMetricsProcessor(type: GenericMetricType, options: GenericMetricsProcessorOptions = {}): MessageProcessor {
  return new GenericMetricsProcessor(type, options);
}
