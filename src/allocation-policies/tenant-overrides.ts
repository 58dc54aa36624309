/**
 * Per-tenant limit overrides of a policy: `overrides: [{organization_id, project_id, referrer,
 * limit}]` in the storage YAML. As in Snuba's concurrent policy, every override that matches the
 * query's tenant ids applies and the smallest limit wins; its fields name the bucket the query is
 * counted in, so an override for one referrer gets its own counter.
 */
import type { TenantIds } from "../query/query-request.js";

export interface TenantOverride {
  readonly organization_id?: number;
  readonly project_id?: number;
  readonly referrer?: string;
  readonly limit: number;
}

export interface TenantBucket {
  /** The counter key: e.g. `organization_id=1` or `organization_id=1,referrer=api.search`. */
  readonly key: string;
  readonly limit: number;
  /** The same as the key, for messages: `organization_id 1, referrer api.search`. */
  readonly description: string;
}

function matches(override: TenantOverride, tenants: TenantIds): boolean {
  if (override.organization_id !== undefined && override.organization_id !== tenants.organization_id) return false;
  if (override.project_id !== undefined && override.project_id !== tenants.project_id) return false;
  if (override.referrer !== undefined && override.referrer !== tenants.referrer) return false;
  return true;
}

function bucketOf(fields: Record<string, unknown>, limit: number): TenantBucket {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  return {
    key: entries.map(([name, value]) => `${name}=${String(value)}`).join(","),
    description: entries.map(([name, value]) => `${name} ${String(value)}`).join(", "),
    limit,
  };
}

/** The bucket a query is counted in: the smallest matching override, else the organization. */
export function tenantBucket(tenants: TenantIds, defaultLimit: number, overrides: readonly TenantOverride[]): TenantBucket {
  let best: TenantOverride | null = null;
  for (const override of overrides) {
    if (matches(override, tenants) && (best === null || override.limit < best.limit)) best = override;
  }
  if (best === null) return bucketOf({ organization_id: tenants.organization_id }, defaultLimit);
  // The organization stays in the key: a referrer override limits each organization separately.
  return bucketOf({ organization_id: tenants.organization_id, project_id: best.project_id, referrer: best.referrer }, best.limit);
}
