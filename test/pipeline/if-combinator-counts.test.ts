/**
 * An aggregate with the -If combinator refuses each argument count its aggregate refuses with one
 * argument fewer (typing/function-facts.ts, ifCombinatorRefusesCount): `sumIf(x, c, 100)` is the
 * engine's code 42 ("Aggregate function sum requires single argument"; `medianIf(c)`, code 35). The probe leaves those
 * counts unknown; this holds the rule to the embedded engine for every allowed -If aggregate, and
 * checks the pass's message names the counts it takes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGGREGATE_FUNCTIONS, ALLOWED_FUNCTIONS } from "../../src/clickhouse/function-allow-list.js";
import { columnsEntity } from "../../src/datasets/columns-entity.js";
import { ifCombinatorRefusesCount } from "../../src/pipeline/typing/function-facts.js";
import type { Expression } from "../../src/query/ast.js";
import { passRefusal } from "../support/typing-pass.js";
import { snqlRefusal } from "../support/snql-refusal.js";
import { openScratchEngine, type ScratchEngine } from "../support/scratch-engine.js";

let engine: ScratchEngine;

beforeAll(async () => {
  engine = openScratchEngine("if-combinator-counts");
  await engine.store.client.command({ query: "CREATE TABLE one_row (n UInt64, f Float64, s String, c UInt8) ENGINE = Memory" });
  await engine.store.client.command({ query: "INSERT INTO one_row VALUES (3, 0.5, 'x', 1)" });
});

afterAll(async () => {
  await engine.close();
});

const entity = columnsEntity("one_row", [
  { name: "n", type: "UInt64" },
  { name: "f", type: "Float64" },
  { name: "s", type: "String" },
  { name: "c", type: "UInt8" },
]);
const column = (name: string): Expression => ({ kind: "column", name });



const IF_AGGREGATES = [...ALLOWED_FUNCTIONS].filter((name) => name.endsWith("If") && AGGREGATE_FUNCTIONS.has(name));

describe("an -If aggregate's argument counts", () => {
  it("are refused by the engine for their count (code 42, or 35 for too few) wherever the rule refuses them, for values of each kind before the condition", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const name of IF_AGGREGATES)
      for (let count = 1; count <= 4; count++) {
        if (!ifCombinatorRefusesCount(name, count)) continue;
        for (const value of ["n", "f", "s"]) {
          const args = [...new Array<string>(count - 1).fill(value), "c"];
          const call: Expression = { kind: "function", name, args: args.map(column) };
          const sql = `${name}(${args.join(", ")})`;
          const code = await engine.code(`SELECT ${sql} FROM one_row`);
          if (code !== 42 && code !== 35) wrong.push(`${sql}: the engine ${code === null ? "answers" : `fails with ${code}`}`);
          const message = passRefusal(call, entity);
          if (message === null || !message.includes(`does not take ${count} argument`)) wrong.push(`${sql}: the pass ${message ?? "takes it"}`);
          refused += 1;
        }
      }
    expect(wrong).toEqual([]);
    // sumIf, avgIf, minIf, ... with 1, 3 and 4 arguments; countIf with 3 and 4.
    expect(refused).toBeGreaterThanOrEqual(3 * 30);
  });

  it("taken by the aggregate with one argument fewer are not refused for their count", async () => {
    const message = passRefusal({ kind: "function", name: "sumIf", args: [column("n"), column("c"), column("n")] }, entity);
    expect(message).toMatch(/sumIf at .* does not take 3 arguments: it takes 2 arguments|sumIf does not take 3 arguments: it takes 2 arguments/);
    for (const [name, args] of [
      ["sumIf", ["n", "c"]],
      ["countIf", ["c"]],
      ["countIf", ["n", "c"]],
      ["uniqIf", ["n", "s", "c"]],
      ["argMaxIf", ["s", "n", "c"]],
    ] as const) {
      expect(passRefusal({ kind: "function", name, args: args.map(column) }, entity), `${name}(${args.join(", ")})`).toBeNull();
      expect(await engine.code(`SELECT ${name}(${args.join(", ")}) FROM one_row`), `${name}(${args.join(", ")})`).toBeNull();
    }
  });

  it("of an aggregate an entity maps onto its states (uniqIf -> uniqCombined64MergeIf), a condition that is no UInt8 is refused where the engine refuses it (found by the fuzz: uniqIf(value, array(10, 1, 'x')), seed 22)", async () => {
    await engine.store.client.command({ query: "CREATE TABLE states (project_id UInt64, s AggregateFunction(uniqCombined64, UInt64)) ENGINE = Memory" });
    await engine.store.client.command({ query: "INSERT INTO states SELECT 1, uniqCombined64State(toUInt64(1))" });
    const METRICS = "org_id = 1 AND project_id = 1 AND metric_id = 1 AND timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";
    // Written alike in SnQL and the engine's SQL; project_id is a column of both.
    const conditions = ["array(10, 1)", "array(10, 1, 'x')", "tuple(1)", "if(project_id = 1, 'a', 1)", "array(project_id)", "toDate(now())", "tuple(project_id, 1)", "project_id = 1", "1", "NULL", "if(project_id = 1, 1, 0)", "project_id IN tuple(1, 2)"];
    const wrong: string[] = [];
    for (const condition of conditions) {
      const pass = snqlRefusal(`MATCH (metrics_sets) SELECT uniqIf(value, ${condition}) AS u WHERE ${METRICS}`);
      const code = await engine.code(`SELECT uniqCombined64MergeIf(s, ${condition}) FROM states`);
      if ((pass === null) !== (code === null)) wrong.push(`${condition}: the pass ${pass === null ? "takes it" : `refuses it (${pass.message.slice(0, 80)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
    }
    expect(wrong).toEqual([]);
  });
});
