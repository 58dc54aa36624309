/** The Kafka position columns (`partition`, `offset`) of a row, from the message that carried it. */
import type { IngestMessage } from "../message-processor.js";

export interface KafkaColumns {
  readonly partition: number;
  /** UInt64: a number while JS holds it exactly, else its decimal text (JSONEachRow reads both). */
  readonly offset: number | string;
}

export function kafkaColumns(message: IngestMessage): KafkaColumns {
  const offset = Number(message.offset);
  return { partition: message.partition, offset: Number.isSafeInteger(offset) ? offset : message.offset };
}

/** `message_timestamp`: the broker's time in whole seconds. */
export function messageTimestampSeconds(message: IngestMessage): number {
  return Math.floor(message.timestampMs / 1000);
}
