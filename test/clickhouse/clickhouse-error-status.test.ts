/** Which ClickHouse refusals are the query's fault (400) and which the service's (500). */
import { describe, expect, it } from "vitest";
import { httpStatusForClickHouseCode } from "../../src/clickhouse/clickhouse-error.js";

describe("ClickHouse error codes to HTTP statuses", () => {
  it("values the query asks to read as a UUID or an IP address are the query's fault (found by the fuzzer on profiles and discover)", () => {
    expect(httpStatusForClickHouseCode(376)).toBe(400); // CANNOT_PARSE_UUID
    expect(httpStatusForClickHouseCode(675)).toBe(400); // CANNOT_PARSE_IPV4
    expect(httpStatusForClickHouseCode(676)).toBe(400); // CANNOT_PARSE_IPV6
  });

  it("an index 0 and a parameter of the wrong type are the query's fault (found by the 1,000,000-input fuzz run)", () => {
    expect(httpStatusForClickHouseCode(135)).toBe(400); // ZERO_ARRAY_OR_TUPLE_INDEX
    expect(httpStatusForClickHouseCode(170)).toBe(400); // BAD_GET
  });

  it("a tuple looked for among tuples of another size is the query's fault (the 5xx of the seed-2 fuzz run)", () => {
    expect(httpStatusForClickHouseCode(124)).toBe(400); // INCORRECT_ELEMENT_OF_SET
  });

  it("a text read as an array of strings whose elements are not quoted is the query's fault (the 5xx of the seed-11 fuzz run)", () => {
    expect(httpStatusForClickHouseCode(26)).toBe(400); // CANNOT_PARSE_QUOTED_STRING
  });

  it("a LIKE pattern ending in a lone backslash is the query's fault (the 5xx of the seed-31 fuzz run; a pattern read from a column the pass cannot see)", () => {
    expect(httpStatusForClickHouseCode(25)).toBe(400); // CANNOT_PARSE_ESCAPE_SEQUENCE
  });

  it("the engine's own trouble stays a 500", () => {
    expect(httpStatusForClickHouseCode(999)).toBe(500); // KEEPER_EXCEPTION
    expect(httpStatusForClickHouseCode(210)).toBe(500); // NETWORK_ERROR
  });
});
