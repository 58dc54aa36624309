/**
 * A scheduler built from the real parts (ClickHouse store, checkpoints, statuses and results
 * table, the in-process executor) over a fixture server's engine, on a ManualClock, with no
 * timer loop: tests call `tick()` and move the clock themselves.
 */
import { Registry } from "prom-client";
import { ClickHouseCheckpointStore } from "../../src/subscriptions/store/clickhouse-checkpoint-store.js";
import { ClickHouseResultsPublisher } from "../../src/subscriptions/publishing/clickhouse-results-publisher.js";
import { ClickHouseStatusStore } from "../../src/subscriptions/store/clickhouse-status-store.js";
import { ClickHouseSubscriptionStore } from "../../src/subscriptions/store/clickhouse-subscription-store.js";
import { PipelineExecutor } from "../../src/subscriptions/execution/executor.js";
import type { ManualClock } from "../support/manual-clock.js";
import { allPartitions } from "../../src/subscriptions/scheduling/partition-assignment.js";
import type { ResultPublisher } from "../../src/subscriptions/publishing/result-publisher.js";
import { SubscriptionScheduler, type SchedulerOptions } from "../../src/subscriptions/scheduling/scheduler.js";
import { SubscriptionMetrics } from "../../src/subscriptions/scheduling/subscription-metrics.js";
import { SubscriptionStatusBook } from "../../src/subscriptions/store/subscription-status.js";
import type { FixtureServer } from "../server/fixture-server.js";

export interface DrivenScheduler {
  readonly scheduler: SubscriptionScheduler;
  readonly metrics: SubscriptionMetrics;
  readonly registry: Registry;
  readonly status: SubscriptionStatusBook;
  readonly log: string[];
}

export function drivenScheduler(
  server: FixtureServer,
  clock: ManualClock,
  overrides: Partial<SchedulerOptions> & { publisher?: ResultPublisher } = {},
): DrivenScheduler {
  const client = server.columnstore.client;
  const registry = new Registry();
  const metrics = new SubscriptionMetrics(registry);
  const status = new SubscriptionStatusBook(new ClickHouseStatusStore(client), () => clock.now());
  const log: string[] = [];
  const scheduler = new SubscriptionScheduler({
    definitions: server.definitions,
    store: new ClickHouseSubscriptionStore(client),
    checkpoints: new ClickHouseCheckpointStore(client),
    assignment: allPartitions(server.definitions),
    executor: new PipelineExecutor({ definitions: server.definitions, columnstore: server.columnstore, statsInResponse: false, backend: server.backend }, 4),
    publisher: new ClickHouseResultsPublisher(client, () => clock.now()),
    status,
    metrics,
    clock,
    topicFor: (entity) => server.definitions.entity(entity)!.subscriptions!.resultTopic,
    staleThresholdSeconds: 900,
    checkpointIntervalMs: 60_000,
    statusIntervalMs: 60_000,
    refreshIntervalMs: 60_000,
    log: (line) => log.push(line),
    ...overrides,
  });
  return { scheduler, metrics, registry, status, log };
}

/** Every published row of the results table: subscription id, window end (s) and the message. */
export async function publishedResults(server: FixtureServer): Promise<{ id: string; windowEnd: number; message: Record<string, unknown> }[]> {
  const result = await server.columnstore.client.query({
    query: "SELECT subscription_id, toUnixTimestamp(timestamp) AS window_end, payload FROM subscription_results_local ORDER BY subscription_id, timestamp",
    format: "JSONEachRow",
  });
  const rows = await result.json<{ subscription_id: string; window_end: number | string; payload: string }>();
  return rows.map((row) => ({ id: row.subscription_id, windowEnd: Number(row.window_end), message: JSON.parse(row.payload) as Record<string, unknown> }));
}
