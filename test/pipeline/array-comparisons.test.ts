/**
 * The typing pass refuses `array(...) = x` (and `<`, `!=`, ...) where x has a scalar class,
 * unless x is a constant text written as an array (typing/comparisons.ts, refuseArrayBesideScalar).
 * This holds the rule to the embedded engine: for every scalar class, as a column, a Nullable
 * column and a constant, beside arrays of every kind of element (none, NULL, mixed, a column),
 * on either side and on an empty table as on one with a row, ClickHouse refuses the comparison
 * (a Nullable column on a row that holds a value: beside an empty table the engine takes a
 * Nullable string, whose values it would convert row by row); and a text written as an array,
 * from `[` to `]`, is read as one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARGUMENT_CLASSES, CLASS_SAMPLES, elementClass } from "../../src/pipeline/argument-classes.js";
import { writtenAsArray } from "../../src/pipeline/literal-texts.js";
import { openScratchEngine, type ScratchEngine } from "../support/scratch-engine.js";

const SCALARS = ARGUMENT_CLASSES.filter((cls) => elementClass(cls) === null && cls !== "aggregateState");
const ARRAYS = ["array()", "array(NULL)", "array(1, 'a')", "array(c_string)", "array(c_string, 1.5)", "array(array('a'), 'b')"];
const OPERATORS = ["=", "<", "!="];

let engine: ScratchEngine;

beforeAll(async () => {
  engine = openScratchEngine("array-comparisons");
  const definition = SCALARS.flatMap((cls) => [`${CLASS_SAMPLES[cls].column} ${CLASS_SAMPLES[cls].type}`, `n_${CLASS_SAMPLES[cls].column} Nullable(${CLASS_SAMPLES[cls].type})`]).join(", ");
  await engine.store.client.command({ query: `CREATE TABLE empty_values (${definition}) ENGINE = MergeTree ORDER BY tuple()` });
  await engine.store.client.command({ query: `CREATE TABLE one_row (${definition}) ENGINE = Memory` });
  const values = SCALARS.flatMap((cls) => [CLASS_SAMPLES[cls].constant, CLASS_SAMPLES[cls].constant]).join(", ");
  await engine.store.client.command({ query: `INSERT INTO one_row SELECT ${values}` });
});

afterAll(async () => {
  await engine.close();
});

describe("an array compared with a value of a scalar class", () => {
  it("covers the scalar classes", () => {
    expect(SCALARS).toEqual(expect.arrayContaining(["string", "uint8", "int64", "float64", "datetime", "uuid", "uint32", "bool"]));
  });

  for (const cls of SCALARS) {
    it(`${cls}: refused by the engine as a column, a Nullable column and a constant, on either side`, async () => {
      const sample = CLASS_SAMPLES[cls];
      const values = [sample.column, `n_${sample.column}`, ...(cls === "string" ? [] : [sample.constant])];
      const taken: string[] = [];
      for (const value of values) {
        const tables = value.startsWith("n_") ? ["one_row"] : ["empty_values", "one_row"];
        for (const array of ARRAYS) {
          for (const op of OPERATORS) {
            for (const condition of [`${value} ${op} ${array}`, `${array} ${op} ${value}`]) {
              for (const table of tables) {
                if (await engine.accepted(`SELECT count() FROM ${table} WHERE ${condition}`)) taken.push(`${table}: ${condition}`);
              }
            }
          }
        }
      }
      expect(taken).toEqual([]);
    });
  }

  it("a constant text is converted to the array's type: refused unless it is written as one, from '[' to ']' (found by the fuzz: '[' != array(a, b), code 27, seed 33), as writtenAsArray reads it", async () => {
    const texts = ["'abc'", "''", "' [1]'", "'fatal'", "'['", "'[1'", "'[''a'','", "'[]x'", "'[] '"];
    for (const text of texts) expect(writtenAsArray(text.slice(1, -1).replace(/''/g, "'")), text).toBe(false);
    for (const text of ["[]", "[1, 2]", "['a']", "[ ]"]) expect(writtenAsArray(text), text).toBe(true);
    for (const table of ["empty_values", "one_row"]) {
      for (const text of texts) {
        for (const array of ["array(1)", "array(c_string)", "array(NULL)"]) {
          expect(await engine.accepted(`SELECT count() FROM ${table} WHERE ${text} = ${array}`), `${text} = ${array}`).toBe(false);
        }
      }
      expect(await engine.accepted(`SELECT count() FROM ${table} WHERE '[1, 2]' = array(1, c_uint8)`)).toBe(true);
      expect(await engine.accepted(`SELECT count() FROM ${table} WHERE array(c_string) < '[''a'']'`)).toBe(true);
    }
  });
});
