/**
 * Partition leases for a cluster of scheduler nodes, in the `quarry_scheduler` KV bucket.
 *
 * Each partition with subscriptions has one record, `lease.<entity>.<partition>`:
 *   { owner, epoch, expiresAt, nextSecond }
 * It is the lease and the checkpoint at once, so that one revision-checked write both proves the
 * writer still holds the lease and advances the checkpoint: a node that lost its lease (paused
 * past it, cut off from NATS) cannot move a checkpoint, because its write carries a revision
 * that is no longer current. `epoch` grows by one with every new owner; it is the fencing token
 * that results carry to Kafka.
 *
 * Every `renewMs` a node: beats its heartbeat `node.<id>`; computes from the live nodes and the
 * partitions with subscriptions which partitions it should own (balanced-assignment.ts, the same
 * answer on every node); renews what it holds, writing the checkpoint the scheduler gave it;
 * acquires what it should own once free or expired; and drains what it should no longer own:
 * the scheduler starts nothing new there, hands back its checkpoint once its runs are done, and the
 * lease is released with it, so the next owner resumes exactly there (no gap, no duplicate).
 * Every acquisition is logged as `epoch.<entity>.<partition>.<epoch>` for the audit.
 *
 * The lease expires by time written in the record (NATS 2.9 has no per-key TTL): another node may
 * take it once `expiresAt` has passed. The holder stops scheduling a partition a margin before
 * that, by its own clock, and does not publish under an epoch it no longer holds.
 */
import type { KV } from "nats";
import { Counter, Registry } from "prom-client";
import { registerLabelledScrapeTimeGauge, registerScrapeTimeGauge } from "../../metrics/scrape-time-gauge.js";
import { assignPartitions } from "./balanced-assignment.js";
import { partitionKey, type Checkpoint, type CheckpointStore } from "../store/checkpoint-store.js";
import { KvMirror } from "../store/kv-mirror.js";
import type { OwnedPartition, PartitionAssignment } from "../scheduling/partition-assignment.js";

interface LeaseRecord {
  readonly owner: string | null;
  readonly epoch: number;
  /** Epoch milliseconds after which another node may take the lease. */
  readonly expiresAt: number;
  /** The partition's checkpoint (Unix seconds), null before its first. */
  readonly nextSecond: number | null;
}

interface EpochRecord {
  readonly entity: string;
  readonly partition: number;
  readonly epoch: number;
  readonly owner: string;
  /** Epoch milliseconds. */
  readonly acquiredAt: number;
  /** The checkpoint the owner resumed from. */
  readonly resumeFrom: number | null;
}

interface NodeRecord {
  readonly node: string;
  readonly expiresAt: number;
}

interface HeldLease {
  readonly entity: string;
  readonly partition: number;
  readonly epoch: number;
  revision: number;
  /** This node schedules the partition until then (its own clock): a margin before expiresAt. */
  validUntil: number;
  /** The checkpoint last written to the record. */
  written: number | null;
  /** The checkpoint the scheduler last gave. */
  latest: number | null;
  /** Set when the partition should move to another node (or has no subscriptions left). */
  draining: boolean;
  /** The scheduler handed back the final checkpoint: release with it. */
  handedBack: number | null;
}

export interface PartitionLeaseOptions {
  readonly kv: KV;
  readonly nodeId: string;
  /** The partitions that have live subscriptions: only those are leased. */
  readonly wantedPartitions: () => Iterable<{ entity: string; partition: number }>;
  readonly leaseMs?: number;
  readonly renewMs?: number;
  readonly now?: () => number;
  readonly registry?: Registry;
  readonly log?: (line: string) => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function leaseKey(entity: string, partition: number): string {
  return `lease.${entity}.${partition}`;
}

function epochKey(entity: string, partition: number, epoch: number): string {
  return `epoch.${entity}.${partition}.${epoch}`;
}

function nodeKey(node: string): string {
  return `node.${node}`;
}

/** NATS KV keys allow letters, digits and `-_=./`: a node id is reduced to those. */
export function safeNodeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_=-]/g, "-");
}

