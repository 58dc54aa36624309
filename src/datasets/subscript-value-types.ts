/**
 * The ClickHouse type of one value of each subscriptable (`tags[k]`, `attributes_float[k]`), read
 * from the storage the entity reads: what the SQL Quarry prints for a subscript evaluates to. The
 * tag validation (a tag compared with a non-string) reads it; the registry sets it on
 * every entity once the references are checked, so a definition never states it by hand.
 */
import { formatClickHouseType, parseClickHouseType, type ClickHouseType } from "./clickhouse-type.js";
import type { EntityDefinition, StorageDefinition, SubscriptableDefinition } from "./definition-types.js";

/** A storage column's type by name; a Nested sub-column (`tags.value`) is an array of its field. */
function storageColumnType(storage: StorageDefinition, name: string): ClickHouseType | null {
  const column = storage.columns.find((c) => c.name === name);
  if (column) return parseClickHouseType(column.type);
  const dot = name.indexOf(".");
  if (dot < 0) return null;
  const parent = storage.columns.find((c) => c.name === name.slice(0, dot));
  const type = parent ? parseClickHouseType(parent.type) : null;
  const field = type?.kind === "nested" ? type.fields.find((f) => f.name === name.slice(dot + 1)) : undefined;
  return field ? { kind: "array", inner: field.type } : null;
}

/** `T` as `Nullable(T)` (inside LowCardinality, where ClickHouse puts it); already nullable stays. */
function orNull(type: ClickHouseType): ClickHouseType {
  if (type.kind === "nullable") return type;
  if (type.kind === "low_cardinality") return { kind: "low_cardinality", inner: orNull(type.inner) };
  return { kind: "nullable", inner: type };
}

function valueType(definition: SubscriptableDefinition, storage: StorageDefinition): string | undefined {
  if (definition.kind === "map") {
    const map = storageColumnType(storage, definition.buckets ? `${definition.column}_0` : definition.column);
    // A missing key reads as the value type's default: the value type itself.
    return map?.kind === "map" ? formatClickHouseType(map.value) : undefined;
  }
  const values = storageColumnType(storage, definition.valueColumn);
  if (values?.kind !== "array") return undefined;
  return formatClickHouseType(definition.nullable ? orNull(values.inner) : values.inner);
}

/** The entity with each subscriptable's `valueType` set from its readable storage. */
export function withSubscriptValueTypes(entity: EntityDefinition, storage: StorageDefinition): EntityDefinition {
  const subscriptables: Record<string, SubscriptableDefinition> = {};
  for (const [name, definition] of Object.entries(entity.subscriptables)) {
    const type = valueType(definition, storage);
    subscriptables[name] = type === undefined ? definition : { ...definition, valueType: type };
  }
  return { ...entity, subscriptables };
}
