/**
 * The handlers behind both wires: the JSON routes and the Connect/gRPC/gRPC-Web services call
 * these with a validated request and get a QueryResult or a QueryServiceError back.
 */
import { observeQuery } from "../pipeline/observe-query.js";
import type { QueryRequest } from "../query/query-request.js";
import type { QueryResult } from "../query/query-result.js";
import type { CreateSubscriptionRequest } from "../request/subscription-body.js";
import { runSnqlQuery } from "../snql/run-snql-query.js";
import { type MqlQueryRequest, runMqlQuery } from "../mql/run-mql-query.js";
import type { ServiceContext } from "./service-context.js";
import type { TimeSeriesRequest } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { runTimeSeries, timeSeriesQueryRequest, type TimeSeriesRun } from "../rpc/run-time-series.js";

export function handleSnql(context: ServiceContext, request: QueryRequest): Promise<QueryResult> {
  return observeQuery(context, request, () => runSnqlQuery(context, request));
}

export function handleMql(context: ServiceContext, request: MqlQueryRequest): Promise<QueryResult> {
  return observeQuery(context, request, () => runMqlQuery(context, request));
}

export function handleTimeSeries(context: ServiceContext, request: TimeSeriesRequest): Promise<TimeSeriesRun> {
  const queryRequest = timeSeriesQueryRequest(request);
  return observeQuery(context, queryRequest, () => runTimeSeries(context, request, queryRequest));
}

export function handleCreateSubscription(context: ServiceContext, request: CreateSubscriptionRequest): Promise<string> {
  return context.subscriptions.create(request);
}

export function handleDeleteSubscription(context: ServiceContext, dataset: string, entity: string, partition: string, key: string): Promise<void> {
  return context.subscriptions.delete(dataset, entity, partition, key);
}

export async function handleHealth(context: ServiceContext): Promise<{ healthy: boolean; dependencies: Record<string, string> }> {
  const dependencies = await context.checkHealth();
  return { healthy: Object.values(dependencies).every((state) => state === "ok"), dependencies };
}
