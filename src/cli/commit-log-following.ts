/**
 * The subscription clock of `serve` and of `quarry scheduler` (QUARRY_SUBSCRIPTION_CLOCK): which
 * entities follow their ingestion commit log, decided before the scheduler starts (their windows
 * wait until the clock has read the log), and the CommitLogClock itself, started once the
 * consumers have created their topics.
 */
import { Kafka, logLevel } from "kafkajs";
import type { Registry } from "prom-client";
import type { Settings } from "../config/settings.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import type { StorageDefinition } from "../datasets/definition-types.js";
import { physicalTopic } from "../ingestion/topic-names.js";
import { CommitLogClock } from "../subscriptions/scheduling/commit-log-clock.js";
import { followedEntities, ingestingStorage } from "../subscriptions/scheduling/followed-entities.js";

/** The entities whose windows follow the commit log under the settings (partition counts aside). */
export function commitLogEntityNames(settings: Settings, definitions: DefinitionLookup, storages: readonly StorageDefinition[], consumers: ReadonlySet<string>): Set<string> {
  if (settings.subscriptionClock === "wall") return new Set();
  const names = new Set<string>();
  for (const entity of definitions.entities()) {
    if (!entity.subscriptions || entity.writableStorage === null) continue;
    const storage = ingestingStorage(storages, entity.writableStorage);
    if (!storage) continue;
    if (settings.subscriptionClock === "auto" && !consumers.has(storage.name)) continue;
    names.add(entity.name);
  }
  return names;
}

export interface StartClockOptions {
  /**
   * While a source topic does not exist yet: wait for it, checking every this many ms (a
   * scheduler node started before the consumers that create it), instead of refusing to start.
   */
  readonly waitForTopicsMs?: number;
  /** Stops the waiting (the process is shutting down). */
  readonly signal?: AbortSignal;
}

/** Reads the source topics' partition counts and starts the clock over the named entities' commit logs. */
export async function startCommitLogClock(
  settings: Settings,
  definitions: DefinitionLookup,
  storages: readonly StorageDefinition[],
  consumers: ReadonlySet<string>,
  registry: Registry,
  log: (line: string) => void,
  options: StartClockOptions = {},
): Promise<CommitLogClock> {
  const kafka = new Kafka({ clientId: "quarry-subscription-clock", brokers: [...settings.kafkaBrokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const partitions = new Map<string, number>();
  try {
    const topics = new Set<string>();
    for (const name of commitLogEntityNames(settings, definitions, storages, consumers)) {
      const storage = ingestingStorage(storages, definitions.entity(name)!.writableStorage!)!;
      topics.add(physicalTopic(storage.streamLoader!.sourceTopic, settings.kafkaTopics));
    }
    let waitedFor = "";
    for (;;) {
      const existing = new Set(await admin.listTopics());
      const missing = [...topics].filter((topic) => !existing.has(topic));
      if (missing.length === 0) break;
      const what = `the source topic(s) ${missing.join(", ")} do not exist, so their commit logs cannot be followed`;
      if (options.waitForTopicsMs === undefined) {
        throw new Error(`QUARRY_SUBSCRIPTION_CLOCK: ${what}; start their consumers, or set QUARRY_SUBSCRIPTION_CLOCK=wall`);
      }
      if (what !== waitedFor) log(`subscriptions: ${what} yet; their windows wait until the consumers have created them`);
      waitedFor = what;
      if (options.signal?.aborted) throw new Error("stopped while waiting for the source topics");
      await new Promise((resolve) => setTimeout(resolve, options.waitForTopicsMs));
    }
    if (topics.size > 0) {
      for (const topic of (await admin.fetchTopicMetadata({ topics: [...topics] })).topics) partitions.set(topic.name, topic.partitions.length);
    }
  } finally {
    await admin.disconnect();
  }
  const followed = followedEntities(definitions, {
    mode: settings.subscriptionClock,
    storages,
    consumers,
    topicMap: settings.kafkaTopics,
    groupMap: settings.consumerGroups,
    delayOverride: settings.subscriptionDelaySeconds,
    sourcePartitions: (topic) => partitions.get(topic) ?? 1,
    log,
  });
  const clock = new CommitLogClock(settings.kafkaBrokers, followed, { log });
  try {
    await clock.start();
  } catch (reason) {
    await clock.stop().catch(() => {});
    throw reason;
  }
  clock.registerMetrics(registry);
  for (const entity of followed) {
    log(`subscriptions: ${entity.entity} follows the commit log ${entity.commitLogTopic} (${entity.mode} mode, ${entity.synchronization}, ${entity.delaySeconds} s behind)`);
  }
  return clock;
}
