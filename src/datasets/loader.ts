/**
 * Reads a configuration directory of YAML definitions (schema version v1) into definition
 * objects. Layout: `<dir>/<folder>/dataset.yaml` (optional: folders may hold only unlisted
 * entities or storages), `<dir>/<folder>/entities/*.yaml`, `<dir>/<folder>/storages/*.yaml`.
 *
 * This file checks each document on its own (schema, column types, duplicates inside it);
 * references between files are checked by reference-checks.ts once everything is read.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parse } from "yaml";
import { ClickHouseTypeError, parseClickHouseType } from "./clickhouse-type.js";
import { DefinitionError } from "./definition-error.js";
import type {
  AllocationPolicyDefinition,
  ColumnDefinition,
  ColumnMapper,
  ColumnValidationMode,
  CustomFunctionDefinition,
  DatasetDefinition,
  EntityDefinition,
  FunctionMapper,
  JoinRelationship,
  StorageDefinition,
  StreamLoaderDefinition,
  SubscriptableDefinition,
  SubscriptionSupport,
  ViewDefinition,
} from "./definition-types.js";
import { validateDefinition, type DefinitionKind } from "./schema-validator.js";

/** A definition and the file it came from, so later checks can name the file. */
export interface Loaded<T> {
  readonly definition: T;
  readonly file: string;
}

export interface LoadedDefinitions {
  readonly datasets: readonly Loaded<DatasetDefinition>[];
  readonly entities: readonly Loaded<EntityDefinition>[];
  readonly storages: readonly Loaded<StorageDefinition>[];
}

// The shapes the JSON schemas guarantee once a document has validated.
interface RawColumn {
  name: string;
  type: string;
  readonly?: boolean;
  materialized?: string;
  default?: string;
}

interface RawDataset {
  name: string;
  entities?: string[];
}

type RawMapper =
  | { kind: "column"; column: string }
  | { kind: "expression"; sql: string }
  | { kind: "subscript"; subscriptable: string; key: string }
  | { kind: "literal"; value: string | number | boolean | null };

type RawSubscriptable =
  | { kind: "nested"; key_column: string; value_column: string; nullable: boolean; integer_keys?: boolean }
  | { kind: "map"; column: string; buckets?: number };

interface RawEntity {
  name: string;
  columns: RawColumn[];
  storages: { readable: string; writable?: string | null };
  required_time_column: string | null;
  required_columns?: string[];
  validate_data_model?: ColumnValidationMode;
  column_mappers?: Record<string, RawMapper>;
  subscriptables?: Record<string, RawSubscriptable>;
  time_bucket_columns?: Record<string, string>;
  join_relationships?: Record<string, { rhs_entity: string; join_type: "inner" | "left"; columns: [string, string][] }>;
  subscriptions?: {
    max_aggregations: number;
    allow_group_by: boolean;
    allow_having_and_order_by: boolean;
    result_topic: string;
    partitions: number;
    delay_seconds: number;
    group_by_requires_condition?: boolean;
    organization_column?: string;
  } | null;
  granularities?: number[];
  stored_granularities?: number[];
  default_granularity?: number;
  function_mappers?: { from: string; argument: string; to: string; column: string; curried?: boolean }[];
  custom_functions?: CustomFunctionDefinition[];
}

interface RawStorage {
  kind: "readable_storage" | "writable_storage";
  name: string;
  table: string;
  dist_table?: string | null;
  columns: RawColumn[];
  engine: string;
  order_by?: string;
  partition_by?: string | null;
  primary_key?: string | null;
  sample_by?: string | null;
  not_deleted_column?: string | null;
  required_time_column?: string | null;
  final?: boolean;
  query_settings?: Record<string, string | number>;
  allocation_policies?: { name: string; args?: Record<string, unknown> }[];
  view?: { sources: { storage: string; columns?: Record<string, string> }[] };
  ttl?: string;
  settings?: Record<string, string | number>;
  materialized_views?: { name: string; target: string; select: string; where?: string; group_by?: string }[];
  stream_loader?: {
    processor: string;
    default_topic: string;
    commit_log_topic: string;
    dlq_topic: string;
    replacement_topic?: string;
    consumer_group: string;
    subscription_scheduler_mode?: "partition" | "global";
    subscription_synchronization_timestamp?: "orig_message_ts" | "received_p99";
    subscription_delay_seconds?: number;
  };
}

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".yaml") || name.endsWith(".yml"))
    .sort()
    .map((name) => join(dir, name));
}

