/**
 * The parameter rules (src/pipeline/aggregate-parameters.ts) held to the embedded engine: every
 * parameter they refuse, for every allowed aggregate that takes parameters, fails in ClickHouse;
 * each rule refuses something, and the parameters Sentry sends (`quantile(0.95)`, `topK(10)`)
 * pass both. Then the typing pass, end to end: a refused parameter is an `invalid_query` at its
 * position.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGGREGATE_FUNCTIONS } from "../../src/clickhouse/function-allow-list.js";
import { parameterProblem } from "../../src/pipeline/aggregate-parameters.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import type { Expression, LiteralValue } from "../../src/query/ast.js";
import { openScratchEngine, type ScratchEngine } from "../support/scratch-engine.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { snqlRefusal } from "../support/snql-refusal.js";

/** Literal parameters a caller writes: levels, sizes, and what is neither. */
const LITERALS: readonly LiteralValue[] = [null, "a", "", "0.5", -0.5, 0, 0.5, 0.95, 1, 1.5, 2, 10, -1, 250, 251, 16_777_215, 16_777_216, true, false];

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

let engine: ScratchEngine;

beforeAll(async () => {
  engine = openScratchEngine("aggregate-parameters");
  await engine.store.client.command({ query: "CREATE TABLE t (x Float64) ENGINE = Memory" });
  await engine.store.client.command({ query: "INSERT INTO t VALUES (1.5), (2.5)" });
});

afterAll(async () => {
  await engine.close();
});

