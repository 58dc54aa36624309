/**
 * Demo spans as Relay produces them on `snuba-items`: encoded TraceItems (sentry_protos.snuba.v1),
 * for a producer to send with no key. Each message is a pure function of its index and the time
 * window, so the same (count, window, firstIndex) gives the same bytes, and indices continue a
 * sequence across calls.
 *
 * Organization 1, projects 1–3; four consecutive indices share a trace, whose first span is its
 * segment. Attributes: `sentry.op` (string), `sentry.duration_ms` (double), `sentry.is_segment`
 * (bool) and `environment` (string). Unsampled, 90 days' retention.
 */
import { createHash } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { TraceItemType } from "../../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { TraceItemSchema, type AnyValue } from "../../../gen/sentry_protos/snuba/v1/trace_item_pb.js";
import type { DemoTimeWindow } from "../demo-time-window.js";
import { DEMO_ORGANIZATION_ID } from "../demo-vocabulary.js";

const PROJECT_IDS = [1, 2, 3] as const;
const SPANS_PER_TRACE = 4;
const OPERATIONS = ["http.server", "db", "http.client", "cache.get", "ui.render"] as const;
const ENVIRONMENTS = ["production", "staging"] as const;
const RETENTION_DAYS = 90;
/** Relay receives an item this long after it happened. */
const RECEIVE_DELAY_SECONDS = 2;

/** 32 pseudo-random bytes of a name: the demo's only source of variety. */
function digest(name: string): Buffer {
  return createHash("sha256").update(name).digest();
}

function pick<T>(values: readonly T[], byte: number): T {
  return values[byte % values.length]!;
}

function stringValue(value: string): AnyValue["value"] {
  return { case: "stringValue", value };
}

/** The encoded TraceItem of span `index`. */
export function eapItemMessage(index: number, window: DemoTimeWindow): Buffer {
  const trace = Math.floor(index / SPANS_PER_TRACE);
  const traceBytes = digest(`demo-eap-trace:${trace}`);
  const spanBytes = digest(`demo-eap-span:${index}`);
  const isSegment = index % SPANS_PER_TRACE === 0;
  const span = Math.max(1, window.end - window.start - RECEIVE_DELAY_SECONDS);
  // The trace's time plus a few seconds per span, kept inside the window.
  const seconds = window.start + ((traceBytes.readUInt32LE(16) + (index % SPANS_PER_TRACE)) % span);
  const durationMs = Math.round((1 + spanBytes.readUInt32LE(0) / 2 ** 32) ** 8 * 100) / 100;
  const item = create(TraceItemSchema, {
    organizationId: BigInt(DEMO_ORGANIZATION_ID),
    projectId: BigInt(pick(PROJECT_IDS, traceBytes[0]!)),
    traceId: traceBytes.subarray(0, 16).toString("hex"),
    itemId: spanBytes.subarray(16, 32),
    itemType: TraceItemType.SPAN,
    timestamp: create(TimestampSchema, { seconds: BigInt(seconds), nanos: spanBytes.readUInt16LE(4) * 1000 }),
    received: create(TimestampSchema, { seconds: BigInt(seconds + RECEIVE_DELAY_SECONDS) }),
    retentionDays: RETENTION_DAYS,
    attributes: {
      "sentry.op": { value: stringValue(isSegment ? "http.server" : pick(OPERATIONS, spanBytes[6]!)) },
      "sentry.duration_ms": { value: { case: "doubleValue", value: durationMs } },
      "sentry.is_segment": { value: { case: "boolValue", value: isSegment } },
      environment: { value: stringValue(pick(ENVIRONMENTS, traceBytes[1]!)) },
    },
  });
  return Buffer.from(toBinary(TraceItemSchema, item));
}

/** `count` encoded TraceItems, spans `firstIndex` … `firstIndex + count - 1`, timed inside `window`. */
export function eapItemMessages(count: number, window: DemoTimeWindow, firstIndex = 0): Buffer[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  if (!(window.end > window.start)) throw new RangeError(`the window must end after it starts (${window.start} … ${window.end})`);
  return Array.from({ length: count }, (_, i) => eapItemMessage(firstIndex + i, window));
}
