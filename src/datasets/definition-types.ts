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
export type SubscriptableDefinition =
  | {
      readonly kind: "nested";
      readonly keyColumn: string;
      readonly valueColumn: string;
      /** true: a missing key gives NULL; false: the column type's default (''). */
      readonly nullable: boolean;
      /** Keys are integers (metrics tags). */
      readonly integerKeys?: boolean;
    }
  | {
      readonly kind: "map";
      /** The Map column, or the bucket prefix when `buckets` is set. */
      readonly column: string;
      readonly buckets?: number;
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
  /** Magic time columns bucketed by GRANULARITY: `time` -> `timestamp`. */
  readonly timeBucketColumns: Readonly<Record<string, string>>;
  readonly joinRelationships: Readonly<Record<string, JoinRelationship>>;
  readonly subscriptions: SubscriptionSupport | null;
  readonly columnValidation: ColumnValidationMode;
  /** Granularities (seconds) the entity supports, for metrics; empty when any is allowed. */
  readonly granularities: readonly number[];
}

export interface AllocationPolicyDefinition {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
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
}
