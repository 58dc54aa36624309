/**
 * What the dataset / entity / storage YAML files (schema version v1) become once loaded and
 * validated. The rest of Quarry reads definitions only through these types (via the registry),
 * never the YAML.
 */

/** A column and its ClickHouse type, e.g. `Nullable(String)` or `Nested(key String, value String)`. */
export interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  /** Read-only columns can be queried but are never written by ingestion / demo data. */
  readonly readonly?: boolean;
  /**
   * For storage columns: the ClickHouse `MATERIALIZED` expression that computes a read-only
   * column from the others (`user_hash` <- `cityHash64(user)`), so writers never supply it.
   */
  readonly materialized?: string;
  /**
   * For storage columns: the ClickHouse `DEFAULT` expression a row that omits the column gets
   * (`sampling_weight` <- `1`, `hr_retention_days` <- `retention_days`); writers may still set it.
   */
  readonly default?: string;
}

export interface DatasetDefinition {
  readonly name: string;
  readonly entities: readonly string[];
}

/**
 * How an entity column that is not a plain storage column is computed in the storage.
 * - `column`: a storage column under another name (`transaction` -> `transaction_name`).
 * - `expression`: a trusted SQL expression over storage columns, from our own YAML
 *   (`ip_address` -> `coalesce(IPv4NumToString(ip_address_v4), IPv6NumToString(ip_address_v6))`).
 * - `subscript`: one key of a subscriptable (`geo_city` -> `contexts[geo.city]`), NULL when absent.
 * - `literal`: a constant (`type` -> `'transaction'` on transactions); `null` for columns the
 *   storage does not have (discover merge entities).
 */
export type ColumnMapper =
  | { readonly kind: "column"; readonly column: string }
  | { readonly kind: "expression"; readonly sql: string }
  | { readonly kind: "subscript"; readonly subscriptable: string; readonly key: string }
  | { readonly kind: "literal"; readonly value: string | number | boolean | null };

/**
 * A `name[key]` accessor. Nested key/value arrays (`tags.key`, `tags.value`) or a Map column,
 * optionally split into hash buckets (`attributes_string_0..39`, bucket = fnv1a_32(key) % buckets).
 */
/**
 * A custom function of Snuba's that an entity's processors expand into ClickHouse functions:
 * `apdex(column, T)`, `failure_rate()` (over `column`, the span status), `isHandled()` and
 * `notHandled()` (over `column`, the mechanism_handled array; or assumed handled without one).
 */
export type CustomFunctionDefinition =
  | { readonly name: "apdex" }
  | { readonly name: "failure_rate"; readonly column: string }
  | { readonly name: "handled"; readonly column: string }
  | { readonly name: "handled_assumed" };

export type SubscriptableDefinition =
  | {
      readonly kind: "nested";
      readonly keyColumn: string;
      readonly valueColumn: string;
      /** true: a missing key gives NULL; false: the column type's default (''). */
      readonly nullable: boolean;
      /** Keys are integers (metrics tags). */
      readonly integerKeys?: boolean;
      /** The type of one value, from the storage (set by the registry: subscript-value-types.ts). */
      readonly valueType?: string;
    }
  | {
      readonly kind: "map";
      /** The Map column, or the bucket prefix when `buckets` is set. */
      readonly column: string;
      readonly buckets?: number;
      /** The type of one value, from the storage (set by the registry: subscript-value-types.ts). */
      readonly valueType?: string;
    };

export interface JoinRelationship {
  readonly rhsEntity: string;
  readonly joinType: "inner" | "left";
  /** Pairs of [lhs column, rhs column]. */
  readonly columns: readonly (readonly [string, string])[];
}

export interface SubscriptionSupport {
  readonly maxAggregations: number;
  readonly allowGroupBy: boolean;
  readonly allowHavingAndOrderBy: boolean;
  /** The Kafka topic results are published to (Snuba's result topic of the entity's storage). */
  readonly resultTopic: string;
  /** How many partitions the entity's subscriptions are spread over: crc32(project id) % partitions. */
  readonly partitions: number;
  /** Seconds after a window's end before it runs, so that late data has landed. */
  readonly delaySeconds: number;
  /**
   * Every GROUP BY column needs a top-level `= <int>` / `IN (...)` condition (metrics entities);
   * absent or false: grouping is free (events).
   */
  readonly groupByRequiresCondition?: boolean;
  /** A column that gets `= <organization>` from the subscription's metadata on every run (`org_id`). */
  readonly organizationColumn?: string;
}

/**
 * An aggregate over a virtual entity column that becomes a `-Merge` combinator over a stored
 * aggregate-state column: `sum(value)` -> `sumMerge(value)`, `max(value)` -> `maxMerge(max)`,
 * `quantiles(0.5)(value)` -> `quantilesMerge(0.5)(percentiles)`.
 */
export interface FunctionMapper {
  /** The function a query calls (`sum`, `sumIf`, `quantiles`, `sum_weighted`). */
  readonly from: string;
  /** The entity column the call must take as its first argument (`value`). */
  readonly argument: string;
  /** The ClickHouse function that replaces it (`sumMerge`, `sumMergeIf`). */
  readonly to: string;
  /** The storage column that replaces the argument. */
  readonly column: string;
  /** Curried (parametric) call: the parameters are carried over, `quantiles(0.5)(value)`. */
  readonly curried?: boolean;
}

/** How strictly unknown columns are treated (Snuba's validate_data_model). */
export type ColumnValidationMode = "error" | "warn" | "do_nothing";

