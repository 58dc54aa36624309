/**
 * The typing pass refuses an index of 0 (or FALSE) given to arrayElement, substring and
 * substringUTF8 over an array or a String read per row (typing/comparisons.ts, refuseZeroIndex).
 * This holds it to the embedded engine: refused on an empty table as on one with a row; over a
 * constant array or string, which the pass lets through, taken.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchEngine, type ScratchEngine } from "../support/scratch-engine.js";

let engine: ScratchEngine;

beforeAll(async () => {
  engine = openScratchEngine("one-based-index");
  for (const [table, engineName] of [["empty_values", "MergeTree ORDER BY tuple()"], ["one_row", "Memory"]] as const) {
    await engine.store.client.command({ query: `CREATE TABLE ${table} (s String, a Array(String), n Array(UInt64), ns Nullable(String)) ENGINE = ${engineName}` });
  }
  await engine.store.client.command({ query: "INSERT INTO one_row VALUES ('abc', ['x'], [1], 'abc')" });
  await engine.store.client.command({ query: "CREATE TABLE null_row (s String, ns Nullable(String)) ENGINE = Memory" });
  await engine.store.client.command({ query: "INSERT INTO null_row VALUES ('abc', NULL)" });
});

afterAll(async () => {
  await engine.close();
});

describe("an index of 0 where indices count from 1", () => {
  it("is refused by the engine over an array or a string read per row", async () => {
    // A float a string's index truncates to 0 too (`substring(s, 0.5, 1)`; found by the fuzz).
    // And with a length computed once (`abs(3)`, `multiIf(1, 5, 6)`; seed 18).
    const calls = ["arrayElement(a, 0)", "arrayElement(n, false)", "substring(s, 0)", "substring(s, false, 1)", "substringUTF8(s, 0, 2)", "substring(s, 0.5, 1)", "substring(s, -0.9)", "substring(s, 0, abs(3))", "substring(s, 1.5e-7, multiIf(1, 5, 6))", "substring(s, 0, coalesce(NULL, 3))"];
    for (const table of ["empty_values", "one_row"]) {
      for (const call of calls) {
        expect(await engine.accepted(`SELECT ${call} FROM ${table}`), `${table}: ${call}`).toBe(false);
        expect(await engine.accepted(`SELECT count() FROM ${table} WHERE ${call} = ${call.startsWith("arrayElement(n") ? "1" : "'x'"}`), `${table}: ${call} in WHERE`).toBe(false);
      }
    }
  });

  it("written as isNull of a column or call that is never NULL is folded to 0 while the query is planned, and refused; of a Nullable one it is read per row, and taken (found by the fuzz: arrayElement(tags.value, timestamp IS NULL), seed 26)", async () => {
    for (const table of ["empty_values", "one_row"]) {
      for (const call of ["arrayElement(a, isNull(s))", "substring(s, isNull(n), 2)", "arrayElement(n, s IS NULL)"]) {
        expect(await engine.accepted(`SELECT ${call} FROM ${table}`), `${table}: ${call}`).toBe(false);
      }
      // Of a call never NULL, or a literal, too (`substring(s, now() IS NULL, 0)`; seed 41's run); of a Nullable call, read per row.
      for (const call of ["substring(s, now() IS NULL, 0)", "substring(s, isNull(length(s)), 2)", "arrayElement(a, isNull(1))"]) {
        expect(await engine.accepted(`SELECT ${call} FROM ${table}`), `${table}: ${call}`).toBe(false);
      }
      for (const call of ["arrayElement(a, isNotNull(s))", "arrayElement(a, isNull(ns))", "substring(s, isNull(ns), 2)", "substring(s, isNull(ns || 'x'), 2)", "arrayElement(a, isNull(NULL))"]) {
        expect(await engine.accepted(`SELECT ${call} FROM ${table}`), `${table}: ${call}`).toBe(true);
      }
    }
  });

  it("over a Nullable string, or with a Nullable length of a number, is refused on the first row that holds a value, and taken where none does", async () => {
    // (Not on an empty table: the pass refuses these all the same, as it refuses a text compared with a Nullable number.)
    for (const call of ["substring(ns, 0)", "substring(ns, 0.5, 3)", "substring(s, 1.5e-7, multiIf(10, 5, NULL))", "substring(s, 0, if(1, 5, NULL))"]) {
      expect(await engine.accepted(`SELECT ${call} FROM one_row`), `one_row: ${call}`).toBe(false);
      expect(await engine.accepted(`SELECT ${call} FROM null_row`), `null_row: ${call}`).toBe(call.startsWith("substring(ns"));
    }
    // A NULL length, or one an if's literal condition picks as NULL, checks no index.
    for (const call of ["substring(s, 0, NULL)", "substring(s, 0, if(0, 5, NULL))", "substring(ns, 0, NULL)"]) expect(await engine.accepted(`SELECT ${call} FROM one_row`), call).toBe(true);
  });

  it("is taken over a constant array or string, and 1 is taken over a column", async () => {
    for (const table of ["empty_values", "one_row"]) {
      // … and with a length read per row (`substring(s, 0, n[1])`), which the engine checks only per row and takes.
      for (const call of ["arrayElement(['x'], 0)", "substring('abc', 0, 1)", "arrayElement(a, 1)", "substring(s, 1, 1)", "substring(s, 1.9, 1)", "substring(s, 0, length(s))", "substring(s, 0.5, length(s))"]) {
        expect(await engine.accepted(`SELECT ${call} FROM ${table}`), `${table}: ${call}`).toBe(true);
      }
    }
  });
});
