/**
 * Snuba's RPC way to create a subscription (`POST /rpc/CreateSubscriptionRequest/v1`, facts B7):
 * a CreateSubscriptionRequest message → the same typed create request as the JSON route's body.
 * As in Snuba, the entity is eap_items, the project is the request's first project, the
 * organization its meta.organization_id, and the request kind TimeSeriesRequest v1.
 */
import { toBinary } from "@bufbuild/protobuf";
import type { CreateSubscriptionRequest as CreateSubscriptionMessage } from "../../gen/sentry_protos/snuba/v1/endpoint_create_subscription_pb.js";
import { TimeSeriesRequestSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { subscriptionError } from "../errors/query-service-error.js";
import { EAP_DATASET, EAP_ENTITY } from "../rpc/translate-time-series.js";
import type { CreateSubscriptionRequest } from "./subscription-body.js";

export function rpcSubscriptionRequestFrom(message: CreateSubscriptionMessage): CreateSubscriptionRequest {
  const request = message.timeSeriesRequest;
  if (!request) throw subscriptionError("'time_series_request' is required: the TimeSeriesRequest to run each window", "time_series_request");
  const meta = request.meta;
  const project = meta?.projectIds[0];
  if (project === undefined || project === 0n) throw subscriptionError("Project ID is required.", "time_series_request");
  const safe = (value: bigint, field: string) => {
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw subscriptionError(`'${field}' is too large`, field);
    return Number(value);
  };
  return {
    dataset: EAP_DATASET,
    entity: EAP_ENTITY,
    subscriptionType: "rpc",
    projectId: safe(project, "meta.project_ids"),
    query: null,
    timeWindow: message.timeWindowSecs,
    resolution: message.resolutionSecs,
    organizationId: safe(meta!.organizationId, "meta.organization_id"),
    organization: null,
    referrer: null,
    requestName: "TimeSeriesRequest",
    requestVersion: "v1",
    timeSeriesRequest: Buffer.from(toBinary(TimeSeriesRequestSchema, request)).toString("base64"),
  };
}
