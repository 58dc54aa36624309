/**
 * One transaction event (the third element of an insert message on `transactions`) as the
 * `transactions_local` row Snuba's transactions processor writes
 * (snuba/datasets/processors/transactions_processor.py). The event is read with Python's
 * leniency (python-values.ts): only what Python would raise on refuses the message.
 * `message_timestamp` is not written (Snuba's processor leaves it at its default).
 */
import { utcDateTimeText } from "../../clickhouse/utc-datetime-text.js";
import { InvalidMessage, type IngestMessage, type IngestRow } from "../message-processor.js";
import { jsonKind } from "./json-kind.js";
import { kafkaColumns } from "./kafka-columns.js";
import { numberOf, type JsonObject, type JsonValue } from "./lossless-json.js";
import { nestedMeasurements } from "./nested-measurements.js";
import { pythonUtcMicros, validOrNowMicros } from "./python-timestamp.js";
import { pythonUnicodify } from "./python-value-text.js";
import { asDictSafe, dictOrEmpty, dictOrRefuse, pythonHexInt, pythonInt, requiredKey, truthy } from "./python-values.js";
import { SPAN_STATUS_CODES, UNKNOWN_SPAN_STATUS } from "./span-status-codes.js";
import { transactionContexts } from "./transaction-contexts.js";
import { transactionSpans } from "./transaction-spans.js";
import { transactionTags } from "./transaction-tags.js";
import { unsignedOrNull } from "./serde-fields.js";
import { pythonUuid, uuidHex } from "./uuid-text.js";

export interface TransactionRowSettings {
  readonly maxSpans: number;
  /** Milliseconds since the epoch: the time given to a timestamp outside UInt32. */
  readonly now: () => number;
}

export interface TransactionRow {
  readonly row: IngestRow;
  /** `data.received` in whole seconds when it fits UInt32: the commit log's origin timestamp. */
  readonly received: number | undefined;
}

const MAX_UINT32 = 2n ** 32n - 1n;
const GROUP_IDS_LIMIT = 10;

function uuidOf(value: JsonValue | undefined, path: string): string {
  const uuid = typeof value === "string" ? pythonUuid(value) : null;
  if (uuid === null) throw new InvalidMessage(`${path} must be a UUID, got ${jsonKind(value)}`);
  return uuid;
}

/** A float timestamp field as Python's utcfromtimestamp + _ensure_valid_date leave it, in microseconds. */
export function timestampMicros(data: JsonObject, key: string, now: () => number): number {
  const value = requiredKey(data, key, `data.${key}`);
  const seconds = typeof value === "boolean" ? Number(value) : numberOf(value);
  if (seconds === undefined) throw new InvalidMessage(`data.${key} must be a number, got ${jsonKind(value)}`);
  return validOrNowMicros(pythonUtcMicros(seconds, `data.${key}`), now);
}

function dateTimeColumns(micros: number): [string, number] {
  const seconds = Math.floor(micros / 1e6);
  return [utcDateTimeText(seconds * 1000).slice(0, 19), Math.floor((micros - seconds * 1e6) / 1000)];
}

function unsigned64(value: JsonValue | undefined, path: string): number | string {
  const unsigned = unsignedOrNull(value ?? null, 64);
  if (unsigned === null) throw new InvalidMessage(`${path} must be an unsigned 64-bit integer, got ${jsonKind(value)}`);
  return unsigned;
}

function groupIds(event: JsonObject): (number | string)[] {
  const value = event.get("group_ids");
  if (!truthy(value)) return [];
  if (!Array.isArray(value)) throw new InvalidMessage(`group_ids must be a list, got ${jsonKind(value)}`);
  return value.slice(0, GROUP_IDS_LIMIT).map((id, i) => unsigned64(id, `group_ids[${i}]`));
}

function receivedSeconds(data: JsonObject): number | undefined {
  const value = data.get("received");
  if (value === undefined) return undefined;
  const seconds = pythonInt(value);
  if (seconds === null) throw new InvalidMessage(`data.received must be a number, got ${jsonKind(value)}`);
  return seconds >= 0n && seconds <= MAX_UINT32 ? Number(seconds) : undefined;
}

