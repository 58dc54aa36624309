/**
 * A small Prometheus registry (text exposition format 0.0.4): labelled counters, histograms and
 * callback gauges, rendered on GET /metrics. Label values come from requests (referrers), so each
 * metric keeps at most MAX_SERIES label sets and folds the rest into `other`, and a value is cut
 * to MAX_LABEL_CHARS with control characters replaced: a 100,000-character referrer once made
 * /metrics 18 MB.
 */
const MAX_SERIES = 500;
const OVERFLOW = "other";
export const MAX_LABEL_CHARS = 100;

/** A label value as kept: at most MAX_LABEL_CHARS (then `…`), no control characters. */
export function boundLabelValue(value: string): string {
   
  const clean = /[\u0000-\u001f\u007f]/.test(value) ? value.replace(/[\u0000-\u001f\u007f]/g, "\uFFFD") : value;
  return clean.length > MAX_LABEL_CHARS ? `${clean.slice(0, MAX_LABEL_CHARS - 1)}…` : clean;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function renderLabels(names: readonly string[], values: readonly string[], extra = ""): string {
  const pairs = names.map((name, i) => `${name}="${escapeLabel(values[i] ?? "")}"`);
  if (extra) pairs.push(extra);
  return pairs.length ? `{${pairs.join(",")}}` : "";
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

interface Metric {
  render(): string;
}

/** Label sets keyed by their joined values; past the cap, new sets share the `other` series. */
class Series<T> {
  private readonly byKey = new Map<string, { values: string[]; state: T }>();

  constructor(
    private readonly labelCount: number,
    private readonly create: () => T,
  ) {}

  get(raw: readonly string[]): T {
    const values = raw.some((v) => v.length > MAX_LABEL_CHARS || /[\u0000-\u001f\u007f]/.test(v)) ? raw.map(boundLabelValue) : raw;  
    const key = values.join("\u0000");
    let series = this.byKey.get(key);
    if (!series) {
      const kept = this.byKey.size < MAX_SERIES ? [...values] : new Array<string>(this.labelCount).fill(OVERFLOW);
      const keptKey = kept.join("\u0000");
      series = this.byKey.get(keptKey) ?? { values: kept, state: this.create() };
      this.byKey.set(keptKey, series);
    }
    return series.state;
  }

  all(): Iterable<{ values: string[]; state: T }> {
    return this.byKey.values();
  }
}

export class Counter implements Metric {
  private readonly series: Series<{ value: number }>;

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: readonly string[] = [],
  ) {
    this.series = new Series(labelNames.length, () => ({ value: 0 }));
  }

  inc(labels: readonly string[] = [], by = 1): void {
    this.series.get(labels).value += by;
  }

  value(labels: readonly string[] = []): number {
    return this.series.get(labels).value;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { values, state } of this.series.all()) lines.push(`${this.name}${renderLabels(this.labelNames, values)} ${formatNumber(state.value)}`);
    return lines.join("\n");
  }
}

export class Histogram implements Metric {
  private readonly series: Series<{ counts: number[]; sum: number; count: number }>;

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly buckets: readonly number[],
  ) {
    this.series = new Series(labelNames.length, () => ({ counts: new Array<number>(buckets.length).fill(0), sum: 0, count: 0 }));
  }

  observe(labels: readonly string[], value: number): void {
    const state = this.series.get(labels);
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) state.counts[i]!++;
    state.sum += value;
    state.count++;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { values, state } of this.series.all()) {
      this.buckets.forEach((bound, i) => {
        lines.push(`${this.name}_bucket${renderLabels(this.labelNames, values, `le="${formatNumber(bound)}"`)} ${state.counts[i]}`);
      });
      lines.push(`${this.name}_bucket${renderLabels(this.labelNames, values, 'le="+Inf"')} ${state.count}`);
      lines.push(`${this.name}_sum${renderLabels(this.labelNames, values)} ${formatNumber(state.sum)}`);
      lines.push(`${this.name}_count${renderLabels(this.labelNames, values)} ${state.count}`);
    }
    return lines.join("\n");
  }
}

/** A value read when scraped (cache bytes, query-log buffer length). */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly read: () => number,
  ) {}

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${formatNumber(this.read())}`].join("\n");
  }
}

/** Values read when scraped, one per label set (per-partition lease epochs, checkpoint lags). */
export class LabelledGauge implements Metric {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly read: () => Iterable<readonly [readonly string[], number]>,
  ) {}

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
    for (const [values, value] of this.read()) lines.push(`${this.name}${renderLabels(this.labelNames, values)} ${formatNumber(value)}`);
    return lines.join("\n");
  }
}

export class PrometheusRegistry {
  private readonly metrics: Metric[] = [];

  register<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }

  /** The exposition text for GET /metrics (`text/plain; version=0.0.4`). */
  render(): string {
    return `${this.metrics.map((metric) => metric.render()).join("\n")}\n`;
  }
}

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
