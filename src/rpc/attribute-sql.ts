/**
 * A typed attribute of a trace item (AttributeKey) as SQL on the eap_items storage (facts B9.1).
 *
 * - `sentry.organization_id`, `sentry.project_id`, `sentry.timestamp`, ... are real columns,
 *   cast to the type asked for; each allows only some types (Snuba's list).
 * - Any other name lives in a map: strings in `attributes_string_{b}`, doubles and ints in
 *   `attributes_float_{b}` (b = fnv1a_32(name) % 40), booleans in `attributes_bool`.
 * The name only ever reaches SQL as a quoted string literal (a map key), never as an identifier.
 */
import { fnv1a32 } from "../clickhouse/fnv1a.js";
import { quoteString } from "../clickhouse/escaping.js";
import { type AttributeKey, AttributeKey_Type, AttributeKey_TypeSchema } from "../../gen/sentry_protos/snuba/v1/trace_item_attribute_pb.js";
import { badRpcRequest, enumName } from "./rpc-request-error.js";

const ATTRIBUTE_BUCKETS = 40;

/** The scalar kinds a value can have once read (FLOAT is the deprecated spelling of DOUBLE). */
export type ScalarKind = "string" | "double" | "int" | "bool";

export interface AttributeSql {
  /** The value; an absent map attribute reads as the type's default ('' / 0 / false). */
  readonly value: string;
  /** True when the item has the attribute (`1` for a real column). */
  readonly exists: string;
  /** The value, NULL when the attribute is absent: what SELECT and GROUP BY read. */
  readonly nullable: string;
  readonly kind: ScalarKind;
}

const CLICKHOUSE_TYPE: Record<ScalarKind, string> = { string: "String", double: "Float64", int: "Int64", bool: "Bool" };

/** Real columns behind `sentry.*` names, and the key types Snuba allows for each. */
const NORMALIZED_COLUMNS: ReadonlyMap<string, { column: string; types: readonly AttributeKey_Type[] }> = new Map([
  ["sentry.organization_id", { column: "organization_id", types: [AttributeKey_Type.INT] }],
  ["sentry.project_id", { column: "project_id", types: [AttributeKey_Type.INT] }],
  ["sentry.timestamp", { column: "timestamp", types: [AttributeKey_Type.FLOAT, AttributeKey_Type.DOUBLE, AttributeKey_Type.INT, AttributeKey_Type.STRING] }],
  ["sentry.trace_id", { column: "trace_id", types: [AttributeKey_Type.STRING] }],
  ["sentry.item_id", { column: "item_id", types: [AttributeKey_Type.STRING] }],
  ["sentry.sampling_weight", { column: "sampling_weight", types: [AttributeKey_Type.DOUBLE] }],
  ["sentry.sampling_factor", { column: "sampling_factor", types: [AttributeKey_Type.DOUBLE] }],
  ["sentry.session_id", { column: "session_id", types: [AttributeKey_Type.STRING] }],
  ["gen_ai.conversation.id", { column: "ai_conversation_id", types: [AttributeKey_Type.STRING] }],
]);

function scalarKind(type: AttributeKey_Type, name: string): ScalarKind {
  switch (type) {
    case AttributeKey_Type.STRING:
      return "string";
    case AttributeKey_Type.FLOAT:
    case AttributeKey_Type.DOUBLE:
      return "double";
    case AttributeKey_Type.INT:
      return "int";
    case AttributeKey_Type.BOOLEAN:
      return "bool";
    case AttributeKey_Type.UNSPECIFIED:
      throw badRpcRequest(`attribute key ${name} must have a type specified`);
    default:
      // The storage has array maps, but the time series reads scalars: an array is no data point.
      throw badRpcRequest(`attribute ${name} of type ${enumName(AttributeKey_TypeSchema, type)} is not supported by the time-series endpoint: use a scalar type`);
  }
}

export function attributeSql(key: AttributeKey | undefined): AttributeSql {
  if (!key) throw badRpcRequest("an attribute key is missing");
  const kind = scalarKind(key.type, key.name);
  const normalized = NORMALIZED_COLUMNS.get(key.name);
  if (normalized) {
    if (!normalized.types.includes(key.type)) {
      const allowed = normalized.types.map((t) => enumName(AttributeKey_TypeSchema, t)).join(", ");
      throw badRpcRequest(`Attribute ${key.name} must be one of [${allowed}], got ${enumName(AttributeKey_TypeSchema, key.type)}`);
    }
    // A DateTime read as a number is its Unix time.
    const source = normalized.column === "timestamp" && kind !== "string" ? "toUnixTimestamp(timestamp)" : normalized.column;
    const value = `CAST(${source}, '${CLICKHOUSE_TYPE[kind]}')`;
    return { value, exists: "1", nullable: value, kind };
  }
  const name = quoteString(key.name);
  const bucket = fnv1a32(key.name) % ATTRIBUTE_BUCKETS;
  const map = kind === "string" ? `attributes_string_${bucket}` : kind === "bool" ? "attributes_bool" : `attributes_float_${bucket}`;
  const read = `${map}[${name}]`;
  // Integers are stored in the float maps (facts B9.1).
  const value = kind === "int" ? `CAST(${read}, 'Int64')` : read;
  const exists = `mapContains(${map}, ${name})`;
  return { value, exists, nullable: `if(${exists}, ${value}, NULL)`, kind };
}
