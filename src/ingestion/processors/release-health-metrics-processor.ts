/**
 * The processor of `snuba-metrics` (release health: sessions, users, errors per release), writing
 * metrics_raw_v2_local as Snuba's PolymorphicMetricsProcessor writes it (facts:
 * snuba-ingestion.md §1.4): one row per message whatever its type, tag values as indexer ids, the
 * Kafka partition and offset kept. The raw table's materialized views aggregate counters, sets
 * and distributions into metrics_counters, metrics_sets and metrics_distributions at 10, 60, 3600
 * and 86400 seconds.
 *
 * Unlike generic metrics: `use_case_id` defaults to `sessions`, there is no `metric_type` header
 * and no gauge, values are plain arrays only, and a `sampling_weight` is ignored (the tables have
 * no weighted columns). Rows are a function of the message and its offset alone.
 */
import { parseJsonMessage } from "../json-message.js";
import { InvalidMessage, type IngestMessage, type IngestRow, type MessageProcessor, type ProcessedMessage } from "../message-processor.js";
import { asArray, asF64, asObject, asString, asU64, asUnsigned, jsonU64, optional, required, saturatingU32, type JsonObject } from "./message-fields.js";
import { releaseHealthTags } from "./metric-tags.js";
import { releaseHealthTimeseriesId } from "./metric-timeseries-id.js";
import { enforceRetention, SNUBA_RETENTION, type RetentionPolicy } from "./retention.js";

/** The version the raw table's views select (`WHERE materialization_version = 4`). */
export const RELEASE_HEALTH_MATERIALIZATION_VERSION = 4;

export const RELEASE_HEALTH_PROCESSOR_NAME = "PolymorphicMetricsProcessor";

export interface ReleaseHealthMetricsProcessorOptions {
  readonly retention?: RetentionPolicy;
}

const DEFAULT_USE_CASE = "sessions";

function finite(value: number, what: string): number {
  // 1e400 reads as Infinity, which serde's f64 refuses and no row may hold.
  if (!Number.isFinite(value)) throw new InvalidMessage(`${what} is ${value}, not a finite number`);
  return value;
}

/** `type` and `value` together (Snuba's adjacently tagged MetricValue): the columns of the value. */
function valueColumns(body: JsonObject): IngestRow {
  const type = required(body, "type", asString);
  const value = body.value;
  if (value === undefined || value === null) throw new InvalidMessage("field 'value' is missing");
  switch (type) {
    case "c":
      return { metric_type: "counter", count_value: finite(asF64(value, "field 'value'"), "field 'value'"), set_values: [], distribution_values: [] };
    case "s":
      return {
        metric_type: "set",
        count_value: 0,
        set_values: asArray(value, "field 'value'").map((item, index) => jsonU64(asU64(item, `field 'value'[${index}]`))),
        distribution_values: [],
      };
    case "d":
      return {
        metric_type: "distribution",
        count_value: 0,
        set_values: [],
        distribution_values: asArray(value, "field 'value'").map((item, index) => finite(asF64(item, `field 'value'[${index}]`), `field 'value'[${index}]`)),
      };
    default:
      throw new InvalidMessage(`field 'type' is ${JSON.stringify(type.slice(0, 40))}; release-health metrics are c, s or d`);
  }
}

class ReleaseHealthMetricsProcessor implements MessageProcessor {
  readonly name = RELEASE_HEALTH_PROCESSOR_NAME;

  constructor(private readonly retention: RetentionPolicy) {}

  process(message: IngestMessage): ProcessedMessage {
    const body = asObject(parseJsonMessage(message.value), "the message");
    const orgId = required(body, "org_id", asU64);
    const projectId = required(body, "project_id", asU64);
    const metricId = required(body, "metric_id", asU64);
    const tags = required(body, "tags", releaseHealthTags);
    // Optional here, unlike on snuba-generic-metrics; checked when present, used by no row.
    optional(body, "sentry_received_timestamp", asF64);
    const row: IngestRow = {
      use_case_id: optional(body, "use_case_id", asString) ?? DEFAULT_USE_CASE,
      org_id: jsonU64(orgId),
      project_id: jsonU64(projectId),
      metric_id: jsonU64(metricId),
      timestamp: saturatingU32(required(body, "timestamp", asF64)),
      retention_days: enforceRetention(required(body, "retention_days", (value, what) => asUnsigned(value, 16, what)), this.retention),
      "tags.key": tags.keys.map(jsonU64),
      "tags.value": tags.entries.map(([, value]) => jsonU64(value)),
      ...valueColumns(body),
      materialization_version: RELEASE_HEALTH_MATERIALIZATION_VERSION,
      timeseries_id: releaseHealthTimeseriesId(orgId, projectId, metricId, tags.entries),
      partition: message.partition,
      offset: jsonU64(BigInt(message.offset)),
    };
    return { kind: "rows", rows: [row] };
  }
}

export function releaseHealthMetricsProcessor(options: ReleaseHealthMetricsProcessorOptions = {}): MessageProcessor {
  return new ReleaseHealthMetricsProcessor(options.retention ?? SNUBA_RETENTION);
}
