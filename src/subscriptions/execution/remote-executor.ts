/**
 * Runs windows on a query node (QUARRY_QUERY_URL) through its Connect
 * `SubscriptionService.RunSubscriptionWindow`: the executor of `quarry scheduler` nodes, which do
 * not own the engine (the embedded ClickHouse belongs to one process). The query node applies the
 * same pipeline as an in-process run. Its typed errors come back typed, so the scheduler retries
 * what may succeed later; a query node that cannot be reached is retryable too.
 */
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ErrorDetailSchema } from "../../../gen/quarry/v1/common_pb.js";
import { SubscriptionService } from "../../../gen/quarry/v1/subscription_pb.js";
import type { ResultRow } from "../../query/query-result.js";
import { QueryServiceError, type ErrorType } from "../../errors/query-service-error.js";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";
import { EXECUTOR_REFERRER, type SubscriptionExecutor, type WindowResult, type WindowRunOptions } from "./executor.js";
import type { CompiledSubscription } from "./subscription-query.js";
import { encodeSubscription } from "../store/subscription-record.js";
import type { Subscription } from "../store/subscription.js";

const STATUS_BY_CODE: Partial<Record<Code, number>> = {
  [Code.InvalidArgument]: 400,
  [Code.NotFound]: 404,
  [Code.ResourceExhausted]: 429,
  [Code.Unimplemented]: 501,
  [Code.Unavailable]: 503,
  [Code.Internal]: 500,
};

/** A Connect failure as the typed error the query node raised (or "storage-not-available" when it was not reached). */
function fromConnectError(reason: unknown, queryUrl: string): QueryServiceError {
  const error = ConnectError.from(reason);
  const [detail] = error.findDetails(ErrorDetailSchema);
  if (detail) {
    return new QueryServiceError(detail.type as ErrorType, detail.message, {
      ...(detail.code === undefined ? {} : { code: Number(detail.code) }),
      httpStatus: STATUS_BY_CODE[error.code] ?? 500,
    });
  }
  // No typed detail: the query node was not reached or did not answer.
  return new QueryServiceError("storage-not-available", `query node ${queryUrl} did not answer: ${error.message}`, { httpStatus: 503 });
}

export class RemoteExecutor implements SubscriptionExecutor {
  private readonly client: Client<typeof SubscriptionService>;
  private readonly limiter: ConcurrencyLimiter;

  constructor(
    private readonly queryUrl: string,
    maxConcurrentRuns: number,
    private readonly timeoutMs = 35_000,
  ) {
    this.client = createClient(SubscriptionService, createConnectTransport({ baseUrl: queryUrl, httpVersion: "1.1" }));
    this.limiter = new ConcurrencyLimiter(maxConcurrentRuns);
  }

  get inFlight(): number {
    return this.limiter.active + this.limiter.queued;
  }

  run(compiled: CompiledSubscription, windowEnd: number, referrer = EXECUTOR_REFERRER, options: WindowRunOptions = {}): Promise<WindowResult> {
    return this.runStored(compiled.subscription, windowEnd, referrer, options);
  }

  /**
   * A window of a subscription as stored, compiled by the query node only (the audit's recount:
   * the query node's verdict on the query is the one that counts).
   */
  runStored(subscription: Subscription, windowEnd: number, referrer = EXECUTOR_REFERRER, options: WindowRunOptions = {}): Promise<WindowResult> {
    return this.limiter.run(async () => {
      try {
        const response = await this.client.runSubscriptionWindow(
          { subscriptionJson: encodeSubscription(subscription), windowEnd: BigInt(windowEnd), referrer, consistent: options.consistent ?? false },
          { timeoutMs: this.timeoutMs },
        );
        return { data: response.data as ResultRow[], meta: response.meta.map((m) => ({ name: m.name, type: m.type })) };
      } catch (reason) {
        throw fromConnectError(reason, this.queryUrl);
      }
    });
  }
}
