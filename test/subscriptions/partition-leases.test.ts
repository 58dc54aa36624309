/**
 * Partition leases on a real NATS JetStream: even spread, graceful handoff at the checkpoint,
 * takeover after a crash, and fencing of an owner that was paused past its lease.
 */
import { randomBytes } from "node:crypto";
import { Registry } from "prom-client";
import { afterEach, describe, expect, inject, it } from "vitest";
import { assignPartitions } from "../../src/subscriptions/cluster/balanced-assignment.js";
import { openClusterBuckets, type ClusterBuckets } from "../../src/subscriptions/cluster/nats-buckets.js";
import { PartitionLeases } from "../../src/subscriptions/cluster/partition-leases.js";

const PARTITIONS = Array.from({ length: 8 }, (_, partition) => ({ entity: "events", partition }));
const LEASE_MS = 1_500;
const RENEW_MS = 250;

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stands in for the scheduler: a draining partition has nothing running, so it is handed back at once. */
function handBackDraining(...nodes: PartitionLeases[]): void {
  for (const leases of nodes) for (const p of leases.owned()) if (p.draining) leases.handBack(p.entity, p.partition, p.epoch, p.resumeFrom ?? 0);
}

describe("balanced assignment", () => {
  it("gives every node its fair share and moves few partitions when a node joins", () => {
    const partitions = Array.from({ length: 48 }, (_, i) => `events/${i}`);
    const three = assignPartitions(partitions, ["a", "b", "c"]);
    const counts = (m: Map<string, string>) => [...m.values()].reduce((acc, n) => acc.set(n, (acc.get(n) ?? 0) + 1), new Map<string, number>());
    expect([...counts(three).values()].sort()).toEqual([16, 16, 16]);
    expect(assignPartitions([...partitions].reverse(), ["c", "a", "b"])).toEqual(three);
    const four = assignPartitions(partitions, ["a", "b", "c", "d"]);
    expect([...counts(four).values()].sort()).toEqual([12, 12, 12, 12]);
    const moved = partitions.filter((p) => three.get(p) !== four.get(p) && four.get(p) !== "d").length;
    expect(moved).toBeLessThanOrEqual(12);
  });
});

describe("partition leases on NATS", () => {
  let buckets: ClusterBuckets;
  const nodes: PartitionLeases[] = [];

  async function node(id: string, registry = new Registry()): Promise<PartitionLeases> {
    const leases = new PartitionLeases({ kv: buckets.scheduler, nodeId: id, wantedPartitions: () => PARTITIONS, leaseMs: LEASE_MS, renewMs: RENEW_MS, registry });
    nodes.push(leases);
    await leases.start();
    return leases;
  }

  afterEach(async () => {
    for (const leases of nodes.splice(0)) leases.abandon();
    await buckets?.close();
  });

  it("spreads partitions, hands them over at their checkpoint, fences a paused owner", async () => {
    buckets = await openClusterBuckets(inject("natsUrl"), { prefix: `t_${randomBytes(4).toString("hex")}` });
    const a = await node("a");
    const b = await node("b");
    await until(() => {
      handBackDraining(a, b);
      return a.owned().length === 4 && b.owned().length === 4 && !a.owned().some((p) => p.draining);
    });
    expect(new Set([...a.owned(), ...b.owned()].map((p) => p.partition)).size).toBe(8);
    expect([...a.owned(), ...b.owned()].every((p) => p.epoch >= 1)).toBe(true);

    // The scheduler on a saves checkpoints; a graceful stop releases with them.
    const fromA = a.owned();
    await a.save(fromA.map((p) => ({ entity: p.entity, partition: p.partition, nextSecond: 1_000 + p.partition, epoch: p.epoch })));
    await a.stop();
    await until(() => b.owned().length === 8);
    for (const p of fromA) {
      const taken = b.owned().find((o) => o.partition === p.partition)!;
      expect(taken.resumeFrom).toBe(1_000 + p.partition);
      expect(taken.epoch).toBe(p.epoch + 1);
    }

    // c joins: b drains what c should own; the scheduler hands back; c acquires at that checkpoint.
    const c = await node("c");
    await until(() => b.owned().some((p) => p.draining));
    for (const p of b.owned().filter((o) => o.draining)) b.handBack(p.entity, p.partition, p.epoch, 2_000 + p.partition);
    await until(() => c.owned().length === 4 && b.owned().length === 4);
    for (const p of c.owned()) expect(p.resumeFrom).toBe(2_000 + p.partition);

    // Pause c past its lease (its loop stops, as under SIGSTOP): b takes its partitions over.
    const paused = c.owned();
    c.abandon();
    await until(() => b.owned().length === 8, 15_000);
    for (const p of paused) expect(c.holds(p.entity, p.partition, p.epoch)).toBe(false);
    expect(c.owned()).toEqual([]);
  });

  it("refuses the checkpoint write of an owner whose lease was taken while it was paused", async () => {
    buckets = await openClusterBuckets(inject("natsUrl"), { prefix: `t_${randomBytes(4).toString("hex")}` });
    let frozen: number | null = null;
    const pausedRegistry = new Registry();
    const slow = new PartitionLeases({
      kv: buckets.scheduler,
      nodeId: "slow",
      wantedPartitions: () => PARTITIONS.slice(0, 2),
      leaseMs: LEASE_MS,
      renewMs: 60_000, // renews only when stepped by hand
      now: () => frozen ?? Date.now(),
      registry: pausedRegistry,
    });
    nodes.push(slow);
    await slow.start();
    expect(slow.owned()).toHaveLength(2);
    const held = slow.owned();
    // The lease lapses (no renewal); another node takes both partitions.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 200));
    const other = new PartitionLeases({ kv: buckets.scheduler, nodeId: "other", wantedPartitions: () => PARTITIONS.slice(0, 2), leaseMs: LEASE_MS, renewMs: RENEW_MS });
    nodes.push(other);
    await other.start();
    await until(() => other.owned().length === 2);
    // The paused node wakes believing (by a clock that stood still) that it still holds them.
    frozen = Date.now() - LEASE_MS - 200;
    expect(slow.holds(held[0]!.entity, held[0]!.partition, held[0]!.epoch)).toBe(true);
    await slow.save(held.map((p) => ({ entity: p.entity, partition: p.partition, nextSecond: 9_999, epoch: p.epoch })));
    frozen = null;
    await slow.step();
    expect(slow.owned()).toEqual([]);
    expect(await pausedRegistry.metrics()).toMatch(/quarry_scheduler_fenced_writes_refused_total 2/);
    // The checkpoint stayed the new owner's.
    for (const p of other.owned()) expect(p.resumeFrom).not.toBe(9_999);
    const record = await buckets.scheduler.get(`lease.events.${held[0]!.partition}`);
    expect(JSON.parse(new TextDecoder().decode(record!.value))).toMatchObject({ owner: "other", epoch: held[0]!.epoch + 1 });
  });
});
