/**
 * MQL formulas reach ClickHouse as written (`sum(m) * abs("keep")`): a call the engine refuses for
 * its arguments' types or count is the engine's typed 400, with its code; a formula it takes runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { END, MAPPINGS, START, startMqlFixture, type MqlFixture } from "./mql-fixture.js";

let server: MqlFixture;

beforeAll(async () => {
  server = await startMqlFixture();
});
afterAll(async () => {
  await server?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CONTEXT = {
  start: START,
  end: END,
  rollup: { granularity: 60, interval: 3600, with_totals: null, orderby: null },
  scope: { org_ids: [1], project_ids: [1, 2, 3], use_case_id: "custom" },
  indexer_mappings: MAPPINGS,
  limit: null,
  offset: null,
};

async function post(query: string, useCase = "custom"): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${server.baseUrl}/generic_metrics/mql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ mql: query, mql_context: { ...CONTEXT, scope: { ...CONTEXT.scope, use_case_id: useCase } } }),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

const PAGE_VIEWS = "c:custom/page_views@none";
const CART = "d:custom/checkout.cart_value@none";
const ORGS = "s:custom/active_organizations@none";
const QUEUE = "g:custom/queue.depth@none";

describe("formulas ClickHouse would refuse", () => {
  it.each([
    // [formula, the engine's code]
    [`sum(${PAGE_VIEWS}) * abs("keep")`, 43],
    [`avg(${CART}) / negate(0.5, 0.5)`, 42],
    [`"checkout" - sum(${PAGE_VIEWS})`, 43],
    // A counter's sum is a float, which bitAnd does not take.
    [`bitAnd(sum(${PAGE_VIEWS}), 1)`, 43],
    [`sum(${PAGE_VIEWS}) + like(count(${CART}), "a%")`, 43],
    // Several levels' quantiles are an array per bucket, which plus does not add to a number.
    [`uniq(${ORGS}) + 1000 * quantiles(0.5, 0.9)(${CART})`, 43],
  ])("%s", async (formula, code) => {
    const { status, json } = await post(formula);
    expect(status).toBe(400);
    expect(json.error.type).toBe("columnstore");
    expect(json.error.code).toBe(code);
  });
});

describe("formulas ClickHouse takes", () => {
  it.each([
    `sum(${PAGE_VIEWS}) * 2`,
    `round(sum(${PAGE_VIEWS}) / 3, 2)`,
    `bitAnd(uniq(${ORGS}), 1)`,
    `avg(${QUEUE}) - min(${QUEUE})`,
    `abs(-sum(${PAGE_VIEWS}))`,
    `greatest(max(${CART}), 100)`,
    `arrayElement(quantiles(0.5, 0.9)(${CART}), 2) * 2`,
    `quantiles(0.5)(${CART}) + 1`,
    `sum(${PAGE_VIEWS}) / count(${CART})`,
    `log(sum(${PAGE_VIEWS})) + exp(1)`,
  ])("%s", async (formula) => {
    const { status, json } = await post(formula);
    expect(json.error ?? null).toBeNull();
    expect(status).toBe(200);
    expect(json.data.length).toBeGreaterThan(0);
  });
});
