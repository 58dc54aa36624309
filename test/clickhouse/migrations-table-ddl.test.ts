/** The DDL that migrations run, checked as text (no engine needed). */
import { afterEach, describe, expect, it } from "vitest";
import { materializedViewDdl } from "../../src/clickhouse/materialized-view-ddl.js";
import { createTableDdl, quoteIdentifier } from "../../src/clickhouse/table-ddl.js";
import { tableSettingsDdl } from "../../src/clickhouse/table-settings-ddl.js";
import { DatasetRegistry, defaultRegistry } from "../../src/datasets/registry.js";
import { tempConfig, type TempConfig } from "../datasets/temp-config.js";

let config: TempConfig | undefined;

afterEach(() => {
  config?.remove();
  config = undefined;
});

describe("createTableDdl", () => {
  it("quotes identifiers", () => {
    expect(quoteIdentifier("offset")).toBe("`offset`");
    expect(quoteIdentifier("tags.key")).toBe("`tags.key`");
    expect(quoteIdentifier("we`ird\\")).toBe("`we\\`ird\\\\`");
  });

  it("builds a MergeTree table with every clause of the definition", () => {
    const registry = defaultRegistry();
    const ddl = createTableDdl(registry.storage("errors")!, (name) => registry.storage(name));
    expect(ddl.startsWith("CREATE TABLE IF NOT EXISTS `errors_local`\n(\n    `project_id` UInt64,\n")).toBe(true);
    expect(ddl).toContain("    `user_hash` UInt64 MATERIALIZED cityHash64(user),\n");
    expect(ddl).toContain("    `tags` Nested(key String, value String),\n");
    expect(ddl.endsWith(
      [
        "ENGINE = ReplacingMergeTree(deleted)",
        "ORDER BY (project_id, toStartOfDay(timestamp), primary_hash, cityHash64(event_id))",
        "PARTITION BY (retention_days, toMonday(timestamp))",
        "SAMPLE BY cityHash64(event_id)",
      ].join("\n"),
    )).toBe(true);
    const metrics = createTableDdl(registry.storage("generic_metrics_sets")!, (name) => registry.storage(name));
    expect(metrics).toContain("PRIMARY KEY (org_id, project_id, metric_id, granularity, timestamp)");
    expect(metrics).toContain("`value` AggregateFunction(uniqCombined64, UInt64)");
  });

  it("builds a view as the UNION ALL of its sources, NULL where a source lacks a column", () => {
    config = tempConfig();
    config.write(
      "things/storages/things_view.yaml",
      `version: v1
kind: readable_storage
name: things_view
table: things_view_local
engine: View
view:
  sources:
    - storage: things_store
    - storage: things_store
      columns: { maybe: "upper(label)" }
columns:
  - { name: project_id, type: UInt64 }
  - { name: maybe, type: Nullable(String) }
  - { name: tags, type: "Nested(key String, value String)" }
`,
    );
    const registry = DatasetRegistry.loadFrom(config.dir);
    const ddl = createTableDdl(registry.storage("things_view")!, (name) => registry.storage(name));
    const select = (maybe: string): string =>
      [
        "SELECT",
        "    CAST(src.`project_id` AS UInt64) AS `project_id`,",
        `    CAST(${maybe} AS Nullable(String)) AS \`maybe\`,`,
        "    CAST(src.`tags.key` AS Array(String)) AS `tags.key`,",
        "    CAST(src.`tags.value` AS Array(String)) AS `tags.value`",
        "FROM `things_local` AS src",
      ].join("\n");
    expect(ddl).toBe(`CREATE VIEW IF NOT EXISTS \`things_view_local\` AS\n${select("NULL")}\nUNION ALL\n${select("upper(label)")}`);
  });
});

describe("the DDL of a raw metrics storage", () => {
  const registry = defaultRegistry();
  const raw = registry.storage("generic_metrics_counters_raw")!;

  it("creates the table with its defaults and TTL, without its settings", () => {
    const ddl = createTableDdl(raw, (name) => registry.storage(name));
    expect(ddl).toContain("    `sampling_weight` UInt64 DEFAULT 1\n");
    expect(ddl).toContain("    `hr_retention_days` UInt8 DEFAULT retention_days,\n");
    expect(ddl.endsWith("PARTITION BY (toStartOfInterval(timestamp, toIntervalDay(3)))\nTTL timestamp + toIntervalDay(7)")).toBe(true);
    expect(ddl).not.toContain("SETTINGS");
  });

  it("sets the table's settings with an ALTER: a writable table's deduplication window at least, none for a view", () => {
    expect(tableSettingsDdl(raw)).toBe("ALTER TABLE `generic_metric_counters_raw_local` MODIFY SETTING non_replicated_deduplication_window = 10000");
    expect(tableSettingsDdl(registry.storage("errors")!)).toBe("ALTER TABLE `errors_local` MODIFY SETTING non_replicated_deduplication_window = 10000");
    expect(tableSettingsDdl(registry.storage("discover")!)).toBeNull();
  });

  it("creates its materialized view into the aggregated storage's table", () => {
    const ddl = materializedViewDdl(raw, raw.materializedViews[0]!, (name) => registry.storage(name));
    expect(ddl.startsWith("CREATE MATERIALIZED VIEW IF NOT EXISTS `generic_metric_counters_aggregation_mv_v3` TO `generic_metric_counters_aggregated_local` AS\nSELECT use_case_id,")).toBe(true);
    expect(ddl).toContain("\nFROM `generic_metric_counters_raw_local`\nWHERE materialization_version = 3 AND metric_type = 'counter'\nGROUP BY use_case_id,");
  });
});
