/**
 * What ClickHouse computes before it looks for columns outside BY and aggregates (code 215), as
 * the aggregation rule folds it (src/pipeline/aggregation-keys.ts, constantFolding): held to the
 * engine on a table of its own, beside test/pipeline/aggregation-keys.test.ts, whose fixture
 * server owns that process's engine. Seeds 16, 17, 19, 20, 21, 22 and 25 found the rules below.
 */
import { describe, expect, it } from "vitest";
import { openScratchEngine } from "../support/scratch-engine.js";
describe("what the engine folds before it looks for columns outside BY and aggregates", () => {
  // The folding rules the check relies on, held to the engine on a table of its own: an arrayJoin
  // among AND's or OR's operands stops the folding, a constant call given a NULL is a NULL that
  // decides nothing, and isNull of a subscript printed with a NULL for a missing key is read.
  it("reads the columns the check refuses (code 215) and folds the ones it takes", async () => {
    const engine = openScratchEngine("aggregation-folding");
    try {
      await engine.store.client.command({ query: "CREATE TABLE t (k String, d UInt32, n Nullable(String), tags Nested(key String, value String)) ENGINE = MergeTree ORDER BY k" });
      const missingKey = "if(has(tags.key, 'x'), arrayElement(tags.value, indexOf(tags.key, 'x')), NULL)";
      // An AND or OR of constants that is NULL decides nothing around it (seed 21).
      for (const having of ["1 = 2 AND arrayJoin(tags.key) = 'a'", "1 = 1 OR arrayJoin(tags.key) = 'a'", "toString(d) != '' OR NULL LIKE 'x'", `isNull(${missingKey}) AND k != ''`, "((NULL <= k) AND isNull(NULL)) AND toString(d) != ''", "(NULL OR 0) OR toString(d) != ''"]) {
        expect(await engine.code(`SELECT max(d) FROM t GROUP BY k HAVING ${having}`), having).toBe(215);
      }
      for (const having of ["1 = 2 AND toString(d) != ''", "isNull(arrayElement(tags.value, indexOf(tags.key, 'x'))) AND toString(d) != ''", "(NULL AND 0) AND toString(d) != ''"]) {
        expect(await engine.code(`SELECT max(d) FROM t GROUP BY k HAVING ${having}`), having).toBeNull();
      }
      // isNull of an expression holding an arrayJoin is read, and so is a comparison with NULL of
      // one holding an aggregate; of an aggregate alone or of a column, it is folded (seed 17).
      expect(await engine.code("SELECT isNull(coalesce(arrayJoin(tags.key), 'x')), max(d) FROM t GROUP BY k")).toBe(215);
      expect(await engine.code("SELECT (toString(d) = max(k)) <= NULL FROM t")).toBe(215);
      expect(await engine.code("SELECT max(d) = NULL, toString(d) = NULL, max(k) FROM t")).toBeNull();
      // A comparison with NULL of an arrayJoin is read too (seed 19).
      expect(await engine.code("SELECT count(), arrayJoin(tags.value) <= NULL FROM t")).toBe(215);
      // And one of a Variant (`ifNull(n, 0.5)`, of a String and a Float64; seed 20), where one of
      // a value of one type is folded.
      expect(await engine.code("SELECT count(), NULL = ifNull(n, 1.5e-7 / 0) FROM t")).toBe(215);
      expect(await engine.code("SELECT count(), NULL = if(d > 1, k, 0.5) FROM t")).toBe(215);
      expect(await engine.code("SELECT count(), NULL = ifNull(n, 'x'), if(d > 1, k, 'y') < NULL FROM t")).toBeNull();
      // isNull of an array column the entity lacks is the rewrite's `false` (a test over no
      // elements), which decides no OR: the other operand is read (seed 22, spans.op on discover_events).
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING false OR has(tags.key, 'a')")).toBe(215);
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING isNull(NULL) OR has(tags.key, 'a')")).toBeNull();
      // So does a comparison of an array column's elements given a NULL: the rewrite's arrayExists
      // reads the column, where the same comparison of a column is a NULL, folded (seed 25).
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING arrayExists(x -> ifNull(x >= NULL, 0), tags.value)")).toBe(215);
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING toString(d) >= NULL")).toBeNull();
      // A literal looked for in literals is folded to its truth: found decides an OR, not found
      // decides none (`'x' IN 'error' OR contexts.key LIKE '%error%'`, seed 26).
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING 'x' IN 'y' OR has(tags.key, 'a')")).toBe(215);
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING 'a' NOT IN ('a', 'b') OR toString(d) != ''")).toBe(215);
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING 'a' IN ('a', 'b') OR has(tags.key, 'a')")).toBeNull();
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING 1 NOT IN (2, 3) OR toString(d) != ''")).toBeNull();
      // Texts compared in order are folded by their UTF-8 bytes: true decides no AND, false does
      // ('production' > 'backend@1.2.0' beside user != click_text on replays, seed 27).
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING toString(d) != '' AND 'production' > 'backend@1.2.0'")).toBe(215);
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING toString(d) != '' AND 'production' < 'backend@1.2.0'")).toBeNull();
      expect(await engine.code("SELECT max(d) FROM t GROUP BY k HAVING toString(d) != '' AND '😀' < 'ｚ'")).toBeNull();
      // isNull of a call of a Nullable type is read; of one of a plain type, folded (seed 21).
      expect(await engine.code("SELECT max(d), isNotNull(concat(n, k) > k) FROM t")).toBe(215);
      expect(await engine.code("SELECT max(d), isNotNull(concat(k, k) > k), isNull(toString(d) = k) FROM t")).toBeNull();
    } finally {
      await engine.close();
    }
  });
});
