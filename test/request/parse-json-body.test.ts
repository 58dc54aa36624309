/**
 * The request body reader: typed errors for empty, malformed, non-object and too deeply nested
 * bodies (a body of 100,000 nested objects once overflowed the stack in a later stage); brackets
 * inside strings do not count as nesting.
 */
import { describe, expect, it } from "vitest";
import { MAX_JSON_NESTING, parseJsonObject } from "../../src/request/parse-json-body.js";

const refusal = (body: string) => {
  try {
    parseJsonObject(body);
  } catch (reason) {
    return reason as { type: string; message: string };
  }
  throw new Error("expected a refusal");
};

describe("parseJsonObject", () => {
  it("refuses empty, malformed and non-object bodies with invalid_query", () => {
    expect(refusal("  ")).toMatchObject({ type: "invalid_query", message: expect.stringContaining("empty") });
    expect(refusal('{"query": ')).toMatchObject({ type: "invalid_query", message: expect.stringContaining("not valid JSON") });
    expect(refusal("[1]")).toMatchObject({ type: "invalid_query", message: expect.stringContaining("an array") });
  });

  it("refuses nesting deeper than the limit, saying where", () => {
    const deep = `{"tenant_ids":{"organization_id":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}}`;
    const error = refusal(deep);
    expect(error.type).toBe("invalid_query");
    expect(error.message).toContain(`more than ${MAX_JSON_NESTING} levels deep`);
    const arrays = `{"x":${"[".repeat(MAX_JSON_NESTING)}${"]".repeat(MAX_JSON_NESTING)}}`;
    expect(refusal(arrays).message).toContain(`at character ${MAX_JSON_NESTING + 5}`);
  });

  it("accepts nesting up to the limit and brackets inside strings", () => {
    const atLimit = `{"x":${"[".repeat(MAX_JSON_NESTING - 1)}${"]".repeat(MAX_JSON_NESTING - 1)}}`;
    expect(parseJsonObject(atLimit)).toHaveProperty("x");
    const brackets = JSON.stringify({ query: "[".repeat(500) + '\\"{' + "{".repeat(500) });
    expect(parseJsonObject(brackets).query).toBe("[".repeat(500) + '\\"{' + "{".repeat(500));
  });
});
