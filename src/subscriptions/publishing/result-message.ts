/**
 * Snuba's subscription result message, version 3 (facts B6.4), exactly: key = the subscription
 * id, value = {"version": 3, "payload": {subscription_id, request, result, timestamp, entity}},
 * `timestamp` the window end T as a naive ISO datetime, `request` the stored query with the
 * executor's tenant ids (for an rpc subscription, the executed TimeSeriesRequest in base64). Consumers written for Snuba read it unchanged.
 */
import { stringifyResponse } from "../../execution/result-values.js";
import { EXECUTOR_REFERRER, type WindowResult } from "../execution/executor.js";
import type { Subscription } from "../store/subscription.js";
import { normalizeTimeSeriesRequest } from "../../rpc/time-series-rules.js";
import { decodeTimeSeriesRequest, rpcResultRequest, windowTimeSeriesRequest } from "../store/rpc-subscription.js";

/** A result ready to publish, with what the publishers and the status book need to know of it. */
export interface PublishableResult {
  readonly topic: string;
  /** The subscription id (UTF-8). */
  readonly key: string;
  /** The JSON message. */
  readonly value: string;
  readonly entity: string;
  readonly projectId: number;
  /** The window end T (Unix seconds). */
  readonly windowEnd: number;
  readonly resultRows: number;
  /** The lease epoch of the node that ran it (0 on a single node); Kafka carries it as a header. */
  readonly epoch: number;
}

/** `2024-05-01T12:01:00`: no fraction, no offset (Snuba's `datetime.isoformat()` of a naive UTC time). */
export function naiveIsoTimestamp(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 19);
}

function resultPayload(subscription: Subscription, windowEnd: number, result: WindowResult): Record<string, unknown> {
  return {
    version: 3,
    payload: {
      subscription_id: subscription.id,
      request: payloadRequest(subscription, windowEnd),
      result: { data: result.data, meta: result.meta },
      timestamp: naiveIsoTimestamp(windowEnd),
      entity: subscription.entity,
    },
  };
}

/**
 * SnQL: the stored query with the executor's tenant ids. RPC: the request as the window ran it
 * (window, referrer, granularity set; labels filled in), base64, with its name and version.
 */
function payloadRequest(subscription: Subscription, windowEnd: number): Record<string, unknown> {
  if (subscription.rpc) {
    const { requestName, requestVersion, timeSeriesRequest } = subscription.rpc;
    const windowed = windowTimeSeriesRequest(decodeTimeSeriesRequest(timeSeriesRequest), subscription.timeWindow, windowEnd, EXECUTOR_REFERRER);
    return rpcResultRequest(normalizeTimeSeriesRequest(windowed), requestName, requestVersion);
  }
  return { query: subscription.query, tenant_ids: { referrer: EXECUTOR_REFERRER, organization_id: subscription.organizationId } };
}

export function encodeResult(subscription: Subscription, windowEnd: number, result: WindowResult, topic: string, epoch = 0): PublishableResult {
  return {
    topic,
    key: subscription.id,
    value: stringifyResponse(resultPayload(subscription, windowEnd, result)),
    entity: subscription.entity,
    projectId: subscription.projectId,
    windowEnd,
    resultRows: result.data.length,
    epoch,
  };
}
