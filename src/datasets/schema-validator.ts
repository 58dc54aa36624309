/**
 * Validates a parsed YAML document against the v1 JSON schema for its kind and turns ajv's
 * errors into sentences that name the property (spec §2.7: "'version' is a required property",
 * "'kind' must be equal to constant 'dataset'", "unknown property 'foo' is not allowed").
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { DATASET_SCHEMA } from "./schemas/dataset-schema.js";
import { ENTITY_SCHEMA } from "./schemas/entity-schema.js";
import { STORAGE_SCHEMA } from "./schemas/storage-schema.js";

export type DefinitionKind = "dataset" | "entity" | "storage";

// strictRequired is off: `required` inside if/then and discriminator branches names properties
// declared on the enclosing schema, which that check cannot see.
const ajv = new Ajv({ allErrors: true, discriminator: true, strict: true, strictTypes: false, strictRequired: false });

// Compiled once per process: the loader may run for many temp directories in tests.
const VALIDATORS: Readonly<Record<DefinitionKind, ValidateFunction>> = {
  dataset: ajv.compile(DATASET_SCHEMA),
  entity: ajv.compile(ENTITY_SCHEMA),
  storage: ajv.compile(STORAGE_SCHEMA),
};

/** `/columns/3/name` -> `columns[3].name`; the document root is ``. */
function propertyPath(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}

function at(instancePath: string): string {
  const path = propertyPath(instancePath);
  return path ? ` in '${path}'` : "";
}

function describe(error: ErrorObject): string | null {
  const path = propertyPath(error.instancePath);
  const subject = path ? `'${path}'` : "the document";
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `'${String(params.missingProperty)}' is a required property${at(error.instancePath)}`;
    case "additionalProperties":
      return `unknown property '${String(params.additionalProperty)}' is not allowed${at(error.instancePath)}`;
    case "const":
      return `${subject} must be equal to constant '${String(params.allowedValue)}'`;
    case "enum":
      return `${subject} must be equal to one of the allowed values: ${(params.allowedValues as unknown[]).map(String).join(", ")}`;
    case "type":
      return `${subject} must be ${String(params.type).replace(/,/g, " or ")}`;
    case "pattern":
      return `${subject} must match pattern ${String(params.pattern)}`;
    case "propertyNames":
      return `${subject} has an invalid property name '${String(params.propertyName)}'`;
    case "discriminator":
      return params.error === "mapping"
        ? `'${path ? `${path}.` : ""}${String(params.tag)}' has an unknown value '${String(params.tagValue)}'`
        : `'${path ? `${path}.` : ""}${String(params.tag)}' must be a string`;
    // These only summarise the branch errors reported beside them.
    case "if":
    case "oneOf":
    case "anyOf":
      return null;
    default:
      return `${subject} ${error.message ?? "is invalid"}`;
  }
}

/** The problems of a document, one sentence each; empty when it is valid. */
export function validateDefinition(kind: DefinitionKind, document: unknown): string[] {
  const validate = VALIDATORS[kind];
  if (validate(document)) return [];
  const errors = validate.errors ?? [];
  const sentences = errors.map(describe).filter((s): s is string => s !== null);
  // anyOf over "a name or null" reports each branch; when only summaries remain, say so plainly.
  if (sentences.length === 0) {
    const first = errors[0];
    sentences.push(`${first ? `'${propertyPath(first.instancePath)}'` : "the document"} is invalid`);
  }
  return [...new Set(sentences)];
}
