import { describe, expect, it } from "vitest";
import { ClickHouseTypeError, formatClickHouseType, isNullableType, parseClickHouseType } from "../../src/datasets/clickhouse-type.js";

describe("parseClickHouseType", () => {
  it.each([
    "UInt64",
    "Nullable(String)",
    "LowCardinality(Nullable(String))",
    "Array(UUID)",
    "FixedString(32)",
    "DateTime64(3)",
    "DateTime64(6, 'UTC')",
    "Map(String, Array(Float64))",
    "Nested(key String, value String)",
    "Tuple(UInt8, String)",
    "Enum8('a' = 1, 'b' = 2)",
    "AggregateFunction(sum, Float64)",
    "AggregateFunction(quantiles(0.5, 0.75, 0.9, 0.95, 0.99), Float64)",
    "AggregateFunction(argMax, Float64, DateTime)",
    "SimpleAggregateFunction(max, UInt64)",
    "Decimal(10, 2)",
  ])("round-trips %s", (text) => {
    expect(formatClickHouseType(parseClickHouseType(text))).toBe(text);
  });

  it("exposes Nested fields and nullability", () => {
    const nested = parseClickHouseType("Nested(op String, group UInt64)");
    expect(nested.kind === "nested" && nested.fields.map((f) => f.name)).toEqual(["op", "group"]);
    expect(isNullableType(parseClickHouseType("Nullable(UInt8)"))).toBe(true);
    expect(isNullableType(parseClickHouseType("LowCardinality(Nullable(String))"))).toBe(true);
    expect(isNullableType(parseClickHouseType("String"))).toBe(false);
  });

  it.each([
    ["Strng", "unknown type 'Strng'"],
    ["Nullable(String", "expected ')' but the type ended"],
    ["Nullable(String, UInt8)", "Nullable takes exactly one type argument"],
    ["UInt64(3)", "UInt64 takes no arguments"],
    ["FixedString", "FixedString takes 1 argument(s)"],
    ["Map(String)", "Map takes a key type and a value type"],
    ["String String", "unexpected text after the type"],
    ["", "the type is empty"],
    ["Nested()", "Nested needs at least one field"],
  ])("rejects %j", (text, message) => {
    expect(() => parseClickHouseType(text)).toThrow(ClickHouseTypeError);
    expect(() => parseClickHouseType(text)).toThrow(message);
  });
});
