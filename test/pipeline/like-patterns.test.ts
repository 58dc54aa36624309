/**
 * A LIKE pattern that ends in a backslash escaping nothing (an odd run of them at its end) fails
 * in the engine, code 25 (seed 31, which answered a 500 before the code was counted the query's
 * fault): the pass refuses it (typing/comparisons.ts, refuseUnendedLikeEscape). Held to the
 * embedded engine both ways over a table of one row, the pattern written out and computed from a
 * literal, in each function of the LIKE family, over a string column, a Nullable one and a constant.
 */
import { describe, expect, it } from "vitest";
import { CLASS_SAMPLES, PROBE_ROW_TABLE } from "../../src/pipeline/argument-classes.js";
import { probeColumnsEntity, useProbeTablesEngine } from "../support/scratch-engine.js";
import { passAgainstEngine } from "../support/typing-pass.js";

const samples = [CLASS_SAMPLES.string, { constant: "'abc'", column: "n_string", type: "Nullable(String)" }];
const entity = probeColumnsEntity(samples);
const engine = useProbeTablesEngine("like-patterns", samples);

/** Patterns as SQL and SnQL both write them (`\\` is one backslash): 1, 2 or 3 at the end, one inside, an escaped wildcard. */
const PATTERNS = ["'\\\\'", "'a\\\\'", "'a\\\\\\\\'", "'a\\\\\\\\\\\\'", "'\\\\a'", "'%\\\\%'", "'\\\\_'", "'%'", "toString('x\\\\')", "concat('%', '\\\\')"];

describe("a LIKE pattern ending in a lone backslash", () => {
  it("is refused by the pass exactly where the engine refuses it", async () => {
    const calls = ["like", "notLike", "ilike", "notILike"].flatMap((name) => ["c_string", "n_string", "'abc'"].flatMap((haystack) => PATTERNS.map((pattern) => `${name}(${haystack}, ${pattern})`)));
    const { wrong, refused } = await passAgainstEngine(engine, entity, calls, PROBE_ROW_TABLE);
    expect(wrong).toEqual([]);
    // Three patterns end in an odd run, written out, and one more as toString of a literal, per name and haystack.
    expect(refused).toBeGreaterThanOrEqual(4 * 3 * 4);
  });
});