export class PartitionLeases implements PartitionAssignment, CheckpointStore {
  private readonly held = new Map<string, HeldLease>();
  readonly mirror: KvMirror;
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private timer: NodeJS.Timeout | null = null;
  private stepping: Promise<void> | null = null;
  private stopped = false;
  private lastStepError: string | null = null;
  private lastStepAt: number | null = null;
  private liveNodes: string[] = [];
  private readonly acquired: Counter;
  private readonly released: Counter;
  private readonly lost: Counter;
  private readonly fencedWrites: Counter;
  private readonly rebalances: Counter;

  constructor(private readonly options: PartitionLeaseOptions) {
    this.leaseMs = options.leaseMs ?? 5_000;
    this.renewMs = options.renewMs ?? 1_000;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.mirror = new KvMirror(options.kv, ">", this.log);
    // Without a registry the figures are kept in one of their own, which nothing scrapes.
    const registry = options.registry ?? new Registry();
    const counter = (name: string, help: string) => new Counter({ name, help, registers: [registry] });
    this.acquired = counter("quarry_scheduler_leases_acquired_total", "Partition leases this node acquired (a new epoch each).");
    this.released = counter("quarry_scheduler_leases_released_total", "Partition leases this node released with their final checkpoint (handoff or shutdown).");
    this.lost = counter("quarry_scheduler_leases_lost_total", "Partition leases this node found taken by another node (it had been paused or cut off past its lease).");
    this.fencedWrites = counter("quarry_scheduler_fenced_writes_refused_total", "Lease renewals and checkpoint writes refused because the lease's revision had moved on (a fenced owner).");
    this.rebalances = counter("quarry_scheduler_rebalances_total", "Changes of the live scheduler node set seen by this node (each recomputes the partition spread).");
    registerScrapeTimeGauge(registry, "quarry_scheduler_partitions_owned", "Partitions this node holds a lease on.", () => this.held.size);
    registerScrapeTimeGauge(registry, "quarry_scheduler_nodes_live", "Scheduler nodes with a live heartbeat, as this node sees them.", () => this.liveNodes.length);
    registerLabelledScrapeTimeGauge(registry, "quarry_scheduler_lease_epoch", "The epoch (fencing token) of each partition lease this node holds.", ["entity", "partition"], () =>
      [...this.held.values()].map((h) => [{ entity: h.entity, partition: String(h.partition) }, h.epoch] as const),
    );
    registerLabelledScrapeTimeGauge(registry, "quarry_scheduler_partition_checkpoint_lag_seconds", "Now minus the checkpoint of each partition this node holds.", ["entity", "partition"], () =>
      [...this.held.values()].map((h) => [{ entity: h.entity, partition: String(h.partition) }, h.latest === null ? 0 : Math.max(0, Math.floor(this.now() / 1000) - h.latest)] as const),
    );
  }

  get nodeId(): string {
    return this.options.nodeId;
  }

  /** Waits for the bucket's current state, takes a first step, then steps every `renewMs`. */
  async start(): Promise<void> {
    await this.mirror.ready();
    await this.step();
    const loop = () => {
      this.timer = setTimeout(() => {
        void this.step().finally(() => {
          if (!this.stopped) loop();
        });
      }, this.renewMs);
    };
    loop();
  }

  // ---- PartitionAssignment

  owned(): OwnedPartition[] {
    const now = this.now();
    const owned: OwnedPartition[] = [];
    for (const lease of this.held.values()) {
      if (lease.validUntil <= now) continue;
      // The last checkpoint written: where a scheduler that dropped the partition (its lease
      // lapsed locally during a NATS outage, then was renewed) picks it up again.
      owned.push({ entity: lease.entity, partition: lease.partition, epoch: lease.epoch, resumeFrom: lease.written, draining: lease.draining });
    }
    return owned;
  }

  holds(entity: string, partition: number, epoch: number): boolean {
    const lease = this.held.get(partitionKey(entity, partition));
    return lease !== undefined && lease.epoch === epoch && lease.validUntil > this.now();
  }

  handBack(entity: string, partition: number, epoch: number, nextSecond: number): void {
    const lease = this.held.get(partitionKey(entity, partition));
    if (!lease || lease.epoch !== epoch) return;
    lease.handedBack = nextSecond;
    lease.latest = nextSecond;
    void this.step();
  }

  // ---- CheckpointStore: checkpoints travel with the lease renewals.

  load(): Promise<Checkpoint[]> {
    return Promise.resolve([]);
  }

