import { describe, expect, it } from "vitest";
import { formatClickHouseType, parseClickHouseType } from "../../src/datasets/clickhouse-type.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { ARGUMENT_CLASSES, VARIANTS, arrayVariantOfTypeName, classOfTypeName, isArrayVariant, nullableClassOfTypeName, variantOfTypeName } from "../../src/pipeline/argument-classes.js";

describe("argument classes of ClickHouse types", () => {
  it.each([
    ["String", "string"],
    ["LowCardinality(String)", "string"],
    ["FixedString(16)", "string"],
    ["UInt8", "uint8"],
    ["Int8", "int64"],
    ["UInt16", "int64"],
    ["Float32", "float64"],
    ["DateTime", "datetime"],
    ["DateTime('UTC')", "datetime"],
    ["Array(LowCardinality(String))", "arrayString"],
    ["Array(UInt64)", "arrayNumber"],
    ["UUID", "uuid"],
    ["UInt32", "uint32"],
    ["Bool", "bool"],
    ["AggregateFunction(quantiles(0.5, 0.9), Float64)", "aggregateState"],
  ])("%s is %s", (type, cls) => {
    expect(classOfTypeName(type)).toBe(cls);
  });

  // Types some functions treat apart from the class's sample: no class, never refused.
  it.each(["Nullable(UInt64)", "LowCardinality(Nullable(String))", "Array(Nullable(String))", "Date", "DateTime64(3)", "Decimal(18, 4)", "Array(UInt8)", "Array(Float64)", "Map(String, String)", "Tuple(UInt8, String)", "IPv4", "SimpleAggregateFunction(sum, Float64)"])(
    "%s has no class",
    (type) => {
      expect(classOfTypeName(type)).toBeNull();
    },
  );

  it.each([
    ["Nullable(String)", "string"],
    ["LowCardinality(Nullable(String))", "string"],
    ["Nullable(UInt64)", "int64"],
    ["Nullable(DateTime)", "datetime"],
    ["String", null],
    ["Nullable(IPv4)", null],
    ["Array(Nullable(String))", null],
  ])("%s wraps %s in Nullable", (type, cls) => {
    expect(nullableClassOfTypeName(type)).toBe(cls);
  });

  it.each([
    ["Array(Nullable(String))", "nullableStrings"],
    ["Array(Nullable(UInt8))", "nullableUInt8"],
    ["Array(Float64)", "float64s"],
    ["Array(UUID)", "uuids"],
    ["Array(UInt8)", "uint8s"],
    ["Array(Bool)", "bools"],
    ["Array(DateTime)", "datetimes"],
    ["Array(DateTime('UTC'))", "datetimes"],
    ["Array(DateTime64(3))", null],
    ["Array(String)", null],
    ["Nullable(String)", null],
    ["Array(Array(Float64))", null],
  ])("%s is the array variant %s", (type, variant) => {
    expect(arrayVariantOfTypeName(type)).toBe(variant);
  });

  it.each([
    ["Tuple(String, UInt8)", "tuple"],
    ["Map(String, Bool)", "mapBools"],
    ["Map(String, String)", "mapStrings"],
    ["UInt128", "uint128"],
    ["Nullable(IPv4)", "nullableIPv4"],
    ["Nullable(DateTime64(3))", "nullableDateTime64"],
    ["Array(Float64)", "float64s"],
    ["Array(Tuple(key String, value String))", "nested"],
    ["Array(Tuple(key UInt64, indexed_value UInt64, raw_value String))", "nested"],
    ["Array(Variant(String, UInt8))", "mixedArray"],
    ["Variant(DateTime('UTC'), Float64)", "mixed"],
    ["Map(String, UInt8)", null],
    ["IPv4", null],
    ["String", null],
  ])("%s is the variant %s", (type, variant) => {
    expect(variantOfTypeName(type)).toBe(variant);
  });

  it("every type an entity has is a class, a Nullable class or a variant", () => {
    const unjudged = new Set<string>();
    for (const entity of defaultRegistry().entities()) {
      for (const column of entity.columns) {
        const type = parseClickHouseType(column.type);
        const names = type.kind === "nested" ? type.fields.map((field) => `Array(${formatClickHouseType(field.type)})`) : [formatClickHouseType(type)];
        for (const name of names) if (!classOfTypeName(name) && !nullableClassOfTypeName(name) && !variantOfTypeName(name)) unjudged.add(`${entity.name}.${column.name}: ${name}`);
      }
    }
    expect([...unjudged]).toEqual([]);
  });

  it("knows which variants are arrays (their elements have no class)", () => {
    expect(VARIANTS.filter(isArrayVariant)).toEqual(["nullableStrings", "nullableUInt8", "nullableUInt16", "nullableUInt32", "float64s", "float32s", "uuids", "uint8s", "bools", "datetimes", "nested", "mixedArray"]);
  });

  // The probe's table names classes and variants in the same pair strings ("0 1 float64 string"):
  // a variant named like a class would turn that class's pairs into the variant's.
  it("no variant is named like a class", () => {
    expect(VARIANTS.filter((variant) => (ARGUMENT_CLASSES as readonly string[]).includes(variant))).toEqual([]);
  });
});
