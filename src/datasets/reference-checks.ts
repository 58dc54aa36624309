/**
 * Checks that the definitions read by the loader agree with each other: every name a file
 * refers to (an entity in a dataset, a storage of an entity, a join target, a storage column
 * behind a mapper, the sources of a view) exists. Done at load time so a broken reference
 * stops startup with the file named, instead of failing the first query that touches it.
 */
import { isNullableType, parseClickHouseType } from "./clickhouse-type.js";
import { DefinitionError } from "./definition-error.js";
import type { ColumnDefinition, EntityDefinition, StorageDefinition } from "./definition-types.js";
import type { Loaded, LoadedDefinitions } from "./loader.js";

/** Column names a query can address: each column, plus `col.field` for Nested columns. */
function addressableNames(columns: readonly ColumnDefinition[]): Set<string> {
  const names = new Set<string>();
  for (const column of columns) {
    names.add(column.name);
    const type = parseClickHouseType(column.type);
    if (type.kind === "nested") for (const field of type.fields) names.add(`${column.name}.${field.name}`);
  }
  return names;
}

function checkUnique<T extends { name: string }>(what: string, items: readonly Loaded<T>[], key: (t: T) => string = (t) => t.name): void {
  const seen = new Map<string, string>();
  for (const { definition, file } of items) {
    const value = key(definition);
    const earlier = seen.get(value);
    if (earlier !== undefined) throw new DefinitionError(file, `${what} '${value}' is already defined in ${earlier}`);
    seen.set(value, file);
  }
}

/** `(a, b)` -> `a,b`: enough to see whether a SAMPLE BY expression is part of a key. */
function squash(sql: string): string {
  return sql.replace(/\s+/g, "");
}

function checkStorage(loaded: Loaded<StorageDefinition>, storages: ReadonlyMap<string, StorageDefinition>): void {
  const { definition: storage, file } = loaded;
  const names = addressableNames(storage.columns);
  const where = `storage '${storage.name}'`;
  if (storage.notDeletedColumn && !names.has(storage.notDeletedColumn)) {
    throw new DefinitionError(file, `${where} names not_deleted_column '${storage.notDeletedColumn}' but has no such column`);
  }
  if (storage.requiredTimeColumn && !names.has(storage.requiredTimeColumn)) {
    throw new DefinitionError(file, `${where} names required_time_column '${storage.requiredTimeColumn}' but has no such column`);
  }
  // ClickHouse refuses a table whose SAMPLE BY is outside the primary key; say so before it does.
  if (storage.sampleBy) {
    const key = squash(storage.primaryKey ?? storage.orderBy);
    if (!key.includes(squash(storage.sampleBy))) {
      throw new DefinitionError(file, `${where} samples by '${storage.sampleBy}', which is not part of its primary key`);
    }
  }
  for (const column of storage.columns) {
    if (column.materialized !== undefined && !column.readonly) {
      throw new DefinitionError(file, `${where} column '${column.name}' is materialized, so it must be readonly`);
    }
    if (column.materialized !== undefined && column.default !== undefined) {
      throw new DefinitionError(file, `${where} column '${column.name}' is both materialized and defaulted; it can only be one`);
    }
  }
  for (const view of storage.materializedViews) {
    const target = storages.get(view.target);
    if (!target) throw new DefinitionError(file, `${where} materialized view '${view.name}' writes storage '${view.target}' but no storage definition exists`);
    if (target.view) throw new DefinitionError(file, `${where} materialized view '${view.name}' writes '${view.target}', which is a view and stores nothing`);
    if (target.name === storage.name) throw new DefinitionError(file, `${where} materialized view '${view.name}' writes its own storage`);
  }
  if (!storage.view) return;
  for (const source of storage.view.sources) {
    const sourceStorage = storages.get(source.storage);
    if (!sourceStorage) {
      throw new DefinitionError(file, `${where} is a view over storage '${source.storage}' but no storage definition exists`);
    }
    if (sourceStorage.view) {
      throw new DefinitionError(file, `${where} is a view over '${source.storage}', which is itself a view`);
    }
    const sourceNames = addressableNames(sourceStorage.columns);
    for (const column of Object.keys(source.columns)) {
      if (!names.has(column)) throw new DefinitionError(file, `${where} gives an expression for '${column}' from '${source.storage}' but the view has no such column`);
    }
    for (const column of storage.columns) {
      const type = parseClickHouseType(column.type);
      // What a source lacks reads as NULL, or [] for arrays and Nested parts (table-ddl.ts).
      const parts =
        type.kind === "nested"
          ? type.fields.map((f) => ({ name: `${column.name}.${f.name}`, defaulted: true }))
          : [{ name: column.name, defaulted: isNullableType(type) || type.kind === "array" }];
      for (const part of parts) {
        if (source.columns[part.name] !== undefined || sourceNames.has(part.name) || part.defaulted) continue;
        throw new DefinitionError(
          file,
          `${where} column '${part.name}' is not in storage '${source.storage}', has no expression for it and is neither Nullable nor an array`,
        );
      }
    }
  }
}

