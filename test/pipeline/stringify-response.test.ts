/** Response JSON: identical to JSON.stringify, BigInts bare, immutable parts serialised once. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markImmutable, stringifyResponse } from "../../src/execution/result-values.js";

describe("stringifyResponse", () => {
  it("writes what JSON.stringify writes for BigInt-free bodies", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (data, extra) => {
        const body = { data: [data], meta: [{ name: "a", type: "UInt8" }], timing: { marks_ms: { execute: 1 } }, skipped: undefined, extra };
        expect(stringifyResponse(body)).toBe(JSON.stringify(body));
      }),
    );
  });

  it("writes BigInts as bare integers at any depth", () => {
    const body = { data: [{ big: 2n ** 64n }], totals: { big: -(2n ** 63n), n: 1 } };
    expect(stringifyResponse(body)).toBe('{"data":[{"big":18446744073709551616}],"totals":{"big":-9223372036854775808,"n":1}}');
  });

  it("reuses the text of an immutable part", () => {
    const rows = [{ n: 1 }];
    markImmutable(rows);
    expect(stringifyResponse({ data: rows, timing: 1 })).toBe('{"data":[{"n":1}],"timing":1}');
    expect(stringifyResponse({ data: rows, timing: 2 })).toBe('{"data":[{"n":1}],"timing":2}');
  });
});
