/**
 * A tuple computed per row on the right of IN by a function other than `tuple(…)` (`NULL IN
 * greatest(tuple(offset, primary_hash, 1.5e-7))`, seed 13) is neither a list ClickHouse reads per
 * row nor a set it takes: code 1, "supported only if second argument is constant or table
 * expression", whatever the rows. The typing pass refuses it (typing/membership.ts,
 * refuseComputedTupleSet). This holds the rule to the embedded engine, for a value of every class
 * on the left, against the same tuples written as `tuple(…)` and computed from constants.
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import type { Expression } from "../../src/query/ast.js";
import { passRefusal } from "../support/typing-pass.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";

const samples = ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]);
const entity = probeColumnsEntity(samples);

const engine = useProbeTablesEngine("computed-tuple-sets", samples);

const column = (name: string): Expression => ({ kind: "column", name });
const literal = (value: number | null): Expression => ({ kind: "literal", value });
const call = (name: string, ...args: Expression[]): Expression => ({ kind: "function", name, args });

/** A tuple of a column read per row and a constant, and its SQL. */
const rowTuple = (columnName: string) => ({ expression: call("tuple", column(columnName), literal(2)), sql: `tuple(${columnName}, 2)` });
const constantTuple = { expression: call("tuple", literal(1), literal(2)), sql: "tuple(1, 2)" };

/** The functions that hand a tuple through: of one computed per row, a tuple computed per row. */
const WRAPPERS = ["greatest", "least", "coalesce"];

const lefts = [
  { expression: literal(null), sql: "NULL" },
  { expression: literal(1), sql: "1" },
  ...samples.map((sample) => ({ expression: column(sample.column), sql: sample.column })),
];

describe("a tuple computed per row on the right of IN", () => {
  it("is refused, as the engine refuses it (code 1), whatever the left and the tuple's column", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const wrapper of WRAPPERS)
      for (const left of lefts)
        for (const inside of [samples[0]!, CLASS_SAMPLES.uint8, CLASS_SAMPLES.datetime]) {
          const tuple = rowTuple(inside.column);
          const sql = `${left.sql} IN ${wrapper}(${tuple.sql})`;
          const refusal = passRefusal(call("in", left.expression, call(wrapper, tuple.expression)), entity);
          const code = await engine.code(`SELECT ${sql} FROM ${PROBE_ROW_TABLE}`);
          if (refusal !== null) refused++;
          if (code === 1 && refusal === null) wrong.push(`${sql}: the engine refuses it (1), the pass takes it`);
          if (refusal !== null && code !== 1) wrong.push(`${sql}: the pass refuses it (${refusal.slice(0, 120)}), the engine ${code === null ? "answers" : `fails (${code})`}`);
        }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(WRAPPERS.length * lefts.length);
  });

  it("is taken written as tuple(…), and computed from constants, as the engine takes both", async () => {
    const wrong: string[] = [];
    for (const left of lefts)
      for (const [expression, sql] of [
        [rowTuple(CLASS_SAMPLES.uint8.column).expression, rowTuple(CLASS_SAMPLES.uint8.column).sql],
        [call("greatest", constantTuple.expression), `greatest(${constantTuple.sql})`],
      ] as const) {
        const refusal = passRefusal(call("in", left.expression, expression), entity);
        const code = await engine.code(`SELECT ${left.sql} IN ${sql} FROM ${PROBE_ROW_TABLE}`);
        // Another rule may refuse a pair the engine refuses too (a UUID against a number, 48).
        if (code === 1 || (refusal !== null && code === null)) wrong.push(`${left.sql} IN ${sql}: the pass ${refusal === null ? "takes it" : `refuses it (${refusal.slice(0, 120)})`}, the engine ${code === null ? "answers" : `fails (${code})`}`);
        if (refusal?.includes("computed per row")) wrong.push(`${left.sql} IN ${sql}: refused as a computed tuple`);
      }
    expect(wrong).toEqual([]);
  });
});
