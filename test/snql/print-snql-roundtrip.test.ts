/**
 * Property: a random query printed as SnQL text parses back to the same logical query (positions
 * aside). Covers every source (entity, storage, join, subquery), every clause, literals with
 * hostile strings, operators with their precedence, curried functions, lambdas and subscripts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSnql } from "../../src/snql/parse-snql.js";
import { printSnql, printSnqlExpression } from "../../src/snql/print-snql.js";
import { anyQuery, shape } from "./snql-query-arbitrary.js";

describe("printSnql", () => {
  it("prints queries that parse back to the same logical query", () => {
    fc.assert(
      fc.property(anyQuery, (query) => {
        const text = printSnql(query);
        expect(shape(parseSnql(text)), text).toEqual(shape(query));
      }),
      { numRuns: 400 },
    );
  });

  it("prints a known query as a person would write it", () => {
    const text =
      "MATCH (events SAMPLE 0.5) SELECT count() AS c, quantile(0.95)(duration) BY project_id, tags[browser] " +
      "WHERE project_id IN tuple(1, 2) AND (level = 'error' OR message LIKE '%it\\'s%') AND user_email IS NOT NULL " +
      "HAVING c > 1 ORDER BY c DESC, project_id ASC LIMIT 2 BY project_id LIMIT 10 OFFSET 5 GRANULARITY 60 TOTALS true";
    expect(printSnql(parseSnql(text))).toBe(text);
  });

  it("prints an integer past 2^53 as it was written, not as the nearest double", () => {
    const text = "MATCH (events) SELECT 9007199254740993 AS a, -18446744073709551615 AS b, 1.5 AS c WHERE transaction_hash = 18446744073709551615 LIMIT 1000";
    expect(printSnql(parseSnql(text))).toBe(text);
  });

  it("parenthesises by precedence only where needed", () => {
    const query = parseSnql("MATCH (events) SELECT (a + b) * c - (d - e), a - b - c, a = 1 OR b = 2 AND (c = 3 OR d = 4)");
    expect(query.selected.map((item) => printSnqlExpression(item.expression))).toEqual([
      "(a + b) * c - (d - e)",
      "a - b - c",
      "a = 1 OR b = 2 AND (c = 3 OR d = 4)",
    ]);
  });
});
