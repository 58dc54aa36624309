/**
 * A date computed once (`now()`, `toDate(now())`, a DateTime written out) plus or minus a number
 * computed once that no Int64 holds overflows while the query is planned (code 407, with rows or
 * none; `99999999999999999999999 + now()`, seed 44): the pass refuses it
 * (typing/arithmetic-types.ts, refuseDateMovedPastInt64). A date read per row is taken, as is a
 * number within the Int64's range. This holds both to the embedded engine.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const samples = [CLASS_SAMPLES.datetime, CLASS_SAMPLES.float64];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("dates-moved-past-int64", samples);
const t = CLASS_SAMPLES.datetime.column;

describe("a date moved by a number past 2^63", () => {
  it("is refused by the pass exactly where the engine refuses it: a date computed once, by a number computed once", async () => {
    const dates = ["now()", "toDate(now())", "toDateTime('2024-01-01 00:00:00')", "today()", t, `toStartOfHour(${t})`];
    const amounts = ["99999999999999999999999", "1e+19", "-1e+19", "9.3e+18", "10000000000000000000", "1e+18", "-9e+18", "1.5", "0"];
    const calls = dates.flatMap((date) => amounts.flatMap((amount) => [`plus(${date}, ${amount})`, `plus(${amount}, ${date})`, `minus(${date}, ${amount})`]));
    for (const table of [PROBE_ROW_TABLE, "probe"]) {
      const { wrong, refused } = await passAgainstEngine(engine, entity, calls, table);
      expect(wrong, table).toEqual([]);
      expect(refused, table).toBe(4 * 5 * 3);
    }
  });
});
