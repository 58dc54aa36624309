/**
 * `MATCH STORAGE(name)` reads a storage with its own columns (Snuba's identity translation): the
 * storage is seen as an entity whose columns are the storage's, with no mappers, its Nested
 * key/value and Map columns subscriptable, and the storage's own required time column.
 */
import type { EntityDefinition, StorageDefinition, SubscriptableDefinition } from "../datasets/definition-types.js";
import { columnsEntity } from "../datasets/columns-entity.js";
import { memoizePerDefinition } from "../datasets/memoize-per-definition.js";

function subscriptablesOf(storage: StorageDefinition): Record<string, SubscriptableDefinition> {
  const subscriptables: Record<string, SubscriptableDefinition> = {};
  for (const column of storage.columns) {
    const nested = /^Nested\((.*)\)$/.exec(column.type);
    if (nested && /(^|,)\s*key\s/.test(nested[1]!) && /(^|,)\s*value\s/.test(nested[1]!)) {
      subscriptables[column.name] = { kind: "nested", keyColumn: `${column.name}.key`, valueColumn: `${column.name}.value`, nullable: false };
    } else if (/^Map\(/.test(column.type)) {
      subscriptables[column.name] = { kind: "map", column: column.name };
    }
  }
  return subscriptables;
}

export const storageAsEntity = memoizePerDefinition(
  (storage: StorageDefinition): EntityDefinition =>
    columnsEntity(storage.name, storage.columns, { requiredTimeColumn: storage.requiredTimeColumn, subscriptables: subscriptablesOf(storage) }),
);
