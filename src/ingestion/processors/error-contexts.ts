/**
 * An error event's contexts as the errors processor stores them:
 * - every context object but `trace`, `replay` and `flags`, flattened to `contexts.key` =
 *   "<context>.<field>" in code-point order of context, then field; `type` fields skipped; values
 *   that are strings, numbers or booleans kept (numbers as serde prints them, booleans as
 *   "True"/"False"), the rest dropped; the user's `geo` added as the `geo` context, replacing one
 *   sent under that name;
 * - from the trace context only client_sample_rate, op, span_id, status, trace_id (32 hex digits)
 *   and parent_span_id, appended in that order; trace_id, span_id (hex → UInt64) and sampled also
 *   get their columns;
 * - the feature flags context's `values` as `flags.key`/`flags.value`;
 * - `replay.replay_id`, which wins over the `replayId` tag.
 */
import { InvalidMessage } from "../message-processor.js";
import { compareCodePoints } from "./code-point-order.js";
import type { JsonObject, JsonValue } from "./lossless-json.js";
import { contextText, unicodify } from "./rust-value-text.js";
import { optionalArray, optionalBoolean, optionalObject, optionalString } from "./serde-fields.js";
import { rustUuid, uuidHex } from "./uuid-text.js";

export interface ErrorContexts {
  readonly keys: string[];
  readonly values: string[];
  readonly flagKeys: string[];
  readonly flagValues: string[];
  /** Hyphenated. */
  readonly traceId: string | null;
  /** UInt64 from the hex span id: a number, or decimal text past 2^53; null when not hex or too large. */
  readonly spanId: number | string | null;
  readonly traceSampled: 0 | 1 | null;
  /** `contexts.replay.replay_id`, hyphenated. */
  readonly replayId: string | null;
}

const OWN_FIELDS_OF_TRACE = new Set(["sampled", "span_id", "trace_id", "parent_span_id"]);
const CONTEXTS_READ_APART = new Set(["flags", "replay", "trace"]);

/** Rust's `u64::from_str_radix(text, 16)`: hex digits after an optional `+`, at most 2^64 - 1. */
export function hexUnsigned64(text: string): number | string | null {
  if (!/^\+?[0-9a-fA-F]+$/.test(text)) return null;
  const value = BigInt(`0x${text.replace("+", "")}`);
  if (value >= 2n ** 64n) return null;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

function uuidField(value: JsonValue | undefined, path: string): string | null {
  const text = optionalString(value, path);
  if (text === null) return null;
  const uuid = rustUuid(text);
  if (uuid === null) throw new InvalidMessage(`${path} must be a UUID, got ${JSON.stringify(text.slice(0, 60))}`);
  return uuid;
}

export function errorContexts(value: JsonValue | undefined, userGeo: JsonObject | null): ErrorContexts {
  const contexts = optionalObject(value, "data.contexts") ?? new Map<string, JsonValue>();

  const flagKeys: string[] = [];
  const flagValues: string[] = [];
  const flags = optionalObject(contexts.get("flags"), "data.contexts.flags");
  const flagItems = flags === null ? [] : (optionalArray(flags.get("values"), "data.contexts.flags.values") ?? []);
  for (let i = 0; i < flagItems.length; i++) {
    const item = optionalObject(flagItems[i], `data.contexts.flags.values[${i}]`);
    if (item === null) continue;
    const flag = unicodify(item.get("flag"));
    const result = unicodify(item.get("result"));
    if (flag !== null && result !== null) {
      flagKeys.push(flag);
      flagValues.push(result);
    }
  }

  const replay = optionalObject(contexts.get("replay"), "data.contexts.replay");
  const replayId = replay === null ? null : uuidField(replay.get("replay_id"), "data.contexts.replay.replay_id");

  const trace = optionalObject(contexts.get("trace"), "data.contexts.trace") ?? new Map<string, JsonValue>();
  const sampled = optionalBoolean(trace.get("sampled"), "data.contexts.trace.sampled");
  const spanIdText = optionalString(trace.get("span_id"), "data.contexts.trace.span_id");
  const traceId = uuidField(trace.get("trace_id"), "data.contexts.trace.trace_id");
  const parentSpanId = optionalString(trace.get("parent_span_id"), "data.contexts.trace.parent_span_id");

  // The generic contexts, each an object or null; the user's geo replaces a `geo` context.
  const generic = new Map<string, JsonObject | null>();
  for (const [name, context] of contexts) {
    if (CONTEXTS_READ_APART.has(name)) continue;
    generic.set(name, optionalObject(context, `data.contexts.${name}`));
  }
  if (userGeo !== null && userGeo.size > 0) generic.set("geo", userGeo);

  const keys: string[] = [];
  const values: string[] = [];
  for (const name of [...generic.keys()].sort(compareCodePoints)) {
    const context = generic.get(name);
    if (context === null || context === undefined) continue;
    for (const field of [...context.keys()].sort(compareCodePoints)) {
      if (field === "type") continue;
      const text = contextText(context.get(field));
      if (text === null) continue;
      keys.push(`${name}.${field}`);
      values.push(text);
    }
  }

  const traceText = (field: string): string | null => (OWN_FIELDS_OF_TRACE.has(field) ? null : contextText(trace.get(field)));
  const appendTrace = (field: string, text: string | null) => {
    if (text === null) return;
    keys.push(`trace.${field}`);
    values.push(text);
  };
  appendTrace("client_sample_rate", traceText("client_sample_rate"));
  appendTrace("op", traceText("op"));
  appendTrace("span_id", spanIdText);
  appendTrace("status", traceText("status"));
  appendTrace("trace_id", traceId === null ? null : uuidHex(traceId));
  appendTrace("parent_span_id", parentSpanId);

  return {
    keys,
    values,
    flagKeys,
    flagValues,
    traceId,
    spanId: spanIdText === null ? null : hexUnsigned64(spanIdText),
    traceSampled: sampled === null ? null : sampled ? 1 : 0,
    replayId,
  };
}
