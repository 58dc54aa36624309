import { describe, expect, it } from "vitest";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { parseJsonObject } from "../../src/request/parse-json-body.js";
import { readSnqlBody } from "../../src/request/query-body-schema.js";

const TENANTS = { organization_id: 1, referrer: "test" };

function failure(run: () => unknown): QueryServiceError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QueryServiceError);
    return error as QueryServiceError;
  }
  throw new Error("expected a failure");
}

describe("request bodies", () => {
  it("reads a complete SnQL body with defaults", () => {
    const request = readSnqlBody({ query: "MATCH (events) SELECT count()", tenant_ids: TENANTS, debug: true }, "events");
    expect(request).toEqual({
      dataset: "events",
      query: "MATCH (events) SELECT count()",
      tenantIds: TENANTS,
      debug: true,
      consistent: false,
      turbo: false,
      dryRun: false,
    });
  });

  it("takes the dataset from the body on /query and requires it there", () => {
    expect(readSnqlBody({ query: "q", dataset: "transactions", tenant_ids: TENANTS }, null).dataset).toBe("transactions");
    expect(failure(() => readSnqlBody({ query: "q", tenant_ids: TENANTS }, null)).message).toContain("'dataset' is required");
  });

  it.each([
    [{ tenant_ids: TENANTS }, "'query' is required"],
    [{ query: "", tenant_ids: TENANTS }, "'query' is empty"],
    [{ query: 42, tenant_ids: TENANTS }, "'query' must be a string, got number"],
    [{ query: "q" }, "'tenant_ids' is required"],
    [{ query: "q", tenant_ids: [1] }, "'tenant_ids' must be an object, got array"],
    [{ query: "q", tenant_ids: { referrer: "r" } }, "'tenant_ids.organization_id' is required"],
    [{ query: "q", tenant_ids: { organization_id: "1", referrer: "r" } }, "'tenant_ids.organization_id' must be a non-negative integer, got string"],
    [{ query: "q", tenant_ids: { organization_id: 1.5, referrer: "r" } }, "must be a non-negative integer, got number 1.5"],
    [{ query: "q", tenant_ids: { organization_id: 1 } }, "'tenant_ids.referrer' is required"],
    [{ query: "q", tenant_ids: { organization_id: 1, referrer: "" } }, "'tenant_ids.referrer' must be a non-empty string"],
    [{ query: "q", tenant_ids: { organization_id: 1, referrer: "r", nested: {} } }, "'tenant_ids.nested' must be a string, number or boolean"],
    [{ query: "q", tenant_ids: TENANTS, turbo: "yes" }, "'turbo' must be a boolean, got string \"yes\""],
    [{ query: "q", tenant_ids: TENANTS, surprise: 1 }, "unknown field 'surprise'"],
  ])("refuses %j", (body, message) => {
    const error = failure(() => readSnqlBody(body as Record<string, unknown>, "events"));
    expect(error.type).toBe("invalid_query");
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain(message);
  });

  it("accepts Snuba's attribution fields", () => {
    const body = { query: "q", tenant_ids: TENANTS, app_id: "default", team: "t", feature: "f", parent_api: "p", referrer: "r", legacy: false };
    expect(readSnqlBody(body, "events").query).toBe("q");
  });

  it.each([
    ["", "the request body is empty"],
    ["{", "not valid JSON"],
    ["[]", "must be a JSON object, got an array"],
    ["null", "must be a JSON object, got null"],
    ["\"text\"", "must be a JSON object, got a string"],
  ])("refuses the body %j", (text, message) => {
    expect(failure(() => parseJsonObject(text)).message).toContain(message);
  });
});
