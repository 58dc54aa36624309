/**
 * Demo messages for `snuba-metrics` (release health, schema v1), as Sentry's metrics indexer
 * writes them: the demo's session counters, user and error sets and session durations
 * (demo-metric-series.ts, use case `sessions`), tags as indexed key id (decimal text) → indexed
 * value id (DEMO_TAG_VALUE_IDS), no key.
 */
import { DEMO_TAG_KEY_IDS } from "../demo-indexer-mappings.js";
import { demoMetricsTables } from "../demo-metric-series.js";
import { DEMO_ORGANIZATION_ID } from "../demo-vocabulary.js";
import { demoTagValueId } from "../metrics-generator.js";
import { epochSeconds, type DemoKafkaMessage, type DemoMessageSlot, type DemoTopicSource } from "./demo-message-source.js";
import { bucketSeconds, pickSeries, sampleCount, samples, setMembers } from "./metric-series-picks.js";

const RETENTION_DAYS = 90;

export function releaseHealthMetricMessages(): DemoTopicSource {
  const tables = demoMetricsTables().filter((table) => !table.generic);
  return {
    topic: "snuba-metrics",
    salt: 4,
    message({ random, timestampMs }: DemoMessageSlot): DemoKafkaMessage {
      const { table, series } = pickSeries(random, tables);
      const count = sampleCount(random, series);
      const [type, value] =
        table.kind === "counter"
          ? ["c", count]
          : table.kind === "set"
            ? ["s", setMembers(random, series, count)]
            : ["d", samples(random, series, count)];
      const tags = Object.fromEntries(series.tags.map(([key, tagValue]) => [String(DEMO_TAG_KEY_IDS[key]), demoTagValueId(tagValue)]));
      const body = {
        use_case_id: series.useCase,
        org_id: DEMO_ORGANIZATION_ID,
        project_id: series.project,
        metric_id: series.metricId,
        type,
        timestamp: bucketSeconds(timestampMs),
        sentry_received_timestamp: epochSeconds(timestampMs + 2_000 + random.int(8_000)),
        tags,
        value,
        retention_days: RETENTION_DAYS,
        mapping_meta: { c: Object.fromEntries([[String(series.metricId), series.mri], ...series.tags.map(([key]) => [String(DEMO_TAG_KEY_IDS[key]), key])]) },
      };
      return { key: null, value: JSON.stringify(body) };
    },
  };
}
