/** Protobuf query requests -> the same validated QueryRequest the JSON routes produce. */
import type { TenantIds as TenantIdsMessage, QuerySettings } from "../../gen/quarry/v1/common_pb.js";
import { QueryServiceError } from "../errors/query-service-error.js";
import type { QueryRequest, TenantIds } from "../pipeline/query-request.js";

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
