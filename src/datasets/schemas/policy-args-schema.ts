/**
 * The JSON schema of each policy's `args` in a storage YAML. The storage schema embeds it, so a
 * bad policy config is refused at load with the file and the field (`allocation_policies[1].args.
 * concurrent_limit must be >= 1`); runtime overrides (tests, benches) are checked with it too.
 */
import type { SchemaObject } from "ajv";

/** Far beyond any real deployment; larger values are typos. */
const MAX_COUNT = 1_000_000_000;
const MAX_BYTES = 1e18;

const COUNT: SchemaObject = { type: "integer", minimum: 1, maximum: MAX_COUNT };

const OVERRIDES = (limit: SchemaObject): SchemaObject => ({
  type: "array",
  items: {
    type: "object",
    required: ["limit"],
    additionalProperties: false,
    minProperties: 2,
    properties: {
      organization_id: { type: "integer", minimum: 0 },
      project_id: { type: "integer", minimum: 0 },
      referrer: { type: "string", minLength: 1 },
      limit,
    },
  },
});

const BASE_ARGS = {
  is_active: { type: "boolean" },
  is_enforced: { type: "boolean" },
  max_threads: { type: "integer", minimum: 1, maximum: 256 },
} as const;

function argsSchema(properties: Record<string, SchemaObject>): SchemaObject {
  return { type: "object", additionalProperties: false, properties: { ...BASE_ARGS, ...properties } };
}

export const POLICY_ARGS_SCHEMAS: Readonly<Record<string, SchemaObject>> = {
  ConcurrentRateLimitAllocationPolicy: argsSchema({ concurrent_limit: COUNT, overrides: OVERRIDES(COUNT) }),
  PerSecondRateLimitAllocationPolicy: argsSchema({ per_second_limit: COUNT, overrides: OVERRIDES(COUNT) }),
  BytesScannedWindowAllocationPolicy: argsSchema({
    org_limit_bytes_scanned: { type: "number", minimum: 1, maximum: MAX_BYTES },
    throttle_bytes_scanned: { type: "number", minimum: 1, maximum: MAX_BYTES },
    throttled_thread_number: { type: "integer", minimum: 1, maximum: 256 },
    window_seconds: { type: "integer", minimum: 1, maximum: 86_400 },
    overrides: OVERRIDES({ type: "number", minimum: 1, maximum: MAX_BYTES }),
  }),
  PassthroughPolicy: argsSchema({}),
};

export type PolicyName = keyof typeof POLICY_ARGS_SCHEMAS;

/** `allocation_policies` of a storage: a list of `{name, args}` with `name` picking the schema. */
export const ALLOCATION_POLICIES_SCHEMA: SchemaObject = {
  type: "array",
  items: {
    type: "object",
    required: ["name"],
    discriminator: { propertyName: "name" },
    oneOf: Object.entries(POLICY_ARGS_SCHEMAS).map(([name, args]) => ({
      type: "object",
      additionalProperties: false,
      properties: { name: { const: name }, args },
    })),
  },
};
