/**
 * One error event (the third element of an insert message on `events`) as the `errors_local` row
 * Snuba's errors processor writes (rust_snuba/src/processors/errors.rs). The event is read with
 * serde's rules (serde-fields.ts): a field of the wrong type refuses the message.
 */
import { utcDateTimeText } from "../../clickhouse/utc-datetime-text.js";
import { InvalidMessage, type IngestMessage, type IngestRow } from "../message-processor.js";
import { compareCodePoints } from "./code-point-order.js";
import { errorContexts } from "./error-contexts.js";
import { errorExceptions } from "./error-exceptions.js";
import { errorTags } from "./error-tags.js";
import { ipColumns } from "./ip-address.js";
import { kafkaColumns, messageTimestampSeconds } from "./kafka-columns.js";
import type { JsonObject } from "./lossless-json.js";
import { parsePayloadDatetime } from "./payload-datetime.js";
import { enforceRetention, type RetentionPolicy } from "./retention.js";
import { unicodify } from "./rust-value-text.js";
import {
  aliasedField,
  optionalArray,
  optionalBoolean,
  optionalFloat,
  optionalObject,
  optionalString,
  optionalUnsigned,
  requiredField,
  requiredString,
  requiredUnsigned,
} from "./serde-fields.js";
import { md5Uuid, rustUuid } from "./uuid-text.js";

export interface ErrorRowSettings {
  readonly retention: RetentionPolicy;
  /** Snuba's PROJECT_STACKTRACE_BLACKLIST: projects whose exception stacks and frames are not stored. */
  readonly projectsWithoutStacks: ReadonlySet<string>;
  /** Milliseconds since the epoch: the time given to a `datetime` that does not parse. */
  readonly now: () => number;
}

export interface ErrorRow {
  readonly row: IngestRow;
  /** `data.received` in whole seconds (0 when absent): the commit log's origin timestamp. */
  readonly received: number;
}

const U32 = 2 ** 32;

/** A `datetime`-style field in milliseconds: absent is 0, text that does not parse is now. */
function payloadMillis(event: JsonObject, key: string, now: () => number): number {
  const value = event.get(key);
  if (value === undefined) return 0;
  const text = optionalString(value, key);
  if (text === null) throw new InvalidMessage(`${key} must be a string, got null`);
  return Math.max(0, parsePayloadDatetime(text) ?? now());
}

/** Rust's `f64 as u32`: toward zero, saturating at both ends. */
function saturatingU32(value: number): number {
  if (!(value > 0)) return 0;
  return Math.min(Math.trunc(value), U32 - 1);
}

function secondsText(seconds: number): string {
  return utcDateTimeText(seconds * 1000).slice(0, 19);
}

function user(data: JsonObject) {
  const value = optionalObject(aliasedField(data, "user", "sentry.interfaces.User", "data"), "data.user");
  if (value === null) return { id: null, username: null, email: null, ip: null, geo: null };
  return {
    id: unicodify(value.get("id")),
    username: unicodify(value.get("username")),
    email: unicodify(value.get("email")),
    ip: optionalString(value.get("ip_address"), "data.user.ip_address"),
    geo: optionalObject(value.get("geo"), "data.user.geo"),
  };
}

function request(data: JsonObject): { method: string | null; referer: string | null } {
  const value = optionalObject(data.get("request"), "data.request");
  if (value === null) return { method: null, referer: null };
  const headers = optionalArray(value.get("headers"), "data.request.headers") ?? [];
  let referer: string | null = null;
  let found = false;
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i];
    if (header === null) continue;
    if (!Array.isArray(header) || header.length !== 2) throw new InvalidMessage(`data.request.headers[${i}] must be a [name, value] pair or null`);
    const name = optionalString(header[0], `data.request.headers[${i}][0]`);
    if (name === null) throw new InvalidMessage(`data.request.headers[${i}][0] must be a string, got null`);
    // The first Referer (or Referrer) header counts; the rest are still checked.
    if (!found && (name === "Referer" || name === "Referrer")) {
      referer = unicodify(header[1]);
      found = true;
    }
  }
  return { method: unicodify(value.get("method")), referer };
}

function sdk(data: JsonObject): { name: string; version: string; integrations: string[] } {
  const value = optionalObject(data.get("sdk"), "data.sdk");
  if (value === null) return { name: "", version: "", integrations: [] };
  const integrations = (optionalArray(value.get("integrations"), "data.sdk.integrations") ?? []).map((item) => unicodify(item)).filter((item): item is string => item !== null);
  return { name: unicodify(value.get("name")) ?? "", version: unicodify(value.get("version")) ?? "", integrations };
}

function modules(data: JsonObject): { names: string[]; versions: string[] } {
  const value = optionalObject(data.get("modules"), "data.modules");
  if (value === null) return { names: [], versions: [] };
  const names = [...value.keys()].sort(compareCodePoints);
  return { names, versions: names.map((name) => optionalString(value.get(name), `data.modules.${name}`) ?? "") };
}

