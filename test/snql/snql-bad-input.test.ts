/**
 * Bad input of every kind ends as a positioned `invalid_query`, in bounded time: token soup made
 * of SnQL's own words (the shapes most likely to reach deep into the parser and validators),
 * random text, deep nesting of subqueries and parentheses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";

const registry = defaultRegistry();

const WORDS = [
  "MATCH", "(", ")", "{", "}", "events", "e:", "g:", "groupedmessage", "-[grouped]->", "-[nope]->", "STORAGE", "errors",
  "SAMPLE", "0.5", "SELECT", "count()", "uniq(user)", "quantile(0.5)(duration)", ",", "BY", "ARRAY", "JOIN", "WHERE",
  "HAVING", "ORDER", "ASC", "DESC", "LIMIT", "OFFSET", "GRANULARITY", "TOTALS", "true", "=", "!=", "<", ">=", "IN",
  "NOT", "LIKE", "IS", "NULL", "AND", "OR", "+", "-", "*", "/", "1", "-1", "1.5", "'x'", "'it\\'s'", "tags[a]",
  "e.project_id", "project_id", "timestamp", "toDateTime('2024-01-01T00:00:00')", "tuple(1, 2)", "`x`", "->",
  "arrayExists", "AS", "c", "constructor", "toString[x]", "__proto__",
];

function expectPositionedInvalidQuery(text: string): void {
  try {
    prepareSnqlQuery(registry, text, false);
  } catch (error) {
    expect(error, text).toBeInstanceOf(QueryServiceError);
    const failure = error as QueryServiceError;
    expect(failure.type, text).toBe("invalid_query");
    expect(failure.position, `${text}\n${failure.message}`).toBeDefined();
  }
}

describe("bad SnQL input", () => {
  it("token soup is answered with a positioned invalid_query or a query", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 40 }), (words) => expectPositionedInvalidQuery(words.join(" "))),
      { numRuns: 1500 },
    );
  });

  it("token soup after a valid prefix reaches the validators and still ends positioned", () => {
    const prefix = "MATCH (e: events) -[grouped]-> (g: groupedmessage) SELECT";
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 30 }), (words) => expectPositionedInvalidQuery(`${prefix} ${words.join(" ")}`)),
      { numRuns: 800 },
    );
  });

  it("random text, binary and unicode", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => expectPositionedInvalidQuery(text)), { numRuns: 500 });
  });

  it("deep subqueries and parentheses are refused quickly", () => {
    const started = performance.now();
    const deepSubquery = `${"MATCH { ".repeat(100)}MATCH (events) SELECT count()${" } SELECT c".repeat(100)}`;
    expect(() => prepareSnqlQuery(registry, deepSubquery, false)).toThrow(/nests parentheses more than 64 levels deep/);
    const deepParens = `MATCH (events) SELECT count() WHERE ${"(".repeat(10_000)}a = 1${")".repeat(10_000)}`;
    expect(() => prepareSnqlQuery(registry, deepParens, false)).toThrow(/nests parentheses more than 64 levels deep/);
    const chain = (length: number) =>
      `MATCH (events) SELECT count() WHERE timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00') AND project_id = 1 AND ${Array.from({ length }, (_, i) => `level != 'l${i}'`).join(" AND ")}`;
    expect(() => prepareSnqlQuery(registry, chain(5000), false)).toThrow(/nests expressions more than 500 levels deep at line 1, column \d+/);
    // Just under the bound, every stage (validation, SQL printing) handles the depth.
    expect(prepareSnqlQuery(registry, chain(490), false).sql).toContain("notEquals(level, 'l489')");
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
