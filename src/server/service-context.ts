/** Everything a request handler needs, built once at startup. */
import type { QueryBackend } from "../pipeline/query-backend.js";
import type { PipelineContext } from "../pipeline/run-prepared-query.js";
import type { SubscriptionService } from "../subscriptions/subscription-service.js";
import type { WindowRunner } from "../subscriptions/execution/window-runner.js";

export interface ServiceContext extends PipelineContext {
  /** Policies, cache, query log and metrics shared by every request of this server. */
  readonly backend: QueryBackend;
  /** Create, delete, get and list subscriptions. */
  readonly subscriptions: SubscriptionService;
  /** Runs subscription windows for scheduler nodes that have no engine of their own. */
  readonly subscriptionWindows: WindowRunner;
  /** Checks each dependency; resolves to name -> "ok" or what failed. */
  checkHealth(): Promise<Record<string, string>>;
  /** The admin UI's address, when it runs: the browsable form links to its Query page. */
  readonly adminUrl?: string;
}
