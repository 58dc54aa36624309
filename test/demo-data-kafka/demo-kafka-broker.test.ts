/**
 * `quarry demo-data --kafka` on the real broker: runDemoKafka creates the (remapped) topics with
 * the partitions asked for, and what a kafkajs consumer reads back is every message, once, on the
 * partition librdkafka would have chosen for its key, each taken by its topic's processor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSettings } from "../../src/config/settings.js";
import { runDemoKafka } from "../../src/demo-data/kafka/demo-kafka-command.js";
import { librdkafkaPartition } from "../../src/demo-data/kafka/librdkafka-partitioner.js";
import { brokers, KafkaFixture } from "../ingestion/consumer-fixture.js";
import { ingestMessage, processDemoMessage } from "./demo-message-processors.js";

const TOPICS = ["events", "transactions", "snuba-generic-metrics", "snuba-metrics", "snuba-items"] as const;
const MESSAGES = 400;
const PARTITIONS = 3;
const run = Math.random().toString(36).slice(2, 8);
/** Snuba's name → this run's topic, through QUARRY_KAFKA_TOPICS as a deployment would. */
const remapped = Object.fromEntries(TOPICS.map((topic) => [topic, `demo-${run}-${topic}`]));

let fixture: KafkaFixture;

beforeAll(async () => {
  fixture = new KafkaFixture();
  await fixture.connect();
});

afterAll(async () => {
  await fixture?.admin.deleteTopics({ topics: Object.values(remapped) }).catch(() => undefined);
  await fixture?.close();
});

describe("demo data on Kafka", () => {
  it("creates the topics and writes every message, partitioned as librdkafka does, each taken by its processor", async () => {
    const settings = { ...readSettings({}), kafkaBrokers: brokers(), kafkaTopics: remapped };
    const lines: string[] = [];
    const code = await runDemoKafka(settings, ["--kafka", "--messages", String(MESSAGES), "--partitions", String(PARTITIONS)], (line) => lines.push(line));
    expect(code, lines.join("\n")).toBe(0);
    expect(lines.join("\n")).toContain(`created ${Object.values(remapped).join(", ")} with ${PARTITIONS} partition(s)`);

    for (const topic of TOPICS) {
      const physical = remapped[topic]!;
      const metadata = await fixture.admin.fetchTopicMetadata({ topics: [physical] });
      expect(metadata.topics[0]?.partitions).toHaveLength(PARTITIONS);
      const ends = await fixture.endOffsets(physical);
      expect([...ends.values()].reduce((a, b) => a + b, 0n), topic).toBe(BigInt(MESSAGES));

      const read = await fixture.readTopic(physical, MESSAGES);
      expect(read, topic).toHaveLength(MESSAGES);
      const perPartition = new Map<number, number>();
      for (const message of read) {
        perPartition.set(message.partition, (perPartition.get(message.partition) ?? 0) + 1);
        if (topic === "events" || topic === "transactions") {
          expect(message.key, topic).toMatch(/^[123]$/);
          expect(message.partition, `${topic} key ${message.key}`).toBe(librdkafkaPartition(message.key!, PARTITIONS));
        } else {
          expect(message.key).toBeNull();
        }
        const processed = processDemoMessage(topic, ingestMessage(topic, { ...message, value: message.bytes, offset: String(message.offset) }));
        expect(processed.rows.length).toBeGreaterThan(0);
      }
      // The partitions' end offsets are what was read on each.
      expect(Object.fromEntries([...ends].map(([p, end]) => [p, Number(end)]))).toEqual(
        Object.fromEntries([...Array(PARTITIONS).keys()].map((p) => [p, perPartition.get(p) ?? 0])),
      );
      if (topic !== "events" && topic !== "transactions") {
        // Unkeyed: spread over every partition.
        expect(perPartition.size, topic).toBe(PARTITIONS);
      }
    }
  });

  it("keeps to --rate, and writes only the --topics named", async () => {
    const settings = { ...readSettings({}), kafkaBrokers: brokers(), kafkaTopics: remapped };
    const before = await fixture.endOffsets(remapped.events!);
    const otherBefore = await fixture.endOffsets(remapped.transactions!);
    const started = Date.now();
    const code = await runDemoKafka(settings, ["--kafka", "--topics", "events,snuba-metrics", "--messages", "100", "--rate", "100"], () => undefined);
    const seconds = (Date.now() - started) / 1000;
    expect(code).toBe(0);
    // 200 messages at 100 a second: about 2 s.
    expect(seconds).toBeGreaterThan(1.5);
    expect(seconds).toBeLessThan(15);
    const after = await fixture.endOffsets(remapped.events!);
    const sum = (offsets: Map<number, bigint>) => [...offsets.values()].reduce((a, b) => a + b, 0n);
    expect(sum(after) - sum(before)).toBe(100n);
    expect(sum(await fixture.endOffsets(remapped.transactions!))).toBe(sum(otherBefore));
  });
});
