/**
 * A stored subscription (spec §2.5): a SnQL query (or, for `type: "rpc"`, a TimeSeriesRequest:
 * rpc-subscription.ts) that runs every `resolution` seconds over the window `[T − time_window, T)`,
 * on one entity, for one project. Its id is Snuba's
 * `<partition>/<uuid hex>` (facts B5.4); the partition is the unit of scheduling and checkpoints.
 */

import type { RpcSubscriptionRequest } from "./rpc-subscription.js";

export type SubscriptionType = "snql" | "rpc";

export interface Subscription {
  /** `<partition>/<uuid hex>`. */
  readonly id: string;
  readonly dataset: string;
  readonly entity: string;
  readonly partition: number;
  /** 32 lowercase hex digits. */
  readonly uuid: string;
  readonly projectId: number;
  /** Seconds, 60..86400. */
  readonly timeWindow: number;
  /** Seconds between runs, ≥ 60. */
  readonly resolution: number;
  readonly type: SubscriptionType;
  /** The SnQL as the caller sent it (without the window and project conditions); "" for rpc. */
  readonly query: string;
  /** The TimeSeriesRequest of an rpc subscription (absent for snql). */
  readonly rpc?: RpcSubscriptionRequest;
  /**
   * The organization every run is attributed to (tenant_ids.organization_id at creation, or the
   * body's `organization`); metrics entities also filter on it (`org_id = <organization>`).
   */
  readonly organizationId: number;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

export function formatSubscriptionId(partition: number, uuid: string): string {
  return `${partition}/${uuid}`;
}

const UUID_HEX = /^[0-9a-f]{32}$/;
const UUID_DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The 32-hex form of a UUID written with or without dashes (as Snuba's `UUID(key)`), or null. */
export function normaliseUuid(text: string): string | null {
  const lower = text.toLowerCase();
  if (UUID_HEX.test(lower)) return lower;
  if (UUID_DASHED.test(lower)) return lower.replace(/-/g, "");
  return null;
}

/** Snuba's stored JSON of a subscription (facts B6.1; RPCSubscriptionData.to_dict), plus the organization Quarry keeps. */
export function storedJson(subscription: Subscription): Record<string, unknown> {
  if (subscription.rpc) {
    return {
      project_id: subscription.projectId,
      time_window: subscription.timeWindow,
      resolution: subscription.resolution,
      time_series_request: subscription.rpc.timeSeriesRequest,
      request_version: subscription.rpc.requestVersion,
      request_name: subscription.rpc.requestName,
      subscription_type: "rpc",
      organization: subscription.organizationId,
    };
  }
  return {
    project_id: subscription.projectId,
    time_window: subscription.timeWindow,
    resolution: subscription.resolution,
    query: subscription.query,
    subscription_type: subscription.type,
    organization: subscription.organizationId,
  };
}
