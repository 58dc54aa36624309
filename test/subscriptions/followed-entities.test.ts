/**
 * Which subscribable entities follow their ingestion commit log under QUARRY_SUBSCRIPTION_CLOCK,
 * from the shipped definitions: the storage a consumer fills for each (itself, or the raw storage
 * whose view fills it), the mode, and the fallback to global mode when partition counts differ.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { followedEntities, ingestingStorage, type FollowOptions } from "../../src/subscriptions/scheduling/followed-entities.js";

const registry = defaultRegistry();
const storages = registry.storages();

function follow(overrides: Partial<FollowOptions>) {
  const lines: string[] = [];
  const followed = followedEntities(registry, {
    mode: "auto",
    storages,
    consumers: new Set(),
    topicMap: {},
    delayOverride: null,
    sourcePartitions: () => 16,
    log: (line) => lines.push(line),
    ...overrides,
  });
  return { followed, lines };
}

describe("entities on the commit-log clock", () => {
  it("finds the storage a consumer fills for an entity: its own, or the raw one whose view writes into it", () => {
    expect(ingestingStorage(storages, "errors")?.name).toBe("errors");
    expect(ingestingStorage(storages, "generic_metrics_counters")?.name).toBe("generic_metrics_counters_raw");
    expect(ingestingStorage(storages, "metrics_counters")?.name).toBe("metrics_raw");
    expect(ingestingStorage(storages, "querylog")).toBeNull();
  });

  it("auto follows only the entities whose consumer runs here; commit_log all that have one; wall none", () => {
    // discover_events reads and writes the errors storage too.
    expect(follow({ consumers: new Set(["errors"]) }).followed.map((entity) => entity.entity)).toEqual(["discover_events", "events"]);
    const all = follow({ mode: "commit_log" }).followed.map((entity) => entity.entity);
    expect(all).toEqual(expect.arrayContaining(["events", "transactions", "generic_metrics_counters", "generic_metrics_sets", "metrics_counters", "eap_items"]));
    expect(follow({ mode: "wall", consumers: new Set(["errors"]) }).followed).toEqual([]);
  });

  it("takes the storage's mode, timestamp, delay, physical topics and group; the delay setting wins", () => {
    const events = follow({ consumers: new Set(["errors"]), topicMap: { events: "events-x", "snuba-commit-log": "log-x" }, groupMap: { "snuba-consumers": "consumers-x" } }).followed.find(
      (entity) => entity.entity === "events",
    );
    expect(events).toEqual({
      entity: "events",
      commitLogTopic: "log-x",
      sourceTopic: "events-x",
      group: "consumers-x",
      mode: "partition",
      synchronization: "received_p99",
      delaySeconds: 30,
      sourcePartitions: 16,
    });
    expect(follow({ consumers: new Set(["errors"]), delayOverride: 5 }).followed.map((entity) => entity.delaySeconds)).toEqual([5, 5]);
  });

  it("follows in global mode, and says so, when the entity's subscription partitions are not the source topic's", () => {
    const { followed, lines } = follow({ consumers: new Set(["errors"]), sourcePartitions: () => 4 });
    expect(followed.find((entity) => entity.entity === "events")).toMatchObject({ mode: "global", sourcePartitions: 4 });
    expect(lines).toContain("subscriptions: events has 16 subscription partitions but topic events has 4: its windows follow the commit log in global mode (each waits for every partition)");
  });
});
