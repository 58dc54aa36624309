/** A query request once its body has been validated, whichever wire it came from. */
export interface TenantIds {
  organization_id: number;
  referrer: string;
  project_id?: number;
  [key: string]: unknown;
}

export interface QueryRequest {
  /** The dataset named by the path or the body. */
  dataset: string;
  query: string;
  tenantIds: TenantIds;
  debug: boolean;
  consistent: boolean;
  turbo: boolean;
  dryRun: boolean;
}
