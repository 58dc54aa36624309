/**
 * The typing pass refuses `a + b` over aggregate states of different functions or types, and
 * `state * n` with n read per row (argument-types.ts, refuseStateArithmetic). This holds both to
 * the embedded engine on an empty table and on one with a row, with what the pass lets through
 * beside them: states of one type added, a state repeated a constant number of times. It also
 * holds the ORDER BY rule for states inside a tuple or an array (checkArgumentTypes): the engine
 * cannot compare them there either, and groups by them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchEngine, type ScratchEngine } from "../support/scratch-engine.js";
import { columnsEntity } from "../../src/datasets/columns-entity.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { passRefusal } from "../support/typing-pass.js";
import { parseSnql } from "../../src/snql/parse-snql.js";

let engine: ScratchEngine;
const COLUMNS = "s1 AggregateFunction(sum, Float64), s2 AggregateFunction(sum, Float64), c AggregateFunction(count, Float64), su AggregateFunction(sum, UInt64), q AggregateFunction(quantiles(0.5, 0.9), Float64), g UInt32";

beforeAll(async () => {
  engine = openScratchEngine("state-arithmetic");
  await engine.store.client.command({ query: `CREATE TABLE empty_values (${COLUMNS}) ENGINE = MergeTree ORDER BY tuple()` });
  await engine.store.client.command({ query: `CREATE TABLE one_row (${COLUMNS}) ENGINE = Memory` });
  await engine.store.client.command({
    query: "INSERT INTO one_row SELECT initializeAggregation('sumState', 1.5), initializeAggregation('sumState', 2.5), initializeAggregation('countState', 1.5), initializeAggregation('sumState', toUInt64(1)), initializeAggregation('quantilesState(0.5, 0.9)', 1.5), 3",
  });
});

afterAll(async () => {
  await engine.close();
});

describe("arithmetic on aggregate states", () => {
  it("refuses states of different functions or types added, and a state multiplied by a column (in a tuple too, element by element)", async () => {
    for (const table of ["empty_values", "one_row"]) {
      for (const expression of ["s1 + c", "c + s1", "s1 + su", "q + s1", "s1 * g", "g * c", "tuple(s1) * g", "g * tuple(c, s1)"]) {
        expect(await engine.accepted(`SELECT ${expression} FROM ${table}`), `${table}: ${expression}`).toBe(false);
      }
    }
  });

  it("takes states of one function and type added, and a state multiplied by a constant", async () => {
    for (const table of ["empty_values", "one_row"]) {
      for (const expression of ["s1 + s2", "s1 * 2", "3 * c", "tuple(s1, c) * 2"]) {
        expect(await engine.accepted(`SELECT ${expression} FROM ${table}`), `${table}: ${expression}`).toBe(true);
      }
    }
  });
});

describe("a state repeated or added to one of its own type", () => {
  it("is still a state of that type, which plus adds to one of another function or type only where the engine does (found by the fuzz: percentiles_weighted + max * 10 on generic_metrics_distributions, code 421, seed 26)", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const sql of ["q + s1 * 2", "2 * c + s1", "s1 * 2 + su", "(s1 + s2) + c", "s1 + (c * 2) * 3", "s1 + s2 * 2", "(s1 * 2) + (s2 * 3)", "(s1 + s2) + s1", "3 * (s1 + s2) + s2"]) {
      const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
      if (refusal !== null) refused++;
      for (const table of ["empty_values", "one_row"]) {
        const accepted = await engine.accepted(`SELECT ${sql} FROM ${table}`);
        if (accepted !== (refusal === null)) wrong.push(`${sql} on ${table}: the pass ${refusal === null ? "takes it" : "refuses it"}, the engine ${accepted ? "answers" : "refuses it"}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBe(5);
  });
});

describe("a number times an if of a state and a number", () => {
  it("is a Variant of the state and a number, refused where the engine refuses it on the rows the condition picks (found by the fuzz: length(x * if(1, value, 0)), code 43, seed 42)", async () => {
    const wrong: string[] = [];
    let refused = 0;
    const cases = ["length(2 * if(1, s1, 0))", "length(2 * if(0, s1, 0))", "(2 * if(1, s1, 0)) + 1", "(2 * if(0, s1, 0)) + 1", "(g * if(0, s1, 0)) + 1", "(3 * if(0, c, 1)) > 0", "isNull(2 * if(1, s1, 0))"];
    for (const sql of cases) {
      const expression = parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression;
      const refusal = passRefusal(expression, entity);
      if (refusal !== null) refused++;
      // A Variant holding a state: the engine fails on a row that holds it, so the row's table says.
      const accepted = await engine.accepted(`SELECT ${sql} FROM one_row`);
      if (accepted !== (refusal === null)) wrong.push(`${sql}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 120)})`}, the engine ${accepted ? "answers" : "refuses it"}`);
    }
    expect(wrong).toEqual([]);
    expect(refused).toBe(3);
    expect(expressionTyping(parseSnql("MATCH (x) SELECT 2 * if(1, s1, 0) AS zz").selected[0]!.expression, entity).alternatives?.map((alternative) => alternative.cls)).toContain("aggregateState");
  });
});

describe("aggregate states inside a tuple or an array", () => {
  it("are refused as an ORDER BY key, at any depth, through an alias and through an aggregate returning a row's value (seed 36)", async () => {
    for (const table of ["empty_values", "one_row"]) {
      for (const query of ["SELECT g FROM {t} ORDER BY tuple('x', s1, 3)", "SELECT g FROM {t} ORDER BY array(c)", "SELECT tuple(tuple(s1)) AS u FROM {t} ORDER BY u", "SELECT g FROM {t} ORDER BY tuple(g, q) DESC", "SELECT count() FROM {t} ORDER BY argMax(tuple(s1, 1), g)"]) {
        const sql = query.replace("{t}", table);
        expect(await engine.accepted(sql), sql).toBe(false);
      }
    }
  });

  it("are taken as a GROUP BY key, and a tuple without a state as an ORDER BY key", async () => {
    for (const table of ["empty_values", "one_row"]) {
      for (const query of ["SELECT count() FROM {t} GROUP BY tuple(g, s1)", "SELECT g FROM {t} ORDER BY tuple('x', g)"]) {
        const sql = query.replace("{t}", table);
        expect(await engine.accepted(sql), sql).toBe(true);
      }
    }
  });
});

/** The columns above as an entity's, for the typing pass. */
const entity = columnsEntity(
  "states",
  COLUMNS.split(/, (?=\w+ [A-Z])/).map((column) => {
    const [name, ...type] = column.split(" ");
    return { name: name!, type: type.join(" ") };
  }),
);

