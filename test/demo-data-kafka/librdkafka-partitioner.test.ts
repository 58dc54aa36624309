/**
 * The demo producer's partitioner against librdkafka itself, on the real broker: confluent-kafka
 * (librdkafka, what Sentry's producers use; installed from PyPI at test time) produces a set of
 * keys with its default partitioner to one topic, the kafkajs producer with LibrdkafkaPartitioner
 * produces the same keys to another of the same partition count, and every key lands on the same
 * partition in both.
 */
import { execFileSync } from "node:child_process";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureConfluentKafka } from "../../scripts/test-services/confluent-kafka.js";
import { librdkafkaPartition, LibrdkafkaPartitioner } from "../../src/demo-data/kafka/librdkafka-partitioner.js";
import { brokers, KafkaFixture } from "../ingestion/consumer-fixture.js";

const PARTITIONS = 7;
const run = Math.random().toString(36).slice(2, 8);
const LIBRDKAFKA_TOPIC = `partitioner-${run}-librdkafka`;
const KAFKAJS_TOPIC = `partitioner-${run}-kafkajs`;
/** Project ids as Sentry keys `events`, and keys that are not project ids. */
const KEYS = [...Array.from({ length: 300 }, (_, i) => String(i)), "4503599627370496", "007", "abc", "héllo wörld", "project:42", " 1"];

/** Produces each key once with confluent-kafka's default partitioner; prints the delivered partitions. */
const PRODUCE_WITH_LIBRDKAFKA = `
import json, sys
from confluent_kafka import Producer
brokers, topic, keys = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
producer = Producer({"bootstrap.servers": brokers})
delivered = {}
def report(err, msg):
    if err is not None:
        raise SystemExit(f"delivery failed: {err}")
    delivered[msg.key().decode("utf-8")] = msg.partition()
for key in keys:
    producer.produce(topic, key=key.encode("utf-8"), value=b"{}", on_delivery=report)
producer.flush(60)
print(json.dumps(delivered))
`;

let fixture: KafkaFixture;
let python: string;

beforeAll(async () => {
  python = await ensureConfluentKafka();
  fixture = new KafkaFixture();
  await fixture.connect();
  await fixture.admin.createTopics({
    waitForLeaders: true,
    topics: [LIBRDKAFKA_TOPIC, KAFKAJS_TOPIC].map((topic) => ({ topic, numPartitions: PARTITIONS })),
  });
});

afterAll(async () => {
  await fixture?.admin.deleteTopics({ topics: [LIBRDKAFKA_TOPIC, KAFKAJS_TOPIC] }).catch(() => undefined);
  await fixture?.close();
});

describe("LibrdkafkaPartitioner", () => {
  it("puts every key on the partition librdkafka's default partitioner puts it on", async () => {
    const printed = execFileSync(python, ["-I", "-c", PRODUCE_WITH_LIBRDKAFKA, brokers().join(","), LIBRDKAFKA_TOPIC, JSON.stringify(KEYS)], {
      encoding: "utf8",
      timeout: 120_000,
    });
    const librdkafka = JSON.parse(printed.trim().split("\n").at(-1)!) as Record<string, number>;
    expect(Object.keys(librdkafka).sort()).toEqual([...KEYS].sort());
    // What the broker holds agrees with the delivery reports.
    for (const message of await fixture.readTopic(LIBRDKAFKA_TOPIC, KEYS.length)) {
      expect(message.partition).toBe(librdkafka[message.key!]);
    }

    const kafka = new Kafka({ clientId: "quarry-partitioner-test", brokers: brokers(), logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ createPartitioner: LibrdkafkaPartitioner, allowAutoTopicCreation: false });
    await producer.connect();
    try {
      await producer.send({ topic: KAFKAJS_TOPIC, acks: -1, messages: KEYS.map((key) => ({ key, value: "{}" })) });
    } finally {
      await producer.disconnect();
    }
    const ours = Object.fromEntries((await fixture.readTopic(KAFKAJS_TOPIC, KEYS.length)).map((m) => [m.key!, m.partition]));
    expect(ours).toEqual(librdkafka);
    for (const key of KEYS) expect(librdkafkaPartition(key, PARTITIONS), key).toBe(librdkafka[key]);
    // Not a vacuous agreement: the keys use every partition.
    expect(new Set(Object.values(librdkafka)).size).toBe(PARTITIONS);
  });
});
