/**
 * The consumers a process runs, built from the storages' `stream_loader`: which storages have
 * one, how a selection is refused, a start refused for a missing table, and /health's verdict
 * when a consumer lags and cannot write (the engine refusing every INSERT), then recovers.
 */
import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../../src/clickhouse/migrations.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { ConsumerSetupError } from "../../src/ingestion/consumer-setup-error.js";
import { IngestionConsumers, selectConsumerStorages } from "../../src/ingestion/ingestion-consumers.js";
import { createProcessor } from "../../src/ingestion/processor-registry.js";
import { openScratchEngine, type ScratchEngine } from "../support/scratch-engine.js";
import { waitFor } from "../support/quarry-process.js";
import { brokers } from "./consumer-fixture.js";
import { jsonText, raw } from "./message-text.js";

const storages = defaultRegistry().storages();

describe("storages with a stream_loader", () => {
  it("are the writable storages Sentry's topics fill, each naming a processor Quarry has", () => {
    const consumable = selectConsumerStorages(storages, "all");
    expect(consumable.map((storage) => [storage.name, storage.streamLoader!.sourceTopic, storage.streamLoader!.commitLogTopic])).toEqual([
      ["eap_items", "snuba-items", "snuba-items-commit-log"],
      ["errors", "events", "snuba-commit-log"],
      ["generic_metrics_counters_raw", "snuba-generic-metrics", "snuba-generic-metrics-counters-commit-log"],
      ["generic_metrics_distributions_raw", "snuba-generic-metrics", "snuba-generic-metrics-distributions-commit-log"],
      ["generic_metrics_gauges_raw", "snuba-generic-metrics", "snuba-generic-metrics-gauges-commit-log"],
      ["generic_metrics_sets_raw", "snuba-generic-metrics", "snuba-generic-metrics-sets-commit-log"],
      ["metrics_raw", "snuba-metrics", "snuba-metrics-commit-log"],
      ["transactions", "transactions", "snuba-transactions-commit-log"],
    ]);
    for (const storage of consumable) {
      expect(storage.writable).toBe(true);
      expect(createProcessor(storage.streamLoader!.processor)?.name, storage.name).toBe(storage.streamLoader!.processor);
    }
    // Storages reading one topic must not share a group, or they would share its partitions.
    const groups = consumable.map((storage) => storage.streamLoader!.consumerGroup);
    expect(new Set(groups).size).toBe(groups.length);
    expect(consumable.find((storage) => storage.name === "errors")!.streamLoader).toMatchObject({
      replacementTopic: "event-replacements",
      consumerGroup: "snuba-consumers",
      subscriptionSchedulerMode: "partition",
      subscriptionSynchronizationTimestamp: "received_p99",
      subscriptionDelaySeconds: 30,
    });
  });

  it("refuses a selection naming an unknown storage, one without a stream_loader, or none", () => {
    const refusal = (selection: string[]) => {
      try {
        selectConsumerStorages(storages, selection);
      } catch (reason) {
        expect(reason).toBeInstanceOf(ConsumerSetupError);
        return (reason as Error).message;
      }
      throw new Error("not refused");
    };
    expect(refusal(["errrors"])).toMatch(/^unknown storage 'errrors'; storages with consumers: eap_items, errors, /);
    expect(refusal(["errors", "discover"])).toMatch(/^storage 'discover' has no stream_loader/);
    expect(refusal([])).toMatch(/no storage named/);
    expect(selectConsumerStorages(storages, ["errors", "errors"]).map((storage) => storage.name)).toEqual(["errors"]);
  });
});

describe("a consumer that cannot write", () => {
  let engine: ScratchEngine;
  const run = randomUUID().slice(0, 8);
  const topicMap = Object.fromEntries(["events", "snuba-commit-log", "snuba-dead-letter-events", "event-replacements"].map((name) => [name, `${name}-${run}`]));
  const kafka = new Kafka({ clientId: "ingestion-consumers-test", brokers: brokers(), logLevel: logLevel.NOTHING });

  beforeAll(async () => {
    engine = openScratchEngine("ingestion-consumers");
  });
  afterAll(async () => {
    await engine?.close();
  });

  const consumersOn = (stuckAfterMs: number) =>
    new IngestionConsumers(
      { storages, selection: ["errors"], brokers: brokers(), client: engine.store.client, topicMap, batching: { maxBatchTimeMs: 100 }, stuckAfterMs },
      new Registry(),
    );

  it("is refused at start while its table does not exist", async () => {
    await expect(consumersOn(1000).start()).rejects.toThrow(/table\(s\) errors_local \(storage errors\) do not exist: run `quarry migrate`/);
  });

  it("is reported stuck once it lags and has written nothing for the threshold, and ok again once it writes", async () => {
    await runMigrations(engine.store.client, defaultRegistry(), () => {});
    const consumers = consumersOn(1500);
    await consumers.start();
    try {
      const producer = kafka.producer();
      await producer.connect();
      const send = (message: string) =>
        producer.send({
          topic: topicMap.events!,
          messages: [
            {
              key: "1",
              value: jsonText([
                2,
                "insert",
                { event_id: randomUUID().replaceAll("-", ""), group_id: 1, message, primary_hash: "061cf02b26374d108694d6643a7a2f4e", project_id: 1, datetime: new Date().toISOString(), data: { received: raw(String(Date.now() / 1000)) } },
                {},
              ]),
            },
          ],
        });
      const rows = async () => Number((await (await engine.store.client.query({ query: "SELECT count() AS n FROM errors_local", format: "JSONEachRow" })).json<{ n: string }>())[0]!.n);
      await send("first");
      await waitFor("the first event to be written", async () => ((await rows()) === 1 ? true : undefined), 30_000);
      expect(consumers.health()).toEqual({ "consumer:errors": "ok" });

      // Every INSERT now fails (the table is gone), so the second event is held and retried.
      await engine.store.client.command({ query: "RENAME TABLE errors_local TO errors_local_away" });
      await send("second");
      const stuck = await waitFor(
        "the consumer to be reported stuck",
        async () => {
          const verdict = consumers.health()["consumer:errors"]!;
          return verdict.startsWith("stuck") ? verdict : undefined;
        },
        30_000,
      );
      expect(stuck).toMatch(/^stuck: 1 messages behind and nothing written for \d+ s; writes failing on partition\(s\) 0: .*errors_local/);
      const [partition] = consumers.statuses()[0]!.partitions;
      expect(partition).toMatchObject({ partition: 0, lagMessages: 1, failing: true, paused: true });
      expect(partition!.lagSeconds).toBeGreaterThan(1);

      await engine.store.client.command({ query: "RENAME TABLE errors_local_away TO errors_local" });
      await waitFor("the held event to be written", async () => ((await rows()) === 2 ? true : undefined), 60_000);
      await waitFor("the verdict to be ok again", async () => (consumers.health()["consumer:errors"] === "ok" ? true : undefined), 10_000);
      await producer.disconnect();
    } finally {
      await consumers.stop();
    }
  });
});
