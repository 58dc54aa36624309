/** The MQL grammar: each construct as snuba-sdk prints it, and an invalid corpus with messages and positions. */
import { describe, expect, it } from "vitest";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import type { MqlExpression, Timeseries } from "../../src/mql/mql-ast.js";
import { parseMql } from "../../src/mql/parse-mql.js";

/** The tree without positions, for comparisons. */
function shape(expression: MqlExpression): unknown {
  return JSON.parse(JSON.stringify(expression, (key, value) => (key === "position" ? undefined : value)));
}

function series(text: string): Timeseries {
  const parsed = parseMql(text);
  if (parsed.kind !== "timeseries") throw new Error(`not a timeseries: ${text}`);
  return parsed;
}

const DURATION = "d:transactions/duration@millisecond";

describe("timeseries", () => {
  it("reads an aggregate of an MRI, backticked or not", () => {
    expect(series(`sum(${DURATION})`)).toMatchObject({ aggregate: "sum", params: null, metric: { mri: DURATION }, filters: [], groupBy: [] });
    expect(series(`max(\`${DURATION}\`)`).metric).toEqual({ mri: DURATION, position: { line: 1, column: 5 } });
    expect(series("sum(`c:custom/page views@none`)").metric.mri).toBe("c:custom/page views@none");
  });

  it("reads public names", () => {
    expect(series("avg(transaction.duration)").metric.publicName).toBe("transaction.duration");
    expect(series("avg(`transaction.duration`)").metric.publicName).toBe("transaction.duration");
  });

  it("reads curried aggregates with numeric and string parameters", () => {
    expect(series(`quantiles(0.5, 0.95)(${DURATION})`).params).toEqual([0.5, 0.95]);
    expect(series(`histogram(250)(${DURATION})`).params).toEqual([250]);
    expect(series(`topk("a", b)(${DURATION})`).params).toEqual(["a", "b"]);
  });

  it("reads `by` with one key or a list, inside or after the aggregate", () => {
    expect(series(`sum(${DURATION}) by transaction`).groupBy).toEqual(["transaction"]);
    expect(series(`sum(${DURATION}) by (transaction, http.method)`).groupBy).toEqual(["transaction", "http.method"]);
    expect(series(`sum(${DURATION} by transaction)`).groupBy).toEqual(["transaction"]);
    expect(series(`sum(${DURATION})by(a,b)`).groupBy).toEqual(["a", "b"]);
  });
});

describe("filters", () => {
  const filters = (body: string) => shape({ ...series(`sum(${DURATION}){${body}}`), kind: "timeseries" } as MqlExpression) as { filters: unknown };

  it("reads key:value, quoted values, negation and IN lists", () => {
    expect(filters('transaction:"GET /api" AND !status:ok').filters).toEqual([
      { kind: "condition", key: "transaction", negated: false, values: ["GET /api"], list: false, wildcard: false },
      { kind: "condition", key: "status", negated: true, values: ["ok"], list: false, wildcard: false },
    ]);
    expect(filters('env:[prod, "stag ing"]').filters).toEqual([
      { kind: "condition", key: "env", negated: false, values: ["prod", "stag ing"], list: true, wildcard: false },
    ]);
  });

  it("reads prefix wildcards, bare and quoted", () => {
    expect(filters("release:backend@1.*").filters).toMatchObject([{ values: ["backend@1."], wildcard: true }]);
    expect(filters('release:"backend@1.*"').filters).toMatchObject([{ values: ["backend@1."], wildcard: true }]);
  });

  it("joins with AND, commas or plain whitespace, and OR binds looser", () => {
    const expected = filters("a:1 AND b:2").filters;
    expect(filters("a:1, b:2").filters).toEqual(expected);
    expect(filters("a:1 b:2").filters).toEqual(expected);
    expect(filters("a:1 and b:2").filters).toEqual(expected);
    expect(filters("a:1 b:2 OR c:3").filters).toMatchObject([{ kind: "or", args: [{ kind: "and" }, { kind: "condition", key: "c" }] }]);
    expect(filters("a:1 (b:2 or c:3)").filters).toMatchObject([{ key: "a" }, { kind: "or" }]);
  });

  it("keeps values holding colons, slashes and keywords, and unescapes \\\" and \\\\", () => {
    expect(filters("url:http://x/y").filters).toMatchObject([{ key: "url", values: ["http://x/y"] }]);
    expect(filters("word:and").filters).toMatchObject([{ key: "word", values: ["and"] }]);
    expect(filters('q:"say \\"hi\\" \\\\o/"').filters).toMatchObject([{ values: ['say "hi" \\o/'] }]);
  });

  it("accepts empty braces", () => {
    expect(series(`sum(${DURATION}){}`).filters).toEqual([]);
  });
});

