/**
 * The body of `POST /{dataset}/{entity}/subscriptions` (spec §2.5, facts B5.2) -> a typed create
 * request. Wrong types and missing fields are `subscription` errors naming the field. As in
 * Snuba, keys it does not know are accepted and ignored (Snuba files them as metadata and drops
 * them), so a Snuba client's extra keys do not break it.
 */
import { subscriptionError } from "../errors/query-service-error.js";

export interface CreateSubscriptionRequest {
  readonly dataset: string;
  readonly entity: string;
  /** `snql` when absent. */
  readonly subscriptionType: string;
  readonly projectId: number;
  readonly query: string | null;
  readonly timeWindow: number;
  readonly resolution: number;
  readonly organizationId: number;
  /** Metrics entities filter on it; defaults to tenant_ids.organization_id. */
  readonly organization: number | null;
  readonly referrer: string | null;
  /** For subscription_type 'rpc': the request's class name and version, and its base64 bytes. */
  readonly requestName?: string | null;
  readonly requestVersion?: string | null;
  readonly timeSeriesRequest?: string | null;
}

function optionalString(body: Record<string, unknown>, field: string, what: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw subscriptionError(`'${field}' must be a string (${what}), got ${typeName(value)}`, field);
  return value;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function integerField(body: Record<string, unknown>, field: string, what: string): number {
  const value = body[field];
  if (value === undefined || value === null) throw subscriptionError(`'${field}' is required: ${what}`, field);
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw subscriptionError(`'${field}' must be an integer (${what}), got ${typeName(value)} ${JSON.stringify(value)}`, field);
  }
  return value;
}

export function readSubscriptionBody(body: Record<string, unknown>, dataset: string, entity: string): CreateSubscriptionRequest {
  const type = body.subscription_type ?? "snql";
  if (typeof type !== "string") throw subscriptionError(`'subscription_type' must be a string ('snql' or 'rpc'), got ${typeName(type)}`, "subscription_type");

  const tenants = body.tenant_ids;
  if (tenants === undefined || tenants === null) {
    throw subscriptionError("'tenant_ids' is required: send {\"organization_id\": <integer>, \"referrer\": \"<who is asking>\"}", "tenant_ids");
  }
  if (typeof tenants !== "object" || Array.isArray(tenants)) throw subscriptionError(`'tenant_ids' must be an object, got ${typeName(tenants)}`, "tenant_ids");
  const tenantIds = tenants as Record<string, unknown>;
  const organizationId = integerField(tenantIds, "organization_id", "the organization the subscription's runs are attributed to");
  if (organizationId < 0) throw subscriptionError("'tenant_ids.organization_id' must not be negative", "tenant_ids.organization_id");
  const referrer = tenantIds.referrer ?? null;
  if (referrer !== null && typeof referrer !== "string") {
    throw subscriptionError(`'tenant_ids.referrer' must be a string, got ${typeName(referrer)}`, "tenant_ids.referrer");
  }

  const projectId = integerField(body, "project_id", "the project the subscription queries");
  if (projectId <= 0) throw subscriptionError(`'project_id' must be a positive integer, got ${projectId}`, "project_id");
  const timeWindow = integerField(body, "time_window", "seconds, 60 to 86400");
  const resolution = integerField(body, "resolution", "seconds between runs, at least 60");

  const query = body.query ?? null;
  if (query !== null && typeof query !== "string") throw subscriptionError(`'query' must be a string of SnQL, got ${typeName(query)}`, "query");

  let organization: number | null = null;
  if (body.organization !== undefined && body.organization !== null) {
    organization = integerField(body, "organization", "the organization id metrics entities filter on");
  }
  return {
    dataset,
    entity,
    subscriptionType: type,
    projectId,
    query,
    timeWindow,
    resolution,
    organizationId,
    organization,
    referrer,
    requestName: optionalString(body, "request_name", "the request message's name, e.g. TimeSeriesRequest"),
    requestVersion: optionalString(body, "request_version", "the request message's version, e.g. v1"),
    timeSeriesRequest: optionalString(body, "time_series_request", "the base64 of a serialised TimeSeriesRequest"),
  };
}
