/**
 * `quarry scheduler`: a scheduler cluster node (see src/subscriptions/cluster/scheduler-node.ts). Runs
 * windows on CLICKHOUSE_URL in-process when set, else on the query node at QUARRY_QUERY_URL.
 * SIGTERM drains, saves and releases its leases (exit 0); a second signal exits at once.
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

export async function runSchedulerCommand(settings: Settings, definitions: DefinitionLookup, log: (line: string) => void): Promise<void> {
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
  const node = await startSchedulerNode({
    definitions,
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
  exitOnStopSignals({
    log,
    deadlineMs: settings.shutdownTimeoutMs,
    graceMs: 3000,
    doing: (deadline) => `scheduler ${nodeId} finishing runs within ${deadline} ms, saving checkpoints, releasing its leases`,
    async shutdown(deadline) {
      // The end of the deadline is left for closing the engine and exiting.
      await node.stop(shutdownBudget(deadline).drainedByMs);
      await buckets.close();
      await closeEngine();
    },
  });
}