describe("formulas", () => {
  it("gives * and / precedence over + and -, folding left", () => {
    expect(shape(parseMql(`sum(${DURATION}) + sum(${DURATION}) * 2`))).toMatchObject({
      kind: "arithmetic",
      operator: "plus",
      right: { kind: "arithmetic", operator: "multiply", right: { kind: "number", value: 2 } },
    });
    expect(shape(parseMql("sum(c:a/b@x) - sum(c:a/c@x) - sum(c:a/d@x)"))).toMatchObject({
      operator: "minus",
      left: { operator: "minus", left: { metric: { mri: "c:a/b@x" } }, right: { metric: { mri: "c:a/c@x" } } },
      right: { metric: { mri: "c:a/d@x" } },
    });
  });

  it("keeps every term of a chain", () => {
    const text = "sum(c:a/b@x) + sum(c:a/c@x) + sum(c:a/d@x) + 4";
    const leaves: string[] = [];
    const walk = (node: MqlExpression): void => {
      if (node.kind === "arithmetic") {
        walk(node.left);
        walk(node.right);
      } else leaves.push(node.kind === "timeseries" ? node.metric.mri! : String((node as { value: unknown }).value));
    };
    walk(parseMql(text));
    expect(leaves).toEqual(["c:a/b@x", "c:a/c@x", "c:a/d@x", "4"]);
  });

  it("pushes filters and by on a parenthesised formula down to every timeseries", () => {
    const parsed = parseMql('(sum(c:a/b@x){e:1} / sum(c:a/c@x)){t:"v"} by (k)');
    expect(shape(parsed)).toMatchObject({
      left: { filters: [{ key: "e" }, { key: "t" }], groupBy: ["k"] },
      right: { filters: [{ key: "t" }], groupBy: ["k"] },
    });
  });

  it("reads negation, scalar functions and curried calls", () => {
    expect(shape(parseMql("-sum(c:a/b@x)"))).toMatchObject({ kind: "call", name: "negate", args: [{ kind: "timeseries" }] });
    expect(shape(parseMql("-2 * sum(c:a/b@x)"))).toMatchObject({ left: { kind: "number", value: -2 } });
    expect(shape(parseMql("round(sum(c:a/b@x), 2)"))).toMatchObject({ kind: "call", name: "round", params: null, args: [{ kind: "timeseries" }, { kind: "number", value: 2 }] });
    expect(shape(parseMql("f(0.5)(sum(c:a/b@x), 1)"))).toMatchObject({ kind: "call", name: "f", params: [0.5] });
    expect(shape(parseMql("((sum(c:a/b@x) + 1) / (sum(c:a/c@x) * 2))"))).toMatchObject({ operator: "divide" });
  });
});

/** Invalid text, the message it must produce, and where. */
const INVALID: [string, string, { line: number; column: number } | null][] = [
  ["", "the MQL query is empty", { line: 1, column: 1 }],
  ["   ", "the MQL query is empty", { line: 1, column: 1 }],
  [DURATION, "No aggregate/expression or formula specified in MQL query", { line: 1, column: 1 }],
  [`sum(${DURATION}`, "unexpected end of MQL query at line 1, column 40: expected ')'", { line: 1, column: 40 }],
  [`sum(${DURATION}))`, "unexpected ')' at line 1, column 41", { line: 1, column: 41 }],
  [`sum(${DURATION}){a:1`, "unexpected end of MQL query", null],
  [`sum(${DURATION}){a}`, "syntax error at line 1, column 42 near 'a': expected a condition such as key:value", { line: 1, column: 42 }],
  [`sum(${DURATION}){a:}`, "near '}': expected a tag value", { line: 1, column: 44 }],
  [`sum(${DURATION}){a:"open}`, "unterminated string at line 1, column 44", { line: 1, column: 44 }],
  [`sum(${DURATION}){$v:1}`, "Variables are not supported yet: '$v'", { line: 1, column: 42 }],
  [`sum(${DURATION}){a:$v}`, "Variables are not supported yet: '$v'", { line: 1, column: 44 }],
  ["$x + sum(c:a/b@x)", "Variables are not supported yet", { line: 1, column: 1 }],
  [`sum(${DURATION}) +`, "unexpected end of MQL query", null],
  [`sum(${DURATION}) by`, "unexpected end of MQL query", null],
  [`sum(${DURATION}) by ()`, "syntax error at line 1, column 46 near ')': expected a group key", { line: 1, column: 46 }],
  ["sum(Transaction.Duration)", "'Transaction.Duration' is not a metric", { line: 1, column: 5 }],
  ["sum(`not a metric`)", "is neither an MRI", { line: 1, column: 5 }],
  [`${DURATION} + 1`, "needs an aggregate", { line: 1, column: 1 }],
  ["sum()", "'sum()' needs an argument", { line: 1, column: 1 }],
  [`quantiles(sum(${DURATION}))(${DURATION})`, "function parameters must be numbers or strings", { line: 1, column: 1 }],
  ["sum(c:a/b@x) ^ 2", "unexpected character at line 1, column 14", { line: 1, column: 14 }],
  ["sum(c:a/b@x)\n  + sum(c:a/c@x) }", "at line 2, column 18", { line: 2, column: 18 }],
  [`${"(".repeat(40)}sum(c:a/b@x)${")".repeat(40)}`, "nests brackets more than 32 levels deep", { line: 1, column: 33 }],
  [`sum(c:a/b@x){k:"${"x".repeat(70_000)}"}`, "bytes long; the maximum is 65536 bytes", null],
];

describe("invalid MQL", () => {
  const cases = INVALID.map(([text, ...rest]) => [text.length > 100 ? `${text.slice(0, 60)}…` : text, text, ...rest] as const);
  it.each(cases)("%j", (_label, text, message, position) => {
    let caught: unknown;
    try {
      parseMql(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(QueryServiceError);
    const error = caught as QueryServiceError;
    expect(error.type).toBe("invalid_query");
    expect(error.message).toContain(message);
    if (position) expect(error.position).toEqual(position);
  });
});
