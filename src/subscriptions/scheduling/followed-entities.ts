/**
 * Which subscribable entities schedule on their ingestion commit log, and how
 * (QUARRY_SUBSCRIPTION_CLOCK, docs/subscriptions.md "Clocks"):
 *
 * - `wall`: none; every entity runs on the wall clock and its delay (data others write).
 * - `commit_log`: every entity whose data a Quarry consumer ingests (its writable storage, or the
 *   raw storage whose materialized view fills it, has a `stream_loader`).
 * - `auto` (the default): those of them whose storage's consumer runs in this process.
 *
 * `partition` mode needs a subscription's partition to be its project's source partition, so the
 * entity's subscription partition count must equal the source topic's. Where they differ the
 * entity follows the commit log in `global` mode instead (a window waits for every partition):
 * slower to advance, never early.
 */
import type { DefinitionLookup } from "../../datasets/definition-lookup.js";
import type { StorageDefinition } from "../../datasets/definition-types.js";
import { physicalGroup, physicalTopic } from "../../ingestion/topic-names.js";
import type { FollowedEntity } from "./commit-log-clock.js";

export type SubscriptionClockMode = "auto" | "commit_log" | "wall";

export interface FollowOptions {
  readonly mode: SubscriptionClockMode;
  /** Every storage definition. */
  readonly storages: readonly StorageDefinition[];
  /** The storages whose consumers this process runs. */
  readonly consumers: ReadonlySet<string>;
  /** Snuba's topic name -> physical. */
  readonly topicMap: Readonly<Record<string, string>>;
  /** Snuba's consumer group name -> physical (QUARRY_CONSUMER_GROUPS): commits are keyed by the group that wrote them. */
  readonly groupMap?: Readonly<Record<string, string>>;
  /** QUARRY_SUBSCRIPTION_DELAY_SECONDS, over the storages' `subscription_delay_seconds`. */
  readonly delayOverride: number | null;
  /** Partitions of a source topic (physical name). */
  sourcePartitions(topic: string): number;
  readonly log?: (line: string) => void;
}

/** The storage a consumer fills for `writable`: itself, or the raw storage whose view writes into it. */
export function ingestingStorage(storages: readonly StorageDefinition[], writable: string): StorageDefinition | null {
  const own = storages.find((storage) => storage.name === writable);
  if (own?.streamLoader) return own;
  return storages.find((storage) => storage.streamLoader && storage.materializedViews.some((view) => view.target === writable)) ?? null;
}

export function followedEntities(definitions: DefinitionLookup, options: FollowOptions): FollowedEntity[] {
  if (options.mode === "wall") return [];
  const physical = (name: string) => physicalTopic(name, options.topicMap);
  const followed: FollowedEntity[] = [];
  for (const entity of definitions.entities()) {
    if (!entity.subscriptions || entity.writableStorage === null) continue;
    const storage = ingestingStorage(options.storages, entity.writableStorage);
    if (!storage) continue;
    if (options.mode === "auto" && !options.consumers.has(storage.name)) continue;
    const loader = storage.streamLoader!;
    const sourceTopic = physical(loader.sourceTopic);
    const sourcePartitions = options.sourcePartitions(sourceTopic);
    let mode = loader.subscriptionSchedulerMode;
    if (mode === "partition" && sourcePartitions !== entity.subscriptions.partitions) {
      options.log?.(
        `subscriptions: ${entity.name} has ${entity.subscriptions.partitions} subscription partitions but topic ${sourceTopic} has ${sourcePartitions}: ` +
          `its windows follow the commit log in global mode (each waits for every partition)`,
      );
      mode = "global";
    }
    followed.push({
      entity: entity.name,
      commitLogTopic: physical(loader.commitLogTopic),
      sourceTopic,
      group: physicalGroup(loader.consumerGroup, options.groupMap ?? {}),
      mode,
      synchronization: loader.subscriptionSynchronizationTimestamp,
      delaySeconds: options.delayOverride ?? loader.subscriptionDelaySeconds,
      sourcePartitions,
    });
  }
  return followed;
}
