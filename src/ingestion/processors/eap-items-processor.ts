/**
 * The processor of `snuba-items`: one protobuf TraceItem (sentry_protos.snuba.v1) per message,
 * one `eap_items_1_local` row per item, as Snuba's EAPItemsProcessor writes it (facts:
 * snuba-ingestion.md §1.6; docs/ingestion.md has the column table).
 *
 * Refused (dead-lettered) like Snuba refuses them: no payload, bytes that are not a TraceItem, no
 * timestamp, a trace_id that is not a UUID, an item_id shorter than 16 bytes.
 *
 * Two parts of a row are not a function of the message, as in Snuba: the
 * `sentry._internal.ingested_at` attribute (the clock) and a session_id that is missing or not a
 * usable UUID (a fresh random one, so that no single value floods the bloom-filter index). Both
 * can be injected for tests. A replayed offset range still inserts once: the insert token names
 * the offsets, not the rows.
 */
import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { TraceItemType } from "../../../gen/sentry_protos/snuba/v1/request_common_pb.js";
import { TraceItemSchema, type TraceItem } from "../../../gen/sentry_protos/snuba/v1/trace_item_pb.js";
import { InvalidMessage, type IngestMessage, type IngestRow, type MessageProcessor, type ProcessedMessage } from "../message-processor.js";
import { EapAttributeColumns } from "./eap-attribute-columns.js";
import { eapItemId } from "./eap-item-id.js";
import { eapSampling } from "./eap-sampling.js";
import { jsonU64 } from "./message-fields.js";
import { enforceRetention, SNUBA_RETENTION, type RetentionPolicy } from "./retention.js";
import { rustUuid } from "./uuid-text.js";

/** Attributes the processor adds: when it processed the item (ms) and when Relay received it (s, compared with outcomes). */
export const INGESTED_AT_ATTRIBUTE = "sentry._internal.ingested_at";
export const RECEIVED_AT_ATTRIBUTE = "sentry._internal.received_at";

/** The attribute promoted to `indexed_name`, per item type. */
const INDEXED_NAME_ATTRIBUTES: ReadonlyMap<number, string> = new Map([
  [TraceItemType.SPAN, "sentry.op"],
  [TraceItemType.METRIC, "sentry.metric.name"],
]);

/** The seconds chrono's DateTime can hold (years ±262143): Snuba has no received time outside them. */
const CHRONO_MIN_SECONDS = -8_334_601_228_800n;
const CHRONO_MAX_SECONDS = 8_210_298_412_799n;

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

export interface EapItemsProcessorOptions {
  readonly retention?: RetentionPolicy;
  /** Milliseconds since the epoch, for `sentry._internal.ingested_at`. */
  readonly now?: () => number;
  /** A UUID for a session_id the message does not give usably. */
  readonly randomUuid?: () => string;
}

export class EapItemsProcessor implements MessageProcessor {
  readonly name = "EAPItemsProcessor";
  private readonly retention: RetentionPolicy;
  private readonly now: () => number;
  private readonly randomUuid: () => string;

  constructor(options: EapItemsProcessorOptions = {}) {
    this.retention = options.retention ?? SNUBA_RETENTION;
    this.now = options.now ?? Date.now;
    this.randomUuid = options.randomUuid ?? randomUUID;
  }

  process(message: IngestMessage): ProcessedMessage {
    if (message.value === null) throw new InvalidMessage("the message has no payload (a TraceItem was expected)");
    const item = decodeTraceItem(message.value);
    const received = receivedSeconds(item);
    const row = this.row(item);
    return { kind: "rows", rows: [row], ...(received === undefined ? {} : { originTimestamp: Number(received) }) };
  }

  private row(item: TraceItem): IngestRow {
    if (!item.timestamp) throw new InvalidMessage("timestamp is missing (a TraceItem needs one)");
    const traceId = rustUuid(item.traceId);
    if (traceId === null) throw new InvalidMessage(`trace_id ${JSON.stringify(item.traceId.slice(0, 64))} is not a UUID`);
    const itemId = eapItemId(item.itemId);

    const attributes = new EapAttributeColumns();
    for (const [key, value] of Object.entries(item.attributes)) attributes.insert(key, value.value);
    attributes.insertInt(INGESTED_AT_ATTRIBUTE, BigInt(Math.trunc(this.now())));
    const received = receivedSeconds(item);
    if (received !== undefined) attributes.insertInt(RECEIVED_AT_ATTRIBUTE, received);

    // Snuba narrows these fields as Rust's `as` casts do: wrapped to the column's width.
    const retentionDays = enforceRetention(item.retentionDays & 0xffff, this.retention);
    const downsampled = item.downsampledRetentionDays > 0 ? item.downsampledRetentionDays & 0xffff : retentionDays;

    return {
      organization_id: jsonU64(item.organizationId),
      project_id: jsonU64(item.projectId),
      item_type: item.itemType & 0xff,
      timestamp: Number(BigInt.asUintN(32, item.timestamp.seconds)),
      trace_id: traceId,
      session_id: this.sessionId(item.sessionId),
      ai_conversation_id: item.conversationId,
      item_id: itemId,
      indexed_name: indexedName(item),
      ...eapSampling(item.clientSampleRate, item.serverSampleRate),
      retention_days: retentionDays,
      downsampled_retention_days: downsampled,
      ...attributes.columns(),
    };
  }

  private sessionId(text: string): string {
    const parsed = rustUuid(text);
    return parsed === null || parsed === NIL_UUID ? this.randomUuid() : parsed;
  }
}

function decodeTraceItem(bytes: Buffer): TraceItem {
  try {
    return fromBinary(TraceItemSchema, bytes);
  } catch (error) {
    throw new InvalidMessage(`the payload is not a TraceItem protobuf: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** When Relay received the item, in whole seconds, if the message says and chrono could hold it. */
function receivedSeconds(item: TraceItem): bigint | undefined {
  const seconds = item.received?.seconds;
  if (seconds === undefined || seconds < CHRONO_MIN_SECONDS || seconds > CHRONO_MAX_SECONDS) return undefined;
  return seconds;
}

/** The per-type name attribute (`sentry.op` of a span, `sentry.metric.name` of a metric) when it is a string, else empty. */
function indexedName(item: TraceItem): string {
  const key = INDEXED_NAME_ATTRIBUTES.get(item.itemType);
  const value = key === undefined ? undefined : item.attributes[key]?.value;
  return value?.case === "stringValue" ? value.value : "";
}
