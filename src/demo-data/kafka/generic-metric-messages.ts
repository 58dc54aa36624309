/**
 * Demo messages for `snuba-generic-metrics` (schema v2), as Sentry's metrics indexer writes
 * them: counters, sets, distributions and gauges of the demo's transactions, spans and custom
 * use cases (demo-metric-series.ts), tags as indexed key id (decimal text) → raw value, the
 * `metric_type` header (c, s, d, g) that lets each type's consumer skip the others unread, and
 * no key (the producer spreads them). Counters, sets and gauges ask for 10-second rows
 * (aggregation_option `ten_second`), distributions for histograms (`hist`).
 */
import { DEMO_TAG_KEY_IDS } from "../demo-indexer-mappings.js";
import { demoMetricsTables } from "../demo-metric-series.js";
import { DEMO_ORGANIZATION_ID } from "../demo-vocabulary.js";
import { epochSeconds, type DemoKafkaMessage, type DemoMessageSlot, type DemoTopicSource } from "./demo-message-source.js";
import { bucketSeconds, pickSeries, sampleCount, samples, setMembers } from "./metric-series-picks.js";

const RETENTION_DAYS = 90;
const TYPE_LETTERS = { counter: "c", set: "s", distribution: "d", gauge: "g" } as const;

export function genericMetricMessages(): DemoTopicSource {
  const tables = demoMetricsTables().filter((table) => table.generic);
  return {
    topic: "snuba-generic-metrics",
    salt: 3,
    message({ random, timestampMs }: DemoMessageSlot): DemoKafkaMessage {
      const { table, series } = pickSeries(random, tables);
      const count = sampleCount(random, series);
      let value: unknown;
      switch (table.kind) {
        case "counter":
          value = count;
          break;
        case "set":
          value = setMembers(random, series, count);
          break;
        case "distribution":
          value = samples(random, series, count);
          break;
        case "gauge": {
          const values = samples(random, series, count);
          value = { min: Math.min(...values), max: Math.max(...values), sum: Math.round(values.reduce((a, b) => a + b, 0) * 1000) / 1000, count, last: values.at(-1) };
          break;
        }
      }
      const letter = TYPE_LETTERS[table.kind];
      const tags = Object.fromEntries(series.tags.map(([key, tagValue]) => [String(DEMO_TAG_KEY_IDS[key]), tagValue]));
      const body = {
        version: 2,
        use_case_id: series.useCase,
        org_id: DEMO_ORGANIZATION_ID,
        project_id: series.project,
        metric_id: series.metricId,
        type: letter,
        timestamp: bucketSeconds(timestampMs),
        sentry_received_timestamp: epochSeconds(timestampMs + 2_000 + random.int(8_000)),
        tags,
        value,
        retention_days: RETENTION_DAYS,
        // The indexer's reverse map by how it resolved each id ("c": from its cache).
        mapping_meta: { c: Object.fromEntries([[String(series.metricId), series.mri], ...series.tags.map(([key]) => [String(DEMO_TAG_KEY_IDS[key]), key])]) },
        aggregation_option: table.kind === "distribution" ? "hist" : "ten_second",
      };
      return { key: null, value: JSON.stringify(body), headers: { metric_type: letter } };
    },
  };
}