export function transactionRow(event: JsonObject, data: JsonObject, trace: JsonObject, retentionDays: number, message: IngestMessage, settings: TransactionRowSettings): TransactionRow {
  const eventId = uuidOf(requiredKey(event, "event_id", "event_id"), "event_id");
  const projectId = unsigned64(requiredKey(event, "project_id", "project_id"), "project_id");
  const traceId = uuidOf(requiredKey(trace, "trace_id", "data.contexts.trace.trace_id"), "data.contexts.trace.trace_id");
  const spanIdValue = requiredKey(trace, "span_id", "data.contexts.trace.span_id");
  const spanId = typeof spanIdValue === "string" ? pythonHexInt(spanIdValue) : null;
  if (spanId === null || spanId < 0n || spanId >= 2n ** 64n) throw new InvalidMessage(`data.contexts.trace.span_id must be a hex UInt64, got ${jsonKind(spanIdValue)}`);

  const startMicros = timestampMicros(data, "start_timestamp", settings.now);
  const status = trace.get("status");
  if (Array.isArray(status) || status instanceof Map) throw new InvalidMessage("data.contexts.trace.status must be a string");
  const statusCode = truthy(status) && typeof status === "string" ? (SPAN_STATUS_CODES.get(status) ?? UNKNOWN_SPAN_STATUS) : UNKNOWN_SPAN_STATUS;
  const finishMicros = timestampMicros(data, "timestamp", settings.now);
  const durationMs = Math.max(Math.trunc(((finishMicros - startMicros) / 1e6) * 1000), 0);
  const [startTs, startMs] = dateTimeColumns(startMicros);
  const [finishTs, finishMs] = dateTimeColumns(finishMicros);
  const platform = pythonUnicodify(requiredKey(event, "platform", "platform"));

  const tags = transactionTags(data, event);
  const measurements = nestedMeasurements(data.get("measurements"));
  const breakdownsValue = data.get("breakdowns");
  const breakdowns = breakdownsValue === undefined || breakdownsValue === null ? null : dictOrRefuse(breakdownsValue, "data.breakdowns");
  const spanOps = nestedMeasurements(breakdowns?.get("span_ops"));
  const spans = transactionSpans(trace, data.get("spans"), settings.maxSpans);

  const request = dictOrEmpty(data.has("request") ? data.get("request") : data.get("sentry.interfaces.Http"), "data.request");
  const headers = asDictSafe(request.get("headers"), "data.request.headers");
  const sdk = dictOrEmpty(data.get("sdk"), "data.sdk");
  const orEmpty = (value: JsonValue | undefined) => (truthy(value) ? value : "");

  const contexts = transactionContexts(dictOrRefuse(data.get("contexts"), "data.contexts"), data);
  const tagKeys = [...tags.keys];
  const tagValues = [...tags.values];
  if (contexts.replayId !== null && !tagKeys.includes("replayId")) {
    tagKeys.push("replayId");
    tagValues.push(uuidHex(contexts.replayId));
  }

  const row: IngestRow = {
    deleted: 0,
    retention_days: retentionDays,
    event_id: eventId,
    project_id: projectId,
    trace_id: traceId,
    span_id: spanId <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(spanId) : spanId.toString(),
    transaction_op: pythonUnicodify(orEmpty(trace.get("op"))) ?? "",
    transaction_name: pythonUnicodify(orEmpty(data.get("transaction"))) ?? "",
    transaction_source: pythonUnicodify(orEmpty(dictOrEmpty(data.get("transaction_info"), "data.transaction_info").get("source"))) ?? "",
    start_ts: startTs,
    start_ms: startMs,
    finish_ts: finishTs,
    finish_ms: finishMs,
    duration: durationMs,
    transaction_status: statusCode,
    platform: platform ?? "",
    group_ids: groupIds(event),
    "tags.key": tagKeys,
    "tags.value": tagValues,
    environment: tags.environment,
    release: tags.release,
    user: tags.user,
    dist: tags.dist,
    replay_id: contexts.replayId ?? tags.replayId,
    "measurements.key": measurements.keys,
    "measurements.value": measurements.values,
    "span_op_breakdowns.key": spanOps.keys,
    "span_op_breakdowns.value": spanOps.values,
    ...spans,
    http_method: pythonUnicodify(request.get("method")),
    http_referer: pythonUnicodify(headers.get("Referer")),
    sdk_name: pythonUnicodify(orEmpty(sdk.get("name"))) ?? "",
    sdk_version: pythonUnicodify(orEmpty(sdk.get("version"))) ?? "",
    ...kafkaColumns(message),
    "contexts.key": contexts.keys,
    "contexts.value": contexts.values,
    app_start_type: contexts.app_start_type ?? "",
    profile_id: contexts.profile_id,
    profiler_id: contexts.profiler_id,
    user_id: contexts.user_id,
    user_name: contexts.user_name,
    user_email: contexts.user_email,
    ip_address_v4: contexts.ip_address_v4,
    ip_address_v6: contexts.ip_address_v6,
  };
  return { row, received: receivedSeconds(data) };
}
