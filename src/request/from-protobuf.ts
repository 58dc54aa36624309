/** Protobuf query requests -> the same validated QueryRequest the JSON routes produce. */
import type { TenantIds as TenantIdsMessage, QuerySettings } from "../../gen/quarry/v1/common_pb.js";
import type { MqlContext as MqlContextMessage, MqlRequest } from "../../gen/quarry/v1/query_pb.js";
import type { MqlQueryRequest } from "../mql/run-mql-query.js";
import { readMqlBody } from "./mql-body-schema.js";
import type { CreateSubscriptionRequest as CreateSubscriptionMessage } from "../../gen/quarry/v1/subscription_pb.js";
import { QueryServiceError, subscriptionError } from "../errors/query-service-error.js";
import { readSubscriptionBody, type CreateSubscriptionRequest } from "./subscription-body.js";
import type { QueryRequest, TenantIds } from "../query/query-request.js";

function fail(message: string): never {
  throw new QueryServiceError("invalid_query", message);
}

function tenantIdsFrom(message: TenantIdsMessage | undefined): TenantIds {
  if (!message) fail("'tenant_ids' is required: set organization_id and referrer");
  if (message.referrer.trim() === "") fail("'tenant_ids.referrer' is required: a descriptive, stable name of the caller");
  if (message.organizationId > BigInt(Number.MAX_SAFE_INTEGER)) fail("'tenant_ids.organization_id' is too large");
  const tenants: TenantIds = { ...message.extra, organization_id: Number(message.organizationId), referrer: message.referrer };
  if (message.projectId !== undefined) tenants.project_id = Number(message.projectId);
  return tenants;
}

export function queryRequestFrom(message: {
  dataset: string;
  query: string;
  tenantIds?: TenantIdsMessage | undefined;
  settings?: QuerySettings | undefined;
}): QueryRequest {
  if (message.dataset === "") fail("'dataset' is required");
  if (message.query.trim() === "") fail("'query' is empty: write a query such as MATCH (events) SELECT count() WHERE ...");
  return {
    dataset: message.dataset,
    query: message.query,
    tenantIds: tenantIdsFrom(message.tenantIds),
    debug: message.settings?.debug ?? false,
    consistent: message.settings?.consistent ?? false,
    turbo: message.settings?.turbo ?? false,
    dryRun: message.settings?.dryRun ?? false,
  };
}

function safeIds(ids: readonly bigint[], field: string): number[] {
  return ids.map((id) => {
    if (id > BigInt(Number.MAX_SAFE_INTEGER)) fail(`'${field}' holds an id that is too large: ${id}`);
    return Number(id);
  });
}

/** The MQL request in the same JSON form the `/mql` route reads, so one validator checks both. */
function mqlContextJson(context: MqlContextMessage | undefined): unknown {
  if (!context) return undefined;
  const mappings = Object.entries(context.indexerMappings);
  return {
    ...(context.entity === "" ? {} : { entity: context.entity }),
    start: context.start,
    end: context.end,
    ...(context.rollup
      ? {
          rollup: {
            granularity: context.rollup.granularity,
            interval: context.rollup.interval ?? null,
            with_totals: context.rollup.withTotals ?? null,
            orderby: context.rollup.orderby === "" ? null : context.rollup.orderby,
          },
        }
      : {}),
    ...(context.scope
      ? {
          scope: {
            org_ids: safeIds(context.scope.orgIds, "mql_context.scope.org_ids"),
            project_ids: safeIds(context.scope.projectIds, "mql_context.scope.project_ids"),
            use_case_id: context.scope.useCaseId,
          },
        }
      : {}),
    // An empty map cannot be told from an absent one on the wire: both mean the server's indexer.
    indexer_mappings: mappings.length === 0 ? null : Object.fromEntries(mappings.map(([k, v]) => [k, Number(v)])),
    limit: context.limit ?? null,
    offset: context.offset ?? null,
  };
}

export function mqlRequestFrom(message: MqlRequest): MqlQueryRequest {
  if (message.dataset === "") fail("'dataset' is required");
  const body: Record<string, unknown> = { mql_context: mqlContextJson(message.mqlContext) };
  if (message.mql !== "") body.mql = message.mql;
  if (message.query !== "") body.query = message.query;
  const request = readMqlBody(body, message.dataset);
  const settings = {
    debug: message.settings?.debug ?? false,
    consistent: message.settings?.consistent ?? false,
    turbo: message.settings?.turbo ?? false,
    dryRun: message.settings?.dryRun ?? false,
  };
  return { ...request, ...settings, ...(message.tenantIds ? { tenantIds: tenantIdsFrom(message.tenantIds) } : {}) };
}

/** A Connect CreateSubscription request -> the same typed request as the JSON route's body. */
export function createSubscriptionRequestFrom(message: CreateSubscriptionMessage): CreateSubscriptionRequest {
  const asNumber = (value: bigint, field: string): number => {
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw subscriptionError(`'${field}' is too large`, field);
    return Number(value);
  };
  // proto3 leaves unset scalars at zero: a zero project or window reads as "not sent".
  const body: Record<string, unknown> = {
    project_id: message.projectId === 0n ? undefined : asNumber(message.projectId, "project_id"),
    time_window: message.timeWindow,
    resolution: message.resolution,
    tenant_ids: message.tenantIds
      ? { organization_id: asNumber(message.tenantIds.organizationId, "tenant_ids.organization_id"), referrer: message.tenantIds.referrer || undefined }
      : undefined,
    subscription_type: message.subscriptionType || undefined,
    query: message.query || undefined,
    organization: message.organization === undefined ? undefined : asNumber(message.organization, "organization"),
    request_name: message.requestName || undefined,
    request_version: message.requestVersion || undefined,
    // Bytes on this wire, base64 on the JSON route: one reader for both.
    time_series_request: message.timeSeriesRequest.length > 0 ? Buffer.from(message.timeSeriesRequest).toString("base64") : undefined,
  };
  return readSubscriptionBody(body, message.dataset, message.entity);
}
