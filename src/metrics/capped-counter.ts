/** A prom-client Counter whose label sets are bounded (series-cap.ts): for labels a request chooses. */
import { Counter, type Registry } from "prom-client";
import { SeriesCap, type LabelSet } from "./series-cap.js";

export interface CappedMetricOptions<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
}

export class CappedCounter<L extends string> {
  private readonly counter: Counter<L>;
  private readonly cap: SeriesCap<L>;

  constructor(registry: Registry, options: CappedMetricOptions<L>) {
    this.counter = new Counter({ name: options.name, help: options.help, labelNames: options.labelNames, registers: [registry] });
    this.cap = new SeriesCap(options.labelNames);
  }

  inc(labels: LabelSet<L>, by = 1): void {
    this.counter.inc(this.cap.admit(labels), by);
  }

  /** The count under these labels (0 before any); tests and benches read it. */
  async value(labels: LabelSet<L>): Promise<number> {
    const wanted = this.cap.lookup(labels);
    const { values } = await this.counter.get();
    const names = Object.keys(wanted) as L[];
    return values.find((sample) => names.every((name) => sample.labels[name] === wanted[name]))?.value ?? 0;
  }
}