export interface EntityDefinition {
  readonly name: string;
  readonly columns: readonly ColumnDefinition[];
  /** The column that needs `>=` and `<` datetime conditions, or null when none is required. */
  readonly requiredTimeColumn: string | null;
  /** Columns that need a top-level `= <int>` or `IN (<ints>)` condition (project_id, org_id...). */
  readonly requiredColumns: readonly string[];
  /** The storage queries read from. */
  readonly readableStorage: string;
  /** The storage ingestion writes to (and subscriptions require), when there is one. */
  readonly writableStorage: string | null;
  /** Entity columns computed differently in the storage; absent means same name in the storage. */
  readonly columnMappers: Readonly<Record<string, ColumnMapper>>;
  readonly subscriptables: Readonly<Record<string, SubscriptableDefinition>>;
  /** Snuba's custom functions this entity expands (src/pipeline/custom-functions.ts); empty when none. */
  readonly customFunctions: readonly CustomFunctionDefinition[];
  /** Magic time columns bucketed by GRANULARITY: `time` -> `timestamp`. */
  readonly timeBucketColumns: Readonly<Record<string, string>>;
  readonly joinRelationships: Readonly<Record<string, JoinRelationship>>;
  readonly subscriptions: SubscriptionSupport | null;
  readonly columnValidation: ColumnValidationMode;
  /** Granularities (seconds) the entity supports, for metrics; empty when any is allowed. */
  readonly granularities: readonly number[];
  /**
   * What the storage's `granularity` column holds for each entry of `granularities`, when that is
   * not the seconds themselves: generic metrics store an enum (10/60/3600/86400 -> 0/1/2/3).
   */
  readonly storedGranularities?: readonly number[];
  /** Granularity (seconds) used when a query names none. */
  readonly defaultGranularity?: number;
  /** Aggregates over virtual columns rewritten to `-Merge` calls (metrics entities). */
  readonly functionMappers?: readonly FunctionMapper[];
}

export interface AllocationPolicyDefinition {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** One SELECT of a view storage; the view is the UNION ALL of its sources. */
export interface ViewSource {
  readonly storage: string;
  /**
   * Expressions over the source storage for view columns it lacks under the same name. A view
   * column that is neither in the source nor here is NULL (so it must be Nullable).
   */
  readonly columns: Readonly<Record<string, string>>;
}

export interface ViewDefinition {
  readonly sources: readonly ViewSource[];
}

/**
 * A materialized view on a storage's table: every block inserted into the table is run through
 * `SELECT <select> FROM <table> [WHERE <where>] [GROUP BY <groupBy>]` and the result inserted
 * into the target storage's table (Snuba's raw-table-to-aggregated-table views).
 */
export interface MaterializedViewDefinition {
  /** The view's name in ClickHouse. */
  readonly name: string;
  /** The storage whose table receives the rows. */
  readonly target: string;
  readonly select: string;
  readonly where: string | null;
  readonly groupBy: string | null;
}

/** How Kafka messages reach a writable storage (the storage YAML's `stream_loader`, docs/ingestion.md). */
export interface StreamLoaderDefinition {
  /** The processor's Snuba name (`ErrorsProcessor`). */
  readonly processor: string;
  /** Snuba's topic names; QUARRY_KAFKA_TOPICS maps them to physical ones. */
  readonly sourceTopic: string;
  readonly commitLogTopic: string;
  readonly deadLetterTopic: string;
  /** Where event replacements are forwarded; null: the storage has none. */
  readonly replacementTopic: string | null;
  readonly consumerGroup: string;
  /** How a subscription scheduler following the commit log forms ticks: per partition or over all. */
  readonly subscriptionSchedulerMode: "partition" | "global";
  readonly subscriptionSynchronizationTimestamp: "orig_message_ts" | "received_p99";
  readonly subscriptionDelaySeconds: number;
}

export interface StorageDefinition {
  readonly name: string;
  readonly writable: boolean;
  /** The ClickHouse table (single node). */
  readonly table: string;
  /** The distributed table name, for cluster mode. */
  readonly distTable: string | null;
  readonly columns: readonly ColumnDefinition[];
  /** `MergeTree`, `ReplacingMergeTree`, `AggregatingMergeTree(...)`, ... */
  readonly engine: string;
  readonly orderBy: string;
  readonly partitionBy: string | null;
  readonly primaryKey: string | null;
  /** Needed for SAMPLE / turbo; must be part of orderBy. */
  readonly sampleBy: string | null;
  /** A column that must be 0 for a row to be visible (`deleted`), ANDed into every query. */
  readonly notDeletedColumn: string | null;
  /** The time column of a direct STORAGE() query, when one is required. */
  readonly requiredTimeColumn: string | null;
  /** ClickHouse settings applied to every query on this storage. */
  readonly querySettings: Readonly<Record<string, string | number>>;
  readonly allocationPolicies: readonly AllocationPolicyDefinition[];
  /**
   * Reads must use `FINAL` (CDC copies of Postgres tables in a ReplacingMergeTree, where an
   * unmerged part still holds superseded rows).
   */
  readonly final?: boolean;
  /** Present when `engine` is `View`: the table is a view over other storages. */
  readonly view?: ViewDefinition;
  /** The table's TTL expression, or null for none. */
  readonly ttl: string | null;
  /** MergeTree settings of the table (`non_replicated_deduplication_window`); empty when none. */
  readonly tableSettings: Readonly<Record<string, string | number>>;
  /** Views fed by inserts into this storage's table; empty when none. */
  readonly materializedViews: readonly MaterializedViewDefinition[];
  /** Present on a writable storage that an ingestion consumer fills from Kafka. */
  readonly streamLoader?: StreamLoaderDefinition;
}
