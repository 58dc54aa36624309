import { describe, expect, it } from "vitest";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { parseSnql } from "../../src/snql/parse-snql.js";

const RANGE = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";

function parseError(text: string): QueryServiceError {
  try {
    parseSnql(text);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryServiceError);
    return error as QueryServiceError;
  }
  throw new Error(`expected '${text}' to fail`);
}

describe("parseSnql", () => {
  it("parses MATCH, SELECT with aliases and aggregates, BY, WHERE, ORDER BY and LIMIT", () => {
    const query = parseSnql(
      `MATCH (events) SELECT count() AS c, uniq(user), quantile(0.95)(duration) BY project_id WHERE ${RANGE} AND project_id IN tuple(1, 2) ORDER BY c DESC LIMIT 10`,
    );
    expect(query.from).toMatchObject({ kind: "entity", name: "events" });
    // BY columns come first in the output, as Snuba returns them.
    expect(query.selected.map((s) => s.name)).toEqual(["project_id", "c", "uniq(user)", "quantile(0.95)(duration)"]);
    expect(query.selected[3]!.expression).toMatchObject({ kind: "curried", name: "quantile", params: [{ value: 0.95 }] });
    expect(query.groupBy).toEqual([expect.objectContaining({ kind: "column", name: "project_id" })]);
    expect(query.orderBy).toEqual([{ expression: expect.objectContaining({ kind: "column", name: "c" }), direction: "DESC" }]);
    expect(query.limit).toBe(10);
    expect(query.offset).toBe(0);
  });

  it("defaults LIMIT to 1000 and refuses more than 10000", () => {
    expect(parseSnql(`MATCH (events) SELECT count() WHERE ${RANGE}`).limit).toBe(1000);
    const error = parseError("MATCH (events) SELECT count() LIMIT 10001");
    expect(error.message).toBe("queries cannot have a limit higher than 10000");
    expect(error.position).toEqual({ line: 1, column: 31 });
  });

  it("refuses an OFFSET that is no whole number or past 2^53 - 1, and a LIMIT or GRANULARITY that is no whole number, which the engine fails on (code 440, a 500 in the seed 23 fuzz)", () => {
    for (const [offset, column] of [["28282828282828282828282828", 31], ["1.5", 31], ["9007199254740992", 31]] as const) {
      const error = parseError(`MATCH (events) SELECT count() OFFSET ${offset}`);
      expect(error.type, offset).toBe("invalid_query");
      expect(error.message, offset).toMatch(/^OFFSET must be a whole number of at most 9007199254740991, got /);
      expect(error.position, offset).toEqual({ line: 1, column });
    }
    expect(parseSnql(`MATCH (events) SELECT count() WHERE ${RANGE} OFFSET 9007199254740991`).offset).toBe(9007199254740991);
    // a huge GRANULARITY is a whole number still, taken as Snuba takes it (seed 24's 8640000000000000000000)
    expect(parseSnql(`MATCH (events) SELECT count() WHERE ${RANGE} GRANULARITY 8640000000000000000000`).granularity).toBe(8.64e21);
    // and a LIMIT, a LIMIT BY or a GRANULARITY that is no whole number
    for (const [clause, words] of [["LIMIT 1.5", "LIMIT must be a whole number, got 1.5"], ["LIMIT 0.5 BY title", "LIMIT must be a whole number, got 0.5"], ["GRANULARITY 1.5", "GRANULARITY must be a whole number of seconds, got 1.5"]] as const) {
      const error = parseError(`MATCH (events) SELECT count() ${clause}`);
      expect(error.message, clause).toBe(words);
      expect(error.position, clause).toEqual({ line: 1, column: 31 });
    }
  });

  it("turns toDateTime string literals into instants, honouring UTC offsets", () => {
    const query = parseSnql(
      "MATCH (events) SELECT count() WHERE timestamp >= toDateTime('2024-01-01T02:00:00+02:00') AND timestamp < toDateTime('2024-01-01 01:00:00')",
    );
    const [ge, lt] = (query.where as unknown as { args: { args: unknown[] }[] }).args;
    expect(ge!.args[1]).toMatchObject({ kind: "datetime", epochSeconds: Date.UTC(2024, 0, 1) / 1000 });
    expect(lt!.args[1]).toMatchObject({ kind: "datetime", epochSeconds: Date.UTC(2024, 0, 1, 1) / 1000 });
  });

  it("rejects an invalid datetime with its position", () => {
    const error = parseError("MATCH (events) SELECT count() WHERE timestamp >= toDateTime('2024-13-01')");
    expect(error.type).toBe("invalid_query");
    expect(error.message).toContain("'2024-13-01' is not a valid datetime");
    expect(error.position).toEqual({ line: 1, column: 50 });
  });

  it("gives AND precedence over OR and keeps arithmetic left-associative", () => {
    const query = parseSnql("MATCH (events) SELECT a - b - c, a + b * c WHERE x = 1 OR y = 2 AND z = 3");
    expect(query.where).toMatchObject({ name: "or", args: [{ name: "equals" }, { name: "and" }] });
    expect(query.selected[0]!.expression).toMatchObject({ name: "minus", args: [{ name: "minus" }, { name: "c" }] });
    expect(query.selected[1]!.expression).toMatchObject({ name: "plus", args: [{ name: "a" }, { name: "multiply" }] });
  });

  it("reads negative numbers, NOT IN, LIKE, IS NULL and subscripts", () => {
    const query = parseSnql(
      "MATCH (events) SELECT tags[sentry:release] WHERE a = -1 AND b NOT IN tuple('x') AND c NOT LIKE '%y%' AND d IS NOT NULL AND contexts[geo.city] IS NULL",
    );
    expect(query.selected[0]).toMatchObject({ name: "tags[sentry:release]", expression: { kind: "subscript", column: "tags", key: "sentry:release" } });
    const names = JSON.stringify(query.where).match(/"name":"(notIn|notLike|isNotNull|isNull)"/g);
    expect(names).toEqual(['"name":"notIn"', '"name":"notLike"', '"name":"isNotNull"', '"name":"isNull"']);
    expect(JSON.stringify(query.where)).toContain('"value":-1');
  });


  it("folds a long operator chain by precedence: * / over + - over comparisons over AND over OR", () => {
    const query = parseSnql("MATCH (events) SELECT a WHERE a + b * c >= d / 2 - 1 AND e IS NULL OR f NOT IN tuple(1) AND g LIKE 'x' OR h = (i OR j)");
    const print = (node: unknown): string => {
      const n = node as { kind: string; name?: string; args?: unknown[]; value?: unknown };
      if (n.kind === "function") return `${n.name}(${n.args!.map(print).join(", ")})`;
      return n.kind === "literal" ? JSON.stringify(n.value) : n.name!;
    };
    expect(print(query.where)).toBe(
      'or(or(and(greaterOrEquals(plus(a, multiply(b, c)), minus(divide(d, 2), 1)), isNull(e)), and(notIn(f, tuple(1)), like(g, "x"))), equals(h, or(i, j)))',
    );
    // Each node keeps the position of its own operator (NOT IN: the NOT).
    expect(query.where).toMatchObject({ position: { line: 1, column: 104 } });
    expect(JSON.stringify(query.where)).toContain('"name":"notIn","args":[{"kind":"column","name":"f","position":{"line":1,"column":71}}');
  });

  it("refuses chained comparisons, arithmetic after IS NULL and conditions in ARRAY JOIN or LIMIT BY, at the operator", () => {
    const cases: [string, string, number][] = [
      ["MATCH (events) SELECT a WHERE a = b = c", "comparisons do not chain", 37],
      ["MATCH (events) SELECT a WHERE a IS NULL = 1", "comparisons do not chain", 41],
      ["MATCH (events) SELECT a WHERE a < 1 IN tuple(1)", "comparisons do not chain", 37],
      ["MATCH (events) SELECT a WHERE a IS NULL + 1", "after IS NULL", 41],
      ["MATCH (events) SELECT a LIMIT 1 BY a = b", "holds no conditions", 38],
      ["MATCH (events) SELECT a ARRAY JOIN a AND b", "holds no conditions", 38],
    ];
    for (const [text, message, column] of cases) {
      const error = parseError(text);
      expect(error.message, text).toContain(message);
      expect(error.position, text).toEqual({ line: 1, column });
    }
    // A curried call with nothing in its second parentheses (ClickHouse's parser refuses it).
    const empty = parseError("MATCH (events) SELECT quantile(0.5)() AS q");
    expect(empty.message).toContain("quantile(…)() at line 1, column 23 needs at least one argument in its second parentheses");
    expect(empty.position).toEqual({ line: 1, column: 23 });
    // In parentheses a condition is one operand again.
    expect(parseSnql("MATCH (events) SELECT a WHERE (a = b) = 1 LIMIT 1 BY (a = b)").limitBy?.columns[0]).toMatchObject({ name: "equals" });
  });
  it("unescapes string literals", () => {
    const query = parseSnql("MATCH (events) SELECT count() WHERE message = 'it\\'s a \\\\ back\\nslash'");
    expect((query.where as unknown as { args: { value: unknown }[] }).args[1]!.value).toBe("it's a \\ back\nslash");
  });

  it.each([
    ["", "the query is empty", { line: 1, column: 1 }],
    ["   ", "the query is empty", { line: 1, column: 1 }],
    ["match (events) SELECT a", "near 'match'", { line: 1, column: 1 }],
    ["MATCH (events) SELECT", "unexpected end of query", { line: 1, column: 22 }],
    ["MATCH (events) SELECT count() WHERE a = 'open", "unterminated string literal", { line: 1, column: 41 }],
    ["MATCH (events)\nSELECT count()\nWHERE a = 1 ORDER BY a LIMIT 5", "near 'LIMIT': expected one of: ASC, DESC", { line: 3, column: 24 }],
    ["MATCH (events) SELECT a WHERE b = 1 SELECT c", "expected the end of the query", { line: 1, column: 37 }],
    ["MATCH (events) SELECT a ; DROP TABLE x", "unexpected character", { line: 1, column: 25 }],
  ])("rejects %j with a position", (text, fragment, position) => {
    const error = parseError(text);
    expect(error.type).toBe("invalid_query");
    expect(error.message).toContain(fragment);
    expect(error.position).toEqual(position);
  });

  it("bounds nesting depth and query size with their own messages", () => {
    const deep = `MATCH (events) SELECT ${"f(".repeat(200)}1${")".repeat(200)}`;
    expect(parseError(deep).message).toContain("nests parentheses more than 64 levels deep");
    const huge = `MATCH (events) SELECT count() WHERE message = '${"x".repeat(300 * 1024)}'`;
    expect(parseError(huge).message).toMatch(/bytes long; the maximum is 262144 bytes/);
  });

  it("refuses a number too large for a 64-bit float at its position", () => {
    for (const literal of ["1.20243e+22657", "-1.5e+400"]) {
      const error = parseError(`MATCH (events) SELECT count() AS c WHERE ${RANGE}\n  AND duration < ${literal}`);
      expect(error.type).toBe("invalid_query");
      expect(error.message).toContain("too large for a 64-bit float");
      expect(error.position).toEqual({ line: 2, column: literal.startsWith("-") ? 19 : 18 });
    }
  });

  it("never throws anything but an invalid_query error on binary junk", () => {
    const junk = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256)).toString("latin1");
    expect(parseError(junk).type).toBe("invalid_query");
  });
});
