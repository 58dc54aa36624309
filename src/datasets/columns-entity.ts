/**
 * An entity that is only columns: no mappers, joins, subscriptions or granularities. What the
 * query side reads a storage as (`MATCH STORAGE(name)`) and what an MQL formula's timeseries
 * values are typed as; the fields it leaves empty mean "none" everywhere they are read.
 */
import type { ColumnDefinition, EntityDefinition } from "./definition-types.js";

export function columnsEntity(name: string, columns: readonly ColumnDefinition[], extra: Partial<EntityDefinition> = {}): EntityDefinition {
  return {
    name,
    columns,
    requiredTimeColumn: null,
    requiredColumns: [],
    readableStorage: name,
    writableStorage: null,
    columnMappers: {},
    subscriptables: {},
    customFunctions: [],
    timeBucketColumns: {},
    joinRelationships: {},
    subscriptions: null,
    columnValidation: "error",
    granularities: [],
    ...extra,
  };
}
