/**
 * What a topic's demo message builder gives the producer: Snuba's topic name (remapped by the
 * producer through QUARRY_KAFKA_TOPICS), how its messages are keyed, and the message at an index.
 */
import type { DemoRandom } from "./demo-message-random.js";

export interface DemoKafkaMessage {
  /** null: the partition is left to the producer (metrics topics); else the partitioner hashes it. */
  readonly key: string | null;
  readonly value: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Where and when one message is: its index among `count` and its time inside the window. */
export interface DemoMessageSlot {
  readonly index: number;
  readonly count: number;
  /** Milliseconds since the epoch. */
  readonly timestampMs: number;
  /** Seeded by the topic and the index. */
  readonly random: DemoRandom;
}

export interface DemoTopicSource {
  /** Snuba's name of the topic (`events`, `snuba-generic-metrics`...). */
  readonly topic: string;
  /** Salt of the topic's random stream: two topics never draw the same numbers. */
  readonly salt: number;
  message(slot: DemoMessageSlot): DemoKafkaMessage;
}

/** Epoch seconds with microseconds, as Sentry writes `received` and transaction timestamps. */
export function epochSeconds(ms: number): number {
  return Math.round(ms * 1000) / 1_000_000;
}

/** Sentry's `datetime` text: `%Y-%m-%dT%H:%M:%S.%fZ` (microseconds). */
export function payloadDatetime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
