/**
 * `quarry demo-data --kafka [--messages N] [--rate R] [--partitions P] [--topics a,b]
 * [--window-hours H]`: writes the demo data as Sentry's messages onto Kafka (KAFKA_BROKERS),
 * for the ingestion consumers to read. Returns the process exit code: 0, or 2 for bad options or
 * a missing KAFKA_BROKERS (said in the log).
 */
import type { Settings } from "../../config/settings.js";
import { produceDemoKafka } from "./demo-kafka-producer.js";
import { demoTopicNames } from "./demo-topic-sources.js";

export const DEFAULT_DEMO_KAFKA_MESSAGES = 10_000;
const DEFAULT_WINDOW_HOURS = 24;

export const DEMO_KAFKA_USAGE =
  "demo-data --kafka [--messages N] [--rate R] [--partitions P] [--topics a,b] [--window-hours H]\n" +
  `  N messages per topic (default ${DEFAULT_DEMO_KAFKA_MESSAGES}), at most R a second over all topics (default unlimited),\n` +
  `  topics created with P partitions when missing (default 1), times over the H hours before now (default ${DEFAULT_WINDOW_HOURS})`;

class DemoKafkaOptionError extends Error {}

function optionValue(args: readonly string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith("--")) throw new DemoKafkaOptionError(`${name} needs a value`);
  return value;
}

function positiveNumber(args: readonly string[], name: string, integer: boolean): number | undefined {
  const text = optionValue(args, name);
  if (text === undefined) return undefined;
  const value = Number(text.replaceAll("_", "").replaceAll(",", ""));
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new DemoKafkaOptionError(`${name} must be a positive ${integer ? "integer" : "number"}, got '${text}'`);
  }
  return value;
}

function topicList(args: readonly string[]): string[] | null {
  const text = optionValue(args, "--topics");
  if (text === undefined) return null;
  const known = demoTopicNames();
  const topics = text.split(",").map((t) => t.trim()).filter(Boolean);
  const unknown = topics.filter((t) => !known.includes(t));
  if (topics.length === 0 || unknown.length > 0) {
    throw new DemoKafkaOptionError(`--topics takes Snuba's names among ${known.join(", ")}; got '${text}'`);
  }
  return topics;
}

export async function runDemoKafka(settings: Settings, args: readonly string[], log: (line: string) => void): Promise<number> {
  let options;
  try {
    options = {
      messagesPerTopic: positiveNumber(args, "--messages", true) ?? DEFAULT_DEMO_KAFKA_MESSAGES,
      ratePerSecond: positiveNumber(args, "--rate", false) ?? null,
      partitions: positiveNumber(args, "--partitions", true) ?? 1,
      topics: topicList(args),
      windowMs: (positiveNumber(args, "--window-hours", false) ?? DEFAULT_WINDOW_HOURS) * 3_600_000,
    };
  } catch (err) {
    if (!(err instanceof DemoKafkaOptionError)) throw err;
    log(`${err.message}\nusage: quarry ${DEMO_KAFKA_USAGE}`);
    return 2;
  }
  if (settings.kafkaBrokers.length === 0) {
    log("demo-data --kafka needs KAFKA_BROKERS (host:port[,host:port...]) to know where to produce");
    return 2;
  }
  await produceDemoKafka({ ...options, brokers: settings.kafkaBrokers, topicOverrides: settings.kafkaTopics, log });
  return 0;
}
