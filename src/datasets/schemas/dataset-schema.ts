/**
 * The dataset file (`<dataset>/dataset.yaml`), spec §2.7: version, kind, name, entities; nothing else.
 */
import type { SchemaObject } from "ajv";
import { DEFINITION_NAME, VERSION } from "./common-schema.js";

export const DATASET_SCHEMA: SchemaObject = {
  $id: "quarry/dataset.v1",
  type: "object",
  required: ["version", "kind", "name"],
  additionalProperties: false,
  properties: {
    version: VERSION,
    kind: { const: "dataset" },
    name: DEFINITION_NAME,
    entities: { type: "array", items: DEFINITION_NAME, uniqueItems: true },
  },
};
