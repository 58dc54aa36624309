/**
 * An -If aggregate's condition decides which rows count, not the result's type: with a Nullable
 * condition (`sumIf(1, 10 IN device_model)` of a Nullable String) the call is of the type it has
 * with a plain one, a UInt64 here, from which no DateTime is taken (`… - now()`, code 43; seed 47).
 * The probe tried plain conditions only; the pass types the call as with a UInt8 condition, as it
 * does with a NULL one. This holds both to the embedded engine's types.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE, nullableSample } from "../../src/pipeline/argument-classes.js";
import { expressionTyping } from "../../src/pipeline/argument-types.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";

const nullableString = nullableSample("string")!;
const nullableUInt8 = nullableSample("uint8")!;
const values = (["uint8", "float64", "datetime", "string"] as const).map((cls) => CLASS_SAMPLES[cls]);
const samples = [...values, nullableString, nullableUInt8];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("if-aggregate-conditions", samples);

describe("an -If aggregate with a Nullable condition", () => {
  it("is of the type it has with a plain condition, to the engine and to the pass", async () => {
    const plain = `equals(${CLASS_SAMPLES.uint8.column}, 1)`;
    const nullableConditions = [`equals(${nullableString.column}, 'a')`, `in(10, ${nullableString.column})`, nullableUInt8.column, "toNullable(1)"];
    const wrong: string[] = [];
    let typed = 0;
    for (const aggregate of ["sumIf", "avgIf", "uniqIf", "anyIf", "minIf", "maxIf"])
      for (const value of values.map((sample) => sample.column)) {
        const call = (condition: string) => `${aggregate}(${value}, ${condition})`;
        const engineType = async (sql: string) => {
          const rows = (await (await engine.store.client.query({ query: `SELECT toTypeName(${sql}) AS t FROM ${PROBE_ROW_TABLE}`, format: "JSONEachRow" })).json()) as { t: string }[];
          return rows[0]!.t;
        };
        const passType = (sql: string) => {
          const t = expressionTyping(parseSnql(`MATCH (x) SELECT ${sql} AS zz`).selected[0]!.expression, entity);
          return JSON.stringify([t.cls, t.variant, t.nullable, t.integer]);
        };
        let plainEngine: string;
        try {
          plainEngine = await engineType(call(plain));
        } catch {
          continue;
        }
        const plainPass = passType(call(plain));
        for (const condition of nullableConditions) {
          const sql = call(condition);
          const [engineNullable, passNullable] = [await engineType(sql), passType(sql)];
          if (engineNullable !== plainEngine) wrong.push(`${sql}: the engine ${engineNullable}, with a plain condition ${plainEngine}`);
          if (passNullable !== plainPass) wrong.push(`${sql}: the pass ${passNullable}, with a plain condition ${plainPass}`);
          if (!passNullable.startsWith("[null,null")) typed++;
        }
      }
    expect(wrong).toEqual([]);
    expect(typed).toBeGreaterThan(40);
  });
});
