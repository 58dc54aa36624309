/**
 * The subscription figures an operator watches on /metrics: windows scheduled, runs executed,
 * results published, retries, stale skips and failures by entity, and the scheduling lag
 * (now − T when a result is published, which includes the entity's delay and the jitter).
 */
import { Counter, Gauge, Histogram, type PrometheusRegistry } from "../../metrics/prometheus-registry.js";

const LAG_BUCKETS_SECONDS = [1, 5, 15, 30, 45, 60, 90, 120, 180, 300, 600, 1800, 3600];

export class SubscriptionMetrics {
  readonly scheduled: Counter;
  readonly executed: Counter;
  readonly published: Counter;
  readonly retried: Counter;
  readonly skippedStale: Counter;
  readonly failed: Counter;
  readonly lag: Histogram;
  readonly fenced: Counter;

  constructor(private readonly registry: PrometheusRegistry) {
    this.scheduled = registry.register(new Counter("quarry_subscription_windows_scheduled_total", "Subscription windows that came due, by entity.", ["entity"]));
    this.executed = registry.register(new Counter("quarry_subscription_runs_executed_total", "Subscription queries that ran successfully, by entity.", ["entity"]));
    this.published = registry.register(
      new Counter("quarry_subscription_results_published_total", "Subscription results acknowledged by the publisher (Kafka or the results table), by entity.", ["entity"]),
    );
    this.retried = registry.register(
      new Counter("quarry_subscription_run_retries_total", "Subscription runs retried after a failure, by entity and error type.", ["entity", "error_type"]),
    );
    this.skippedStale = registry.register(
      new Counter("quarry_subscription_windows_skipped_stale_total", "Windows not run because they were older than the stale threshold, by entity.", ["entity"]),
    );
    this.failed = registry.register(
      new Counter("quarry_subscription_runs_failed_total", "Windows given up on (error not retryable, or retried until stale), by entity and error type.", ["entity", "error_type"]),
    );
    this.fenced = registry.register(
      new Counter(
        "quarry_subscription_results_fenced_total",
        "Results computed but not published because this node no longer held the partition's lease (the new owner runs the window), by entity.",
        ["entity"],
      ),
    );
    this.lag = registry.register(
      new Histogram("quarry_subscription_lag_seconds", "Now minus the window end T when a result was published, by entity.", ["entity"], LAG_BUCKETS_SECONDS),
    );
  }

  gauge(name: string, help: string, read: () => number): void {
    this.registry.register(new Gauge(name, help, read));
  }
}
