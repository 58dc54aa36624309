/**
 * A transaction's spans as the transactions processor stores them: the root span (the trace
 * context) and each of `data.spans` that has an op, a hash and an exclusive_time, at most
 * `maxSpans` in all, sorted by (op, group, exclusive time); `group` is the hex hash as UInt64,
 * `exclusive_time` is 0 and `exclusive_time_32` carries the time.
 */
import { InvalidMessage } from "../message-processor.js";
import { compareCodePoints } from "./code-point-order.js";
import { jsonKind } from "./json-kind.js";
import { isJsonObject, numberOf, type JsonObject, type JsonValue } from "./lossless-json.js";
import { dictOrRefuse, pythonHexInt } from "./python-values.js";

export interface TransactionSpans {
  readonly "spans.op": string[];
  readonly "spans.group": (number | string)[];
  readonly "spans.exclusive_time": number[];
  readonly "spans.exclusive_time_32": number[];
}

/** sentry-option `max_spans_per_transaction`'s default. */
export const MAX_SPANS_PER_TRANSACTION = 2000;

interface Span {
  readonly op: string;
  readonly group: bigint;
  readonly exclusiveTime: number;
}

function span(value: JsonObject, path: string): Span | null {
  const op = value.get("op");
  const hash = value.get("hash");
  const exclusiveTime = value.get("exclusive_time");
  if (op === undefined || op === null || hash === undefined || hash === null || exclusiveTime === undefined || exclusiveTime === null) return null;
  // Python sorts the spans as (op, group, time) tuples: ops and times must compare with each other.
  if (typeof op !== "string") throw new InvalidMessage(`${path}.op must be a string, got ${jsonKind(op)}`);
  const time = typeof exclusiveTime === "boolean" ? Number(exclusiveTime) : numberOf(exclusiveTime);
  if (time === undefined) throw new InvalidMessage(`${path}.exclusive_time must be a number, got ${jsonKind(exclusiveTime)}`);
  const group = typeof hash === "string" ? pythonHexInt(hash) : null;
  if (group === null || group < 0n || group >= 2n ** 64n) throw new InvalidMessage(`${path}.hash must be a hex UInt64, got ${jsonKind(hash)}`);
  return { op, group, exclusiveTime: time };
}

export function transactionSpans(trace: JsonObject, spans: JsonValue | undefined, maxSpans: number): TransactionSpans {
  const kept: Span[] = [];
  const root = span(trace, "data.contexts.trace");
  if (root !== null) kept.push(root);
  // data.get("spans", []): iterating null or a non-empty non-list fails in Python.
  const items = spans === undefined || spans === "" || (isJsonObject(spans) && spans.size === 0) ? [] : spans;
  if (!Array.isArray(items)) throw new InvalidMessage(`data.spans must be a list, got ${jsonKind(items)}`);
  for (let i = 0; i < items.length && kept.length < maxSpans; i++) {
    const processed = span(dictOrRefuse(items[i], `data.spans[${i}]`), `data.spans[${i}]`);
    if (processed !== null) kept.push(processed);
  }
  kept.sort((a, b) => compareCodePoints(a.op, b.op) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) || a.exclusiveTime - b.exclusiveTime);
  return {
    "spans.op": kept.map((s) => s.op),
    "spans.group": kept.map((s) => (s.group <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(s.group) : s.group.toString())),
    "spans.exclusive_time": kept.map(() => 0),
    "spans.exclusive_time_32": kept.map((s) => s.exclusiveTime),
  };
}
