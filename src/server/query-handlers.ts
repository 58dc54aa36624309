/**
 * The handlers behind both wires: the JSON routes and the Connect/gRPC/gRPC-Web services call
 * these with a validated request and get a QueryResult or a QueryServiceError back.
 */
import { QueryServiceError } from "../errors/query-service-error.js";
import { observeQuery } from "../metrics/observe-query.js";
import type { QueryRequest } from "../pipeline/query-request.js";
import type { QueryResult } from "../pipeline/query-result.js";
import { requireDataset } from "../pipeline/require-dataset.js";
import { runSnqlQuery } from "../pipeline/run-snql-query.js";
import { type MqlQueryRequest, runMqlQuery } from "../pipeline/run-mql-query.js";
import type { ServiceContext } from "./service-context.js";

export function handleSnql(context: ServiceContext, request: QueryRequest): Promise<QueryResult> {
  return observeQuery(context, request, () => runSnqlQuery(context, request));
}

export function handleMql(context: ServiceContext, request: MqlQueryRequest): Promise<QueryResult> {
  return observeQuery(context, request, () => runMqlQuery(context, request));
}

export async function handleCreateSubscription(context: ServiceContext, dataset: string): Promise<string> {
  requireDataset(context.definitions, dataset);
  throw new QueryServiceError("not_implemented", "subscriptions are not available yet on this server");
}

export async function handleDeleteSubscription(context: ServiceContext, dataset: string): Promise<void> {
  requireDataset(context.definitions, dataset);
  throw new QueryServiceError("not_implemented", "subscriptions are not available yet on this server");
}

export async function handleHealth(context: ServiceContext): Promise<{ healthy: boolean; dependencies: Record<string, string> }> {
  const dependencies = await context.checkHealth();
  return { healthy: Object.values(dependencies).every((state) => state === "ok"), dependencies };
}