describe("an if or a multiIf of aggregate states", () => {
  it("is a Variant where its branches are states of two types, whatever picks them, as the engine types it, and no GROUP BY key then (found by the fuzz: BY if(100, sum, avg) on metrics_distributions, code 44, seed 23)", async () => {
    const wrong: string[] = [];
    let variants = 0;
    for (const text of ["if(g > 1, s1, s2)", "if(g > 1, s1, c)", "if(1, s1, su)", "if(0, q, s1)", "multiIf(g > 1, s1, g > 2, q, s2)", "multiIf(g > 1, s1, g > 2, s2, s1)", "if(g > 1, c, c)"]) {
      const pass = expressionTyping(parseSnql(`MATCH (x) SELECT ${text} AS v`).selected[0]!.expression, entity);
      const engineType = String(((await (await engine.store.client.query({ query: `SELECT toTypeName(${text}) AS t FROM one_row`, format: "JSONEachRow" })).json()) as { t: string }[])[0]!.t);
      const variant = engineType.startsWith("Variant(");
      if (variant) variants++;
      // (A state of one type the pass types as a state, or leaves untyped: multiIf of three.)
      if (variant !== (pass.variant === "mixed") || (!variant && pass.cls !== "aggregateState" && pass.cls !== null)) wrong.push(`${text}: the engine ${engineType}, the pass ${pass.variant ?? pass.cls}`);
      // GROUP BY refuses the Variant and takes a state.
      for (const table of ["empty_values", "one_row"]) {
        if ((await engine.accepted(`SELECT count() FROM ${table} GROUP BY ${text}`)) === variant) wrong.push(`${text}: GROUP BY on ${table} ${variant ? "takes" : "refuses"} it`);
      }
    }
    expect(wrong).toEqual([]);
    expect(variants).toBe(4);
  });
});

describe("a state looked for in a set", () => {
  it("computed from constants is refused as the engine refuses it, as a set written out is; a NULL of no type is taken (found by the fuzz: count NOT IN isNotNull(0) on generic_metrics_gauges, code 53, seed 24)", async () => {
    const wrong: string[] = [];
    for (const set of ["isNotNull(0)", "plus(1, 1)", "toString(1)", "now()", "tuple(1)", "plus(1, NULL)", "NULL"]) {
      const sql = `in(s1, ${set})`;
      const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
      for (const table of ["empty_values", "one_row"]) {
        const accepted = await engine.accepted(`SELECT ${sql} FROM ${table}`);
        if (accepted !== (refusal === null)) wrong.push(`${sql} on ${table}: the pass ${refusal === null ? "takes it" : "refuses it"}, the engine ${accepted ? "answers" : "refuses it"}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
