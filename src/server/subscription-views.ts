/** How a subscription and its status look on the JSON routes and in the Connect messages. */
import { create } from "@bufbuild/protobuf";
import { SubscriptionSchema, type Subscription as SubscriptionMessage } from "../../gen/quarry/v1/subscription_pb.js";
import type { SubscriptionView } from "../subscriptions/subscription-service.js";

function isoSeconds(epochSeconds: number | null): string | null {
  return epochSeconds === null ? null : new Date(epochSeconds * 1000).toISOString();
}

function isoMillis(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

export function subscriptionJson({ subscription, status }: SubscriptionView): Record<string, unknown> {
  return {
    subscription_id: subscription.id,
    dataset: subscription.dataset,
    entity: subscription.entity,
    project_id: subscription.projectId,
    query: subscription.query,
    time_window: subscription.timeWindow,
    resolution: subscription.resolution,
    subscription_type: subscription.type,
    ...(subscription.rpc
      ? { request_name: subscription.rpc.requestName, request_version: subscription.rpc.requestVersion, time_series_request: subscription.rpc.timeSeriesRequest }
      : {}),
    tenant_ids: { organization_id: subscription.organizationId },
    created_at: isoMillis(subscription.createdAt),
    status: {
      last_window: isoSeconds(status.lastWindow),
      last_run_at: isoMillis(status.lastRunAt),
      last_result_at: isoMillis(status.lastResultAt),
      last_error: status.lastError,
      last_error_at: isoMillis(status.lastErrorAt),
      published: status.published,
      failed: status.failed,
      skipped_stale: status.skippedStale,
    },
  };
}

function optional(value: string | null): string | undefined {
  return value === null ? undefined : value;
}

export function subscriptionMessage({ subscription, status }: SubscriptionView): SubscriptionMessage {
  return create(SubscriptionSchema, {
    subscriptionId: subscription.id,
    dataset: subscription.dataset,
    entity: subscription.entity,
    projectId: BigInt(subscription.projectId),
    query: subscription.query,
    timeWindow: subscription.timeWindow,
    resolution: subscription.resolution,
    subscriptionType: subscription.type,
    organizationId: BigInt(subscription.organizationId),
    createdAt: isoMillis(subscription.createdAt)!,
    status: {
      lastWindow: optional(isoSeconds(status.lastWindow)),
      lastRunAt: optional(isoMillis(status.lastRunAt)),
      lastResultAt: optional(isoMillis(status.lastResultAt)),
      lastError: optional(status.lastError),
      lastErrorAt: optional(isoMillis(status.lastErrorAt)),
      published: BigInt(status.published),
      failed: BigInt(status.failed),
      skippedStale: BigInt(status.skippedStale),
    },
  });
}
