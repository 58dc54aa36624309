/**
 * Where subscriptions live. The embedded mode keeps them in ClickHouse
 * (`clickhouse-subscription-store.ts`); the cluster keeps them in a NATS KV bucket. A store
 * writes durably before `create` resolves: the API answers 202 only after that.
 */
import type { Subscription } from "./subscription.js";

/** What a delete found: a live subscription, one deleted before (deletes are idempotent), or nothing. */
export type DeleteOutcome = "deleted" | "already_deleted" | "not_found";

export interface SubscriptionStore {
  create(subscription: Subscription): Promise<void>;
  delete(entity: string, partition: number, uuid: string): Promise<DeleteOutcome>;
  get(entity: string, partition: number, uuid: string): Promise<Subscription | null>;
  /** Live subscriptions, of one entity or of all. */
  list(entity?: string): Promise<Subscription[]>;
}
