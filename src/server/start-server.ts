/** Builds the service context and serves every protocol on one port. */
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { QueryBackend, type BackendOptions } from "../pipeline/query-backend.js";
import { registerLabelledScrapeTimeGauge, registerScrapeTimeGauge } from "../metrics/scrape-time-gauge.js";
import { MAX_BODY_BYTES } from "../request/parse-json-body.js";
import { buildSubscriptionRuntime, type SubscriptionRuntime, type SubscriptionSettings } from "../subscriptions/subscriptions-runtime.js";
import { guardConnectRequest } from "./connect-request-guard.js";
import { answerCutOff } from "./cut-off-answer.js";
import { connectRoutes } from "./connect-routes.js";
import { EngineProbe } from "./engine-probe.js";
import { ENGINE_IDLE_RELEASE_SQL, IdleMemoryRelease } from "./idle-memory-release.js";
import { jsonRoutes } from "./json-routes.js";
import type { ServiceContext } from "./service-context.js";
import { listenOnSinglePort, type RequestHandler, type RunningServer } from "./single-port-server.js";
import { shutdownBudget } from "./shutdown-budget.js";

export interface ServerOptions {
  readonly host: string;
  readonly port: number;
  readonly definitions: DefinitionLookup;
  readonly columnstore: ColumnstoreClient;
  readonly statsInResponse?: boolean;
  /** How long the health check waits for the engine. */
  readonly healthTimeoutMs?: number;
  /** Policy overrides, cache, limits and query-log options; defaults are production's. */
  readonly backend?: BackendOptions;
  /** The store's own indexer ids (a demo store's), for MQL requests without indexer_mappings. */
  readonly storeIndexerMappings?: Readonly<Record<string, number | string>>;
  /** Scheduler, publisher and their settings; by default the scheduler runs and results go to the results table. */
  readonly subscriptions?: SubscriptionSettings;
  /** Quiet time after which memory is given back to the system (idle-memory-release.ts); 0 or absent: never. */
  readonly idleMemoryReleaseMs?: number;
  /** The admin UI's address, when it runs (the browsable form links to it). */
  readonly adminUrl?: string;
  /** More dependencies for /health (serve's ingestion consumers): name -> "ok" or what is wrong. */
  readonly extraHealth?: () => Record<string, string>;
}

/**
 * The health probe's query: it also reads the memory ClickHouse tracks (`MemoryTracking`: what
 * its queries, caches and merges hold), for a gauge that tells the engine's memory from the rest
 * of the process's (the embedded engine) or shows the server's (CLICKHOUSE_URL), and what each
 * of its caches holds (`MarkCacheBytes`, `QueryConditionCacheBytes`, ...): after a burst, the
 * first place to look for the engine's share.
 */
const ENGINE_PROBE_SQL = "SELECT metric, value FROM system.metrics WHERE metric = 'MemoryTracking' OR metric LIKE '%CacheBytes'";
const CACHE_BYTES_SUFFIX = "CacheBytes";

function buildServiceContext(options: ServerOptions): { context: ServiceContext; subscriptions: SubscriptionRuntime; engine: EngineProbe } {
  let engineTrackedBytes = Number.NaN;
  let engineCacheBytes: readonly (readonly [{ cache: string }, number])[] = [];
  const engine = new EngineProbe({
    name: `clickhouse (${options.columnstore.kind})`,
    firstAnswerTimeoutMs: options.healthTimeoutMs ?? 2000,
    async probe() {
      const rows = await options.columnstore.client.query({ query: ENGINE_PROBE_SQL, format: "JSONEachRow" }).then((r) => r.json<{ metric: string; value: number | string }>());
      const tracked = Array.isArray(rows) ? rows.find((row) => row.metric === "MemoryTracking") : undefined;
      if (!tracked) throw new Error("unexpected answer to the engine probe");
      engineTrackedBytes = Number(tracked.value);
      engineCacheBytes = rows.filter((row) => row.metric.endsWith(CACHE_BYTES_SUFFIX)).map((row) => [{ cache: row.metric.slice(0, -CACHE_BYTES_SUFFIX.length) }, Number(row.value)] as const);
    },
  });
  const backend = new QueryBackend(options.columnstore, options.backend);
  registerScrapeTimeGauge(
    backend.metrics.registry,
    "quarry_engine_memory_tracked_bytes",
    "Memory ClickHouse tracks (its MemoryTracking: queries, caches, merges), read by the health probe every second; NaN before its first answer.",
    () => engineTrackedBytes,
  );
  registerLabelledScrapeTimeGauge(
    backend.metrics.registry,
    "quarry_engine_cache_bytes",
    "Bytes in each of ClickHouse's caches (its <cache>CacheBytes metrics: Mark, Uncompressed, QueryCondition, CompiledExpression, ...), read by the health probe every second.",
    ["cache"],
    () => engineCacheBytes,
  );
  const pipeline = {
    definitions: options.definitions,
    columnstore: options.columnstore,
    statsInResponse: options.statsInResponse ?? false,
    backend,
    ...(options.storeIndexerMappings ? { storeIndexerMappings: options.storeIndexerMappings } : {}),
  };
  const subscriptions = buildSubscriptionRuntime(pipeline, options.columnstore, backend.metrics.registry, options.subscriptions);
  const context: ServiceContext = {
    ...pipeline,
    subscriptions: subscriptions.service,
    subscriptionWindows: subscriptions.windows,
    async checkHealth() {
      return { clickhouse: await engine.status(), ...subscriptions.health(), ...(options.extraHealth?.() ?? {}) };
    },
    ...(options.adminUrl ? { adminUrl: options.adminUrl } : {}),
  };
  return { context, subscriptions, engine };
}

