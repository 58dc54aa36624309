/**
 * The cluster's subscription store: the `quarry_subscriptions` KV bucket, one key per
 * subscription (`<entity>.<partition>.<uuid>`). `create` resolves once JetStream acknowledged the
 * write on a quorum of replicas (before the API's 202). A delete rewrites the record as a
 * tombstone with its time, revision-checked, so a repeated delete is told from an unknown id and
 * the audit knows until when a deleted subscription's windows were due. Lists come from a local
 * mirror kept current by a watch.
 */
import type { KV } from "nats";
import { KvMirror } from "./kv-mirror.js";
import type { DeleteOutcome, SubscriptionStore } from "./subscription-store.js";
import { decodeSubscription, encodeSubscription, type SubscriptionRecord } from "./subscription-record.js";
import type { Subscription } from "./subscription.js";

const decoder = new TextDecoder();

export function subscriptionKey(entity: string, partition: number, uuid: string): string {
  return `${entity}.${partition}.${uuid}`;
}

export class NatsSubscriptionStore implements SubscriptionStore {
  readonly mirror: KvMirror;
  /** The mirror's records, decoded once per revision. */
  private readonly decoded = new Map<string, SubscriptionRecord>();

  constructor(
    private readonly kv: KV,
    private readonly now: () => number = Date.now,
    log?: (line: string) => void,
  ) {
    this.mirror = new KvMirror(kv, ">", log);
    this.mirror.onChange((entry) => {
      if (entry.deleted) {
        this.decoded.delete(entry.key);
        return;
      }
      try {
        this.decoded.set(entry.key, decodeSubscription(decoder.decode(entry.value)));
      } catch (reason) {
        log?.(`nats: ignoring subscription record ${entry.key}: ${reason instanceof Error ? reason.message : String(reason)}`);
      }
    });
  }

  /** The partitions that have live subscriptions now (the ones the scheduler cluster leases). */
  livePartitions(): { entity: string; partition: number }[] {
    const partitions = new Map<string, { entity: string; partition: number }>();
    for (const { subscription, deletedAt } of this.decoded.values()) {
      if (deletedAt === null) partitions.set(`${subscription.entity}/${subscription.partition}`, { entity: subscription.entity, partition: subscription.partition });
    }
    return [...partitions.values()];
  }

  /** Notified of every change, from any node (the scheduler refreshes on it). */
  onChange(listener: () => void): void {
    this.mirror.onChange(listener);
  }

  async create(subscription: Subscription): Promise<void> {
    const revision = await this.kv.create(subscriptionKey(subscription.entity, subscription.partition, subscription.uuid), encodeSubscription(subscription));
    this.mirror.observe(subscriptionKey(subscription.entity, subscription.partition, subscription.uuid), new TextEncoder().encode(encodeSubscription(subscription)), revision);
  }

  async delete(entity: string, partition: number, uuid: string): Promise<DeleteOutcome> {
    const key = subscriptionKey(entity, partition, uuid);
    // Two nodes deleting at once: the loser of the revision check reads again and finds the tombstone.
    for (let attempt = 0; ; attempt++) {
      const entry = await this.kv.get(key);
      if (!entry || entry.operation !== "PUT") return "not_found";
      const record = decodeSubscription(decoder.decode(entry.value));
      if (record.deletedAt !== null) return "already_deleted";
      const tombstone = encodeSubscription(record.subscription, this.now());
      try {
        const revision = await this.kv.update(key, tombstone, entry.revision);
        this.mirror.observe(key, new TextEncoder().encode(tombstone), revision);
        return "deleted";
      } catch (reason) {
        if (attempt >= 3) throw reason;
      }
    }
  }

  async get(entity: string, partition: number, uuid: string): Promise<Subscription | null> {
    const entry = await this.kv.get(subscriptionKey(entity, partition, uuid));
    if (!entry || entry.operation !== "PUT") return null;
    const record = decodeSubscription(decoder.decode(entry.value));
    return record.deletedAt === null ? record.subscription : null;
  }

  async list(entity?: string): Promise<Subscription[]> {
    return (await this.records(entity)).filter((r) => r.deletedAt === null).map((r) => r.subscription);
  }

  /** Every record, tombstones included (the audit's view), in key order. */
  async records(entity?: string): Promise<SubscriptionRecord[]> {
    await this.mirror.ready();
    const records = [...this.decoded.values()].filter((r) => entity === undefined || r.subscription.entity === entity);
    records.sort((a, b) => compare(a.subscription, b.subscription));
    return records;
  }

  close(): void {
    this.mirror.stop();
  }
}

function compare(a: Subscription, b: Subscription): number {
  return a.entity < b.entity ? -1 : a.entity > b.entity ? 1 : a.partition - b.partition || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);
}
