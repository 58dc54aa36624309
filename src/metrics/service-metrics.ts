/** Every metric a query server exports on GET /metrics, in one prom-client registry per server. */
import { Counter, Registry } from "prom-client";
import { CappedCounter } from "./capped-counter.js";
import { CappedHistogram } from "./capped-histogram.js";
import { exposition, processRegistry } from "./process-metrics.js";
import { registerScrapeTimeGauge } from "./scrape-time-gauge.js";

const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class ServiceMetrics {
  /** This server's metrics; the process's are added at the scrape (process-metrics.ts). */
  readonly registry = new Registry();
  readonly requests = new CappedCounter(this.registry, {
    name: "quarry_requests_total",
    help: "Queries answered, by dataset, referrer and status (success or the error type).",
    labelNames: ["dataset", "referrer", "status"],
  });
  readonly latency = new CappedHistogram(this.registry, {
    name: "quarry_request_duration_seconds",
    help: "Query latency from request start to answer.",
    labelNames: ["dataset", "referrer", "status"],
    buckets: LATENCY_BUCKETS_SECONDS,
  });
  readonly cache = new CappedCounter(this.registry, { name: "quarry_cache_lookups_total", help: "Result-cache lookups by outcome (hit, miss, waited, bypass).", labelNames: ["result"] });
  readonly policyDecisions = new CappedCounter(this.registry, {
    name: "quarry_allocation_policy_decisions_total",
    help: "Queries refused or throttled by an allocation policy.",
    labelNames: ["storage", "policy", "decision"],
  });
  readonly clickhouseErrors = new CappedCounter(this.registry, { name: "quarry_clickhouse_errors_total", help: "ClickHouse failures by error code (-1: transport).", labelNames: ["code"] });
  readonly queryLogWritten = new Counter({ name: "quarry_querylog_rows_written_total", help: "Query-log rows written to ClickHouse.", registers: [this.registry] });
  readonly queryLogDropped = new CappedCounter(this.registry, {
    name: "quarry_querylog_rows_dropped_total",
    help: "Query-log rows given up on: buffer_full (ClickHouse failing for long, or left at shutdown) or refused (ClickHouse rejected the row; logged with its reason).",
    labelNames: ["reason"],
  });
  readonly queryLogFailures = new Counter({
    name: "quarry_querylog_flush_failures_total",
    help: "Query-log INSERTs that failed (retried with backoff, or split to isolate a refused row).",
    registers: [this.registry],
  });

  constructor() {
    processRegistry();
  }

  /** Gauges read live values of components built after the metrics. */
  addGauge(name: string, help: string, read: () => number): void {
    registerScrapeTimeGauge(this.registry, name, help, read);
  }

  /** The text for GET /metrics (PROMETHEUS_CONTENT_TYPE). */
  render(): Promise<string> {
    return exposition(this.registry);
  }
}