function checkEntity(
  loaded: Loaded<EntityDefinition>,
  entities: ReadonlyMap<string, EntityDefinition>,
  storages: ReadonlyMap<string, StorageDefinition>,
): void {
  const { definition: entity, file } = loaded;
  const where = `entity '${entity.name}'`;
  const storage = storages.get(entity.readableStorage);
  if (!storage) throw new DefinitionError(file, `${where} reads storage '${entity.readableStorage}' but no storage definition exists`);
  if (entity.writableStorage !== null) {
    const writable = storages.get(entity.writableStorage);
    if (!writable) throw new DefinitionError(file, `${where} writes storage '${entity.writableStorage}' but no storage definition exists`);
    if (!writable.writable) throw new DefinitionError(file, `${where} writes storage '${entity.writableStorage}', which is not a writable_storage`);
  }
  const storageNames = addressableNames(storage.columns);
  const entityNames = addressableNames(entity.columns);
  const needEntityColumn = (column: string, role: string): void => {
    if (!entityNames.has(column)) throw new DefinitionError(file, `${where} names ${role} '${column}' but has no such column`);
  };
  const needStorageColumn = (column: string, role: string): void => {
    if (!storageNames.has(column)) {
      throw new DefinitionError(file, `${where} maps ${role} to storage column '${column}' but storage '${storage.name}' has no such column`);
    }
  };

  if (entity.requiredTimeColumn !== null) needEntityColumn(entity.requiredTimeColumn, "required_time_column");
  for (const column of entity.requiredColumns) needEntityColumn(column, "required column");
  for (const [column, target] of Object.entries(entity.timeBucketColumns)) {
    needEntityColumn(column, "time bucket column");
    needEntityColumn(target, `the bucketed column of '${column}',`);
  }
  if (entity.subscriptions?.organizationColumn) needEntityColumn(entity.subscriptions.organizationColumn, "subscription organization column");
  for (const custom of entity.customFunctions) {
    if ("column" in custom) needEntityColumn(custom.column, `the column of custom function '${custom.name}',`);
  }

  for (const [column, mapper] of Object.entries(entity.columnMappers)) {
    needEntityColumn(column, "mapped column");
    if (mapper.kind === "column") needStorageColumn(mapper.column, `column '${column}'`);
    if (mapper.kind === "subscript" && !entity.subscriptables[mapper.subscriptable]) {
      throw new DefinitionError(file, `${where} maps column '${column}' to subscriptable '${mapper.subscriptable}' but declares no such subscriptable`);
    }
  }
  for (const [name, sub] of Object.entries(entity.subscriptables)) {
    if (sub.kind === "nested") {
      needStorageColumn(sub.keyColumn, `the keys of '${name}'`);
      needStorageColumn(sub.valueColumn, `the values of '${name}'`);
    } else if (sub.buckets === undefined) {
      needStorageColumn(sub.column, `'${name}'`);
    } else {
      for (let bucket = 0; bucket < sub.buckets; bucket += 1) needStorageColumn(`${sub.column}_${bucket}`, `bucket ${bucket} of '${name}'`);
    }
  }
  const functionArguments = new Set<string>();
  for (const mapper of entity.functionMappers ?? []) {
    needEntityColumn(mapper.argument, `the argument of function mapper '${mapper.from}',`);
    needStorageColumn(mapper.column, `function '${mapper.from}(${mapper.argument})'`);
    functionArguments.add(mapper.argument);
  }
  for (const [name, join] of Object.entries(entity.joinRelationships)) {
    const rhs = entities.get(join.rhsEntity);
    if (!rhs) throw new DefinitionError(file, `${where} join '${name}' targets entity '${join.rhsEntity}' but no entity definition exists`);
    const rhsNames = addressableNames(rhs.columns);
    for (const [lhsColumn, rhsColumn] of join.columns) {
      needEntityColumn(lhsColumn, `join '${name}' column`);
      if (!rhsNames.has(rhsColumn)) {
        throw new DefinitionError(file, `${where} join '${name}' names column '${rhsColumn}' which entity '${join.rhsEntity}' does not have`);
      }
    }
  }

  // Every column a query may name has to end up somewhere in the storage.
  const covered = (name: string): boolean =>
    storageNames.has(name) ||
    entity.columnMappers[name] !== undefined ||
    entity.timeBucketColumns[name] !== undefined ||
    entity.subscriptables[name] !== undefined ||
    functionArguments.has(name);
  for (const column of entity.columns) {
    if (!covered(column.name)) {
      throw new DefinitionError(file, `${where} column '${column.name}' is not a column of storage '${storage.name}' and has no mapper`);
    }
    const type = parseClickHouseType(column.type);
    if (type.kind !== "nested" || entity.columnMappers[column.name]?.kind === "column") continue;
    for (const field of type.fields) {
      const part = `${column.name}.${field.name}`;
      if (!covered(part)) throw new DefinitionError(file, `${where} column '${part}' is not a column of storage '${storage.name}' and has no mapper`);
    }
  }
}

/** Throws DefinitionError (naming the file at fault) for the first broken reference. */
export function checkReferences(loaded: LoadedDefinitions): void {
  checkUnique("dataset", loaded.datasets);
  checkUnique("entity", loaded.entities);
  checkUnique("storage", loaded.storages);
  checkUnique("table", loaded.storages, (s) => s.table);
  // A materialized view is a table of the database too: its name must not be taken twice.
  const views = loaded.storages.flatMap(({ definition, file }) => definition.materializedViews.map((view) => ({ definition: { name: view.name }, file })));
  checkUnique("materialized view", views);
  const tables = new Set(loaded.storages.map((s) => s.definition.table));
  for (const { definition: view, file } of views) {
    if (tables.has(view.name)) throw new DefinitionError(file, `materialized view '${view.name}' has the name of a storage table`);
  }

  const entities = new Map(loaded.entities.map((e) => [e.definition.name, e.definition]));
  const storages = new Map(loaded.storages.map((s) => [s.definition.name, s.definition]));

  for (const { definition: dataset, file } of loaded.datasets) {
    for (const entity of dataset.entities) {
      if (!entities.has(entity)) throw new DefinitionError(file, `dataset '${dataset.name}' lists entity '${entity}' but no entity definition exists`);
    }
  }
  for (const storage of loaded.storages) checkStorage(storage, storages);
  for (const entity of loaded.entities) checkEntity(entity, entities, storages);
}
