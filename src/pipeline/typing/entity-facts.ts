/**
 * What the typing pass asks of an entity, gathered once per definition so that a query looks
 * each entity up once: each column's type as a column (Nested sub-columns are arrays, a mapped
 * column its target's or its literal's type), each subscriptable's value type, the columns the
 * storage computes as NULL or with an aggregate, and the types of its aggregate-state columns.
 */
import type { EntityDefinition } from "../../datasets/definition-types.js";
import { formatClickHouseType, parseClickHouseType } from "../../datasets/clickhouse-type.js";
import { memoizePerDefinition } from "../../query/memoize-per-definition.js";
import { classOfTypeName, nullableClassOfTypeName, type ArgumentClass } from "../argument-classes.js";
import { integerShapeOfTypeName } from "../integer-types.js";
import { nullColumns } from "../null-columns.js";
import { aggregateColumns } from "../aggregate-columns.js";
import { literalClass, typed, integerTyped, NESTED_VARIANT, variantTyped, variantColumn, type Typed } from "./typed-values.js";

/** The names of an entity's columns as the storage holds them: its columns, and each Nested column's sub-columns (`tags.key`). */
export const storedColumnNames = memoizePerDefinition((entity: EntityDefinition): ReadonlySet<string> => {
  const names = new Set<string>();
  for (const column of entity.columns) {
    names.add(column.name);
    const type = parseClickHouseType(column.type);
    if (type.kind === "nested") for (const field of type.fields) names.add(`${column.name}.${field.name}`);
  }
  return names;
});

/** Column name -> its type as a column, from the entity's column types (Nested sub-columns are arrays). */
const columnTypes = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, Typed> => {
  const classes = new Map<string, Typed>();
  for (const column of entity.columns) {
    const type = parseClickHouseType(column.type);
    if (type.kind === "nested") {
      // Read whole (`tags`), an array of tuples.
      classes.set(column.name, variantTyped(NESTED_VARIANT, false));
      for (const field of type.fields) {
        const typeName = `Array(${formatClickHouseType(field.type)})`;
        const cls = classOfTypeName(typeName);
        const variant = cls ? undefined : variantColumn(typeName);
        if (cls) classes.set(`${column.name}.${field.name}`, classTyped(cls, typeName, false));
        else if (variant) classes.set(`${column.name}.${field.name}`, variant);
      }
      continue;
    }
    const cls = classOfTypeName(column.type);
    const variant = cls ? undefined : variantColumn(formatClickHouseType(type));
    if (cls) classes.set(column.name, classTyped(cls, column.type, false));
    else if (variant) classes.set(column.name, variant);
    const wrapped = nullableClassOfTypeName(column.type);
    if (wrapped) classes.set(column.name, classTyped(wrapped, column.type, false, true));
  }
  // A column mapped to an expression has its declared type: a test holds every declared type
  // to the engine's type of what the storage computes (test/pipeline/column-types.test.ts). One
  // mapped to another of the entity's columns has that column's type (`spans.exclusive_time` is
  // read from `spans.exclusive_time_32`, an Array(Float32)). A literal is the literal's type, a
  // constant.
  for (const [name, mapper] of Object.entries(entity.columnMappers)) {
    if (mapper.kind === "column") {
      const target = classes.get(mapper.column);
      if (target) classes.set(name, target);
      continue;
    }
    if (mapper.kind !== "literal") continue;
    const cls = literalClass(mapper.value);
    if (cls) classes.set(name, typed(cls, true));
    else classes.delete(name);
  }
  return classes;
});

/** Subscriptable name -> the type of one of its values (`tags[k]` is a String, `measurements[k]` a Nullable(Float64)). */
const subscriptTypes = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, Typed> => {
  const types = new Map<string, Typed>();
  for (const [name, definition] of Object.entries(entity.subscriptables)) {
    if (definition.valueType === undefined) continue;
    const cls = classOfTypeName(definition.valueType);
    const wrapped = cls ? null : nullableClassOfTypeName(definition.valueType);
    if (cls || wrapped) types.set(name, classTyped((cls ?? wrapped)!, definition.valueType, false, wrapped !== null));
  }
  return types;
});

/** A value of a type name's class: of the integer class, with its exact type (`Int32`). */
function classTyped(cls: ArgumentClass, typeName: string, constant: boolean | null, nullable = false): Typed {
  if (cls === "arrayNumber") {
    const element = /^Array\((.*)\)$/.exec(typeName.trim())?.[1];
    const elementInteger = element === undefined ? null : integerShapeOfTypeName(element);
    return elementInteger !== null ? { ...typed(cls, constant, nullable), elementInteger } : typed(cls, constant, nullable);
  }
  if (cls === "aggregateState") return { ...typed(cls, constant, nullable), state: typeName.replace(/\s+/g, "") };
  const integer = cls === "int64" ? integerShapeOfTypeName(typeName) : null;
  return integer !== null ? integerTyped(integer, constant, nullable) : typed(cls, constant, nullable);
}

/** What the walk asks of an entity, gathered once per definition (one lookup per query and entity). */
export interface EntityFacts {
  /** Column name -> its type as a column (absent: no class). */
  readonly columns: ReadonlyMap<string, Typed>;
  /** Subscriptable name -> the type of one value (absent: no class). */
  readonly subscripts: ReadonlyMap<string, Typed>;
  readonly functionMappers: EntityDefinition["functionMappers"];
  /** Columns the storage computes as a bare NULL (type Nullable(Nothing)). */
  readonly nullColumns: ReadonlySet<string>;
  /** Columns the storage computes with an aggregate (`sessions` is `sumMerge(sessions_state)`): never in WHERE. */
  readonly aggregateColumns: ReadonlyMap<string, string>;
}

export const entityFacts = memoizePerDefinition(
  (entity: EntityDefinition): EntityFacts => ({
    columns: columnTypes(entity),
    subscripts: subscriptTypes(entity),
    functionMappers: entity.functionMappers,
    nullColumns: nullColumns(entity),
    aggregateColumns: aggregateColumns(entity),
  }),
);

/** Nested subscriptables with string values and string keys (`tags`, `contexts`; not `measurements`, not metrics tags). */
export const stringSubscriptables = memoizePerDefinition((entity: EntityDefinition): ReadonlySet<string> => {
  const names = new Set<string>();
  for (const [name, type] of subscriptTypes(entity)) {
    const definition = entity.subscriptables[name]!;
    if (definition.kind === "nested" && !definition.integerKeys && type.cls === "string") names.add(name);
  }
  return names;
});

/** Column name -> its type, for the columns of aggregate states an entity stores (`AggregateFunction(sum, Float64)`). */
export const stateColumnTypes = memoizePerDefinition(
  (entity: EntityDefinition): ReadonlyMap<string, string> => new Map(entity.columns.filter((column) => column.type.startsWith("AggregateFunction(")).map((column) => [column.name, column.type])),
);
