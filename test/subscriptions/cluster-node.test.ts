/**
 * A `serve` node in cluster mode, in-process, on a real NATS and Kafka: the API stores in NATS KV
 * (tombstones on delete), the node's scheduler leases the partition and publishes with the lease
 * epoch header, and the query node's RunSubscriptionWindow (what `quarry scheduler` nodes call
 * through RemoteExecutor) gives the same rows as the query run by hand, with typed errors.
 */
import { randomBytes } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isRetryable } from "../../src/subscriptions/scheduling/scheduler.js";
import { LEASE_EPOCH_HEADER } from "../../src/subscriptions/publishing/kafka-publisher.js";
import { ManualClock } from "../support/manual-clock.js";
import { openClusterBuckets, type ClusterBuckets } from "../../src/subscriptions/cluster/nats-buckets.js";
import { NatsSubscriptionStore, subscriptionKey } from "../../src/subscriptions/store/nats-subscription-store.js";
import { RemoteExecutor } from "../../src/subscriptions/execution/remote-executor.js";
import { compileSubscription } from "../../src/subscriptions/execution/subscription-query.js";
import { encodeSubscription } from "../../src/subscriptions/store/subscription-record.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { freePort } from "../../scripts/test-services/free-port.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";

const START = Date.parse("2024-01-01T00:50:00Z");
const QUERY = "MATCH (events) SELECT count() AS count BY level";

