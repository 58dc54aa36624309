/**
 * Puts the subscription parts together for one node of the embedded mode: the store, checkpoints
 * and statuses in the embedded ClickHouse, the in-process executor, the publisher (Kafka when
 * brokers are configured, else the results table), the scheduler and the API service.
 */
import type { ColumnstoreClient } from "../clickhouse/client-factory.js";
import type { PrometheusRegistry } from "../metrics/prometheus-registry.js";
import type { PipelineContext } from "../pipeline/run-prepared-query.js";
import { ClickHouseCheckpointStore } from "./clickhouse-checkpoint-store.js";
import { ClickHouseResultsPublisher } from "./clickhouse-results-publisher.js";
import { ClickHouseStatusStore } from "./clickhouse-status-store.js";
import { ClickHouseSubscriptionStore } from "./clickhouse-subscription-store.js";
import { systemClock, type Clock } from "./clock.js";
import { PipelineExecutor } from "./executor.js";
import { KafkaPublisher } from "./kafka-publisher.js";
import { allPartitions } from "./partition-assignment.js";
import type { ResultPublisher } from "./result-publisher.js";
import { SubscriptionScheduler } from "./scheduler.js";
import { SubscriptionMetrics } from "./subscription-metrics.js";
import { SubscriptionService } from "./subscription-service.js";
import { SubscriptionStatusBook } from "./subscription-status.js";

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
  /** false: no timer loop; the caller drives `scheduler.tick()` (tests and benches on a ManualClock). */
  readonly loop?: boolean;
  readonly log?: (line: string) => void;
}

export const DEFAULT_STALE_THRESHOLD_SECONDS = 900;
export const DEFAULT_MAX_CONCURRENT_RUNS = 8;

export interface SubscriptionRuntime {
  readonly service: SubscriptionService;
  readonly scheduler: SubscriptionScheduler | null;
  readonly publisher: ResultPublisher;
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
  registry: PrometheusRegistry,
  settings: SubscriptionSettings = {},
): SubscriptionRuntime {
  const clock = settings.clock ?? systemClock;
  const log = settings.log ?? (() => {});
  const definitions = pipeline.definitions;
  const store = new ClickHouseSubscriptionStore(columnstore.client);
  const status = new SubscriptionStatusBook(new ClickHouseStatusStore(columnstore.client), () => clock.now());
  const brokers = settings.kafkaBrokers ?? [];
  const publisher: ResultPublisher = brokers.length > 0 ? new KafkaPublisher({ brokers, log }) : new ClickHouseResultsPublisher(columnstore.client, () => clock.now());
  const topicFor = (entity: string): string => settings.topics?.[entity] ?? definitions.entity(entity)?.subscriptions?.resultTopic ?? `${entity}-subscription-results`;

  const scheduler =
    settings.scheduler === false
      ? null
      : new SubscriptionScheduler({
          definitions,
          store,
          checkpoints: new ClickHouseCheckpointStore(columnstore.client),
          assignment: allPartitions(definitions),
          executor: new PipelineExecutor(pipeline, settings.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS),
          publisher,
          status,
          metrics: new SubscriptionMetrics(registry),
          clock,
          topicFor,
          ...(settings.delaySeconds === undefined ? {} : { delayFor: () => settings.delaySeconds! }),
          staleThresholdSeconds: settings.staleThresholdSeconds ?? DEFAULT_STALE_THRESHOLD_SECONDS,
          log,
        });

  const service = new SubscriptionService({
    pipeline,
    store,
    clock,
    statusOf: (subscription) => status.get(subscription.entity, subscription.partition, subscription.uuid),
    onChange: () => scheduler?.subscriptionsChanged(),
  });

  return {
    service,
    scheduler,
    publisher,
    async start() {
      if (scheduler) await scheduler.start({ loop: settings.loop ?? true });
      else await status.load();
    },
    health(): Record<string, string> {
      // A node that runs no scheduler publishes nothing: neither is its dependency.
      return scheduler ? { scheduler: scheduler.health(), publisher: publisher.health() } : {};
    },
    async stop(drainMs) {
      await scheduler?.stop(drainMs);
      await publisher.close();
    },
  };
}
