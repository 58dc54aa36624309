/**
 * Puts the subscription parts together for a `serve` node. Alone (no NATS): the store,
 * checkpoints and statuses in the embedded ClickHouse, and the scheduler owns every partition.
 * In a cluster (`cluster` set, from NATS_URL): the store and statuses in NATS KV, and the
 * scheduler, when this node runs one, owns the partitions its leases give it (checkpoints travel
 * with the leases). Either way: the in-process executor, the publisher (Kafka when brokers are
 * configured, else the results table), the API service and the window runner for scheduler nodes.
 */
import type { Registry } from "prom-client";
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import { CappedCounter } from "../metrics/capped-counter.js";
import type { PipelineContext } from "../pipeline/run-prepared-query.js";
import { ClickHouseCheckpointStore } from "./store/clickhouse-checkpoint-store.js";
import { ClickHouseResultsPublisher } from "./publishing/clickhouse-results-publisher.js";
import { ClickHouseStatusStore } from "./store/clickhouse-status-store.js";
import { ClickHouseSubscriptionStore } from "./store/clickhouse-subscription-store.js";
import { systemClock, type Clock } from "./scheduling/clock.js";
import { PipelineExecutor } from "./execution/executor.js";
import { KafkaPublisher } from "./publishing/kafka-publisher.js";
import type { ClusterBuckets } from "./cluster/nats-buckets.js";
import { NatsStatusStore } from "./store/nats-status-store.js";
import { NatsSubscriptionStore } from "./store/nats-subscription-store.js";
import { allPartitions } from "./scheduling/partition-assignment.js";
import { PartitionLeases } from "./cluster/partition-leases.js";
import type { ResultPublisher } from "./publishing/result-publisher.js";
import { DEFAULT_STALE_THRESHOLD_SECONDS, SubscriptionScheduler } from "./scheduling/scheduler.js";
import { SubscriptionMetrics } from "./scheduling/subscription-metrics.js";
import { SubscriptionService } from "./subscription-service.js";
import { SubscriptionStatusBook } from "./store/subscription-status.js";
import type { SubscriptionStore } from "./store/subscription-store.js";
import { WindowRunner } from "./execution/window-runner.js";

export interface SubscriptionSettings {
  /** Run the scheduler in this process (default true). */
  readonly scheduler?: boolean;
  /** Kafka brokers for results; empty: the subscription_results table. */
  readonly kafkaBrokers?: readonly string[];
  /** Entity -> topic, over the entities' `result_topic`. */
  readonly topics?: Readonly<Record<string, string>>;
  readonly staleThresholdSeconds?: number;
  readonly maxConcurrentRuns?: number;
  /** Seconds every window waits after its end; absent: each entity's `delay_seconds`. */
  readonly delaySeconds?: number;
  readonly clock?: Clock;
  /** Per entity partition, the first firing second not yet due when a commit-log clock says so (SchedulerOptions.horizonFor). */
  readonly horizonFor?: (entity: string, partition: number) => number | null | undefined;
  /** false: no timer loop; the caller drives `scheduler.tick()` (tests and benches on a ManualClock). */
  readonly loop?: boolean;
  readonly log?: (line: string) => void;
  /** Cluster mode: NATS KV buckets, and this node's id for its leases. */
  readonly cluster?: ClusterSettings;
}

export interface ClusterSettings {
  readonly buckets: ClusterBuckets;
  readonly nodeId: string;
  readonly leaseMs?: number;
  readonly renewMs?: number;
}

const DEFAULT_MAX_CONCURRENT_RUNS = 8;

export interface SubscriptionRuntime {
  readonly service: SubscriptionService;
  readonly scheduler: SubscriptionScheduler | null;
  readonly publisher: ResultPublisher;
  /** Runs windows sent by scheduler nodes that have no engine. */
  readonly windows: WindowRunner;
  /** The partition leases, when this node schedules in a cluster. */
  readonly leases: PartitionLeases | null;
  /** Starts the scheduler's loop (when there is one). */
  start(): Promise<void>;
  /** Dependency name -> "ok" or what is wrong, for /health (nothing when no scheduler runs here). */
  health(): Record<string, string>;
  /** Stops scheduling, drains runs (for up to `drainMs`), saves checkpoints, closes the publisher. */
  stop(drainMs?: number): Promise<void>;
}

