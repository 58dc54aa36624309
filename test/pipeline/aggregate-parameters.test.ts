/**
 * The parameter rules (src/pipeline/aggregate-parameters.ts) held to the embedded engine: every
 * parameter they refuse, for every allowed aggregate that takes parameters, fails in ClickHouse;
 * each rule refuses something, and the parameters Sentry sends (`quantile(0.95)`, `topK(10)`)
 * pass both. Then the typing pass, end to end: a refused parameter is an `invalid_query` at its
 * position.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createColumnstoreClient, type ColumnstoreClient } from "../../src/clickhouse/client-factory.js";
import { AGGREGATE_FUNCTIONS } from "../../src/clickhouse/function-allow-list.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { parameterProblem } from "../../src/pipeline/aggregate-parameters.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import { prepareSnqlQuery } from "../../src/pipeline/run-snql-query.js";
import type { Expression, LiteralValue } from "../../src/query/ast.js";

/** Literal parameters a caller writes: levels, sizes, and what is neither. */
const LITERALS: readonly LiteralValue[] = [null, "a", "", "0.5", -0.5, 0, 0.5, 0.95, 1, 1.5, 2, 10, -1, 16_777_215, 16_777_216, true, false];

/** Every allowed aggregate the probe found taking one parameter. */
const PARAMETRIC = [...PROBED_FUNCTION_SIGNATURES].filter(([name, signature]) => AGGREGATE_FUNCTIONS.has(name) && signature.curried[1] !== undefined && signature.curried[1] !== "refused").map(([name]) => name);

function sqlOf(value: LiteralValue): string {
  return value === null ? "NULL" : typeof value === "string" ? `'${value}'` : String(value);
}

/** A call of `name` with these parameters that the engine takes with good ones. */
function callOf(name: string, params: string): string {
  if (name.endsWith("Merge")) return `SELECT ${name}(${params})(s) FROM (SELECT ${name.replace(/Merge$/, "State")}(0.5)(x) AS s FROM t)`;
  const args = name.endsWith("If") || name.endsWith("Weighted") || name.startsWith("argM") ? "x, 1" : "x";
  return `SELECT ${name}(${params})(${args}) FROM t`;
}

let dir: string;
let store: ColumnstoreClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "quarry-aggregate-parameters-"));
  store = createColumnstoreClient({ dataDir: dir, clickhouseUrl: null, clickhouseUser: "default", clickhousePassword: "" });
  await store.client.command({ query: "CREATE TABLE t (x Float64) ENGINE = Memory" });
  await store.client.command({ query: "INSERT INTO t VALUES (1.5), (2.5)" });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function accepted(query: string): Promise<boolean> {
  try {
    await (await store.client.query({ query, format: "JSONEachRow" })).json();
    return true;
  } catch {
    return false;
  }
}

describe("aggregate parameters against the engine", () => {
  it("finds the parametric aggregates (quantiles, topK, groupArray, histogram, ...)", () => {
    expect(PARAMETRIC).toEqual(expect.arrayContaining(["quantile", "quantiles", "quantileIf", "quantilesMerge", "topK", "groupArray", "histogram", "median"]));
  });

  it("every literal parameter a rule refuses fails in ClickHouse, and good ones pass both", async () => {
    const wrongly: string[] = [];
    const refusedBy = new Set<string>();
    for (const name of PARAMETRIC) {
      for (const value of LITERALS) {
        const literal: Expression = { kind: "literal", value };
        if (parameterProblem(name, 0, literal, true) === null) continue;
        refusedBy.add(name);
        if (await accepted(callOf(name, sqlOf(value)))) wrongly.push(`${name}(${sqlOf(value)})`);
      }
    }
    expect(wrongly).toEqual([]);
    // Each rule refuses something: the levels, the sizes of each kind.
    expect([...refusedBy]).toEqual(expect.arrayContaining(["quantile", "quantiles", "median", "quantilesMerge", "topK", "groupArray", "histogram"]));
    for (const [name, params] of [["quantile", "0.95"], ["quantiles", "0.5, 0.9, 0.99"], ["topK", "10"], ["groupArray", "10"], ["histogram", "5"]] as const) {
      for (const [i, text] of params.split(", ").entries()) expect(parameterProblem(name, i, { kind: "literal", value: Number(text) }, true)).toBeNull();
      expect(await accepted(callOf(name, params)), `${name}(${params})`).toBe(true);
    }
  });

  it("a column or a lambda as a parameter fails in ClickHouse for every parametric aggregate", async () => {
    const wrongly: string[] = [];
    for (const name of PARAMETRIC) {
      if (name.endsWith("Merge")) continue;
      expect(parameterProblem(name, 0, { kind: "column", name: "x" }, false)).not.toBeNull();
      expect(parameterProblem(name, 0, { kind: "lambda", params: ["v"], body: { kind: "literal", value: 1 } }, null)).not.toBeNull();
      for (const param of ["x", "v -> 1"]) if (await accepted(callOf(name, param))) wrongly.push(`${name}(${param})`);
    }
    expect(wrongly).toEqual([]);
  });
});

describe("aggregate parameters in the typing pass", () => {
  const registry = defaultRegistry();
  const refusal = (select: string): QueryServiceError | null => {
    const query = `MATCH (transactions) SELECT ${select} WHERE finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND project_id = 1`;
    try {
      prepareSnqlQuery(registry, query, false);
      return null;
    } catch (error) {
      if (error instanceof QueryServiceError) return error;
      throw error;
    }
  };

  it("refuses a column, a lambda, a level out of range and a bad size at the parameter's position", () => {
    for (const [select, param, words] of [
      ["quantiles(0.5, duration)(duration)", "duration)(", "must be a constant"],
      ["quantile((`v`) -> now())(duration)", "(`v`) ->", "a lambda, must be a constant"],
      ["quantile(1.5)(duration)", "1.5", "must be a level between 0 and 1"],
      ["quantileExact(NULL)(duration)", "NULL", "must be a level between 0 and 1"],
      ["topK(0)(transaction)", "0", "must be a number from 1 to 16777215"],
      ["groupArray('10')(transaction)", "'10'", "must be a whole number from 1"],
    ] as const) {
      const error = refusal(select);
      expect(error?.type, select).toBe("invalid_query");
      expect(error?.message, select).toContain(words);
      // The query's SELECT starts at column 29.
      expect(error?.position?.column, select).toBe(29 + select.indexOf(param));
    }
  });

  it("takes the parameters Sentry sends", () => {
    for (const select of ["quantile(0.95)(duration)", "quantiles(0.5, 0.75, 0.9, 0.95, 0.99)(duration)", "topK(10)(transaction)", "quantileIf(0.5)(duration, duration > 10)", "groupUniqArray(5)(transaction)"]) {
      expect(refusal(select), select).toBeNull();
    }
  });
});
