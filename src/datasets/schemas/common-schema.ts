/**
 * JSON-schema fragments shared by the dataset, entity and storage schemas (schema version v1).
 */
import type { SchemaObject } from "ajv";

/** Dataset, entity and storage names: lowercase with underscores (they route queries). */
export const DEFINITION_NAME: SchemaObject = { type: "string", pattern: "^[a-z][a-z0-9_]*$" };

/** Column names; a dot addresses a Nested subcolumn (`tags.key`). */
export const COLUMN_NAME: SchemaObject = { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?$" };

export const VERSION: SchemaObject = { const: "v1" };

const COLUMN: SchemaObject = {
  type: "object",
  required: ["name", "type"],
  additionalProperties: false,
  properties: {
    name: COLUMN_NAME,
    // A ClickHouse type string; its syntax is checked by the loader (clickhouse-type.ts).
    type: { type: "string", minLength: 1 },
    readonly: { type: "boolean" },
    materialized: { type: "string", minLength: 1 },
    // For storage columns: the value a writer that omits the column gets (`DEFAULT` in the DDL).
    default: { type: "string", minLength: 1 },
  },
};

export const COLUMNS: SchemaObject = { type: "array", items: COLUMN, minItems: 1 };
