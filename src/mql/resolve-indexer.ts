/**
 * Strings -> indexer ids through `mql_context.indexer_mappings` (facts §A2.4): MRIs to
 * `metric_id` (transitively, so `public name -> MRI -> id` chains work), tag keys to `tags.key`
 * ids, and, for the legacy `metrics` dataset whose tag values are indexed too, tag values.
 * Anything missing is an `invalid_query` naming it, never a silently empty result.
 */
import { invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import type { IndexerMappings } from "./mql-context.js";
import type { MetricName } from "./mql-ast.js";

/** Longest `a -> b -> id` chain followed before giving up (a cycle must not hang the server). */
const MAX_CHAIN = 8;
const MRI = /^([^:]+):([^/]+)\/([^@]+)@(.+)$/;

export class IndexerResolver {
  private readonly mappings: IndexerMappings;

  /**
   * `mappings` come from the request; without them, from the store (`storeMappings`: a server over
   * the demo data knows the ids that wrote it). With neither, nothing can be resolved: Snuba
   * requires the field, and guessing ids would answer with another metric's data.
   */
  constructor(mappings: IndexerMappings | null, storeMappings: IndexerMappings | null = null) {
    const chosen = mappings ?? storeMappings;
    if (!chosen) {
      throw invalidQuery(
        "'mql_context.indexer_mappings' is required: map each MRI and tag key to its indexer id, e.g. {\"d:transactions/duration@millisecond\": 101, \"transaction\": 212}",
      );
    }
    this.mappings = chosen;
  }

  has(text: string): boolean {
    return Object.hasOwn(this.mappings, text);
  }

  /**
   * Follows string values until an id; null when `text` is not mapped at all. `via` collects the
   * strings passed through (the caller passes an array only when it needs them).
   */
  private follow(text: string, what: string, position?: TextPosition, via?: string[]): number | null {
    const direct = this.mappings[text];
    if (typeof direct === "number" && Object.hasOwn(this.mappings, text)) {
      via?.push(text);
      return direct;
    }
    let current: number | string = text;
    for (let step = 0; step <= MAX_CHAIN; step++) {
      if (typeof current === "number") return current;
      if (step > 0 && /^\d+$/.test(current)) return Number(current);
      if (!Object.hasOwn(this.mappings, current)) {
        if (step === 0) return null;
        throw invalidQuery(`Could not resolve ${what} '${text}': indexer_mappings maps it to '${current}', which is not mapped`, position);
      }
      via?.push(current);
      current = this.mappings[current]!;
    }
    throw invalidQuery(`Could not resolve ${what} '${text}': indexer_mappings chains more than ${MAX_CHAIN} strings (a cycle?)`, position);
  }

  /** The metric's MRI (a public name must map to one) and its metric_id. */
  metric(metric: MetricName): { mri: string; id: number } {
    const name = metric.mri ?? metric.publicName ?? "";
    const via: string[] = [];
    const id = this.follow(name, "metric", metric.position, via);
    if (id === null) {
      throw invalidQuery(
        `unknown metric '${name}': it is not in mql_context.indexer_mappings (add "${name}": <metric_id>)`,
        metric.position,
      );
    }
    if (metric.mri !== undefined) return { mri: metric.mri, id };
    // A public name only tells the metric type through the MRI it maps to.
    const mri = [...via].reverse().find((text) => MRI.test(text));
    if (!mri) {
      throw invalidQuery(
        `the public name '${name}' must map to an MRI in indexer_mappings ("${name}": "d:transactions/duration@millisecond"), so its type is known`,
        metric.position,
      );
    }
    return { mri, id };
  }

  /** The id of a tag key, or null when it is not mapped. */
  tagKey(key: string): number | null {
    return this.follow(key, "tag key");
  }

  /** The id of a tag value (legacy `metrics` dataset). */
  tagValue(key: string, value: string, position?: TextPosition): number {
    const id = this.follow(value, "tag value", position);
    if (id === null) {
      throw invalidQuery(
        `tag value '${value}' of '${key}' is not in mql_context.indexer_mappings: the metrics dataset stores tag values as indexed ids`,
        position,
      );
    }
    return id;
  }
}

/** The metric type, the MRI's first part: c (counter), d (distribution), s (set), g (gauge). */
export function metricType(mri: string): string {
  return MRI.exec(mri)?.[1] ?? mri.slice(0, 1);
}