const accepted = (query: string): Promise<boolean> => engine.accepted(query);

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

  it("topK's load factor and 'counts' are refused exactly where the engine refuses them (codes 70, 69, 36, 170, 34)", async () => {
    const wrong: string[] = [];
    let refused = 0;
    const factors: readonly LiteralValue[] = [...LITERALS, 1.9, 3, 1_677_721, 1_677_722, 1e11];
    for (const name of ["topK", "topKWeighted"]) {
      for (const size of [1, 10]) {
        // A load factor alone; then a third parameter after a good one; then a fourth.
        const candidates: LiteralValue[][] = [...factors.map((factor) => [factor]), ...[...LITERALS, "counts"].map((third) => [3, third]), [3, "counts", 1]];
        for (const rest of candidates) {
          const params: Expression[] = [size, ...rest].map((value) => ({ kind: "literal", value }));
          const refusal = params.map((param, i) => parameterProblem(name, i, param, true, params)).find((problem) => problem !== null) ?? null;
          const sql = `${name}(${[size, ...rest].map(sqlOf).join(", ")})`;
          const taken = await accepted(callOf(name, [size, ...rest].map(sqlOf).join(", ")));
          if (refusal !== null) refused++;
          if (refusal !== null && taken) wrong.push(`${sql}: refused (${refusal}), the engine answers`);
          if (refusal === null && !taken) wrong.push(`${sql}: taken, the engine refuses it`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(40);
  });

  it("now() as a parameter, a DateTime read as its seconds, is refused exactly where the engine refuses it (seed 20's topK(now()), code 69)", async () => {
    const wrong: string[] = [];
    let refused = 0;
    const now: Expression = { kind: "function", name: "now", args: [] };
    for (const name of PARAMETRIC) {
      // A call this file does not write as the engine takes it (argMaxIf's three arguments): not a parameter's doing.
      if (name.endsWith("Merge") || !(await accepted(callOf(name, "1")))) continue;
      const candidates: Expression[][] = [[now], ...(name.startsWith("topK") ? [[{ kind: "literal", value: 3 } as Expression, now]] : [])];
      for (const params of candidates) {
        const refusal = params.map((param, i) => parameterProblem(name, i, param, true, params)).find((problem) => problem !== null) ?? null;
        const sql = params.map((param) => (param.kind === "literal" ? String(param.value) : "now()")).join(", ");
        const taken = await accepted(callOf(name, sql));
        if (refusal !== null) refused++;
        if ((refusal !== null) === taken) wrong.push(`${name}(${sql}): ${refusal === null ? "taken" : `refused (${refusal})`}, the engine ${taken ? "answers" : "refuses it"}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(10);
  });

  it("a number computed from values written out (arithmetic, greatest, least, isNull of a literal) is read as its value, refused exactly where the engine refuses it (seed 43's topK(isNull('…')), code 69)", async () => {
    // Each written as SnQL and SQL alike, parsed for the pass.
    // greatest and least of two (seed 51's quantileExact(greatest(2, 10)), code 12).
    const computed = ["isNull('x')", "isNotNull('x')", "isNotNull(NULL)", "1 - 1", "2 * 3", "1 + 1", "0.25 + 0.25", "1 / 2", "1 / 4", "greatest(2, 10)", "least(0.5, 3)", "greatest(0, 0.25)"];
    const wrong: string[] = [];
    let refused = 0;
    for (const name of PARAMETRIC) {
      if (name.endsWith("Merge") || !(await accepted(callOf(name, "1")))) continue;
      for (const sql of computed) {
        const param = parseSnql(`MATCH (x) SELECT ${sql} AS r`).selected[0]!.expression;
        const params = [param];
        const refusal = parameterProblem(name, 0, param, true, params);
        const taken = await accepted(callOf(name, sql));
        if (refusal !== null) refused++;
        if ((refusal !== null) === taken) wrong.push(`${name}(${sql}): ${refusal === null ? "taken" : `refused (${refusal})`}, the engine ${taken ? "answers" : "refuses it"}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(20);
  });

  it("a second level is refused exactly where the engine refuses it: by quantile, median and their kinds, not by quantiles (seed 38's quantile(0.5, 0.75, 0.95, 0.99), code 42)", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const name of PARAMETRIC.filter((name) => /^(quantile|median)/.test(name) && !name.endsWith("Merge"))) {
      const params: Expression[] = [0.5, 0.9].map((value) => ({ kind: "literal", value }));
      const refusal = params.map((param, i) => parameterProblem(name, i, param, true, params)).find((problem) => problem !== null) ?? null;
      const taken = await accepted(callOf(name, "0.5, 0.9"));
      if (refusal !== null) refused++;
      if ((refusal === null) !== taken) wrong.push(`${name}(0.5, 0.9): ${refusal === null ? "taken" : `refused (${refusal})`}, the engine ${taken ? "answers" : "refuses it"}`);
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(6);
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
  const refusal = (select: string) =>
    snqlRefusal(`MATCH (transactions) SELECT ${select} WHERE finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND project_id = 1`);

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

  it("a parameter computed beside a column is refused where the engine's analyzer does not fold it (seed 22's quantiles(coalesce(1000, geo_region)), code 36)", async () => {
    // The engine folds calls of constants and an `if` whose condition is one, not a multiIf nor
    // a call that reads a column whatever its value. `C` is the column: the table's x, and
    // transactions' duration for the pass.
    const forms = ["coalesce(0.5, C)", "ifNull(0.5, C)", "greatest(0.5, C)", "multiIf(1, 0.5, C)", "if(C > 1, 0.5, 0.2)", "if(1, 0.5, C)", "if(toUInt8(1), 0.5, C)", "if(0, C, 0.5)", "plus(0.1, if(1, 0.2, C))", "coalesce(NULL, 0.5)", "toFloat64(0.5)"];
    const verdicts = await Promise.all(
      forms.map(async (form) => ({ form, engine: await accepted(`SELECT quantiles(${form.replaceAll("C", "x")})(x) FROM t`), pass: refusal(`quantiles(${form.replaceAll("C", "duration")})(duration)`) === null })),
    );
    expect(verdicts.filter((v) => v.engine !== v.pass)).toEqual([]);
    // both ways
    expect(verdicts.filter((v) => v.engine).length).toBeGreaterThanOrEqual(5);
    expect(verdicts.filter((v) => !v.engine).length).toBeGreaterThanOrEqual(5);
  });

  it("a constant computed as a text, an array, a float or a UUID where a number is read is refused exactly where the engine refuses it (seed 35's quantile(greatest('staging')), code 70)", async () => {
    // Texts and arrays, then constants computed as numbers (a level's 0.5, a size's 5; a float's
    // 5 is no whole number to groupArray) and a UUID, which a level reads as a number.
    const forms = ["greatest('staging')", "upper('0.5')", "toString(0.5)", "concat('1', '0')", "array(0.5)", "greatest(0.5)", "plus(0.25, 0.25)", "if(1, 0.5, 'a')", "toUUID('00000000-0000-0000-0000-000000000000')"];
    const wrong: string[] = [];
    let refused = 0;
    for (const form of forms) {
      const size = form.replace("toUUID('00000000-0000-0000-0000-000000000000')", "toUUID('00000000-0000-0000-0000-000000000005')").replaceAll("0.25", "2.5").replaceAll("0.5", "5");
      for (const [name, params] of [["quantile", form], ["quantiles", `0.5, ${form}`], ["topK", size], ["topK", `3, ${size}`], ["groupArray", size]] as const) {
        const pass = refusal(`${name}(${params})(duration)`);
        const taken = await accepted(`SELECT ${name}(${params})(x) FROM t`);
        if (pass !== null) refused++;
        if ((pass === null) !== taken) wrong.push(`${name}(${params}): ${pass === null ? "taken" : `refused (${pass.message})`}, the engine ${taken ? "answers" : "refuses it"}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(20);
  });

  it("takes the parameters Sentry sends", () => {
    for (const select of ["quantile(0.95)(duration)", "quantiles(0.5, 0.75, 0.9, 0.95, 0.99)(duration)", "topK(10)(transaction)", "quantileIf(0.5)(duration, duration > 10)", "groupUniqArray(5)(transaction)"]) {
      expect(refusal(select), select).toBeNull();
    }
  });
});
