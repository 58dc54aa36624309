/**
 * Validates the body of `POST /{dataset}/snql` and `POST /query` (spec §2.1) field by field.
 * Snuba's attribution fields (referrer, team, feature, app_id, parent_api, legacy) are accepted
 * for compatibility and otherwise ignored; any other unknown field is refused.
 */
import { QueryServiceError } from "../errors/query-service-error.js";
import type { QueryRequest, TenantIds } from "../query/query-request.js";

const SETTING_FLAGS = ["debug", "consistent", "turbo", "dry_run", "legacy"] as const;
const IGNORED_STRINGS = ["referrer", "team", "feature", "app_id", "parent_api"] as const;
const QUERY_FIELDS = new Set<string>(["query", "dataset", "tenant_ids", ...SETTING_FLAGS, ...IGNORED_STRINGS]);

function fail(message: string): never {
  throw new QueryServiceError("invalid_query", message);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function readBoolean(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (value === undefined) return false;
  if (typeof value !== "boolean") fail(`'${field}' must be a boolean, got ${typeName(value)} ${JSON.stringify(value)}`);
  return value;
}

export function readTenantIds(value: unknown): TenantIds {
  if (value === undefined) {
    fail("'tenant_ids' is required: send {\"organization_id\": <integer>, \"referrer\": \"<who is asking>\"}");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    fail(`'tenant_ids' must be an object, got ${typeName(value)}`);
  }
  const tenants = value as Record<string, unknown>;
  const organization = tenants.organization_id;
  if (organization === undefined) fail("'tenant_ids.organization_id' is required");
  if (typeof organization !== "number" || !Number.isSafeInteger(organization) || organization < 0) {
    fail(`'tenant_ids.organization_id' must be a non-negative integer, got ${typeName(organization)} ${JSON.stringify(organization)}`);
  }
  const referrer = tenants.referrer;
  if (referrer === undefined) fail("'tenant_ids.referrer' is required: a descriptive, stable name of the caller");
  if (typeof referrer !== "string" || referrer.trim() === "") {
    fail(`'tenant_ids.referrer' must be a non-empty string, got ${typeName(referrer)} ${JSON.stringify(referrer)}`);
  }
  const project = tenants.project_id;
  if (project !== undefined && (typeof project !== "number" || !Number.isSafeInteger(project) || project < 0)) {
    fail(`'tenant_ids.project_id' must be a non-negative integer, got ${typeName(project)} ${JSON.stringify(project)}`);
  }
  for (const [key, extra] of Object.entries(tenants)) {
    if (!["string", "number", "boolean"].includes(typeof extra)) {
      fail(`'tenant_ids.${key}' must be a string, number or boolean, got ${typeName(extra)}`);
    }
  }
  return tenants as TenantIds;
}

export function readQueryText(body: Record<string, unknown>, field = "query"): string {
  const query = body[field];
  if (query === undefined) fail(`'${field}' is required: the query text`);
  if (typeof query !== "string") fail(`'${field}' must be a string, got ${typeName(query)}`);
  if (query.trim() === "") fail(`'${field}' is empty: write a query such as MATCH (events) SELECT count() WHERE ...`);
  return query;
}

/** Validates a SnQL body; `pathDataset` comes from `/{dataset}/snql`, else `dataset` is required. */
export function readSnqlBody(body: Record<string, unknown>, pathDataset: string | null, allowed: ReadonlySet<string> = QUERY_FIELDS): QueryRequest {
  for (const key of Object.keys(body)) {
    if (!allowed.has(key)) fail(`unknown field '${key}' in the request body; allowed fields: ${[...allowed].join(", ")}`);
  }
  for (const field of IGNORED_STRINGS) {
    if (body[field] !== undefined && typeof body[field] !== "string") fail(`'${field}' must be a string, got ${typeName(body[field])}`);
  }
  const bodyDataset = body.dataset;
  if (bodyDataset !== undefined && (typeof bodyDataset !== "string" || bodyDataset === "")) {
    fail(`'dataset' must be a non-empty string, got ${typeName(bodyDataset)} ${JSON.stringify(bodyDataset)}`);
  }
  const dataset = pathDataset ?? (bodyDataset as string | undefined);
  if (dataset === undefined) fail("'dataset' is required in the body of /query (for example \"events\")");
  const query = readQueryText(body);
  const tenantIds = readTenantIds(body.tenant_ids);
  readBoolean(body, "legacy"); // accepted for Snuba clients, type-checked, otherwise unused
  return {
    dataset,
    query,
    tenantIds,
    debug: readBoolean(body, "debug"),
    consistent: readBoolean(body, "consistent"),
    turbo: readBoolean(body, "turbo"),
    dryRun: readBoolean(body, "dry_run"),
  };
}
