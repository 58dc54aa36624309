/** Every metric Quarry exports on GET /metrics, in one registry per server. */
import { registerProcessMetrics } from "./process-metrics.js";
import { Counter, Gauge, Histogram, PrometheusRegistry } from "./prometheus-registry.js";

const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class ServiceMetrics {
  readonly registry = new PrometheusRegistry();
  readonly requests = this.registry.register(
    new Counter("quarry_requests_total", "Queries answered, by dataset, referrer and status (success or the error type).", ["dataset", "referrer", "status"]),
  );
  readonly latency = this.registry.register(
    new Histogram("quarry_request_duration_seconds", "Query latency from request start to answer.", ["dataset", "referrer", "status"], LATENCY_BUCKETS_SECONDS),
  );
  readonly cache = this.registry.register(new Counter("quarry_cache_lookups_total", "Result-cache lookups by outcome (hit, miss, waited, bypass).", ["result"]));
  readonly policyDecisions = this.registry.register(
    new Counter("quarry_allocation_policy_decisions_total", "Queries refused or throttled by an allocation policy.", ["storage", "policy", "decision"]),
  );
  readonly clickhouseErrors = this.registry.register(new Counter("quarry_clickhouse_errors_total", "ClickHouse failures by error code (-1: transport).", ["code"]));
  readonly queryLogWritten = this.registry.register(new Counter("quarry_querylog_rows_written_total", "Query-log rows written to ClickHouse."));
  readonly queryLogDropped = this.registry.register(
    new Counter(
      "quarry_querylog_rows_dropped_total",
      "Query-log rows given up on: buffer_full (ClickHouse failing for long, or left at shutdown) or refused (ClickHouse rejected the row; logged with its reason).",
      ["reason"],
    ),
  );
  readonly queryLogFailures = this.registry.register(
    new Counter("quarry_querylog_flush_failures_total", "Query-log INSERTs that failed (retried with backoff, or split to isolate a refused row)."),
  );

  constructor() {
    registerProcessMetrics(this.registry);
  }

  /** Gauges read live values of components built after the metrics. */
  addGauge(name: string, help: string, read: () => number): void {
    this.registry.register(new Gauge(name, help, read));
  }

  render(): string {
    return this.registry.render();
  }
}
