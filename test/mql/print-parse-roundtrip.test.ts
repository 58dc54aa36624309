/**
 * Property: printing a syntax tree the way snuba-sdk does and parsing it back gives the same
 * tree, over arbitrary metrics, filters (quoting, escapes, nesting), group keys and formulas.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Filter, MqlExpression, TagCondition, Timeseries } from "../../src/mql/mql-ast.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { parseMql } from "../../src/mql/parse-mql.js";
import { printMql } from "../../src/mql/print-mql.js";

function withoutPositions(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === "position" ? undefined : v)));
}

const word = (chars: string, max = 8) =>
  fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength: max }).map((a) => a.join(""));
const lower = "abcdefghijklmnopqrstuvwxyz";
const keyChars = `${lower}ABCXYZ0123456789_.`;
const notKeyword = (text: string) => text !== "by" && !/^(and|or|AND|OR)$/.test(text);

const tagKey = word(keyChars, 12).filter(notKeyword);
/** Any text, with quotes, backslashes and newlines; a plain value may not end in `*` (that is a prefix match). */
const tagValue = fc.string({ unit: fc.constantFrom(..."ab /:@-\"\\\n*é[],{}()"), maxLength: 10 });

const mri = fc
  .tuple(fc.constantFrom("c", "d", "s", "g"), word(lower), word(`${lower}_.`), word(lower, 5))
  .map(([type, namespace, name, unit]) => `${type}:${namespace}/${name}@${unit}`);
const publicName = fc.array(word(`${lower}_`, 6).filter(notKeyword), { minLength: 1, maxLength: 3 }).map((parts) => parts.join("."));

const number = fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 99_999 }).map((n) => n / 100));
const param = fc.oneof(number, tagValue);

const condition: fc.Arbitrary<TagCondition> = fc
  .record({ key: tagKey, negated: fc.boolean(), kind: fc.constantFrom("one", "list", "prefix"), values: fc.array(tagValue, { minLength: 1, maxLength: 3 }) })
  .filter(({ kind, values }) => kind !== "one" || !values[0]!.endsWith("*"))
  .map(({ key, negated, kind, values }) => ({
    kind: "condition",
    key,
    negated,
    values: kind === "list" ? values : [values[0]!],
    list: kind === "list",
    wildcard: kind === "prefix",
  }));

const { filter } = fc.letrec<{ filter: Filter }>((tie) => ({
  filter: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    condition,
    fc.record({ kind: fc.constantFrom("and" as const, "or" as const), args: fc.array(tie("filter"), { minLength: 2, maxLength: 3 }) }),
  ),
}));
/** At the top of a filter list an AND group would flatten into the list, so only conditions and ORs. */
const topFilter = filter.filter((f) => f.kind !== "and");

const timeseries: fc.Arbitrary<Timeseries> = fc.record({
  kind: fc.constant("timeseries" as const),
  aggregate: fc.constantFrom("sum", "avg", "max", "count", "uniq", "quantiles", "p95_custom"),
  params: fc.option(fc.array(param, { maxLength: 3 }), { nil: null }),
  metric: fc.oneof(mri.map((m) => ({ mri: m })), publicName.map((p) => ({ publicName: p }))),
  filters: fc.array(topFilter, { maxLength: 3 }),
  groupBy: fc.uniqueArray(tagKey, { maxLength: 3 }),
});

const { expression } = fc.letrec<{ expression: MqlExpression }>((tie) => ({
  expression: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    timeseries,
    fc.record({
      kind: fc.constant("arithmetic" as const),
      operator: fc.constantFrom("plus" as const, "minus" as const, "multiply" as const, "divide" as const),
      left: tie("expression"),
      right: fc.oneof(tie("expression"), number.map((value) => ({ kind: "number" as const, value }))),
    }),
    fc.record({
      kind: fc.constant("call" as const),
      name: fc.constantFrom("round", "abs", "greatest"),
      params: fc.constant(null),
      args: fc.tuple(tie("expression"), fc.array(fc.oneof(number.map((value) => ({ kind: "number" as const, value })), tagValue.map((value) => ({ kind: "string" as const, value }))), { maxLength: 2 })).map(([first, rest]) => [first, ...rest]),
    }),
    timeseries.map((series) => ({ kind: "call" as const, name: "negate", params: null, args: [series] })),
  ),
}));

describe("print / parse round trip", () => {
  it("parses what it prints back to the same tree", () => {
    fc.assert(
      fc.property(expression, (tree) => {
        const text = printMql(tree);
        expect(withoutPositions(parseMql(text))).toEqual(withoutPositions(tree));
      }),
      { numRuns: 500 },
    );
  });

  it("prints the SDK's shapes", () => {
    const tree = parseMql('(sum(c:a/b@none){t:"x" AND !e:[p, q]} by (k) / quantiles(0.5)(d:a/c@ms){u:v*})');
    expect(printMql(tree)).toBe('(sum(c:a/b@none){t:"x" AND !e:["p", "q"]} by (k) / quantiles(0.5)(d:a/c@ms){u:"v*"})');
  });
});

describe("hostile text", () => {
  const fragments = fc.constantFrom(
    "sum(", ")", "(", "{", "}", "[", "]", ",", ":", "!", "*", "/", "+", "-", " by ", " AND ", " OR ", "$v", '"', "`",
    "c:a/b@c", "quantiles(0.5)", "k:v", "0.5", "\\", "\n", "é", "\u0000",
  );
  it("answers any text with a tree or a typed invalid_query, never a crash", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join(""))), (text) => {
        try {
          parseMql(text);
        } catch (error) {
          expect(error).toBeInstanceOf(QueryServiceError);
          expect((error as QueryServiceError).type).toBe("invalid_query");
        }
      }),
      { numRuns: 2000 },
    );
  });
});
