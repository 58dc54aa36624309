/**
 * Produces the demo messages onto Kafka: each topic of demo-topic-sources.ts gets `messages`
 * messages whose times spread evenly over the window (in order, as live traffic arrives), sent
 * round-robin over the topics in batches, at most `ratePerSecond` messages a second over all of
 * them when set. Missing topics are created with `partitions` partitions and LogAppendTime, as
 * Sentry's topics (and the consumers' topic setup) have them. Keyed messages are partitioned as
 * librdkafka does (librdkafka-partitioner.ts).
 *
 * The broker stamps the messages (their Kafka timestamp is the send time, not the event's): a
 * topic with a day's retention would otherwise delete two-week-old messages at once.
 */
import { Kafka, logLevel, type Message, type TopicMessages } from "kafkajs";
import { physicalTopic } from "../../ingestion/topic-names.js";
import { DemoRandom } from "./demo-message-random.js";
import type { DemoTopicSource } from "./demo-message-source.js";
import { demoTopicSources, type DemoWindow } from "./demo-topic-sources.js";
import { LibrdkafkaPartitioner } from "./librdkafka-partitioner.js";

export interface DemoKafkaOptions {
  readonly brokers: readonly string[];
  /** Snuba's topic name → the deployment's (QUARRY_KAFKA_TOPICS). */
  readonly topicOverrides: Readonly<Record<string, string>>;
  readonly messagesPerTopic: number;
  /** Messages per second over all topics; null: as fast as the broker takes them. */
  readonly ratePerSecond: number | null;
  /** Partitions of the topics created here (existing topics keep theirs). */
  readonly partitions: number;
  /** Snuba's names of the topics to write; null: all. */
  readonly topics: readonly string[] | null;
  readonly windowMs: number;
  /** The window's end; defaults to the current time. */
  readonly now?: Date;
  readonly log: (line: string) => void;
}

export interface DemoKafkaTopicSummary {
  /** Snuba's name. */
  readonly topic: string;
  /** The topic written (after QUARRY_KAFKA_TOPICS). */
  readonly physicalTopic: string;
  readonly messages: number;
  readonly created: boolean;
}

export interface DemoKafkaSummary {
  readonly window: DemoWindow;
  readonly topics: readonly DemoKafkaTopicSummary[];
  readonly seconds: number;
}

/** Messages per topic per send when the rate is unlimited. */
const BATCH_PER_TOPIC = 500;

/** The message at `index` of a topic, with its time in the window. */
export function demoMessageAt(source: DemoTopicSource, window: DemoWindow, index: number, count: number): Message {
  const random = new DemoRandom(source.salt, index);
  const span = window.endMs - window.startMs;
  const timestampMs = Math.floor(window.startMs + ((index + random.next()) * span) / Math.max(1, count));
  const message = source.message({ index, count, timestampMs, random });
  return { key: message.key, value: message.value, ...(message.headers ? { headers: { ...message.headers } } : {}) };
}

export function demoWindow(now: Date, windowMs: number): DemoWindow {
  const endMs = now.getTime();
  return { startMs: endMs - windowMs, endMs };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A broker refuses a record batch over its `message.max.bytes` (1 MiB by default), and one batch
 * holds a partition's messages of a send: sends are cut so that each topic's part stays well
 * under it (an error event with its stack trace is a few KiB).
 */
const MAX_SEND_BYTES = 512 * 1024;

function byteLength(value: Buffer | string | null | undefined): number {
  return value === null || value === undefined ? 0 : typeof value === "string" ? Buffer.byteLength(value) : value.length;
}

function byteBoundedBatches(topicMessages: readonly TopicMessages[]): TopicMessages[][] {
  const sends: TopicMessages[][] = [];
  for (const { topic, messages } of topicMessages) {
    let part: Message[] = [];
    let bytes = 0;
    let sendIndex = 0;
    const flush = () => {
      if (part.length === 0) return;
      (sends[sendIndex] ??= []).push({ topic, messages: part });
      sendIndex += 1;
      part = [];
      bytes = 0;
    };
    for (const message of messages) {
      const size = byteLength(message.value) + byteLength(message.key);
      if (bytes + size > MAX_SEND_BYTES) flush();
      part.push(message);
      bytes += size;
    }
    flush();
  }
  return sends;
}

export async function produceDemoKafka(options: DemoKafkaOptions): Promise<DemoKafkaSummary> {
  const started = Date.now();
  const window = demoWindow(options.now ?? new Date(), options.windowMs);
  const sources = demoTopicSources(window).filter((source) => options.topics === null || options.topics.includes(source.topic));
  const physical = new Map(sources.map((source) => [source.topic, physicalTopic(source.topic, options.topicOverrides)]));

  const kafka = new Kafka({ clientId: "quarry-demo-data", brokers: [...options.brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer({ createPartitioner: LibrdkafkaPartitioner, allowAutoTopicCreation: false });
  const created = new Set<string>();
  try {
    await admin.connect();
    const existing = new Set(await admin.listTopics());
    const missing = [...new Set(physical.values())].filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: options.partitions,
          configEntries: [{ name: "message.timestamp.type", value: "LogAppendTime" }],
        })),
      });
      for (const topic of missing) created.add(topic);
      options.log(`demo kafka: created ${missing.join(", ")} with ${options.partitions} partition(s)`);
    }
    await producer.connect();

    const total = options.messagesPerTopic;
    const perTopic =
      options.ratePerSecond === null ? BATCH_PER_TOPIC : Math.max(1, Math.min(BATCH_PER_TOPIC, Math.floor(options.ratePerSecond / (10 * sources.length))));
    let sent = 0;
    for (let start = 0; start < total; start += perTopic) {
      const end = Math.min(total, start + perTopic);
      const topicMessages: TopicMessages[] = sources.map((source) => {
        const messages: Message[] = [];
        for (let index = start; index < end; index++) messages.push(demoMessageAt(source, window, index, total));
        return { topic: physical.get(source.topic)!, messages };
      });
      for (const part of byteBoundedBatches(topicMessages)) await producer.sendBatch({ topicMessages: part, acks: -1 });
      sent += (end - start) * sources.length;
      if (options.ratePerSecond !== null) {
        const due = started + (sent / options.ratePerSecond) * 1000;
        const wait = due - Date.now();
        if (wait > 0) await sleep(wait);
      }
    }
  } finally {
    await producer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
  const topics = sources.map((source) => {
    const name = physical.get(source.topic)!;
    return { topic: source.topic, physicalTopic: name, messages: options.messagesPerTopic, created: created.has(name) };
  });
  const seconds = (Date.now() - started) / 1000;
  for (const topic of topics) {
    const shown = topic.physicalTopic === topic.topic ? topic.topic : `${topic.topic} (as ${topic.physicalTopic})`;
    options.log(`demo kafka: ${shown}: ${topic.messages} messages`);
  }
  options.log(
    `demo kafka: ${topics.reduce((sum, t) => sum + t.messages, 0)} messages on ${topics.length} topics in ${seconds.toFixed(1)} s, ` +
      `${new Date(window.startMs).toISOString()} .. ${new Date(window.endMs).toISOString()}`,
  );
  return { window, topics, seconds };
}
