import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";

const registry = defaultRegistry();

function entity(name: string) {
  const found = registry.entity(name);
  if (!found) throw new Error(`entity ${name} is not registered`);
  return found;
}

function columnType(entityName: string, column: string): string | undefined {
  return entity(entityName).columns.find((c) => c.name === column)?.type;
}

function storageColumnType(storageName: string, column: string): string | undefined {
  return registry.storage(storageName)?.columns.find((c) => c.name === column)?.type;
}

describe("the shipped configuration", () => {
  it("is loaded once and cached", () => {
    expect(defaultRegistry()).toBe(registry);
  });

  it("has every dataset of spec §2.7", () => {
    expect(registry.datasets().map((d) => d.name)).toEqual([
      "discover",
      "events",
      "events_analytics_platform",
      "generic_metrics",
      "metrics",
      "profiles",
      "replays",
      "search_issues",
      "sessions",
      "transactions",
    ]);
  });

  it("lists the entities of each dataset", () => {
    const entitiesOf = (name: string) => registry.dataset(name)?.entities;
    expect(entitiesOf("events")).toEqual(["events"]);
    expect(entitiesOf("transactions")).toEqual(["transactions"]);
    expect(entitiesOf("discover")).toEqual(["discover", "discover_events", "discover_transactions"]);
    expect(entitiesOf("metrics")).toEqual(["metrics_counters", "metrics_distributions", "metrics_sets", "org_metrics_counters"]);
    expect(entitiesOf("generic_metrics")).toEqual([
      "generic_metrics_counters",
      "generic_metrics_sets",
      "generic_metrics_distributions",
      "generic_metrics_gauges",
      "generic_org_metrics_counters",
    ]);
    expect(entitiesOf("replays")).toEqual(["replays"]);
    expect(entitiesOf("profiles")).toEqual(["profiles"]);
    expect(entitiesOf("search_issues")).toEqual(["search_issues"]);
    expect(entitiesOf("events_analytics_platform")).toEqual(["eap_items"]);
    expect(entitiesOf("sessions")).toEqual(["sessions"]);
  });

  it("reads each entity from the expected table", () => {
    const tables = Object.fromEntries(registry.entities().map((e) => [e.name, registry.storageOf(e.name).table]));
    expect(tables).toEqual({
      discover: "discover_local",
      discover_events: "errors_local",
      discover_transactions: "transactions_local",
      eap_items: "eap_items_1_local",
      events: "errors_local",
      generic_metrics_counters: "generic_metric_counters_aggregated_local",
      generic_metrics_distributions: "generic_metric_distributions_aggregated_local",
      generic_metrics_gauges: "generic_metric_gauges_aggregated_local",
      generic_metrics_sets: "generic_metric_sets_local",
      generic_org_metrics_counters: "generic_metric_counters_aggregated_local",
      group_attributes: "group_attributes_local",
      groupassignee: "groupassignee_local",
      groupedmessage: "groupedmessage_local",
      metrics_counters: "metrics_counters_v2_local",
      metrics_distributions: "metrics_distributions_v2_local",
      metrics_sets: "metrics_sets_v2_local",
      org_metrics_counters: "metrics_counters_v2_local",
      profiles: "profiles_local",
      replays: "replays_local",
      search_issues: "search_issues_local_v2",
      sessions: "sessions_hourly_local",
      transactions: "transactions_local",
    });
    expect(() => registry.storageOf("nonexistent")).toThrow("unknown entity 'nonexistent'");
  });

  it("has the storages no entity reads", () => {
    expect(registry.storage("profile_chunks")?.table).toBe("profile_chunks_local");
    expect(registry.storage("profile_chunks")?.requiredTimeColumn).toBeNull();
    expect(registry.storage("querylog")?.table).toBe("querylog_local");
    expect(storageColumnType("querylog", "marks_ms")).toBe("Map(String, UInt32)");
    expect(storageColumnType("querylog", "organization_id")).toBe("Nullable(UInt64)");
    expect(registry.storage("querylog")?.orderBy).toBe("(timestamp)");
  });

  it("defines events over the errors storage", () => {
    const events = entity("events");
    expect(events.readableStorage).toBe("errors");
    expect(events.writableStorage).toBe("errors");
    expect(events.requiredTimeColumn).toBe("timestamp");
    expect(events.requiredColumns).toEqual(["project_id"]);
    expect(events.timeBucketColumns).toEqual({ time: "timestamp", rtime: "received" });
    expect(columnType("events", "release")).toBe("Nullable(String)");
    expect(columnType("events", "exception_frames")).toContain("stack_level Nullable(UInt16)");
    expect(columnType("events", "timestamp_ms")).toBe("Nullable(DateTime64(3))");
    expect(events.columnMappers.release).toBeUndefined();
    expect(events.columnMappers.transaction).toEqual({ kind: "column", column: "transaction_name" });
    expect(events.columnMappers.username).toEqual({ kind: "column", column: "user_name" });
    expect(events.columnMappers.ip_address?.kind).toBe("expression");
    expect(events.columnMappers.geo_city).toEqual({ kind: "subscript", subscriptable: "contexts", key: "geo.city" });
    expect(events.subscriptables.tags).toEqual({ kind: "nested", keyColumn: "tags.key", valueColumn: "tags.value", nullable: false, valueType: "String" });
    expect(Object.keys(events.subscriptables).sort()).toEqual(["contexts", "flags", "tags"]);
    expect(events.joinRelationships.grouped).toEqual({
      rhsEntity: "groupedmessage",
      joinType: "inner",
      columns: [["project_id", "project_id"], ["group_id", "id"]],
    });
    expect(events.joinRelationships.attributes?.joinType).toBe("left");
    expect(events.subscriptions).toEqual({
      maxAggregations: 10,
      allowGroupBy: true,
      allowHavingAndOrderBy: false,
      resultTopic: "events-subscription-results",
      partitions: 16,
      delaySeconds: 30,
    });

    const errors = registry.storage("errors");
    expect(errors?.writable).toBe(true);
    expect(errors?.notDeletedColumn).toBe("deleted");
    expect(errors?.sampleBy).toBe("cityHash64(event_id)");
    expect(errors?.orderBy).toContain("cityHash64(event_id)");
    expect(errors?.columns.find((c) => c.name === "user_hash")).toMatchObject({ readonly: true, materialized: "cityHash64(user)" });
  });

  it("defines transactions", () => {
    const transactions = entity("transactions");
    expect(transactions.requiredTimeColumn).toBe("finish_ts");
    expect(transactions.timeBucketColumns).toEqual({ time: "finish_ts" });
    expect(transactions.columnMappers.timestamp).toEqual({ kind: "column", column: "finish_ts" });
    expect(transactions.columnMappers.type).toEqual({ kind: "literal", value: "transaction" });
    expect(transactions.subscriptables.measurements).toMatchObject({ kind: "nested", nullable: true, valueType: "Nullable(Float64)" });
    expect(transactions.subscriptions).toEqual({
      maxAggregations: 1,
      allowGroupBy: false,
      allowHavingAndOrderBy: false,
      resultTopic: "transactions-subscription-results",
      partitions: 16,
      delaySeconds: 30,
    });
    expect(registry.storage("transactions")?.sampleBy).toBe("cityHash64(span_id)");
    expect(registry.storage("transactions")?.notDeletedColumn).toBeNull();
  });

  it("defines the discover entities", () => {
    const discover = registry.storage("discover");
    expect(discover?.engine).toBe("View");
    expect(discover?.writable).toBe(false);
    expect(discover?.view?.sources.map((s) => s.storage)).toEqual(["errors", "transactions"]);
    expect(entity("discover").columnMappers.group_id).toEqual({ kind: "literal", value: 0 });
    // A column one half lacks is in the view (NULL or [] in the other half), no longer a NULL literal.
    expect(entity("discover").columnMappers.duration).toBeUndefined();
    expect(discover?.columns.find((c) => c.name === "group_ids")?.type).toBe("Array(UInt64)");
    expect(entity("discover").columnMappers.logger).toEqual({ kind: "literal", value: null });
    expect(entity("discover").subscriptions).toBeNull();
    expect(entity("discover_events").columnMappers.transaction_op).toEqual({ kind: "literal", value: null });
    expect(entity("discover_events").columns.some((c) => c.name === "flags")).toBe(false);
    expect(entity("discover_events").subscriptions?.maxAggregations).toBe(1);
    expect(entity("discover_transactions").columnMappers.group_id).toEqual({ kind: "literal", value: 0 });
    expect(entity("discover_transactions").requiredTimeColumn).toBe("finish_ts");
  });

  it("defines the metrics entities", () => {
    const counters = entity("metrics_counters");
    expect(counters.requiredColumns).toEqual(["org_id", "project_id"]);
    expect(counters.timeBucketColumns).toEqual({ bucketed_time: "timestamp" });
    expect(counters.granularities).toEqual([10, 60, 3600, 86400]);
    expect(counters.storedGranularities).toBeUndefined();
    expect(counters.subscriptables.tags).toMatchObject({ integerKeys: true, valueColumn: "tags.value", valueType: "UInt64" });
    expect(counters.subscriptions).toEqual({
      maxAggregations: 3,
      allowGroupBy: true,
      allowHavingAndOrderBy: false,
      resultTopic: "metrics-subscription-results",
      partitions: 16,
      delaySeconds: 60,
      groupByRequiresCondition: true,
      organizationColumn: "org_id",
    });
    expect(columnType("metrics_sets", "value")).toBe("AggregateFunction(uniqCombined64, UInt64)");
    expect(entity("metrics_distributions").subscriptions).toBeNull();
    expect(storageColumnType("metrics_counters", "granularity")).toBe("UInt32");
    expect(registry.storage("metrics_counters")?.engine).toBe("AggregatingMergeTree");
    expect(entity("org_metrics_counters").requiredColumns).toEqual([]);
  });

  it("defines the generic metrics entities", () => {
    const distributions = entity("generic_metrics_distributions");
    expect(distributions.storedGranularities).toEqual([0, 1, 2, 3]);
    expect(distributions.defaultGranularity).toBe(60);
    expect(distributions.subscriptables.tags_raw).toMatchObject({ valueColumn: "tags.raw_value" });
    expect(distributions.functionMappers).toContainEqual({
      from: "quantiles_weighted",
      argument: "value",
      to: "quantilesTDigestWeightedMerge",
      column: "percentiles_weighted",
      curried: true,
    });
    expect(storageColumnType("generic_metrics_distributions", "percentiles_weighted")).toBe(
      "AggregateFunction(quantilesTDigestWeighted(0.5, 0.75, 0.9, 0.95, 0.99), Float64, UInt64)",
    );
    expect(storageColumnType("generic_metrics_counters", "value_weighted")).toBe("AggregateFunction(sum, Float64)");
    expect(storageColumnType("generic_metrics_gauges", "last")).toBe("AggregateFunction(argMax, Float64, DateTime)");
    expect(storageColumnType("generic_metrics_counters", "tags")).toBe("Nested(key UInt64, indexed_value UInt64, raw_value String)");
    expect(entity("generic_metrics_gauges").columnMappers.timestamp).toEqual({ kind: "column", column: "rounded_timestamp" });
    expect(entity("generic_metrics_counters").functionMappers).toContainEqual({ from: "sum_weighted", argument: "value", to: "sumMerge", column: "value_weighted" });
    for (const name of ["generic_metrics_counters", "generic_metrics_sets", "generic_metrics_distributions", "generic_metrics_gauges"]) {
      expect(entity(name).subscriptions?.maxAggregations).toBe(3);
      expect(entity(name).requiredColumns).toEqual(["org_id", "project_id"]);
    }
  });

  it("defines replays, profiles, search_issues and sessions", () => {
    expect(registry.storage("replays")?.querySettings).toMatchObject({ max_execution_time: 25 });
    expect(entity("profiles").requiredColumns).toEqual(["organization_id", "project_id"]);
    expect(entity("profiles").timeBucketColumns).toEqual({ time: "received" });
    expect(entity("profiles").requiredTimeColumn).toBe("received");
    const issues = entity("search_issues");
    expect(issues.requiredTimeColumn).toBe("timestamp");
    expect(issues.columnMappers.timestamp).toEqual({ kind: "column", column: "client_timestamp" });
    expect(issues.columnMappers.title).toEqual({ kind: "column", column: "search_title" });
    expect(Object.keys(issues.timeBucketColumns)).toEqual([]);
    expect(registry.storage("search_issues")?.querySettings).toEqual({ max_execution_time: 25 });
    expect(entity("sessions").requiredColumns).toEqual(["org_id", "project_id"]);
    expect(entity("sessions").columnMappers.sessions).toEqual({ kind: "expression", sql: "sumMerge(sessions_state)" });
  });

  it("defines eap_items with 40 attribute buckets", () => {
    const eap = entity("eap_items");
    expect(eap.requiredColumns).toEqual([]);
    expect(eap.columnValidation).toBe("do_nothing");
    expect(eap.subscriptables.attributes_string).toEqual({ kind: "map", column: "attributes_string", buckets: 40, valueType: "String" });
    expect(eap.subscriptables.attributes_float).toEqual({ kind: "map", column: "attributes_float", buckets: 40, valueType: "Float64" });
    const storage = registry.storage("eap_items");
    const names = storage?.columns.map((c) => c.name) ?? [];
    expect(names.filter((n) => /^attributes_string_\d+$/.test(n))).toHaveLength(40);
    expect(names.filter((n) => /^attributes_float_\d+$/.test(n))).toHaveLength(40);
    expect(storageColumnType("eap_items", "attributes_float_39")).toBe("Map(String, Float64)");
    expect(storageColumnType("eap_items", "client_sample_rate")).toBe("Float64");
    expect(storageColumnType("eap_items", "server_sample_rate")).toBe("Float64");
    expect(storageColumnType("eap_items", "item_id")).toBe("UInt128");
    expect(storage?.querySettings.max_execution_time).toBe(25);
  });

  it("registers the issue tables that events joins", () => {
    expect(registry.storage("groupedmessages")?.final).toBe(true);
    expect(registry.storage("groupedmessages")?.notDeletedColumn).toBe("record_deleted");
    expect(entity("group_attributes").requiredColumns).toEqual(["project_id"]);
    const listed = new Set(registry.datasets().flatMap((d) => d.entities));
    expect(listed.has("groupedmessage")).toBe(false);
  });

  it("gives every entity a readable storage and every storage Snuba's default allocation policies", () => {
    for (const e of registry.entities()) {
      expect(registry.storageOf(e.name).name).toBe(e.readableStorage);
    }
    for (const s of registry.storages()) {
      expect(s.allocationPolicies.map((p) => p.name)).toEqual([
        "ConcurrentRateLimitAllocationPolicy",
        "PerSecondRateLimitAllocationPolicy",
        "BytesScannedWindowAllocationPolicy",
      ]);
    }
  });
});
