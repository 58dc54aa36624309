/**
 * Snuba's commit log (facts: snuba-ingestion.md §3.1). After a consumer writes a range of a source
 * partition, it produces one message on the storage's commit-log topic:
 *
 * - key `<topic>:<partition>:<group>` (the physical topic and consumer group);
 * - value `{"offset":<next offset to read>,"orig_message_ts":<seconds>,"received_p99":<seconds|null>}`,
 *   byte for byte as Snuba's Rust consumer writes it (serde_json): fields in that order, no
 *   spaces, times in seconds with millisecond precision, a whole number of seconds written `.0`.
 *
 * `orig_message_ts` is the broker timestamp of the range's last message; `received_p99` the 99th
 * percentile of the times Sentry received the range's events (the processors' originTimestamp),
 * null when the storage's messages carry none. Snuba's and Sentry's subscription schedulers read
 * it with arroyo's CommitCodec to turn it into ticks.
 */

export interface CommitLogEntry {
  readonly topic: string;
  readonly partition: number;
  readonly group: string;
  /** The next offset to read: the range's last offset + 1. */
  readonly offset: bigint;
  /** Broker timestamp of the range's last message, ms since the epoch. */
  readonly origMessageTsMs: number;
  /** Sentry's receive time of each written message that has one, seconds since the epoch. */
  readonly originTimestamps: readonly number[];
}

export interface EncodedCommitLogMessage {
  readonly key: string;
  readonly value: string;
}

/** Whole milliseconds, truncated as chrono's timestamp_millis does (after undoing float fuzz below a microsecond). */
function truncatedMillis(seconds: number): number {
  return Math.floor(Math.round(seconds * 1_000_000) / 1000);
}

/** A float of seconds as serde_json prints an f64: shortest round-trip digits, `.0` on whole numbers. */
function serdeFloat(value: number): string {
  const text = String(value);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/** The element at ⌊n·0.99⌋ of the sorted millisecond times, in seconds; null when there are none. */
export function receivedP99(originTimestamps: readonly number[]): number | null {
  if (originTimestamps.length === 0) return null;
  const millis = originTimestamps.map(truncatedMillis).sort((a, b) => a - b);
  return millis[Math.floor(millis.length * 0.99)]! / 1000;
}

export function encodeCommitLogMessage(entry: CommitLogEntry): EncodedCommitLogMessage {
  const p99 = receivedP99(entry.originTimestamps);
  const orig = Math.trunc(entry.origMessageTsMs) / 1000;
  return {
    key: `${entry.topic}:${entry.partition}:${entry.group}`,
    // Written by hand: the offset is 64-bit (no Number round trip), and the order and number
    // format must be serde_json's.
    value: `{"offset":${entry.offset},"orig_message_ts":${serdeFloat(orig)},"received_p99":${p99 === null ? "null" : serdeFloat(p99)}}`,
  };
}

export interface DecodedCommitLogMessage {
  readonly topic: string;
  readonly partition: number;
  readonly group: string;
  readonly offset: bigint;
  readonly origMessageTs: number;
  /** Null when absent, null or 0, as arroyo's decoder reads it. */
  readonly receivedP99: number | null;
}

/** Reads a commit-log message as arroyo's CommitCodec does (the legacy numeric payload aside). */
export function decodeCommitLogMessage(key: string, value: string): DecodedCommitLogMessage {
  const parts = key.split(":");
  if (parts.length !== 3) throw new Error(`commit-log key '${key}' is not <topic>:<partition>:<group>`);
  const [topic, partition, group] = parts as [string, string, string];
  const offsetText = /"offset"\s*:\s*(\d+)/.exec(value)?.[1];
  const parsed = JSON.parse(value) as { offset?: unknown; orig_message_ts?: unknown; received_p99?: unknown };
  if (offsetText === undefined || typeof parsed.orig_message_ts !== "number") throw new Error(`commit-log value '${value}' lacks offset or orig_message_ts`);
  return {
    topic,
    partition: Number(partition),
    group,
    offset: BigInt(offsetText),
    origMessageTs: parsed.orig_message_ts,
    receivedP99: typeof parsed.received_p99 === "number" && parsed.received_p99 !== 0 ? parsed.received_p99 : null,
  };
}
