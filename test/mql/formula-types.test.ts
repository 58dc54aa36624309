/**
 * MQL formulas go through the SnQL typing pass (src/mql/formula-types.ts): a call ClickHouse would
 * refuse for its arguments' types or count is an `invalid_query` at the argument, and a formula
 * it takes still runs. Each timeseries is judged as a value of its aggregate's type, which is
 * held here to the engine's DESCRIBE for every aggregate of every metrics entity.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quoteIdentifier } from "../../src/clickhouse/escaping.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { mergedStateType } from "../../src/mql/formula-types.js";
import { END, MAPPINGS, START, startMqlFixture, type MqlFixture } from "./mql-fixture.js";

const registry = defaultRegistry();
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

describe("the value type of each aggregate", () => {
  it("is the engine's type of the merged state, for every aggregate of every metrics entity", async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const entity of registry.entities()) {
      const table = registry.storage(entity.readableStorage)?.table;
      if (!table) continue;
      for (const mapper of entity.functionMappers ?? []) {
        if (mapper.from.endsWith("If")) continue;
        const stateType = entity.columns.find((column) => column.name === mapper.column)?.type;
        expect(stateType, `${entity.name}: ${mapper.column}`).toBeDefined();
        const params = !mapper.curried ? "" : mapper.to.startsWith("histogram") ? "(250)" : "(0.5, 0.9)";
        const sql = `DESCRIBE (SELECT ${mapper.to}${params}(${quoteIdentifier(mapper.column)}) AS v FROM ${table})`;
        const result = await server.columnstore.client.query({ query: sql, format: "JSONEachRow" });
        const engineType = ((await result.json()) as { type: string }[])[0]!.type;
        const known = mergedStateType(stateType!);
        checked += 1;
        // Null only where the engine's type is none the formula pass reads (a histogram's tuples).
        if (known === null ? !engineType.startsWith("Array(Tuple(") : known !== engineType) {
          mismatches.push(`${entity.name} ${mapper.from} -> ${mapper.to}(${mapper.column}): formula-types says ${known ?? "unknown"}, the engine ${engineType}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(mismatches).toEqual([]);
  });
});

describe("formulas ClickHouse would refuse", () => {
  it.each([
    // [formula, message, line and column of the argument]
    [`sum(${PAGE_VIEWS}) * abs("keep")`, /^'keep' at line 1, column 37 is a string, and abs does not take a string as argument 1 of 1/, 37],
    [`avg(${CART}) / negate(0.5, 0.5)`, /^negate at line 1, column 42 does not take 2 arguments: it takes 1 argument/, 42],
    [`"checkout" - sum(${PAGE_VIEWS})`, /^'checkout' at line 1, column 1 is a string, and minus \(-\) does not take a string as argument 1 of 2/, 1],
    // A counter's sum is a float, which bitAnd does not take; a set's count is an integer, which it does.
    [`bitAnd(sum(${PAGE_VIEWS}), 1)`, /the timeseries sum\(c:custom\/page_views@none\) at line 1, column 8 is a float, and bitAnd does not take a float/, 8],
    [`sum(${PAGE_VIEWS}) + like(count(${CART}), "a%")`, /^the timeseries count\(d:custom\/checkout.cart_value@none\) at line 1, column 38 is an integer, and like \(LIKE\) does not take an integer/, 38],
    // Several levels' quantiles are an array per bucket, multiplied element by element; plus takes no array (seed-3 fuzz: code 43).
    [`uniq(${ORGS}) + 1000 * quantiles(0.5, 0.9)(${CART})`, /^the timeseries uniq\(.*\) at line 1, column 1 is an integer and multiply\(…\) at line 1, column 49 is an Array\(Float64\): plus \(\+\) does not take them together/, 49],
  ])("%s", async (formula, message, column) => {
    const { status, json } = await post(formula);
    expect(status).toBe(400);
    expect(json.error.type).toBe("invalid_query");
    expect(json.error.message).toMatch(message);
    expect(json.error.message).toContain(`line 1, column ${column}`);
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
