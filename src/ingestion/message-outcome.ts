/**
 * What the consumer keeps of one message until its range is written: the processor's verdict,
 * with the rows already encoded as JSONEachRow lines (encoded once, here), and the message as it
 * came for the ones that may still go to the dead-letter topic.
 */
import type { IHeaders, KafkaMessage } from "kafkajs";
import { jsonEachRowLine } from "../clickhouse/json-each-row-line.js";
import { InvalidMessage, type IngestMessage, type MessageProcessor } from "./message-processor.js";

/** Why a message went to the dead-letter topic (the metric's label; the header carries the text). */
export type DeadLetterCause = "invalid_message" | "processor_error" | "refused_by_engine" | "no_replacements_topic";

export type MessageOutcome =
  | { readonly kind: "rows"; readonly lines: string; readonly rows: number; readonly originTimestamp: number | undefined }
  | { readonly kind: "skip" }
  | { readonly kind: "dead-letter"; readonly cause: DeadLetterCause; readonly reason: string }
  | { readonly kind: "replacement"; readonly projectId: number };

export interface RangeEntry {
  readonly offset: bigint;
  /** The message as consumed; null once nothing can need it (a skipped message). */
  readonly raw: KafkaMessage | null;
  readonly outcome: MessageOutcome;
  /** Bytes held for this entry: encoded rows plus the kept message. */
  readonly bytes: number;
}

/** A message on its way to the dead-letter topic. */
export interface DeadLetter {
  readonly entry: RangeEntry;
  readonly cause: DeadLetterCause;
  readonly reason: string;
}

/** Header values as text; of a name given twice, the first. */
function textHeaders(headers: IHeaders | undefined): Record<string, string | undefined> {
  const text: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    text[name] = first === undefined ? undefined : first.toString();
  }
  return text;
}

export function ingestMessage(topic: string, partition: number, raw: KafkaMessage): IngestMessage {
  return {
    topic,
    partition,
    offset: raw.offset,
    timestampMs: Number(raw.timestamp),
    key: raw.key,
    value: raw.value,
    headers: textHeaders(raw.headers),
  };
}

function describe(reason: unknown): string {
  return reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
}

/** Runs the processor on one message. Never throws: a message it cannot take is a dead letter. */
export function processMessage(processor: MessageProcessor, topic: string, partition: number, raw: KafkaMessage, hasReplacementsTopic: boolean): RangeEntry {
  const offset = BigInt(raw.offset);
  const rawBytes = (raw.value?.length ?? 0) + (raw.key?.length ?? 0);
  let outcome: MessageOutcome;
  try {
    const processed = processor.process(ingestMessage(topic, partition, raw));
    if (processed.kind === "rows") {
      let lines = "";
      for (const row of processed.rows) lines += jsonEachRowLine(row);
      outcome = processed.rows.length === 0 ? { kind: "skip" } : { kind: "rows", lines, rows: processed.rows.length, originTimestamp: processed.originTimestamp };
    } else if (processed.kind === "replacement" && !hasReplacementsTopic) {
      outcome = { kind: "dead-letter", cause: "no_replacements_topic", reason: `${processor.name} made a replacement, and this consumer has no replacements topic to forward it to` };
    } else {
      outcome = processed;
    }
  } catch (reason) {
    outcome =
      reason instanceof InvalidMessage
        ? { kind: "dead-letter", cause: "invalid_message", reason: reason.reason }
        : { kind: "dead-letter", cause: "processor_error", reason: `${processor.name} failed: ${describe(reason)}` };
  }
  if (outcome.kind === "skip") return { offset, raw: null, outcome, bytes: 0 };
  return { offset, raw, outcome, bytes: rawBytes + (outcome.kind === "rows" ? outcome.lines.length : 0) };
}