  save(checkpoints: readonly Checkpoint[]): Promise<void> {
    for (const checkpoint of checkpoints) {
      const lease = this.held.get(partitionKey(checkpoint.entity, checkpoint.partition));
      if (lease && lease.epoch === checkpoint.epoch) lease.latest = checkpoint.nextSecond;
    }
    return Promise.resolve();
  }

  // ---- the loop

  /** One round; rounds never overlap. */
  step(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stepping ??= this.round().finally(() => {
      this.stepping = null;
    });
    return this.stepping;
  }

  private async round(): Promise<void> {
    try {
      await this.heartbeat();
      const now = this.now();
      const live = [...this.mirror.live("node.")].map((e) => JSON.parse(decoder.decode(e.value)) as NodeRecord).filter((n) => n.expiresAt > now).map((n) => n.node);
      if (!live.includes(this.nodeId)) live.push(this.nodeId);
      live.sort();
      if (live.join(",") !== this.liveNodes.join(",")) {
        if (this.liveNodes.length > 0) this.rebalances.inc();
        this.log(`scheduler ${this.nodeId}: live nodes ${live.join(", ")}`);
        this.liveNodes = live;
      }
      const wanted = new Map<string, { entity: string; partition: number }>();
      for (const p of this.options.wantedPartitions()) wanted.set(partitionKey(p.entity, p.partition), p);
      const target = assignPartitions([...wanted.keys()], live);

      const writes: Promise<void>[] = [];
      for (const [key, lease] of this.held) {
        if (target.get(key) !== this.nodeId && !lease.draining) {
          lease.draining = true;
          this.log(`scheduler ${this.nodeId}: handing partition ${key} (epoch ${lease.epoch}) over to ${target.get(key) ?? "nobody (no subscriptions left)"}`);
        }
        writes.push(lease.handedBack !== null ? this.release(key, lease) : this.renew(key, lease));
      }
      for (const [key, p] of wanted) {
        if (target.get(key) === this.nodeId && !this.held.has(key)) writes.push(this.acquire(p.entity, p.partition));
      }
      await Promise.all(writes);
      this.lastStepError = null;
    } catch (reason) {
      this.lastStepError = reason instanceof Error ? reason.message : String(reason);
      this.log(`scheduler ${this.nodeId}: lease round failed (retried in ${this.renewMs} ms): ${this.lastStepError}`);
    }
    this.lastStepAt = this.now();
  }

  private async heartbeat(): Promise<void> {
    const record: NodeRecord = { node: this.nodeId, expiresAt: this.now() + this.leaseMs };
    const value = JSON.stringify(record);
    const revision = await this.options.kv.put(nodeKey(this.nodeId), value);
    this.mirror.observe(nodeKey(this.nodeId), encoder.encode(value), revision);
  }

  private record(key: string): { record: LeaseRecord; revision: number } | null {
    const entry = this.mirror.get(key);
    if (!entry || entry.deleted) return null;
    return { record: JSON.parse(decoder.decode(entry.value)) as LeaseRecord, revision: entry.revision };
  }

  private async write(key: string, record: LeaseRecord, revision: number | null): Promise<number> {
    const value = JSON.stringify(record);
    const next = revision === null ? await this.options.kv.create(key, value) : await this.options.kv.update(key, value, revision);
    this.mirror.observe(key, encoder.encode(value), next);
    return next;
  }

  private async acquire(entity: string, partition: number): Promise<void> {
    const key = leaseKey(entity, partition);
    const current = this.record(key);
    const now = this.now();
    if (current && current.record.owner !== null && current.record.owner !== this.nodeId && current.record.expiresAt > now) return;
    const epoch = (current?.record.epoch ?? 0) + 1;
    const resumeFrom = current?.record.nextSecond ?? null;
    const started = this.now();
    const record: LeaseRecord = { owner: this.nodeId, epoch, expiresAt: started + this.leaseMs, nextSecond: resumeFrom };
    let revision: number;
    try {
      revision = await this.write(key, record, current?.revision ?? null);
    } catch {
      // Another node won the race (or the view was stale): the next round looks again.
      return;
    }
    const lease: HeldLease = {
      entity,
      partition,
      epoch,
      revision,
      validUntil: started + this.leaseMs - this.safetyMarginMs(),
      written: resumeFrom,
      latest: resumeFrom,
      draining: false,
      handedBack: null,
    };
    this.held.set(partitionKey(entity, partition), lease);
    this.acquired.inc();
    const taken = current?.record.owner && current.record.owner !== this.nodeId ? ` (expired lease of ${current.record.owner}, epoch ${current.record.epoch})` : "";
    this.log(`scheduler ${this.nodeId}: acquired partition ${entity}/${partition} epoch ${epoch}${taken}, resuming at ${resumeFrom ?? "its first window"}`);
    const log: EpochRecord = { entity, partition, epoch, owner: this.nodeId, acquiredAt: started, resumeFrom };
    await this.options.kv.put(epochKey(entity, partition, epoch), JSON.stringify(log)).catch(() => {});
  }