/** Parses one file and validates it against the schema for `kind`. */
function readDocument(file: string, kind: DefinitionKind): unknown {
  let document: unknown;
  try {
    document = parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new DefinitionError(file, `invalid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new DefinitionError(file, "the top level must be a mapping");
  }
  const problems = validateDefinition(kind, document);
  if (problems.length > 0) throw new DefinitionError(file, problems.join("; "));
  return document;
}

function checkColumns(file: string, owner: string, columns: readonly RawColumn[]): ColumnDefinition[] {
  const seen = new Set<string>();
  return columns.map((column) => {
    if (seen.has(column.name)) throw new DefinitionError(file, `${owner} declares column '${column.name}' twice`);
    seen.add(column.name);
    try {
      parseClickHouseType(column.type);
    } catch (error) {
      if (!(error instanceof ClickHouseTypeError)) throw error;
      throw new DefinitionError(file, `column '${column.name}' has an invalid ClickHouse type '${column.type}': ${error.message}`);
    }
    return {
      name: column.name,
      type: column.type,
      ...(column.readonly ? { readonly: true } : {}),
      ...(column.materialized !== undefined ? { materialized: column.materialized } : {}),
      ...(column.default !== undefined ? { default: column.default } : {}),
    };
  });
}

function toDataset(raw: RawDataset): DatasetDefinition {
  return { name: raw.name, entities: raw.entities ?? [] };
}

function toMapper(raw: RawMapper): ColumnMapper {
  switch (raw.kind) {
    case "column":
      return { kind: "column", column: raw.column };
    case "expression":
      return { kind: "expression", sql: raw.sql };
    case "subscript":
      return { kind: "subscript", subscriptable: raw.subscriptable, key: raw.key };
    case "literal":
      return { kind: "literal", value: raw.value };
  }
}

function toSubscriptable(raw: RawSubscriptable): SubscriptableDefinition {
  if (raw.kind === "map") return { kind: "map", column: raw.column, ...(raw.buckets !== undefined ? { buckets: raw.buckets } : {}) };
  return {
    kind: "nested",
    keyColumn: raw.key_column,
    valueColumn: raw.value_column,
    nullable: raw.nullable,
    ...(raw.integer_keys ? { integerKeys: true } : {}),
  };
}

function mapValues<A, B>(record: Record<string, A> | undefined, f: (value: A) => B): Record<string, B> {
  const out: Record<string, B> = {};
  for (const [key, value] of Object.entries(record ?? {})) out[key] = f(value);
  return out;
}

function toEntity(file: string, raw: RawEntity): EntityDefinition {
  const columns = checkColumns(file, `entity '${raw.name}'`, raw.columns);
  const granularities = raw.granularities ?? [];
  if (raw.stored_granularities && raw.stored_granularities.length !== granularities.length) {
    throw new DefinitionError(file, "'stored_granularities' must have one entry per entry of 'granularities'");
  }
  if (raw.default_granularity !== undefined && !granularities.includes(raw.default_granularity)) {
    throw new DefinitionError(file, `'default_granularity' ${raw.default_granularity} is not one of 'granularities'`);
  }
  const joinRelationships: Record<string, JoinRelationship> = mapValues(raw.join_relationships, (join) => ({
    rhsEntity: join.rhs_entity,
    joinType: join.join_type,
    columns: join.columns.map(([lhs, rhs]) => [lhs, rhs] as const),
  }));
  const subscriptions: SubscriptionSupport | null = raw.subscriptions
    ? {
        maxAggregations: raw.subscriptions.max_aggregations,
        allowGroupBy: raw.subscriptions.allow_group_by,
        allowHavingAndOrderBy: raw.subscriptions.allow_having_and_order_by,
        resultTopic: raw.subscriptions.result_topic,
        partitions: raw.subscriptions.partitions,
        delaySeconds: raw.subscriptions.delay_seconds,
        ...(raw.subscriptions.group_by_requires_condition ? { groupByRequiresCondition: true } : {}),
        ...(raw.subscriptions.organization_column ? { organizationColumn: raw.subscriptions.organization_column } : {}),
      }
    : null;
  const functionMappers: FunctionMapper[] | undefined = raw.function_mappers?.map((m) => ({
    from: m.from,
    argument: m.argument,
    to: m.to,
    column: m.column,
    ...(m.curried ? { curried: true } : {}),
  }));
  return {
    name: raw.name,
    columns,
    requiredTimeColumn: raw.required_time_column,
    requiredColumns: raw.required_columns ?? [],
    readableStorage: raw.storages.readable,
    writableStorage: raw.storages.writable ?? null,
    columnMappers: mapValues(raw.column_mappers, toMapper),
    subscriptables: mapValues(raw.subscriptables, toSubscriptable),
    customFunctions: raw.custom_functions ?? [],
    timeBucketColumns: { ...(raw.time_bucket_columns ?? {}) },
    joinRelationships,
    subscriptions,
    // Snuba entities validate column names strictly unless told otherwise.
    columnValidation: raw.validate_data_model ?? "error",
    granularities,
    ...(raw.stored_granularities ? { storedGranularities: raw.stored_granularities } : {}),
    ...(raw.default_granularity !== undefined ? { defaultGranularity: raw.default_granularity } : {}),
    ...(functionMappers ? { functionMappers } : {}),
  };
}

function toStorage(file: string, raw: RawStorage): StorageDefinition {
  const columns = checkColumns(file, `storage '${raw.name}'`, raw.columns);
  const isView = raw.engine === "View";
  if (isView && raw.kind === "writable_storage") throw new DefinitionError(file, "a View storage cannot be a writable_storage");
  if (!isView && raw.view) throw new DefinitionError(file, `'view' is only allowed with engine 'View', not '${raw.engine}'`);
  // A view stores nothing: it has no TTL, no MergeTree settings, and no inserts to materialize.
  for (const tableOnly of ["ttl", "settings", "materialized_views"] as const) {
    if (isView && raw[tableOnly] !== undefined) throw new DefinitionError(file, `'${tableOnly}' is not allowed on a View storage`);
  }
  if (raw.stream_loader && raw.kind !== "writable_storage") throw new DefinitionError(file, "'stream_loader' is only allowed on a writable_storage: a consumer writes into the storage's table");
  const loader = raw.stream_loader;
  const streamLoader: StreamLoaderDefinition | undefined = loader
    ? {
        processor: loader.processor,
        sourceTopic: loader.default_topic,
        commitLogTopic: loader.commit_log_topic,
        deadLetterTopic: loader.dlq_topic,
        replacementTopic: loader.replacement_topic ?? null,
        consumerGroup: loader.consumer_group,
        // Snuba's defaults: a global clock on the message timestamps, 60 s behind.
        subscriptionSchedulerMode: loader.subscription_scheduler_mode ?? "global",
        subscriptionSynchronizationTimestamp: loader.subscription_synchronization_timestamp ?? "orig_message_ts",
        subscriptionDelaySeconds: loader.subscription_delay_seconds ?? 60,
      }
    : undefined;
  const allocationPolicies: AllocationPolicyDefinition[] = (raw.allocation_policies ?? []).map((p) => ({
    name: p.name,
    args: { ...(p.args ?? {}) },
  }));
  const view: ViewDefinition | undefined = raw.view
    ? { sources: raw.view.sources.map((s) => ({ storage: s.storage, columns: { ...(s.columns ?? {}) } })) }
    : undefined;
  return {
    name: raw.name,
    writable: raw.kind === "writable_storage",
    table: raw.table,
    distTable: raw.dist_table ?? null,
    columns,
    engine: raw.engine,
    // A view has no sorting key; '' keeps the field a string for the type contract.
    orderBy: raw.order_by ?? "",
    partitionBy: raw.partition_by ?? null,
    primaryKey: raw.primary_key ?? null,
    sampleBy: raw.sample_by ?? null,
    notDeletedColumn: raw.not_deleted_column ?? null,
    requiredTimeColumn: raw.required_time_column ?? null,
    querySettings: { ...(raw.query_settings ?? {}) },
    allocationPolicies,
    ...(raw.final ? { final: true } : {}),
    ...(view ? { view } : {}),
    ttl: raw.ttl ?? null,
    tableSettings: { ...(raw.settings ?? {}) },
    materializedViews: (raw.materialized_views ?? []).map((mv) => ({
      name: mv.name,
      target: mv.target,
      select: mv.select,
      where: mv.where ?? null,
      groupBy: mv.group_by ?? null,
    })),
    ...(streamLoader ? { streamLoader } : {}),
  };
}

/** Reads every definition under `dir`; throws DefinitionError for the first bad file. */
export function loadDefinitions(dir: string): LoadedDefinitions {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new DefinitionError(dir, "the configuration directory does not exist");
  }
  const datasets: Loaded<DatasetDefinition>[] = [];
  const entities: Loaded<EntityDefinition>[] = [];
  const storages: Loaded<StorageDefinition>[] = [];
  const folders = readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
  for (const folder of folders) {
    const base = join(dir, folder);
    for (const file of yamlFiles(base)) {
      if (basename(file) !== "dataset.yaml" && basename(file) !== "dataset.yml") {
        throw new DefinitionError(file, "only dataset.yaml belongs at the top of a dataset folder; entities and storages go in entities/ and storages/");
      }
      datasets.push({ file, definition: toDataset(readDocument(file, "dataset") as RawDataset) });
    }
    for (const file of yamlFiles(join(base, "entities"))) {
      entities.push({ file, definition: toEntity(file, readDocument(file, "entity") as RawEntity) });
    }
    for (const file of yamlFiles(join(base, "storages"))) {
      storages.push({ file, definition: toStorage(file, readDocument(file, "storage") as RawStorage) });
    }
  }
  return { datasets, entities, storages };
}
