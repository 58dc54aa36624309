/**
 * Gauges whose value is read from live state when /metrics is scraped (cache bytes, buffered
 * query-log rows, the leases a node holds), through prom-client's collect() callback.
 */
import { Gauge, type Registry } from "prom-client";
import type { LabelSet } from "./series-cap.js";

export function registerScrapeTimeGauge(registry: Registry, name: string, help: string, read: () => number): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/**
 * One value per label set, as read at the scrape: a set the reader no longer yields (a lease
 * given up) leaves the exposition with it.
 */
export function registerLabelledScrapeTimeGauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Iterable<readonly [LabelSet<L>, number]>,
): Gauge<L> {
  return new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.set(labels, value);
    },
  });
}