describe("serve in cluster mode", () => {
  let server: FixtureServer;
  let buckets: ClusterBuckets;
  const clock = new ManualClock(START);
  const topic = `cluster-node-${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    buckets = await openClusterBuckets(inject("natsUrl"), { prefix: `cn_${randomBytes(4).toString("hex")}` });
    server = await startFixtureServer(
      {},
      {
        subscriptions: {
          scheduler: true,
          loop: false,
          clock,
          delaySeconds: 0,
          kafkaBrokers: inject("kafkaBrokers"),
          topics: { events: topic },
          cluster: { buckets, nodeId: "serve-a", leaseMs: 2_000, renewMs: 200 },
        },
      },
    );
  });
  afterAll(async () => {
    await server?.close();
    await buckets?.close();
  });

  const create = async (projectId: number) => {
    const response = await fetch(`${server.baseUrl}/events/events/subscriptions`, {
      method: "POST",
      body: JSON.stringify({ project_id: projectId, time_window: 3600, resolution: 60, query: QUERY, tenant_ids: { organization_id: 1, referrer: "cluster-test" } }),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { subscription_id: string }).subscription_id;
  };

  it("stores in NATS KV before the 202, lists it, and deletes with a tombstone", async () => {
    const id = await create(11);
    const [partition, uuid] = id.split("/") as [string, string];
    const entry = await buckets.subscriptions.get(subscriptionKey("events", Number(partition), uuid));
    expect(JSON.parse(new TextDecoder().decode(entry!.value))).toMatchObject({ id, projectId: 11, query: QUERY, resolution: 60 });

    // Another node's store (its own mirror) sees it.
    const other = new NatsSubscriptionStore(buckets.subscriptions);
    expect((await other.list("events")).map((s) => s.id)).toContain(id);
    const listed = (await (await fetch(`${server.baseUrl}/events/events/subscriptions`)).json()) as { data: { subscription_id: string }[] };
    expect(listed.data.map((s) => s.subscription_id)).toContain(id);

    expect((await fetch(`${server.baseUrl}/events/events/subscriptions/${id}`, { method: "DELETE" })).status).toBe(202);
    expect((await fetch(`${server.baseUrl}/events/events/subscriptions/${id}`, { method: "DELETE" })).status).toBe(202);
    expect((await fetch(`${server.baseUrl}/events/events/subscriptions/${partition}/${"0".repeat(32)}`, { method: "DELETE" })).status).toBe(404);
    const tombstone = await buckets.subscriptions.get(subscriptionKey("events", Number(partition), uuid));
    expect(JSON.parse(new TextDecoder().decode(tombstone!.value)).deletedAt).toEqual(expect.any(Number));
    expect((await other.records("events")).find((r) => r.subscription.id === id)?.deletedAt).toEqual(expect.any(Number));
    expect((await other.list("events")).map((s) => s.id)).not.toContain(id);
    other.close();
  });

  it("schedules under a lease and publishes with the lease epoch", async () => {
    const id = await create(12);
    const partition = Number(id.split("/")[0]);
    const leases = server.subscriptions.leases!;
    const deadline = Date.now() + 10_000;
    while (!leases.owned().some((p) => p.partition === partition)) {
      if (Date.now() > deadline) throw new Error("the partition was not leased");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const epoch = leases.owned().find((p) => p.partition === partition)!.epoch;
    expect(epoch).toBeGreaterThan(0);
    const scheduler = server.subscriptions.scheduler!;
    for (let i = 0; i < 3; i++) {
      await clock.advance(60_000);
      await scheduler.tick();
      await scheduler.idle();
    }
    const kafka = new Kafka({ clientId: "cluster-node-test", brokers: inject("kafkaBrokers"), logLevel: logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId: `cluster-node-${randomBytes(4).toString("hex")}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: { key: string; epoch: string; timestamp: string }[] = [];
    await new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          const payload = (JSON.parse(message.value!.toString()) as { payload: { timestamp: string } }).payload;
          received.push({ key: message.key!.toString(), epoch: String(message.headers?.[LEASE_EPOCH_HEADER]), timestamp: payload.timestamp });
          if (received.length >= 2) resolve();
        },
      });
    });
    await consumer.disconnect();
    expect(received.every((r) => r.key === id && r.epoch === String(epoch))).toBe(true);
    expect(new Set(received.map((r) => r.timestamp)).size).toBe(received.length);
  });

  it("runs a window for a remote scheduler with the rows of the query run by hand, and types its errors", async () => {
    const id = await create(1);
    const [partition, uuid] = id.split("/") as [string, string];
    const stored = (await new NatsSubscriptionStore(buckets.subscriptions).get("events", Number(partition), uuid))!;
    const windowEnd = Date.parse("2024-01-01T02:00:00Z") / 1000;
    const remote = new RemoteExecutor(server.baseUrl, 2);
    const result = await remote.run(compileSubscription(server.definitions, stored, windowEnd), windowEnd);

    const byHand = await fetch(`${server.baseUrl}/events/snql`, {
      method: "POST",
      body: JSON.stringify({
        query: `${QUERY} WHERE project_id = 1 AND timestamp >= toDateTime('2024-01-01T01:00:00') AND timestamp < toDateTime('2024-01-01T02:00:00')`,
        tenant_ids: { organization_id: 1, referrer: "cluster-test" },
      }),
    });
    const expected = (await byHand.json()) as { data: Record<string, unknown>[] };
    const sort = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a.level).localeCompare(String(b.level)));
    expect(expected.data.length).toBeGreaterThan(0);
    expect(sort(result.data)).toEqual(sort(expected.data));
    expect(result.meta.map((m) => m.name).sort()).toEqual(["count", "level"]);

    // A body that is not a stored subscription: a typed 400, not retried.
    // (Subscriptions never change, so the query node compiles each id once: this one is new.)
    const broken = { ...stored, id: `${partition}/${"f".repeat(32)}`, uuid: "f".repeat(32), query: "MATCH (events) SELEKT" };
    const failure = await remote.run(compileSubscriptionUnchecked(broken), windowEnd).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(QueryServiceError);
    expect((failure as QueryServiceError).type).toBe("invalid_query");
    expect(isRetryable(failure as QueryServiceError)).toBe(false);
    const response = await fetch(`${server.baseUrl}/quarry.v1.SubscriptionService/RunSubscriptionWindow`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ subscriptionJson: "{\"id\": 3}", windowEnd: String(windowEnd) }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/subscription_json is not a stored subscription: .*'id' must be a string/);

    // A query node that does not answer: retryable, so the window is tried again.
    const nowhere = new RemoteExecutor(`http://127.0.0.1:${await freePort()}`, 1, 2_000);
    const unreachable = (await nowhere.run(compileSubscription(server.definitions, stored, windowEnd), windowEnd).catch((e: unknown) => e)) as QueryServiceError;
    expect(unreachable.type).toBe("storage-not-available");
    expect(isRetryable(unreachable)).toBe(true);
    expect(encodeSubscription(stored)).toContain(stored.uuid);
  });
});

/** A compiled subscription whose query was never checked here (the query node refuses it). */
function compileSubscriptionUnchecked(subscription: Parameters<typeof encodeSubscription>[0]) {
  return { subscription } as unknown as ReturnType<typeof compileSubscription>;
}
