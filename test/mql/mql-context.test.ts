/** mql_context and the /mql body, field by field: what is accepted and the message for what is not. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { readMqlContext } from "../../src/mql/mql-context.js";
import { readMqlBody } from "../../src/request/mql-body-schema.js";

const VALID = {
  entity: "generic_metrics_counters",
  start: "2024-05-01T12:00:00+02:00",
  end: "2024-05-01T14:00:00Z",
  rollup: { granularity: 60, interval: 600, with_totals: "True", orderby: null },
  scope: { org_ids: [1], project_ids: [1, 2], use_case_id: "transactions" },
  indexer_mappings: { "c:transactions/count_per_root_project@none": 125, environment: "202" },
  limit: 20,
  offset: 40,
};

function without(object: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...object };
  delete copy[key];
  return copy;
}

describe("mql_context", () => {
  it("reads every field, honouring UTC offsets", () => {
    const context = readMqlContext(VALID);
    expect(context).toMatchObject({
      entity: "generic_metrics_counters",
      start: Date.UTC(2024, 4, 1, 10) / 1000,
      end: Date.UTC(2024, 4, 1, 14) / 1000,
      granularity: 60,
      interval: 600,
      withTotals: true,
      orderBy: null,
      orgIds: [1],
      projectIds: [1, 2],
      useCaseId: "transactions",
      limit: 20,
      offset: 40,
      extrapolate: false,
    });
  });

  it("defaults limit to 1000, offset to 0, no interval, no totals, and the server indexer", () => {
    const context = readMqlContext({ ...VALID, rollup: { granularity: 3600 }, limit: null, offset: null, indexer_mappings: undefined });
    expect(context).toMatchObject({ limit: 1000, offset: 0, interval: null, withTotals: false, indexerMappings: null });
    expect(readMqlContext({ ...VALID, rollup: { granularity: 60, with_totals: false } }).withTotals).toBe(false);
  });

  const cases: [string, unknown, string][] = [
    ["missing", undefined, "'mql_context' is required"],
    ["not an object", [1], "'mql_context' must be an object, got array"],
    ["unknown field", { ...VALID, colour: 1 }, "unknown field 'mql_context.colour'"],
    ["no start", without(VALID, "start"), "missing required field 'mql_context.start'"],
    ["start not a string", { ...VALID, start: 5 }, "'mql_context.start' must be an ISO 8601 string"],
    ["start not a date", { ...VALID, start: "yesterday" }, "'mql_context.start' is not a valid ISO 8601 timestamp: 'yesterday'"],
    ["end out of range", { ...VALID, end: "2024-02-30T00:00:00Z" }, "'mql_context.end' is not a valid ISO 8601 timestamp"],
    ["start after end", { ...VALID, start: "2024-05-02T00:00:00Z" }, "'mql_context.start' (2024-05-02T00:00:00Z) must be before 'mql_context.end'"],
    ["no rollup", without(VALID, "rollup"), "missing required field 'mql_context.rollup'"],
    ["unknown rollup field", { ...VALID, rollup: { granularity: 60, every: 1 } }, "unknown field 'mql_context.rollup.every'"],
    ["no granularity", { ...VALID, rollup: {} }, "missing required field 'mql_context.rollup.granularity'"],
    ["granularity not an integer", { ...VALID, rollup: { granularity: "60" } }, "'mql_context.rollup.granularity' must be an integer, got string \"60\""],
    ["granularity not stored", { ...VALID, rollup: { granularity: 300 } }, "granularity '300' is not valid, must be one of (10, 60, 3600, 86400)"],
    ["interval below granularity", { ...VALID, rollup: { granularity: 3600, interval: 60 } }, "interval 60 must be greater than or equal to granularity 3600"],
    ["interval a float", { ...VALID, rollup: { granularity: 60, interval: 60.5 } }, "'mql_context.rollup.interval' must be an integer"],
    ["millions of buckets", { ...VALID, start: "1990-01-01T00:00:00Z", rollup: { granularity: 10, interval: 10 } }, "time buckets; at most 30000 are allowed"],
    ["with_totals", { ...VALID, rollup: { granularity: 60, with_totals: "yes" } }, "'mql_context.rollup.with_totals' must be \"True\" or \"False\""],
    ["orderby", { ...VALID, rollup: { granularity: 60, orderby: "UP" } }, "'mql_context.rollup.orderby' must be either 'ASC' or 'DESC', got string \"UP\""],
    ["orderby with interval", { ...VALID, rollup: { granularity: 60, interval: 60, orderby: "ASC" } }, "orderby is not supported when interval is specified"],
    ["no scope", without(VALID, "scope"), "missing required field 'mql_context.scope'"],
    ["unknown scope field", { ...VALID, scope: { ...VALID.scope, team: 1 } }, "unknown field 'mql_context.scope.team'"],
    ["org_ids empty", { ...VALID, scope: { ...VALID.scope, org_ids: [] } }, "'mql_context.scope.org_ids' must be a non-empty list of non-negative integers"],
    ["project_ids strings", { ...VALID, scope: { ...VALID.scope, project_ids: ["1"] } }, "'mql_context.scope.project_ids' must be a non-empty list"],
    ["no use case", { ...VALID, scope: { org_ids: [1], project_ids: [1] } }, "missing required field 'mql_context.scope.use_case_id'"],
    ["use case a number", { ...VALID, scope: { ...VALID.scope, use_case_id: 3 } }, "'mql_context.scope.use_case_id' must be a non-empty string"],
    ["mappings a list", { ...VALID, indexer_mappings: [] }, "'mql_context.indexer_mappings' must be an object"],
    ["mapping negative", { ...VALID, indexer_mappings: { x: -1 } }, "'mql_context.indexer_mappings[\"x\"]' must be a non-negative integer id"],
    ["limit too high", { ...VALID, limit: 10_001 }, "queries cannot have a limit higher than 10000"],
    ["offset negative", { ...VALID, offset: -1 }, "'mql_context.offset' must be at least 0, got -1"],
    ["extrapolate", { ...VALID, extrapolate: "yes" }, "'mql_context.extrapolate' must be a boolean"],
    ["entity empty", { ...VALID, entity: "" }, "'mql_context.entity' must be an entity name"],
  ];
  it.each(cases)("%s", (_name, value, message) => {
    const attempt = () => readMqlContext(value);
    expect(attempt).toThrow(QueryServiceError);
    expect(attempt).toThrow(message);
  });
});

describe("the /mql body", () => {
  it("reads shape A (mql) and defaults tenant_ids from the scope and the referrer", () => {
    const request = readMqlBody({ mql: "sum(c:a/b@c)", mql_context: VALID, referrer: "dashboards" }, "generic_metrics");
    expect(request).toMatchObject({ dataset: "generic_metrics", query: "sum(c:a/b@c)", tenantIds: { organization_id: 1, referrer: "dashboards" }, debug: false });
  });

  it("reads shape B (query with the SnQL fields)", () => {
    const request = readMqlBody(
      { query: "sum(c:a/b@c)", mql_context: VALID, tenant_ids: { organization_id: 7, referrer: "api" }, debug: true, dry_run: true, dataset: "generic_metrics" },
      "generic_metrics",
    );
    expect(request).toMatchObject({ query: "sum(c:a/b@c)", tenantIds: { organization_id: 7, referrer: "api" }, debug: true, dryRun: true });
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ["no text", { mql_context: VALID }, "'mql' is required"],
    ["both texts", { mql: "sum(c:a/b@c)", query: "sum(c:a/b@c)", mql_context: VALID }, "not both"],
    ["empty text", { mql: "  ", mql_context: VALID }, "'mql' is empty: write an MQL query"],
    ["text not a string", { query: 3, mql_context: VALID }, "'query' must be a string"],
    ["unknown field", { mql: "sum(c:a/b@c)", mql_context: VALID, granularity: 60 }, "unknown field 'granularity'"],
    ["other dataset", { mql: "sum(c:a/b@c)", mql_context: VALID, dataset: "metrics" }, "differs from the dataset in the path"],
    ["flag not boolean", { mql: "sum(c:a/b@c)", mql_context: VALID, debug: "yes" }, "'debug' must be a boolean"],
    ["bad tenant_ids", { mql: "sum(c:a/b@c)", mql_context: VALID, tenant_ids: { referrer: "x" } }, "'tenant_ids.organization_id' is required"],
  ];
  it.each(cases)("%s", (_name, body, message) => {
    expect(() => readMqlBody(body, "generic_metrics")).toThrow(message);
  });
});

describe("hostile bodies", () => {
  it("answers any JSON with a request or a typed invalid_query, never a crash", () => {
    const field = fc.oneof(fc.jsonValue(), fc.constantFrom(VALID.rollup, VALID.scope, VALID.start, [1], {}));
    const context = fc.dictionary(fc.constantFrom("start", "end", "rollup", "scope", "limit", "offset", "indexer_mappings", "extrapolate", "entity", "x"), field);
    const body = fc.record({ mql: fc.oneof(fc.string(), fc.jsonValue()), mql_context: fc.oneof(context, fc.jsonValue()), tenant_ids: fc.jsonValue() }, { requiredKeys: [] });
    fc.assert(
      fc.property(body, (value) => {
        try {
          readMqlBody(value as Record<string, unknown>, "generic_metrics");
        } catch (error) {
          expect(error).toBeInstanceOf(QueryServiceError);
          expect((error as QueryServiceError).type).toBe("invalid_query");
        }
      }),
      { numRuns: 1000 },
    );
  });
});
