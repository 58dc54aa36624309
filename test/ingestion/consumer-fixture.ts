/**
 * What the consumer tests share: a small processor over JSON messages (so they depend on no real
 * storage's processor), a producer, and readers of topics and committed offsets on the real broker.
 *
 * A message `{"id": 7, "n": 3, "received": 1700000000.5}` becomes the row
 * `{id: 7, n: 3, partition, offset}`; `{"skip": true}` is skipped; `{"replacement": 5}` is a
 * replacement for project 5; text that is not JSON, or JSON
 * without a numeric id, is an InvalidMessage. `n` goes to a UInt32 column, so `"n": "abc"` is a
 * row the engine refuses.
 */
import { Kafka, logLevel, type Admin, type IHeaders, type Producer } from "kafkajs";
import { inject } from "vitest";
import { InvalidMessage, type MessageProcessor } from "../../src/ingestion/message-processor.js";

export function brokers(): string[] {
  const provided = inject("kafkaBrokers");
  if (!provided || provided.length === 0) throw new Error("kafkaBrokers was not provided by test/setup/global-services.ts");
  return provided;
}

export const testProcessor: MessageProcessor = {
  name: "TestJsonProcessor",
  process(message) {
    const text = message.value?.toString() ?? "";
    let body: { id?: unknown; n?: unknown; received?: unknown; skip?: unknown; replacement?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new InvalidMessage(`not JSON: ${text.slice(0, 40)}`);
    }
    if (body.skip === true) return { kind: "skip" };
    if (typeof body.replacement === "number") return { kind: "replacement", projectId: body.replacement };
    if (typeof body.id !== "number") throw new InvalidMessage("the message has no numeric id");
    return {
      kind: "rows",
      rows: [{ id: body.id, n: body.n ?? 0, partition: message.partition, offset: message.offset }],
      ...(typeof body.received === "number" ? { originTimestamp: body.received } : {}),
    };
  },
};

/** Columns of the tables the test processor writes. */
export const TEST_TABLE_COLUMNS = "(id UInt64, n UInt32, partition UInt16, offset UInt64)";

export interface ProducedMessage {
  readonly partition: number;
  readonly key?: string;
  readonly value: string;
  readonly headers?: Record<string, string>;
}

export interface ReadMessage {
  readonly partition: number;
  readonly offset: bigint;
  readonly key: string | null;
  readonly value: string;
  /** The value's bytes (a protobuf payload is not text). */
  readonly bytes: Buffer;
  readonly timestamp: number;
  readonly headers: Record<string, string>;
}

export class KafkaFixture {
  readonly kafka = new Kafka({ clientId: "quarry-consumer-test", brokers: brokers(), logLevel: logLevel.NOTHING });
  readonly admin: Admin = this.kafka.admin();
  // Idempotent: a send retried after a timeout must not put a message on the topic twice (the
  // tests count what lands against what was produced).
  private readonly producer: Producer = this.kafka.producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 });

  async connect(): Promise<void> {
    await this.admin.connect();
    await this.producer.connect();
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
    await this.admin.disconnect();
  }

  async produce(topic: string, messages: readonly ProducedMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 500) {
      await this.producer.send({
        topic,
        acks: -1,
        messages: messages.slice(i, i + 500).map((m) => ({ partition: m.partition, key: m.key ?? null, value: m.value, ...(m.headers ? { headers: m.headers } : {}) })),
      });
    }
  }

  /** Each partition's end offset (the next offset to be written). */
  async endOffsets(topic: string): Promise<Map<number, bigint>> {
    const offsets = await this.admin.fetchTopicOffsets(topic);
    return new Map(offsets.map((o) => [o.partition, BigInt(o.high)]));
  }

  async committed(groupId: string, topic: string): Promise<Map<number, { offset: bigint; metadata: string | null }>> {
    const [entry] = await this.admin.fetchOffsets({ groupId, topics: [topic] });
    return new Map((entry?.partitions ?? []).map((p) => [p.partition, { offset: BigInt(p.offset), metadata: p.metadata }]));
  }

  /** Waits until the group has committed every partition's end offset. */
  async waitCaughtUp(groupId: string, topic: string, timeoutMs = 60_000): Promise<Map<number, bigint>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ends = await this.endOffsets(topic);
      const committed = await this.committed(groupId, topic);
      if ([...ends].every(([partition, end]) => committed.get(partition)?.offset === end)) return ends;
      if (Date.now() > deadline) {
        throw new Error(`group ${groupId} did not catch up on ${topic}: ends ${JSON.stringify([...ends].map(([p, e]) => [p, String(e)]))}, committed ${JSON.stringify([...committed].map(([p, c]) => [p, String(c.offset), c.metadata]))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Every message of a topic, from the beginning, once `count` have arrived. */
  async readTopic(topic: string, count: number, timeoutMs = 30_000): Promise<ReadMessage[]> {
    const consumer = this.kafka.consumer({ groupId: `quarry-test-reader-${topic}-${Math.random().toString(36).slice(2)}` });
    const read: ReadMessage[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${read.length} of ${count} messages of ${topic} arrived`)), timeoutMs);
        if (count === 0) {
          clearTimeout(timer);
          resolve();
          return;
        }
        void consumer.run({
          eachMessage: async ({ partition, message }) => {
            read.push({
              partition,
              offset: BigInt(message.offset),
              key: message.key?.toString() ?? null,
              value: message.value?.toString() ?? "",
              bytes: message.value ?? Buffer.alloc(0),
              timestamp: Number(message.timestamp),
              headers: textHeaders(message.headers),
            });
            if (read.length >= count) {
              clearTimeout(timer);
              resolve();
            }
          },
        });
      });
    } finally {
      await consumer.disconnect();
    }
    return read.sort((a, b) => a.partition - b.partition || Number(a.offset - b.offset));
  }
}

/** Headers as text; a name given twice keeps its last value (as Python's dict(headers) does). */
function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) text[name] = last.toString();
  }
  return text;
}

export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