  /** The holder stops a margin before its lease ends, so a slow renewal never overlaps a new owner. */
  private safetyMarginMs(): number {
    return Math.min(this.renewMs, this.leaseMs / 4);
  }

  private async renew(key: string, lease: HeldLease): Promise<void> {
    const started = this.now();
    const record: LeaseRecord = { owner: this.nodeId, epoch: lease.epoch, expiresAt: started + this.leaseMs, nextSecond: lease.latest };
    try {
      lease.revision = await this.write(leaseKey(lease.entity, lease.partition), record, lease.revision);
      lease.written = lease.latest;
      lease.validUntil = started + this.leaseMs - this.safetyMarginMs();
    } catch (reason) {
      await this.checkLost(key, lease, reason);
    }
  }

  /** A refused write: if the record has moved on, the lease is gone and this node is fenced. */
  private async checkLost(key: string, lease: HeldLease, reason: unknown): Promise<void> {
    const entry = await this.options.kv.get(leaseKey(lease.entity, lease.partition)).catch(() => null);
    if (entry && entry.revision !== lease.revision) {
      this.mirror.observe(entry.key, entry.value, entry.revision, entry.operation !== "PUT");
      this.fencedWrites.inc();
      this.lost.inc();
      this.held.delete(key);
      const now = entry.operation === "PUT" ? (JSON.parse(decoder.decode(entry.value)) as LeaseRecord) : null;
      this.log(
        `scheduler ${this.nodeId}: lost partition ${key} (epoch ${lease.epoch}): the lease is now ${now ? `${now.owner ?? "free"}'s, epoch ${now.epoch}` : "gone"}; ` +
          `checkpoint write refused (last written ${lease.written ?? "none"})`,
      );
      return;
    }
    throw reason;
  }

  private async release(key: string, lease: HeldLease): Promise<void> {
    const record: LeaseRecord = { owner: null, epoch: lease.epoch, expiresAt: 0, nextSecond: lease.handedBack };
    try {
      await this.write(leaseKey(lease.entity, lease.partition), record, lease.revision);
      this.held.delete(key);
      this.released.inc();
      this.log(`scheduler ${this.nodeId}: released partition ${key} (epoch ${lease.epoch}) at checkpoint ${lease.handedBack ?? "none"}`);
    } catch (reason) {
      await this.checkLost(key, lease, reason);
    }
  }

  /**
   * Shutdown: releases every lease with the scheduler's last checkpoint (call after the
   * scheduler stopped and saved), and removes this node's heartbeat so the others rebalance now.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.stepping;
    await Promise.allSettled(
      [...this.held].map(([key, lease]) => {
        lease.handedBack = lease.latest;
        return this.release(key, lease);
      }),
    );
    await this.options.kv.delete(nodeKey(this.nodeId)).catch(() => {});
    this.mirror.stop();
  }

  /** Abandons everything without releasing (tests that simulate a crash). */
  abandon(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.mirror.stop();
  }

  health(): string {
    if (this.lastStepError) return `lease round failed: ${this.lastStepError}`;
    const since = this.lastStepAt === null ? Infinity : this.now() - this.lastStepAt;
    if (since > this.leaseMs) return `stalled: no lease round for ${Math.round(since / 1000)} s`;
    return "ok";
  }

  /** What /health shows of the leases. */
  describe(): { node: string; liveNodes: string[]; partitions: { partition: string; epoch: number; checkpoint: number | null; draining: boolean }[] } {
    return {
      node: this.nodeId,
      liveNodes: this.liveNodes,
      partitions: [...this.held].map(([key, lease]) => ({ partition: key, epoch: lease.epoch, checkpoint: lease.latest, draining: lease.draining })),
    };
  }
}
