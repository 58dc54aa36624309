/**
 * Subscription statuses in the cluster: the `quarry_subscription_status` KV bucket, one key per
 * subscription. The scheduler node that owns a partition writes its subscriptions' statuses; every
 * node mirrors the bucket, so list/get anywhere shows them and a partition's next owner continues
 * its counts.
 */
import type { KV } from "nats";
import { KvMirror } from "./kv-mirror.js";
import { subscriptionKey } from "./nats-subscription-store.js";
import type { StatusEntry, StatusStore } from "./subscription-status.js";

const decoder = new TextDecoder();

export class NatsStatusStore implements StatusStore {
  readonly mirror: KvMirror;

  constructor(
    private readonly kv: KV,
    log?: (line: string) => void,
  ) {
    this.mirror = new KvMirror(kv, ">", log);
  }

  /** Calls back with every status another node (or this one) wrote. */
  onChange(listener: (entry: StatusEntry) => void): void {
    this.mirror.onChange((entry) => {
      if (!entry.deleted) listener(JSON.parse(decoder.decode(entry.value)) as StatusEntry);
    });
  }

  async load(): Promise<StatusEntry[]> {
    await this.mirror.ready();
    return [...this.mirror.live()].map((entry) => JSON.parse(decoder.decode(entry.value)) as StatusEntry);
  }

  async save(entries: readonly StatusEntry[]): Promise<void> {
    await Promise.all(entries.map((entry) => this.kv.put(subscriptionKey(entry.entity, entry.partition, entry.uuid), JSON.stringify(entry))));
  }

  close(): void {
    this.mirror.stop();
  }
}
