/**
 * A subscription as the cluster stores and ships it: the whole model as JSON (so fields added to
 * the model travel without a change here), plus `deleted_at` on a tombstone. Used by the NATS
 * store and by the query node's window-run RPC.
 */
import type { Subscription } from "./subscription.js";

export interface SubscriptionRecord {
  readonly subscription: Subscription;
  /** Epoch milliseconds of the delete; null while live. */
  readonly deletedAt: number | null;
}

const REQUIRED: Record<string, "string" | "number"> = {
  id: "string",
  dataset: "string",
  entity: "string",
  partition: "number",
  uuid: "string",
  projectId: "number",
  timeWindow: "number",
  resolution: "number",
  type: "string",
  organizationId: "number",
  createdAt: "number",
};

export function encodeSubscription(subscription: Subscription, deletedAt: number | null = null): string {
  return JSON.stringify(deletedAt === null ? subscription : { ...subscription, deletedAt });
}

/** Throws with the field at fault when the JSON is not a stored subscription. */
export function decodeSubscription(text: string): SubscriptionRecord {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("a stored subscription must be a JSON object");
  const record = parsed as Record<string, unknown>;
  for (const [field, type] of Object.entries(REQUIRED)) {
    if (typeof record[field] !== type) throw new Error(`stored subscription field '${field}' must be a ${type}`);
  }
  const { deletedAt, ...subscription } = record;
  return { subscription: subscription as unknown as Subscription, deletedAt: typeof deletedAt === "number" ? deletedAt : null };
}
