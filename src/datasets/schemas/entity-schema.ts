/**
 * The entity file (`<dataset>/entities/<entity>.yaml`): the columns a query may name and how
 * each maps onto its storage. Field names are snake_case, as in the YAML; the loader turns them
 * into EntityDefinition (definition-types.ts).
 */
import type { SchemaObject } from "ajv";
import { COLUMN_NAME, COLUMNS, DEFINITION_NAME, VERSION } from "./common-schema.js";

const COLUMN_MAPPER: SchemaObject = {
  type: "object",
  required: ["kind"],
  properties: { kind: { type: "string" } },
  discriminator: { propertyName: "kind" },
  oneOf: [
    {
      properties: { kind: { const: "column" }, column: COLUMN_NAME },
      required: ["column"],
      additionalProperties: false,
    },
    {
      properties: { kind: { const: "expression" }, sql: { type: "string", minLength: 1 } },
      required: ["sql"],
      additionalProperties: false,
    },
    {
      properties: { kind: { const: "subscript" }, subscriptable: COLUMN_NAME, key: { type: "string", minLength: 1 } },
      required: ["subscriptable", "key"],
      additionalProperties: false,
    },
    {
      properties: { kind: { const: "literal" }, value: { type: ["string", "number", "boolean", "null"] } },
      required: ["value"],
      additionalProperties: false,
    },
  ],
};

const SUBSCRIPTABLE: SchemaObject = {
  type: "object",
  required: ["kind"],
  properties: { kind: { type: "string" } },
  discriminator: { propertyName: "kind" },
  oneOf: [
    {
      properties: {
        kind: { const: "nested" },
        key_column: COLUMN_NAME,
        value_column: COLUMN_NAME,
        nullable: { type: "boolean" },
        integer_keys: { type: "boolean" },
      },
      required: ["key_column", "value_column", "nullable"],
      additionalProperties: false,
    },
    {
      properties: {
        kind: { const: "map" },
        column: COLUMN_NAME,
        buckets: { type: "integer", minimum: 1 },
      },
      required: ["column"],
      additionalProperties: false,
    },
  ],
};

const JOIN_RELATIONSHIP: SchemaObject = {
  type: "object",
  required: ["rhs_entity", "join_type", "columns"],
  additionalProperties: false,
  properties: {
    rhs_entity: DEFINITION_NAME,
    join_type: { enum: ["inner", "left"] },
    columns: {
      type: "array",
      minItems: 1,
      items: { type: "array", items: COLUMN_NAME, minItems: 2, maxItems: 2 },
    },
  },
};

const SUBSCRIPTIONS: SchemaObject = {
  type: "object",
  required: ["max_aggregations", "allow_group_by", "allow_having_and_order_by", "result_topic", "partitions", "delay_seconds"],
  additionalProperties: false,
  properties: {
    max_aggregations: { type: "integer", minimum: 1 },
    // Kafka topic the results go to (Snuba's per-storage result topic); QUARRY_SUBSCRIPTION_TOPICS overrides it.
    result_topic: { type: "string", pattern: "^[A-Za-z0-9._-]{1,249}$" },
    // Subscriptions are spread over this many partitions (crc32 of the project id), the unit a
    // scheduler node owns and checkpoints.
    partitions: { type: "integer", minimum: 1, maximum: 1024 },
    // Seconds a window waits after its end before it runs, so late data lands first.
    delay_seconds: { type: "integer", minimum: 0, maximum: 3600 },
    allow_group_by: { type: "boolean" },
    allow_having_and_order_by: { type: "boolean" },
    group_by_requires_condition: { type: "boolean" },
    organization_column: COLUMN_NAME,
  },
};

const FUNCTION_MAPPER: SchemaObject = {
  type: "object",
  required: ["from", "argument", "to", "column"],
  additionalProperties: false,
  properties: {
    from: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    argument: COLUMN_NAME,
    to: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    column: COLUMN_NAME,
    curried: { type: "boolean" },
  },
};

export const ENTITY_SCHEMA: SchemaObject = {
  $id: "quarry/entity.v1",
  type: "object",
  required: ["version", "kind", "name", "columns", "storages", "required_time_column"],
  additionalProperties: false,
  properties: {
    version: VERSION,
    kind: { const: "entity" },
    name: DEFINITION_NAME,
    columns: COLUMNS,
    storages: {
      type: "object",
      required: ["readable"],
      additionalProperties: false,
      properties: {
        readable: DEFINITION_NAME,
        writable: { anyOf: [DEFINITION_NAME, { type: "null" }] },
      },
    },
    required_time_column: { anyOf: [COLUMN_NAME, { type: "null" }] },
    required_columns: { type: "array", items: COLUMN_NAME, uniqueItems: true },
    validate_data_model: { enum: ["error", "warn", "do_nothing"] },
    column_mappers: { type: "object", propertyNames: COLUMN_NAME, additionalProperties: COLUMN_MAPPER },
    subscriptables: { type: "object", propertyNames: COLUMN_NAME, additionalProperties: SUBSCRIPTABLE },
    time_bucket_columns: { type: "object", propertyNames: COLUMN_NAME, additionalProperties: COLUMN_NAME },
    join_relationships: {
      type: "object",
      propertyNames: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
      additionalProperties: JOIN_RELATIONSHIP,
    },
    subscriptions: { anyOf: [SUBSCRIPTIONS, { type: "null" }] },
    granularities: { type: "array", items: { type: "integer", minimum: 1 }, uniqueItems: true },
    stored_granularities: { type: "array", items: { type: "integer", minimum: 0 } },
    default_granularity: { type: "integer", minimum: 1 },
    function_mappers: { type: "array", items: FUNCTION_MAPPER },
    custom_functions: {
      type: "array",
      items: {
        oneOf: [
          { type: "object", required: ["name"], additionalProperties: false, properties: { name: { enum: ["apdex", "handled_assumed"] } } },
          {
            type: "object",
            required: ["name", "column"],
            additionalProperties: false,
            properties: { name: { enum: ["failure_rate", "handled"] }, column: COLUMN_NAME },
          },
        ],
      },
    },
  },
};
