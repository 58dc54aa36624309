/**
 * Wraps one query request, whatever its language: counts it and its latency by dataset, referrer
 * and status, and writes a query-log row for a failure the back end never saw (an invalid query
 * refused by the front end), so every query leaves a row.
 */
import { QueryServiceError } from "../errors/query-service-error.js";
import { implicitBackend } from "./query-backend.js";
import type { QueryRequest } from "../query/query-request.js";
import type { QueryResult } from "../query/query-result.js";
import type { PipelineContext } from "./run-prepared-query.js";
import { buildQueryLogRow, markRecorded, wasRecorded } from "../query-log/build-query-log-row.js";

export async function observeQuery<T = QueryResult>(context: PipelineContext, request: QueryRequest, run: () => Promise<T>): Promise<T> {
  const backend = context.backend ?? implicitBackend(context.columnstore);
  const startedAt = performance.now();
  const startedAtSeconds = Math.floor(Date.now() / 1000);
  const observe = (status: string) => {
    const labels = { dataset: request.dataset, referrer: request.tenantIds.referrer, status };
    backend.metrics.requests.inc(labels);
    backend.metrics.latency.observe(labels, (performance.now() - startedAt) / 1000);
  };
  try {
    const result = await run();
    observe("success");
    return result;
  } catch (reason) {
    const error = QueryServiceError.from(reason);
    observe(error.type);
    if (!wasRecorded(error) && !request.dryRun) {
      const durationMs = Math.round(performance.now() - startedAt);
      backend.queryLog?.record(
        buildQueryLogRow({
          request,
          entity: "",
          sql: "",
          timing: { timestamp: startedAtSeconds, duration_ms: durationMs, marks_ms: {}, tags: {} },
          cacheStatus: "none",
          rowsRead: 0,
          bytesRead: 0,
          resultRows: 0,
          quotaAllowance: {},
          error,
        }),
      );
      markRecorded(error);
    }
    throw error;
  }
}
