/**
 * Runs one window of a subscription. The executor is where a scheduler meets the query engine:
 * in-process through the normal pipeline (allocation policies, cache, query log), as here, or —
 * for scheduler nodes without the engine — through a query node's API.
 */
import type { ColumnMetaEntry, ResultRow } from "../../query/query-result.js";
import type { PipelineContext } from "../../pipeline/run-prepared-query.js";
import { runPreparedQuery } from "../../pipeline/run-prepared-query.js";
import type { QueryRequest } from "../../query/query-request.js";
import { StageTimer } from "../../query/stage-timer.js";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";
import { prepareWindow, type CompiledRpcSubscription, type CompiledSubscription } from "./subscription-query.js";
import { runTimeSeries, timeSeriesQueryRequest } from "../../rpc/run-time-series.js";
import { rpcWindowRow, windowTimeSeriesRequest } from "../store/rpc-subscription.js";

/** Snuba's referrers: scheduled runs, and the test run at creation. */
export const EXECUTOR_REFERRER = "subscriptions_executor";
export const CREATION_REFERRER = "subscription";

export interface WindowResult {
  readonly data: ResultRow[];
  readonly meta: ColumnMetaEntry[];
}

export interface WindowRunOptions {
  /** Run on ClickHouse, never answered from the result cache (the audit's recount). */
  readonly consistent?: boolean;
}

export interface SubscriptionExecutor {
  /** Runs the window [windowEnd − time_window, windowEnd); rejects with a QueryServiceError. */
  run(compiled: CompiledSubscription, windowEnd: number, referrer?: string, options?: WindowRunOptions): Promise<WindowResult>;
  /** Runs in progress and runs waiting for a slot. */
  readonly inFlight: number;
}

/** The request a window runs as (and, minus the window, the `request` of the result message). */
export function windowRequest(compiled: CompiledSubscription, referrer: string, consistent = false): QueryRequest {
  const { subscription } = compiled;
  return {
    dataset: subscription.dataset,
    query: subscription.query,
    tenantIds: { organization_id: subscription.organizationId, referrer },
    debug: false,
    // Snuba runs subscriptions `consistent`; Quarry lets identical windows of different
    // subscriptions share one execution through the cache (the window is in the past). A
    // recount asks for `consistent`: it must see the data as it is now.
    consistent,
    turbo: false,
    dryRun: false,
  };
}

export class PipelineExecutor implements SubscriptionExecutor {
  private readonly limiter: ConcurrencyLimiter;

  constructor(
    private readonly context: PipelineContext,
    maxConcurrentRuns: number,
  ) {
    this.limiter = new ConcurrencyLimiter(maxConcurrentRuns);
  }

  get inFlight(): number {
    return this.limiter.active + this.limiter.queued;
  }

  run(compiled: CompiledSubscription, windowEnd: number, referrer = EXECUTOR_REFERRER, options: WindowRunOptions = {}): Promise<WindowResult> {
    const consistent = options.consistent ?? false;
    return this.limiter.run(async () => {
      if (compiled.kind === "rpc") return runRpcWindow(this.context, compiled, windowEnd, referrer, consistent);
      const timer = new StageTimer();
      const prepared = prepareWindow(compiled, windowEnd);
      timer.mark("prepare_query");
      const result = await runPreparedQuery(this.context, windowRequest(compiled, referrer, consistent), prepared, timer);
      return { data: result.data, meta: result.meta };
    });
  }
}

/** One window of an rpc subscription through the TimeSeries pipeline: one row, `{<label>: value}`. */
export async function runRpcWindow(context: PipelineContext, compiled: CompiledRpcSubscription, windowEnd: number, referrer: string, consistent = false): Promise<WindowResult> {
  const { subscription } = compiled;
  const request = windowTimeSeriesRequest(compiled.request, subscription.timeWindow, windowEnd, referrer);
  const asked = timeSeriesQueryRequest(request);
  const { response, executed } = await runTimeSeries(context, request, {
    ...asked,
    tenantIds: { ...asked.tenantIds, organization_id: subscription.organizationId, referrer },
    consistent,
  });
  return { data: [rpcWindowRow(response, executed)], meta: [] };
}