export function errorRow(event: JsonObject, message: IngestMessage, settings: ErrorRowSettings): ErrorRow {
  const data = optionalObject(requiredField(event, "data", "data"), "data");
  if (data === null) throw new InvalidMessage("data must be an object, got null");
  const eventIdText = requiredString(event, "event_id", "event_id");
  const eventId = rustUuid(eventIdText);
  if (eventId === null) throw new InvalidMessage(`event_id must be a UUID, got ${JSON.stringify(eventIdText.slice(0, 60))}`);
  const groupId = requiredUnsigned(event, "group_id", 64, "group_id");
  const messageText = requiredString(event, "message", "message");
  const primaryHashText = requiredString(event, "primary_hash", "primary_hash");
  const projectId = requiredUnsigned(event, "project_id", 64, "project_id");
  const retentionDays = optionalUnsigned(event.get("retention_days"), 16, "retention_days") as number | null;
  const platform = optionalString(event.get("platform"), "platform");
  const datetimeMs = payloadMillis(event, "datetime", settings.now);
  const groupFirstSeenMs = payloadMillis(event, "group_first_seen", settings.now);

  const type = unicodify(data.get("type"));
  if (type === "transaction") throw new InvalidMessage("data.type is \"transaction\": transactions belong on the transactions topic");
  const received = optionalFloat(data.get("received"), "data.received") ?? 0;
  const errors = optionalArray(data.get("errors"), "data.errors");
  const location = optionalString(data.get("location"), "data.location");
  const version = optionalString(data.get("version"), "data.version");
  const symbolicatedInApp = optionalBoolean(data.get("symbolicated_in_app"), "data.symbolicated_in_app");
  const sampleRate = optionalFloat(data.get("sample_rate"), "data.sample_rate");

  const tags = errorTags(data.get("tags"));
  const theUser = user(data);
  const contexts = errorContexts(data.get("contexts"), theUser.geo);
  const keepStacks = !settings.projectsWithoutStacks.has(String(projectId));
  const exceptions = errorExceptions(
    aliasedField(data, "exception", "sentry.interfaces.Exception", "data"),
    aliasedField(data, "threads", "sentry.interfaces.Threads", "data"),
    "data.threads",
    keepStacks,
  );
  const theRequest = request(data);
  const theSdk = sdk(data);
  const theModules = modules(data);
  const ip = ipColumns(theUser.ip);
  const timestampSeconds = Math.floor(datetimeMs / 1000) % U32;
  const receivedSeconds = saturatingU32(received);

  const row: IngestRow = {
    project_id: projectId,
    event_id: eventId,
    group_id: groupId,
    primary_hash: rustUuid(primaryHashText) ?? md5Uuid(primaryHashText),
    timestamp: secondsText(timestampSeconds),
    timestamp_ms: utcDateTimeText(datetimeMs),
    received: secondsText(receivedSeconds),
    group_first_seen: secondsText(Math.floor(groupFirstSeenMs / 1000) % U32),
    platform: platform ?? "",
    message: messageText,
    title: unicodify(data.get("title")) ?? "",
    type: type ?? "",
    culprit: unicodify(data.get("culprit")) ?? "",
    location,
    version,
    symbolicated_in_app: symbolicatedInApp === null ? null : symbolicatedInApp ? 1 : 0,
    num_processing_errors: errors === null ? 0 : errors.length,
    sample_weight: sampleRate === null || sampleRate === 0 ? null : 1 / sampleRate,
    retention_days: enforceRetention(retentionDays, settings.retention),
    deleted: 0,
    ...kafkaColumns(message),
    message_timestamp: secondsText(messageTimestampSeconds(message)),

    "tags.key": tags.keys,
    "tags.value": tags.values,
    environment: tags.environment,
    level: tags.level,
    transaction_name: tags.transaction ?? "",
    release: tags.release,
    dist: tags.dist,
    user: tags.user ?? "",
    replay_id: contexts.replayId ?? tags.replayId,

    "contexts.key": contexts.keys,
    "contexts.value": contexts.values,
    "flags.key": contexts.flagKeys,
    "flags.value": contexts.flagValues,
    trace_id: contexts.traceId,
    span_id: contexts.spanId,
    trace_sampled: contexts.traceSampled,

    user_id: theUser.id,
    user_name: theUser.username,
    user_email: theUser.email,
    ...ip,
    http_method: theRequest.method,
    http_referer: theRequest.referer,
    sdk_name: theSdk.name,
    sdk_version: theSdk.version,
    sdk_integrations: theSdk.integrations,
    "modules.name": theModules.names,
    "modules.version": theModules.versions,
    ...exceptions,
  };
  return { row, received: Math.trunc(received) };
}

