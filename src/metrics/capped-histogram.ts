/** A prom-client Histogram whose label sets are bounded (series-cap.ts). */
import { Histogram, type Registry } from "prom-client";
import type { CappedMetricOptions } from "./capped-counter.js";
import { SeriesCap, type LabelSet } from "./series-cap.js";

export class CappedHistogram<L extends string> {
  private readonly histogram: Histogram<L>;
  private readonly cap: SeriesCap<L>;

  constructor(registry: Registry, options: CappedMetricOptions<L> & { readonly buckets: readonly number[] }) {
    this.histogram = new Histogram({ name: options.name, help: options.help, labelNames: options.labelNames, buckets: [...options.buckets], registers: [registry] });
    this.cap = new SeriesCap(options.labelNames);
  }

  observe(labels: LabelSet<L>, value: number): void {
    this.histogram.observe(this.cap.admit(labels), value);
  }
}
