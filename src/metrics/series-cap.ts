/**
 * Keeps a metric's label sets bounded. Label values come from requests (referrers, dataset
 * names as sent), and prom-client keeps every set it is given: each metric here keeps at most
 * MAX_SERIES label sets and folds the rest into one whose values are all `other`, and a value is
 * cut to MAX_LABEL_CHARS with control characters replaced. A 100,000-character referrer once
 * made /metrics 18 MB.
 */
export const MAX_SERIES = 500;
const OVERFLOW_LABEL_VALUE = "other";
export const MAX_LABEL_CHARS = 100;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** A label value as kept: at most MAX_LABEL_CHARS (then `…`), no control characters. */
function boundLabelValue(value: string): string {
  const clean = value.replace(CONTROL_CHARACTERS, "\uFFFD");
  return clean.length > MAX_LABEL_CHARS ? `${clean.slice(0, MAX_LABEL_CHARS - 1)}…` : clean;
}

export type LabelSet<L extends string> = Readonly<Record<L, string>>;

export class SeriesCap<L extends string> {
  private readonly kept = new Set<string>();

  constructor(private readonly labelNames: readonly L[]) {}

  /** The label set to record under, counting it among the kept ones if there is room. */
  admit(labels: LabelSet<L>): LabelSet<L> {
    // Per request, so the usual case is one lookup: a kept key's values are bounded already, and
    // a raw key can equal one only if its values are too (no control character, none longer).
    if (this.kept.has(this.keyOf(labels))) return labels;
    const bounded = this.bound(labels);
    const key = this.keyOf(bounded);
    if (this.kept.has(key)) return bounded;
    if (this.kept.size < MAX_SERIES) {
      this.kept.add(key);
      return bounded;
    }
    return this.overflow();
  }

  /** The label set a value was recorded under, without admitting a new one. */
  lookup(labels: LabelSet<L>): LabelSet<L> {
    const bounded = this.bound(labels);
    return this.kept.has(this.keyOf(bounded)) || this.kept.size < MAX_SERIES ? bounded : this.overflow();
  }

  /** Bounded values, in the order of the label names (the order /metrics writes them in). */
  private bound(labels: LabelSet<L>): Record<L, string> {
    const bounded = {} as Record<L, string>;
    for (const name of this.labelNames) bounded[name] = boundLabelValue(labels[name]);
    return bounded;
  }

  private keyOf(labels: LabelSet<L>): string {
    return this.labelNames.map((name) => labels[name]).join("\u0000");
  }

  private overflow(): Record<L, string> {
    const labels = {} as Record<L, string>;
    for (const name of this.labelNames) labels[name] = OVERFLOW_LABEL_VALUE;
    return labels;
  }
}
