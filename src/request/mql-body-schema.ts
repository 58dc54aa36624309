/**
 * Validates the body of `POST /{dataset}/mql` (spec §2.2) field by field. Both shapes are read
 * here: shape A sends the text in `mql`, Snuba's clients and shape B send it in `query` beside
 * the SnQL body fields (tenant_ids, debug, dry_run…). Either way `mql_context` is required, since
 * MQL text cannot say which time range, projects and rollup to read.
 */
import { QueryServiceError } from "../errors/query-service-error.js";
import { readMqlContext } from "../mql/mql-context.js";
import type { MqlQueryRequest } from "../mql/run-mql-query.js";
import type { TenantIds } from "../query/query-request.js";
import { readBoolean, readQueryText, readTenantIds } from "./query-body-schema.js";

const FLAGS = ["debug", "consistent", "turbo", "dry_run", "legacy"];
const STRINGS = ["referrer", "team", "feature", "app_id", "parent_api"];
const MQL_FIELDS = new Set(["mql", "query", "mql_context", "dataset", "tenant_ids", ...FLAGS, ...STRINGS]);

function fail(message: string): never {
  throw new QueryServiceError("invalid_query", message);
}

/**
 * Snuba's MQL endpoint defaults tenant_ids; a missing one is attributed to the query's first
 * organization and the body's `referrer`.
 */
function tenantIdsFor(body: Record<string, unknown>, orgIds: readonly number[]): TenantIds {
  if (body.tenant_ids !== undefined) return readTenantIds(body.tenant_ids);
  const referrer = typeof body.referrer === "string" && body.referrer.trim() !== "" ? body.referrer : "<unknown>";
  return { organization_id: orgIds[0]!, referrer };
}

export function readMqlBody(body: Record<string, unknown>, pathDataset: string): MqlQueryRequest {
  for (const key of Object.keys(body)) {
    if (!MQL_FIELDS.has(key)) fail(`unknown field '${key}' in the MQL request body; allowed fields: ${[...MQL_FIELDS].join(", ")}`);
  }
  for (const field of STRINGS) {
    if (body[field] !== undefined && typeof body[field] !== "string") fail(`'${field}' must be a string`);
  }
  if (body.dataset !== undefined && body.dataset !== pathDataset) {
    fail(`'dataset' in the body (${JSON.stringify(body.dataset)}) differs from the dataset in the path ('${pathDataset}')`);
  }
  if (body.mql !== undefined && body.query !== undefined) fail("send the MQL text in 'mql' or in 'query', not both");
  if (body.mql === undefined && body.query === undefined) {
    fail("'mql' is required: the MQL text, e.g. \"sum(c:transactions/count_per_root_project@none) by (environment)\" (Snuba clients send it as 'query')");
  }
  const field = body.mql !== undefined ? "mql" : "query";
  if (typeof body[field] === "string" && (body[field] as string).trim() === "") {
    fail(`'${field}' is empty: write an MQL query such as sum(c:transactions/count_per_root_project@none)`);
  }
  const query = readQueryText(body, field);
  const mqlContext = readMqlContext(body.mql_context);
  readBoolean(body, "legacy");
  return {
    dataset: pathDataset,
    query,
    mqlContext,
    tenantIds: tenantIdsFor(body, mqlContext.orgIds),
    debug: readBoolean(body, "debug"),
    consistent: readBoolean(body, "consistent"),
    turbo: readBoolean(body, "turbo"),
    dryRun: readBoolean(body, "dry_run"),
  };
}
