/**
 * The storage file (`<dataset>/storages/<storage>.yaml`): one physical ClickHouse table (or a
 * view over other storages) with what it takes to create it and to read it.
 */
import type { SchemaObject } from "ajv";
import { ALLOCATION_POLICIES_SCHEMA } from "./policy-args-schema.js";
import { COLUMN_NAME, COLUMNS, DEFINITION_NAME, VERSION } from "./common-schema.js";

const SQL_TEXT: SchemaObject = { type: "string", minLength: 1 };

const VIEW: SchemaObject = {
  type: "object",
  required: ["sources"],
  additionalProperties: false,
  properties: {
    sources: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["storage"],
        additionalProperties: false,
        properties: {
          storage: DEFINITION_NAME,
          columns: { type: "object", propertyNames: COLUMN_NAME, additionalProperties: SQL_TEXT },
        },
      },
    },
  },
};

/** A table setting's name (`non_replicated_deduplication_window`). */
const SETTING_NAME: SchemaObject = { type: "string", pattern: "^[a-z_][a-z0-9_]*$" };

/**
 * A materialized view that fires on every insert into this storage's table and writes what its
 * SELECT makes of the inserted block into another storage's table.
 */
const MATERIALIZED_VIEW: SchemaObject = {
  type: "object",
  required: ["name", "target", "select"],
  additionalProperties: false,
  properties: {
    name: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    target: DEFINITION_NAME,
    select: SQL_TEXT,
    where: SQL_TEXT,
    group_by: SQL_TEXT,
  },
};

const TOPIC_NAME: SchemaObject = { type: "string", pattern: "^[A-Za-z0-9._-]{1,249}$" };

/**
 * How Kafka messages reach this storage (Snuba's `stream_loader`): the processor that turns a
 * message of `default_topic` into rows, and the topics around the consumer. The subscription
 * fields say how schedulers derive their clock from `commit_log_topic`.
 */
const STREAM_LOADER: SchemaObject = {
  type: "object",
  required: ["processor", "default_topic", "commit_log_topic", "dlq_topic", "consumer_group"],
  additionalProperties: false,
  properties: {
    processor: { type: "string", pattern: "^[A-Za-z][A-Za-z0-9]*$" },
    default_topic: TOPIC_NAME,
    commit_log_topic: TOPIC_NAME,
    dlq_topic: TOPIC_NAME,
    replacement_topic: TOPIC_NAME,
    // The group whose commits the commit log's keys name (`<topic>:<partition>:<group>`).
    consumer_group: { type: "string", pattern: "^[A-Za-z0-9._-]{1,200}$" },
    subscription_scheduler_mode: { enum: ["partition", "global"] },
    subscription_synchronization_timestamp: { enum: ["orig_message_ts", "received_p99"] },
    subscription_delay_seconds: { type: "integer", minimum: 0, maximum: 3600 },
  },
};

export const STORAGE_SCHEMA: SchemaObject = {
  $id: "quarry/storage.v1",
  type: "object",
  required: ["version", "kind", "name", "table", "columns", "engine"],
  additionalProperties: false,
  properties: {
    version: VERSION,
    // Writable storages are the ones ingestion (and so subscriptions) may target.
    kind: { enum: ["readable_storage", "writable_storage"] },
    name: DEFINITION_NAME,
    table: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    dist_table: { anyOf: [{ type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }, { type: "null" }] },
    columns: COLUMNS,
    engine: { type: "string", pattern: "^[A-Za-z]+(\\(.*\\))?$" },
    order_by: SQL_TEXT,
    partition_by: { anyOf: [SQL_TEXT, { type: "null" }] },
    primary_key: { anyOf: [SQL_TEXT, { type: "null" }] },
    sample_by: { anyOf: [SQL_TEXT, { type: "null" }] },
    not_deleted_column: { anyOf: [COLUMN_NAME, { type: "null" }] },
    required_time_column: { anyOf: [COLUMN_NAME, { type: "null" }] },
    final: { type: "boolean" },
    query_settings: {
      type: "object",
      propertyNames: SETTING_NAME,
      additionalProperties: { type: ["string", "number"] },
    },
    // The table's TTL expression (`timestamp + toIntervalDay(7)`).
    ttl: SQL_TEXT,
    // MergeTree settings of the table, applied with ALTER TABLE ... MODIFY SETTING.
    settings: {
      type: "object",
      propertyNames: SETTING_NAME,
      additionalProperties: { type: ["string", "number"] },
    },
    materialized_views: { type: "array", items: MATERIALIZED_VIEW },
    stream_loader: STREAM_LOADER,
    allocation_policies: ALLOCATION_POLICIES_SCHEMA,
    view: VIEW,
  },
  // A view is defined by its sources; a table needs a sorting key to be created.
  if: { properties: { engine: { const: "View" } }, required: ["engine"] },
  then: { required: ["view"] },
  else: { required: ["order_by"] },
};