export function buildSubscriptionRuntime(
  pipeline: PipelineContext,
  columnstore: ColumnstoreClient,
  registry: Registry,
  settings: SubscriptionSettings = {},
): SubscriptionRuntime {
  const clock = settings.clock ?? systemClock;
  const log = settings.log ?? (() => {});
  const definitions = pipeline.definitions;
  const cluster = settings.cluster;
  const natsStore = cluster ? new NatsSubscriptionStore(cluster.buckets.subscriptions, () => clock.now(), log) : null;
  const store: SubscriptionStore = natsStore ?? new ClickHouseSubscriptionStore(columnstore.client);
  const natsStatus = cluster ? new NatsStatusStore(cluster.buckets.status, log) : null;
  const status = new SubscriptionStatusBook(natsStatus ?? new ClickHouseStatusStore(columnstore.client), () => clock.now());
  natsStatus?.onChange((entry) => status.observe(entry));
  const runsEverything = settings.scheduler !== false;
  const leases =
    cluster && natsStore && runsEverything
      ? new PartitionLeases({
          kv: cluster.buckets.scheduler,
          nodeId: cluster.nodeId,
          wantedPartitions: () => natsStore.livePartitions(),
          ...(cluster.leaseMs === undefined ? {} : { leaseMs: cluster.leaseMs }),
          ...(cluster.renewMs === undefined ? {} : { renewMs: cluster.renewMs }),
          registry,
          log,
        })
      : null;
  const executor = new PipelineExecutor(pipeline, settings.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS);
  const brokers = settings.kafkaBrokers ?? [];
  const publisher: ResultPublisher = brokers.length > 0 ? new KafkaPublisher({ brokers, log }) : new ClickHouseResultsPublisher(columnstore.client, () => clock.now());
  const topicFor = (entity: string): string => settings.topics?.[entity] ?? definitions.entity(entity)?.subscriptions?.resultTopic ?? `${entity}-subscription-results`;

  const scheduler =
    settings.scheduler === false
      ? null
      : new SubscriptionScheduler({
          definitions,
          store,
          checkpoints: leases ?? new ClickHouseCheckpointStore(columnstore.client),
          assignment: leases ?? allPartitions(definitions),
          executor,
          publisher,
          status,
          metrics: new SubscriptionMetrics(registry),
          clock,
          topicFor,
          ...(settings.delaySeconds === undefined ? {} : { delayFor: () => settings.delaySeconds! }),
          ...(settings.horizonFor ? { horizonFor: settings.horizonFor } : {}),
          staleThresholdSeconds: settings.staleThresholdSeconds ?? DEFAULT_STALE_THRESHOLD_SECONDS,
          log,
        });

  const service = new SubscriptionService({
    pipeline,
    store,
    clock,
    statusOf: (subscription) => status.get(subscription.entity, subscription.partition, subscription.uuid),
    onChange: () => scheduler?.subscriptionsChanged(),
    testRuns: new CappedCounter(registry, {
      name: "quarry_subscription_creation_test_runs_total",
      help: "Test runs of subscriptions being created (each is a query with a query-log row), by entity and outcome (ok or the error type).",
      labelNames: ["entity", "outcome"],
    }),
  });
  // Creates and deletes made on other nodes reach this scheduler through the store's watch.
  natsStore?.onChange(() => scheduler?.subscriptionsChanged());

  return {
    service,
    scheduler,
    publisher,
    windows: new WindowRunner(definitions, executor),
    leases,
    async start() {
      await natsStore?.mirror.ready();
      if (leases) await leases.start();
      if (scheduler) await scheduler.start({ loop: settings.loop ?? true });
      else await status.load();
    },
    health(): Record<string, string> {
      // A node that runs no scheduler publishes nothing: neither is its dependency.
      const nats: Record<string, string> = cluster ? { nats: cluster.buckets.connection.isClosed() ? "connection closed" : "ok" } : {};
      if (!scheduler) return nats;
      return { ...nats, scheduler: scheduler.health(), publisher: publisher.health(), ...(leases ? { leases: leases.health() } : {}) };
    },
    async stop(drainMs) {
      await scheduler?.stop(drainMs);
      // After the scheduler saved its last checkpoints: release the leases with them.
      await leases?.stop();
      await publisher.close();
      natsStore?.close();
      natsStatus?.close();
    },
  };
}
