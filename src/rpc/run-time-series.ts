/**
 * The TimeSeries RPC pipeline (facts B7, B9): apply EndpointTimeSeries' rules to a copy of the
 * request, plan one SQL query on eap_items, run it through the shared back end (policies,
 * cache, execution limits, query log, metrics: the same as SnQL and MQL), and build the
 * TimeSeriesResponse. The executed request is returned too: an RPC subscription publishes it.
 */
import { toJsonString } from "@bufbuild/protobuf";
import { type TimeSeriesRequest, type TimeSeriesResponse, TimeSeriesRequestSchema } from "../../gen/sentry_protos/snuba/v1/endpoint_time_series_pb.js";
import { normalizeTimeSeriesRequest } from "./time-series-rules.js";
import { timeSeriesResponse } from "./time-series-response.js";
import { EAP_DATASET, eapStorage, translateTimeSeries, type TranslatedTimeSeries } from "./translate-time-series.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import type { QueryRequest } from "../query/query-request.js";
import { type PipelineContext, runPreparedQuery } from "../pipeline/run-prepared-query.js";
import { StageTimer } from "../query/stage-timer.js";

/** The query log keeps this much of the request's JSON as the query text. */
const MAX_LOGGED_REQUEST_CHARS = 16_384;

export interface TimeSeriesRun {
  readonly response: TimeSeriesResponse;
  /** The request as it ran: labels filled in, aggregations converted, end rounded up to a bucket. */
  readonly executed: TimeSeriesRequest;
}

/** Everything up to the SQL, in one call (what the bench measures). */
export function prepareTimeSeries(definitions: DefinitionLookup, request: TimeSeriesRequest): TranslatedTimeSeries & { executed: TimeSeriesRequest } {
  const executed = normalizeTimeSeriesRequest(request);
  return { ...translateTimeSeries(executed, eapStorage(definitions)), executed };
}

/**
 * The request as the query log keeps it: its JSON form, or, for a request that has none (a
 * Timestamp out of its range: the rules refuse it next), what is wrong with it.
 */
function loggedRequestText(request: TimeSeriesRequest): string {
  try {
    return toJsonString(TimeSeriesRequestSchema, request).slice(0, MAX_LOGGED_REQUEST_CHARS);
  } catch (reason) {
    return `<TimeSeriesRequest with no JSON form: ${reason instanceof Error ? reason.message : String(reason)}>`.slice(0, MAX_LOGGED_REQUEST_CHARS);
  }
}

/** Who asks, for policies, metrics and the query log: read from the request as sent. */
export function timeSeriesQueryRequest(request: TimeSeriesRequest): QueryRequest {
  const meta = request.meta;
  const referrer = meta?.referrer.trim() ? meta.referrer : "<unknown>";
  return {
    dataset: EAP_DATASET,
    query: loggedRequestText(request),
    tenantIds: {
      organization_id: Number(meta?.organizationId ?? 0n),
      referrer,
      ...(meta && meta.projectIds.length > 0 ? { project_id: Number(meta.projectIds[0]) } : {}),
    },
    debug: meta?.debug ?? false,
    consistent: false,
    turbo: false,
    dryRun: false,
  };
}

export async function runTimeSeries(context: PipelineContext, request: TimeSeriesRequest, queryRequest = timeSeriesQueryRequest(request)): Promise<TimeSeriesRun> {
  const timer = new StageTimer();
  const executed = normalizeTimeSeriesRequest(request);
  timer.mark("validate_schema");
  const { prepared, plan } = translateTimeSeries(executed, eapStorage(context.definitions));
  timer.mark("prepare_query");
  // The response is built inside the logged run: a refusal of its size is the query's log row.
  const response = await runPreparedQuery(context, { ...queryRequest, debug: executed.meta!.debug }, prepared, timer, (result) =>
    timeSeriesResponse(plan, result, { requestId: executed.meta!.requestId, debug: executed.meta!.debug }),
  );
  return { response, executed };
}
