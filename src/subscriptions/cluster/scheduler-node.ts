/**
 * A `quarry scheduler` node: a member of the scheduler cluster with no API of its own. It reads
 * subscriptions from NATS KV, holds the partition leases the cluster gives it, runs the windows
 * that come due (on a query node through QUARRY_QUERY_URL, or in-process on a ClickHouse server
 * at CLICKHOUSE_URL), publishes to Kafka and advances checkpoints in its leases. It serves
 * /health and /metrics on its own port for operators. Entities on the commit-log clock come due
 * by `horizonFor` (the command wires the clock, src/cli/scheduler-command.ts).
 */
import { Registry } from "prom-client";
import type { DefinitionLookup } from "../../datasets/definition-lookup.js";
import { processRegistry } from "../../metrics/process-metrics.js";
import { startHousekeepingServer } from "../../metrics/housekeeping-server.js";
import { systemClock, type Clock } from "../scheduling/clock.js";
import type { SubscriptionExecutor } from "../execution/executor.js";
import { KafkaPublisher } from "../publishing/kafka-publisher.js";
import type { ClusterBuckets } from "./nats-buckets.js";
import { NatsStatusStore } from "../store/nats-status-store.js";
import { NatsSubscriptionStore } from "../store/nats-subscription-store.js";
import { PartitionLeases } from "./partition-leases.js";
import type { ResultPublisher } from "../publishing/result-publisher.js";
import { DEFAULT_STALE_THRESHOLD_SECONDS, SubscriptionScheduler } from "../scheduling/scheduler.js";
import { SubscriptionMetrics } from "../scheduling/subscription-metrics.js";
import { SubscriptionStatusBook } from "../store/subscription-status.js";

export interface SchedulerNodeOptions {
  readonly definitions: DefinitionLookup;
  readonly buckets: ClusterBuckets;
  readonly nodeId: string;
  readonly executor: SubscriptionExecutor;
  /** Where windows run, for /health ("query node http://…" or "clickhouse http://…"). */
  readonly executorDescription: string;
  readonly kafkaBrokers?: readonly string[];
  /** A publisher to use instead of Kafka (a ClickHouse server's results table). */
  readonly publisher?: ResultPublisher;
  readonly topics?: Readonly<Record<string, string>>;
  readonly staleThresholdSeconds?: number;
  readonly delaySeconds?: number | null;
  /** Where an entity partition's windows are due by the commit-log clock (SchedulerOptions.horizonFor). */
  readonly horizonFor?: (entity: string, partition: number) => number | null | undefined;
  /** More lines for /health (the commit-log clock's): a value other than "ok" makes it answer 502. */
  readonly extraHealth?: () => Record<string, string>;
  readonly leaseMs?: number;
  readonly renewMs?: number;
  readonly host: string;
  readonly port: number;
  readonly registry?: Registry;
  readonly clock?: Clock;
  readonly log?: (line: string) => void;
}

export interface RunningSchedulerNode {
  readonly port: number;
  readonly scheduler: SubscriptionScheduler;
  readonly leases: PartitionLeases;
  readonly publisher: ResultPublisher;
  health(): { healthy: boolean; body: Record<string, unknown> };
  /** SIGTERM: drain runs, save checkpoints, release the leases (the others take over at once). */
  stop(drainMs?: number): Promise<void>;
}

export async function startSchedulerNode(options: SchedulerNodeOptions): Promise<RunningSchedulerNode> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => {});
  const registry = options.registry ?? new Registry();
  processRegistry();
  const store = new NatsSubscriptionStore(options.buckets.subscriptions, () => clock.now(), log);
  const statusStore = new NatsStatusStore(options.buckets.status, log);
  const status = new SubscriptionStatusBook(statusStore, () => clock.now());
  statusStore.onChange((entry) => status.observe(entry));
  const publisher =
    options.publisher ??
    (options.kafkaBrokers && options.kafkaBrokers.length > 0
      ? new KafkaPublisher({ brokers: options.kafkaBrokers, clientId: `quarry-scheduler-${options.nodeId}`, log })
      : null);
  if (!publisher) throw new Error("a scheduler node publishes results to Kafka: set KAFKA_BROKERS");
  const leases = new PartitionLeases({
    kv: options.buckets.scheduler,
    nodeId: options.nodeId,
    wantedPartitions: () => store.livePartitions(),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.renewMs === undefined ? {} : { renewMs: options.renewMs }),
    registry,
    log,
  });
  const definitions = options.definitions;
  const scheduler = new SubscriptionScheduler({
    definitions,
    store,
    checkpoints: leases,
    assignment: leases,
    executor: options.executor,
    publisher,
    status,
    metrics: new SubscriptionMetrics(registry),
    clock,
    topicFor: (entity) => options.topics?.[entity] ?? definitions.entity(entity)?.subscriptions?.resultTopic ?? `${entity}-subscription-results`,
    ...(options.delaySeconds === null || options.delaySeconds === undefined ? {} : { delayFor: () => options.delaySeconds! }),
    ...(options.horizonFor ? { horizonFor: options.horizonFor } : {}),
    staleThresholdSeconds: options.staleThresholdSeconds ?? DEFAULT_STALE_THRESHOLD_SECONDS,
    log,
  });
  store.onChange(() => scheduler.subscriptionsChanged());

  const health = () => {
    const dependencies: Record<string, string> = {
      nats: options.buckets.connection.isClosed() ? "connection closed" : "ok",
      leases: leases.health(),
      scheduler: scheduler.health(),
      publisher: publisher.health(),
      ...options.extraHealth?.(),
    };
    const healthy = Object.values(dependencies).every((value) => value === "ok");
    return {
      healthy,
      body: { status: healthy ? "ok" : "down", dependencies, executor: options.executorDescription, ...leases.describe() },
    };
  };
  const server = await startHousekeepingServer({ host: options.host, port: options.port, registry, health, role: "a scheduler node" });
  const port = server.port;

  await store.mirror.ready();
  await leases.start();
  await scheduler.start();

  return {
    port,
    scheduler,
    leases,
    publisher,
    health,
    async stop(drainMs = 10_000) {
      await scheduler.stop(drainMs);
      await leases.stop();
      await publisher.close();
      store.close();
      statusStore.close();
      await server.close();
    },
  };
}
