/**
 * A consumer's topics exist before it reads: the source topic, its dead-letter topic, its commit
 * log and (errors) its replacements topic are created when missing, with Sentry's settings where
 * they matter (facts: snuba-ingestion.md §1.2):
 *
 * - source: `message.timestamp.type=LogAppendTime`, as Sentry's topics have it: the commit log's
 *   times, and the ticks the schedulers derive from them, are then the broker's, monotonic per
 *   partition;
 * - commit log: exactly one partition, compacted (the last line per key is what counts);
 * - dead letters: kept a week, as Sentry's dead-letter topics are.
 *
 * An existing commit log with more than one partition is refused: its readers take it as one
 * ordered stream, and Snuba's scheduler stops with "Commit log cannot be partitioned".
 */
import type { Admin, ITopicConfig } from "kafkajs";
import { ConsumerSetupError } from "./consumer-setup-error.js";
import type { ConsumerTopics, TopicCreation } from "./consumer-options.js";

const DAY_MS = 24 * 60 * 60 * 1000;

function config(entries: Record<string, string>): ITopicConfig["configEntries"] {
  return Object.entries(entries).map(([name, value]) => ({ name, value }));
}

/** The topics created here when missing, each with its settings. */
function wantedTopics(topics: ConsumerTopics, creation: TopicCreation): ITopicConfig[] {
  const wanted: ITopicConfig[] = [
    { topic: topics.source, numPartitions: creation.sourcePartitions, configEntries: config({ "message.timestamp.type": "LogAppendTime" }) },
    { topic: topics.deadLetter, numPartitions: creation.deadLetterPartitions, configEntries: config({ "retention.ms": String(7 * DAY_MS) }) },
  ];
  if (topics.commitLog !== null) {
    wanted.push({
      topic: topics.commitLog,
      numPartitions: 1,
      configEntries: config({ "cleanup.policy": "compact,delete", "min.compaction.lag.ms": String(60 * 60 * 1000), "retention.ms": String(DAY_MS) }),
    });
  }
  if (topics.replacements) wanted.push({ topic: topics.replacements, numPartitions: 1, configEntries: config({ "retention.ms": String(7 * DAY_MS) }) });
  return wanted;
}

const LEADERS_TIMEOUT_MS = 30_000;

/**
 * Waits until every partition of the topics has a leader. A topic another consumer (of this
 * process or another) created a moment ago is listed before its partitions have leaders, and
 * subscribing to it then fails with "This server does not host this topic-partition".
 */
async function waitForLeaders(admin: Admin, names: readonly string[]): Promise<void> {
  const deadline = Date.now() + LEADERS_TIMEOUT_MS;
  let lastProblem = "";
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [...names] });
      const leaderless = topics.filter((topic) => topic.partitions.length === 0 || topic.partitions.some((partition) => partition.leader < 0)).map((topic) => topic.name);
      if (leaderless.length === 0) return;
      lastProblem = `no leader yet for ${leaderless.join(", ")}`;
    } catch (reason) {
      lastProblem = reason instanceof Error ? reason.message : String(reason);
    }
    if (Date.now() > deadline) throw new ConsumerSetupError(`the topics ${names.join(", ")} did not become available within ${LEADERS_TIMEOUT_MS / 1000} s: ${lastProblem}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Creates the missing topics; refuses a commit log of more than one partition. Returns the topics it created. */
export async function ensureConsumerTopics(admin: Admin, topics: ConsumerTopics, creation: TopicCreation): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = wantedTopics(topics, creation).filter((topic) => !existing.has(topic.topic));
  if (missing.length > 0) {
    // Another consumer of the group may create them at the same moment: an existing topic is no failure.
    await admin.createTopics({ topics: missing, waitForLeaders: true });
  }
  await waitForLeaders(
    admin,
    wantedTopics(topics, creation).map((topic) => topic.topic),
  );
  if (topics.commitLog !== null) {
    const { topics: metadata } = await admin.fetchTopicMetadata({ topics: [topics.commitLog] });
    const partitions = metadata[0]?.partitions.length ?? 0;
    if (partitions !== 1) {
      throw new ConsumerSetupError(
        `the commit-log topic '${topics.commitLog}' has ${partitions} partitions; a commit log must have exactly 1. ` +
          `Its readers (Snuba's and Sentry's subscription schedulers) take it as one ordered stream and stop on a partitioned one ` +
          `("Commit log cannot be partitioned"). Recreate it with one partition, or map the name to another topic with QUARRY_KAFKA_TOPICS.`,
      );
    }
  }
  return missing.map((topic) => topic.topic);
}
