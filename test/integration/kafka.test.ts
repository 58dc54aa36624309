import { randomUUID } from "node:crypto";
import { Kafka, logLevel, Partitioners, type Admin, type Consumer, type Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

// Smoke test that the globalSetup's Kafka broker is real: topic admin, the
// idempotent producer the scheduler uses for results, and consumer groups.

function kafkaBrokers(): string[] {
  const brokers = inject("kafkaBrokers");
  if (!brokers || brokers.length === 0) {
    throw new Error(
      "kafkaBrokers was not provided: test/setup/global-services.ts did not start Kafka " +
        "(QUARRY_TEST_SERVICES=none?). Unset it, or export KAFKA_BROKERS from `npx tsx scripts/test-services/cli.ts`.",
    );
  }
  return brokers;
}

describe("Kafka", () => {
  let kafka: Kafka;
  let admin: Admin | undefined;
  let producer: Producer | undefined;
  let consumer: Consumer | undefined;

  beforeAll(() => {
    kafka = new Kafka({
      clientId: "quarry-kafka-smoke",
      brokers: kafkaBrokers(),
      // kafkajs logs retriable startup errors (coordinator still loading) at ERROR;
      // real failures still surface as rejected promises.
      logLevel: logLevel.NOTHING,
    });
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await admin?.disconnect();
  });

  it("produces a keyed message idempotently and consumes it in a consumer group", async () => {
    const topic = `quarry-smoke-${randomUUID()}`;
    admin = kafka.admin();
    await admin.connect();
    const created = await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    expect(created).toBe(true);
    expect(await admin.listTopics()).toContain(topic);

    producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    const [ack] = await producer.send({
      topic,
      messages: [{ key: "subscription-42", value: JSON.stringify({ rows: 3 }) }],
    });
    expect(ack?.errorCode).toBe(0);

    const groupConsumer = kafka.consumer({ groupId: `quarry-smoke-${randomUUID()}` });
    consumer = groupConsumer;
    await groupConsumer.connect();
    await groupConsumer.subscribe({ topic, fromBeginning: true });
    const received = await new Promise<{ key: string | undefined; value: string | undefined }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message on ${topic} within 30 s`)), 30_000);
      void groupConsumer
        .run({
          eachMessage: async ({ message }) => {
            clearTimeout(timer);
            resolve({ key: message.key?.toString(), value: message.value?.toString() });
          },
        })
        .catch(reject);
    });
    expect(received).toEqual({ key: "subscription-42", value: JSON.stringify({ rows: 3 }) });
  });
});
