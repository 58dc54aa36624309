/**
 * A message for the storage's dead-letter topic: the original key, value and headers unchanged,
 * plus `original_partition`, `original_offset` and `reason` (Python arroyo's first two; Snuba's
 * Rust consumer writes the offset into both, Quarry writes each what its name says). A header the
 * message already had under one of these names is kept, and the new value follows it, so a
 * reader that keeps the last value of a name (Python's dict(headers)) sees Quarry's.
 */
import type { IHeaders, KafkaMessage, Message } from "kafkajs";

/** Dead-letter reasons are cut to this many characters (an engine error can be long). */
const MAX_REASON_CHARS = 1000;

export function deadLetterMessage(original: KafkaMessage, partition: number, reason: string): Message {
  const headers: IHeaders = { ...(original.headers ?? {}) };
  const add = (name: string, value: string): void => {
    const existing = headers[name];
    headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  };
  add("original_partition", String(partition));
  add("original_offset", original.offset);
  add("reason", reason.slice(0, MAX_REASON_CHARS));
  return { key: original.key, value: original.value, headers };
}
