/**
 * A tuple in arithmetic with a Nullable number is a Nullable(Tuple(...)) (`tuple(a) /
 * span_op_breakdowns[ops.http]`), which the pass judges as the tuple it holds
 * (typing/arithmetic-types.ts, tupleArithmeticType): `toStartOfHour` of it is code 43 (seed 30).
 * This holds that to the embedded engine over every allowed function, with the Nullable tuple at
 * each position of one and two arguments beside a column of each class: every call the pass
 * refuses, the engine refuses.
 */
import { describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { PROBED_FUNCTION_SIGNATURES } from "../../src/pipeline/probed-function-signatures.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passRefusal } from "../support/typing-pass.js";

const samples = [...ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls]), { constant: "2.5", column: "n_float64", type: "Nullable(Float64)" }];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("nullable-tuples", samples);
const NULLABLE_TUPLE = `divide(tuple(${CLASS_SAMPLES.uint8.column}), n_float64)`;

describe("a Nullable tuple judged as the tuple it holds", () => {
  it("is refused by the pass only where the engine refuses it, in every allowed function", async () => {
    const falseRefusals: string[] = [];
    let refused = 0;
    const others = ARGUMENT_CLASSES.map((cls) => CLASS_SAMPLES[cls].column);
    for (const name of PROBED_FUNCTION_SIGNATURES.keys()) {
      const calls = [`${name}(${NULLABLE_TUPLE})`, ...others.flatMap((other) => [`${name}(${NULLABLE_TUPLE}, ${other})`, `${name}(${other}, ${NULLABLE_TUPLE})`])];
      for (const call of calls) {
        const refusal = passRefusal(parseSnql(`MATCH (x) SELECT ${call} AS zz`).selected[0]!.expression, entity);
        if (refusal === null) continue;
        refused++;
        if (await engine.accepted(`SELECT ${call} FROM ${PROBE_ROW_TABLE}`)) falseRefusals.push(`${call}: ${refusal}`);
      }
    }
    expect(falseRefusals).toEqual([]);
    expect(refused).toBeGreaterThan(1000);
    // The seed's shape itself.
    expect(passRefusal(parseSnql(`MATCH (x) SELECT toStartOfHour(${NULLABLE_TUPLE}) AS zz`).selected[0]!.expression, entity)).toContain("toStartOfHour does not take a tuple");
    expect(await engine.code(`SELECT toStartOfHour(${NULLABLE_TUPLE}) FROM ${PROBE_ROW_TABLE}`)).toBe(43);
  });
});
