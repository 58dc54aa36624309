/**
 * The subscription figures an operator watches on /metrics: windows scheduled, runs executed,
 * results published, retries, stale skips and failures by entity, and the scheduling lag
 * (now − T when a result is published, which includes the entity's delay and the jitter).
 */
import type { Registry } from "prom-client";
import { CappedCounter } from "../../metrics/capped-counter.js";
import { CappedHistogram } from "../../metrics/capped-histogram.js";
import { registerScrapeTimeGauge } from "../../metrics/scrape-time-gauge.js";

const LAG_BUCKETS_SECONDS = [1, 5, 15, 30, 45, 60, 90, 120, 180, 300, 600, 1800, 3600];

type ByEntity = CappedCounter<"entity">;
type ByEntityAndError = CappedCounter<"entity" | "error_type">;

export class SubscriptionMetrics {
  readonly scheduled: ByEntity;
  readonly executed: ByEntity;
  readonly published: ByEntity;
  readonly retried: ByEntityAndError;
  readonly skippedStale: ByEntity;
  readonly failed: ByEntityAndError;
  readonly lag: CappedHistogram<"entity">;
  readonly fenced: ByEntity;

  constructor(private readonly registry: Registry) {
    const byEntity = (name: string, help: string): ByEntity => new CappedCounter(registry, { name, help, labelNames: ["entity"] });
    const byEntityAndError = (name: string, help: string): ByEntityAndError => new CappedCounter(registry, { name, help, labelNames: ["entity", "error_type"] });
    this.scheduled = byEntity("quarry_subscription_windows_scheduled_total", "Subscription windows that came due, by entity.");
    this.executed = byEntity("quarry_subscription_runs_executed_total", "Subscription queries that ran successfully, by entity.");
    this.published = byEntity("quarry_subscription_results_published_total", "Subscription results acknowledged by the publisher (Kafka or the results table), by entity.");
    this.retried = byEntityAndError("quarry_subscription_run_retries_total", "Subscription runs retried after a failure, by entity and error type.");
    this.skippedStale = byEntity("quarry_subscription_windows_skipped_stale_total", "Windows not run because they were older than the stale threshold, by entity.");
    this.failed = byEntityAndError("quarry_subscription_runs_failed_total", "Windows given up on (error not retryable, or retried until stale), by entity and error type.");
    this.fenced = byEntity(
      "quarry_subscription_results_fenced_total",
      "Results computed but not published because this node no longer held the partition's lease (the new owner runs the window), by entity.",
    );
    this.lag = new CappedHistogram(registry, {
      name: "quarry_subscription_lag_seconds",
      help: "Now minus the window end T when a result was published, by entity.",
      labelNames: ["entity"],
      buckets: LAG_BUCKETS_SECONDS,
    });
  }

  gauge(name: string, help: string, read: () => number): void {
    registerScrapeTimeGauge(this.registry, name, help, read);
  }
}
