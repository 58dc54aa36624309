/**
 * Kafka messages for the processor tests, written as JSON text. `raw("100.0")` puts a number into
 * the text exactly as spelled, which JSON.stringify cannot (it would write 100).
 */
import type { IngestMessage, IngestRow, MessageProcessor, ProcessedMessage } from "../../src/ingestion/message-processor.js";
import { InvalidMessage } from "../../src/ingestion/message-processor.js";

const RAW = "\u0000raw:";

/** A number spelled as given (`100.0`, `1e16`, `18446744073709551615`). */
export function raw(text: string): string {
  return `${RAW}${text}`;
}

export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000raw:([^"]*)"/g, "$1");
}

export function kafkaMessage(value: string | Buffer | null, overrides: Partial<IngestMessage> = {}): IngestMessage {
  return {
    topic: "events",
    partition: 5,
    offset: "1234",
    timestampMs: Date.UTC(2024, 0, 1, 0, 0, 7, 900),
    key: null,
    value: typeof value === "string" ? Buffer.from(value) : value,
    headers: {},
    ...overrides,
  };
}

/** The one row a processed message holds. */
export function rowOf(processed: ProcessedMessage): IngestRow {
  if (processed.kind !== "rows" || processed.rows.length !== 1) throw new Error(`expected one row, got ${JSON.stringify(processed)}`);
  return processed.rows[0]!;
}

/** The reason `run` refuses a message with (fails when it is not refused with an InvalidMessage). */
export function invalidReason(run: () => unknown, what = "the message"): string {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidMessage) return error.reason;
    throw error;
  }
  throw new Error(`${what} was not refused`);
}

/** The one row a message gives. */
export function onlyRow(processor: MessageProcessor, value: string, overrides: Partial<IngestMessage> = {}): IngestRow {
  return rowOf(processor.process(kafkaMessage(value, overrides)));
}

/** The reason a message is refused with (fails when it is not refused with an InvalidMessage). */
export function refusal(processor: MessageProcessor, value: string | Buffer | null): string {
  return invalidReason(() => processor.process(kafkaMessage(value)), `the message ${String(value).slice(0, 200)}`);
}