export interface QuarryServer extends RunningServer {
  /** The server's policies, cache, query log and metrics (tests and benches read them). */
  readonly backend: QueryBackend;
  /** The subscription scheduler, publisher and API of this server. */
  readonly subscriptions: SubscriptionRuntime;
}

const HOUSEKEEPING_PATH = /^\/(health|metrics)(\?|$)/;

export async function startServer(options: ServerOptions): Promise<QuarryServer> {
  const { context, subscriptions, engine } = buildServiceContext(options);
  const json = jsonRoutes(context);
  const handler = connectNodeAdapter({
    routes: connectRoutes(context),
    // The same bound as the JSON routes: a query request is never this large.
    readMaxBytes: MAX_BODY_BYTES,
    // connect-node narrows `write` on its response type; the object is a plain Node response.
    fallback: (request, response) => void json(request, response as unknown as Parameters<typeof json>[1]),
  });
  // Health checks and metric scrapes come every few seconds whatever the load: they do not keep
  // the server from counting as quiet (idle-memory-release.ts).
  let workStarted = 0;
  const guarded: RequestHandler = (request, response) => {
    if (!HOUSEKEEPING_PATH.test(request.url ?? "")) workStarted += 1;
    if (!guardConnectRequest(request, response)) (handler as RequestHandler)(request, response);
  };
  const running = await listenOnSinglePort(guarded, options.host, options.port, answerCutOff);
  const memory = new IdleMemoryRelease({
    idleMs: options.idleMemoryReleaseMs ?? 0,
    requestsStarted: () => workStarted,
    activeRequests: () => running.activeRequests,
    registry: context.backend.metrics.registry,
    // A remote server manages its own memory; only the engine inside this process is ours to purge.
    ...(options.columnstore.kind === "embedded"
      ? {
          releaseEngineMemory: async () => {
            for (const query of ENGINE_IDLE_RELEASE_SQL) await options.columnstore.client.command({ query });
          },
        }
      : {}),
  });
  memory.start();
  await subscriptions.start();
  return {
    port: running.port,
    host: running.host,
    get activeRequests() {
      return running.activeRequests;
    },
    backend: context.backend,
    subscriptions,
    /**
     * Without a deadline: connections are cut at once, subscription runs and the query log get
     * their own default time. With one: requests in progress, then subscription runs, then the
     * query log share it, leaving the end of it for closing the engine and exiting (see
     * shutdown-budget.ts).
     */
    async close(deadlineMs?: number) {
      const started = Date.now();
      const budget = deadlineMs === undefined ? undefined : shutdownBudget(deadlineMs);
      const left = () => (budget === undefined ? undefined : Math.max(0, budget.drainedByMs - (Date.now() - started)));
      await running.close(budget?.requestsMs ?? 0);
      engine.stop();
      await memory.stop();
      // Runs in progress finish and the checkpoints are saved while the engine is still there.
      await subscriptions.stop(left());
      // After the last request: the query log's remaining rows are written before the client goes.
      await context.backend.close(left());
    },
  };
}
