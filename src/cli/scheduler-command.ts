/**
 * `quarry scheduler`: a scheduler cluster node (see src/subscriptions/cluster/scheduler-node.ts). Runs
 * windows on CLICKHOUSE_URL in-process when set, else on the query node at QUARRY_QUERY_URL.
 * SIGTERM drains, saves and releases its leases (exit 0); a second signal exits at once.
 *
 * Its subscription clock (QUARRY_SUBSCRIPTION_CLOCK): a scheduler node runs no consumers, so
 * `auto` follows the commit logs of the storages QUARRY_CONSUMERS names, the ones the
 * deployment's `quarry consumer` processes ingest. Until their source topics exist, those
 * entities' windows wait.
 */
import { createColumnstoreClient } from "../clickhouse/client-factory.js";
import type { Settings } from "../config/settings.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { QueryBackend } from "../pipeline/query-backend.js";
import { ClickHouseResultsPublisher } from "../subscriptions/publishing/clickhouse-results-publisher.js";
import { PipelineExecutor, type SubscriptionExecutor } from "../subscriptions/execution/executor.js";
import { RemoteExecutor } from "../subscriptions/execution/remote-executor.js";
import type { ResultPublisher } from "../subscriptions/publishing/result-publisher.js";
import { startSchedulerNode } from "../subscriptions/cluster/scheduler-node.js";
import { shutdownBudget } from "../server/shutdown-budget.js";
import { clusterNodeId, openCluster } from "./cluster-connection.js";
import { exitOnStopSignals } from "./stop-signals.js";
import { Registry } from "prom-client";
import type { StorageDefinition } from "../datasets/definition-types.js";
import { selectConsumerStorages } from "../ingestion/ingestion-consumers.js";
import type { CommitLogClock } from "../subscriptions/scheduling/commit-log-clock.js";
import { commitLogEntityNames, startCommitLogClock } from "./commit-log-following.js";

export async function runSchedulerCommand(settings: Settings, definitions: DefinitionLookup, storages: readonly StorageDefinition[], log: (line: string) => void): Promise<void> {
  const ingested = new Set(settings.consumers === "all" || settings.consumers.length > 0 ? selectConsumerStorages(storages, settings.consumers).map((storage) => storage.name) : []);
  const onCommitLog = settings.kafkaBrokers.length > 0 ? commitLogEntityNames(settings, definitions, storages, ingested) : new Set<string>();
  if (settings.subscriptionClock === "commit_log" && settings.kafkaBrokers.length === 0) {
    throw new Error("QUARRY_SUBSCRIPTION_CLOCK=commit_log needs KAFKA_BROKERS: the commit logs are Kafka topics");
  }
  const buckets = await openCluster(settings, log);
  const nodeId = clusterNodeId(settings);
  let executor: SubscriptionExecutor;
  let executorDescription: string;
  let publisher: ResultPublisher | undefined;
  let closeEngine = async () => {};
  if (settings.clickhouseUrl) {
    const columnstore = createColumnstoreClient(settings);
    const backend = new QueryBackend(columnstore, { policyOverrides: settings.policyOverrides, limits: settings.executionLimits, log });
    executor = new PipelineExecutor({ definitions, columnstore, statsInResponse: false, backend }, settings.subscriptionConcurrency);
    executorDescription = `in-process on clickhouse ${settings.clickhouseUrl}`;
    if (settings.kafkaBrokers.length === 0) publisher = new ClickHouseResultsPublisher(columnstore.client, Date.now);
    closeEngine = async () => {
      await backend.close();
      await columnstore.close();
    };
  } else {
    executor = new RemoteExecutor(settings.queryUrl, settings.subscriptionConcurrency);
    executorDescription = `query node ${settings.queryUrl}`;
  }
  const registry = new Registry();
  let commitLogClock: CommitLogClock | null = null;
  let clockState = "starting";
  const stopWaiting = new AbortController();
  const node = await startSchedulerNode({
    definitions,
    registry,
    ...(onCommitLog.size > 0
      ? {
          horizonFor: (entity: string, partition: number) => (onCommitLog.has(entity) ? (commitLogClock?.horizon(entity, partition) ?? null) : undefined),
          // Waiting for the consumers' topics is not a fault of this node: /health stays ok.
          extraHealth: () => ({ subscription_clock: clockState.startsWith("failed") ? clockState : "ok" }),
        }
      : {}),
    buckets,
    nodeId,
    executor,
    executorDescription,
    kafkaBrokers: settings.kafkaBrokers,
    ...(publisher ? { publisher } : {}),
    topics: settings.subscriptionTopics,
    staleThresholdSeconds: settings.subscriptionStaleSeconds,
    delaySeconds: settings.subscriptionDelaySeconds,
    leaseMs: settings.leaseMs,
    renewMs: settings.leaseRenewMs,
    host: settings.host,
    port: settings.schedulerPort,
    log,
  });
  log(
    `quarry scheduler ${nodeId}: windows run ${executorDescription}, results to ${node.publisher.description}; ` +
      `/health and /metrics on http://${settings.host}:${node.port}`,
  );
  // The clock starts in the background: until it has, the entities on it have nothing due.
  const startClock = async (): Promise<void> => {
    while (!stopWaiting.signal.aborted) {
      try {
        commitLogClock = await startCommitLogClock(settings, definitions, storages, ingested, registry, log, { waitForTopicsMs: 2000, signal: stopWaiting.signal });
        clockState = "ok";
        return;
      } catch (reason) {
        if (stopWaiting.signal.aborted) return;
        clockState = `failed: ${reason instanceof Error ? reason.message : String(reason)}`;
        log(`subscriptions: the commit-log clock did not start, ${[...onCommitLog].join(", ")} wait; trying again in 5 s: ${clockState}`);
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
    }
  };
  if (onCommitLog.size > 0) void startClock();
  exitOnStopSignals({
    log,
    deadlineMs: settings.shutdownTimeoutMs,
    graceMs: 3000,
    doing: (deadline) => `scheduler ${nodeId} finishing runs within ${deadline} ms, saving checkpoints, releasing its leases`,
    async shutdown(deadline) {
      // The end of the deadline is left for closing the engine and exiting.
      stopWaiting.abort();
      await Promise.all([node.stop(shutdownBudget(deadline).drainedByMs), commitLogClock?.stop()]);
      await buckets.close();
      await closeEngine();
    },
  });
}
