/**
 * An aggregate the entity maps to the merge of a stored state (`count(value)` on
 * generic_metrics_gauges is sumMerge of an AggregateFunction(sum, UInt64)) has the type the merge
 * gives: the typing pass names it for states of sum, min, max, argMax and argMin of numbers, so a
 * comparison with a text that is no number is refused (`HAVING count(value) > 'x'`, code 53; seed
 * 43). This holds every such mapping of every shipped entity to the engine's type of the merge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { openScratchEngine, type ScratchEngine } from "../support/scratch-engine.js";
import { passRefusal } from "../support/typing-pass.js";

let engine: ScratchEngine;
beforeAll(() => {
  engine = openScratchEngine("mapped-aggregate-types");
});
afterAll(async () => {
  await engine.close();
});

describe("aggregates mapped to the merge of a stored state", () => {
  it("are of the type the engine gives the merge wherever the pass names one, for sum, min, max and last of every entity that maps them", async () => {
    const wrong: string[] = [];
    let typed = 0;
    for (const entity of defaultRegistry().entities()) {
      for (const mapper of entity.functionMappers ?? []) {
        if (mapper.curried || mapper.from.endsWith("If")) continue;
        const stateType = entity.columns.find((column) => column.name === mapper.column)?.type;
        if (stateType === undefined) continue;
        const pass = expressionTyping(parseSnql(`MATCH (x) SELECT ${mapper.from}(${mapper.argument}) AS r`).selected[0]!.expression, entity);
        if (pass.cls === null) continue;
        typed += 1;
        const table = `t${typed}`;
        await engine.store.client.command({ query: `CREATE TABLE ${table} (s ${stateType}) ENGINE = Memory` });
        const rows = await (await engine.store.client.query({ query: `SELECT toTypeName(${mapper.to}(s)) AS t FROM ${table}`, format: "JSONEachRow" })).json<{ t: string }>();
        const type = rows[0]!.t;
        const expected = pass.integer ?? (pass.cls === "float64" ? "Float64" : pass.cls);
        if (type !== expected) wrong.push(`${entity.name}: ${mapper.from}(${mapper.argument}) is ${mapper.to}(${stateType}), the engine's ${type}, the pass's ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(typed).toBeGreaterThanOrEqual(8);
  });

  it("compared with a text that is no number, is refused (seed 43: HAVING count(value) > 'x' on generic_metrics_gauges)", () => {
    const gauges = defaultRegistry().entity("generic_metrics_gauges")!;
    for (const sql of ["count(value) > 'x'", "last(value) = 'x'", "sum(value) < 'abc'"]) {
      expect(passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS r`).selected[0]!.expression, gauges), sql).toMatch(/cannot read it as one/);
    }
    expect(passRefusal(parseSnql("MATCH (x) SELECT count(value) > '5' AS r").selected[0]!.expression, gauges)).toBeNull();
  });
});
