/**
 * fast-check arbitraries for random valid SnQL logical queries: every source (entity, storage,
 * join, subquery), every clause, literals with hostile strings, operators with their
 * precedence, curried functions, lambdas and subscripts. Printed with `printSnql`, they give
 * random valid query texts.
 */
import fc from "fast-check";
import type { Expression, LogicalQuery, QuerySource, SelectedExpression } from "../../src/query/ast.js";
import { printSnqlExpression } from "../../src/snql/print-snql.js";

const COLUMNS = ["project_id", "level", "release", "timestamp", "tags.key", "e.project_id", "g.status", "user_email"];
const FUNCTIONS = ["count", "uniq", "max", "toString", "has", "arrayElement", "ifNull", "coalesce"];
const OPERATORS = [
  "or", "and", "equals", "notEquals", "less", "lessOrEquals", "greater", "greaterOrEquals",
  "in", "notIn", "like", "notLike", "plus", "minus", "multiply", "divide",
];
const ALIASES = ["a1", "total", "b_2"];

const literal: fc.Arbitrary<Expression> = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }).map((value) => ({ kind: "literal" as const, value })),
  fc.constantFrom("it's", "back\\slash", "-- comment", "/* c */", "line\nbreak", "tab\tand\rreturn", "naïve ☃ 💥", "\\'", "'; DROP TABLE x; --")
    .map((value) => ({ kind: "literal" as const, value })),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((value) => ({ kind: "literal" as const, value })),
  // integers a double cannot hold: kept as written
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n })
    .filter((value) => !Number.isSafeInteger(Number(value)))
    .map((value) => ({ kind: "literal" as const, value: Number(value), digits: String(value) })),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true })
    .filter((value) => !Object.is(value, -0))
    .map((value) => ({ kind: "literal" as const, value })),
  fc.constantFrom(true, false, null).map((value) => ({ kind: "literal" as const, value })),
  fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }).map((epochSeconds) => ({ kind: "datetime" as const, epochSeconds })),
);

const leaf: fc.Arbitrary<Expression> = fc.oneof(
  literal,
  fc.constantFrom(...COLUMNS).map((name) => ({ kind: "column" as const, name })),
  fc.record({
    kind: fc.constant("subscript" as const),
    column: fc.constantFrom("tags", "contexts", "e.tags"),
    key: fc.string({ maxLength: 10 }).filter((key) => !/[[\]]/.test(key)),
  }),
);

const maybeAlias = fc.option(fc.constantFrom(...ALIASES), { nil: undefined });
const withAlias = <T extends object>(node: T, alias: string | undefined): T => (alias === undefined ? node : { ...node, alias });

const { expression } = fc.letrec<{ expression: Expression }>((tie) => ({
  expression: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.tuple(fc.constantFrom(...OPERATORS), tie("expression"), tie("expression")).map(
      ([name, left, right]): Expression => ({ kind: "function", name, args: [left, right] }),
    ),
    fc.tuple(fc.constantFrom("isNull", "isNotNull"), tie("expression")).map(([name, arg]): Expression => ({ kind: "function", name, args: [arg] })),
    fc.tuple(fc.constantFrom(...FUNCTIONS), fc.array(tie("expression"), { maxLength: 3 }), maybeAlias).map(
      ([name, args, alias]): Expression => withAlias({ kind: "function", name, args }, alias),
    ),
    fc.tuple(fc.constantFrom("quantile", "quantiles", "topK"), fc.array(literal, { minLength: 1, maxLength: 2 }), tie("expression"), maybeAlias).map(
      ([name, params, arg, alias]): Expression => withAlias({ kind: "curried", name, params, args: [arg] }, alias),
    ),
    tie("expression").map((arg): Expression => ({
      kind: "function",
      name: "arrayExists",
      args: [
        { kind: "lambda", params: ["x"], body: { kind: "function", name: "equals", args: [{ kind: "argument", name: "x" }, arg] } },
        { kind: "column", name: "tags.value" },
      ],
    })),
  ),
}));

/** A select item named as the parser names it: its alias, else its own text. */
const selectItem: fc.Arbitrary<SelectedExpression> = fc
  .tuple(expression, fc.option(fc.constantFrom("x_alias", "y"), { nil: undefined }))
  .map(([node, itemAlias]) => {
    const canAlias = node.kind === "column" || node.kind === "subscript";
    if (canAlias && itemAlias !== undefined) return { name: itemAlias, expression: node, alias: itemAlias };
    const own = (node.kind === "function" || node.kind === "curried") && node.alias !== undefined ? node.alias : undefined;
    return { name: own ?? printSnqlExpression(node), expression: node };
  });

const sample = fc.option(fc.constantFrom(0.1, 0.5, 1), { nil: undefined });
const withSample = <T extends object>(node: T, value: number | undefined): T => (value === undefined ? node : { ...node, sample: value });

function queryOf(from: fc.Arbitrary<QuerySource>, outermost: boolean): fc.Arbitrary<LogicalQuery> {
  return fc
    .record({
      from,
      by: fc.array(selectItem, { maxLength: 2 }),
      select: fc.array(selectItem, { minLength: 1, maxLength: 3 }),
      arrayJoin: fc.array(fc.constantFrom(...COLUMNS).map((name): Expression => ({ kind: "column", name })), { maxLength: 2 }),
      where: fc.option(expression, { nil: null }),
      having: fc.option(expression, { nil: null }),
      orderBy: fc.array(fc.record({ expression, direction: fc.constantFrom("ASC" as const, "DESC" as const) }), { maxLength: 2 }),
      limitBy: fc.option(fc.record({ limit: fc.integer({ min: 0, max: 10_000 }), columns: fc.array(expression, { minLength: 1, maxLength: 2 }) }), { nil: null }),
      limit: outermost ? fc.integer({ min: 0, max: 10_000 }) : fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
      offset: fc.integer({ min: 0, max: 500 }),
      granularity: fc.option(fc.integer({ min: 1, max: 86_400 }), { nil: null }),
      totals: fc.boolean(),
    })
    .map(({ by, select, arrayJoin, ...rest }) => ({
      ...rest,
      selected: [...by, ...select],
      groupBy: by.map((item) => item.expression),
      ...(arrayJoin.length > 0 ? { arrayJoin } : {}),
    }));
}

const entitySource = fc.tuple(fc.constantFrom("events", "transactions"), sample).map(([name, s]) => withSample({ kind: "entity" as const, name }, s));
const storageSource = fc.tuple(fc.constantFrom("errors", "profile_chunks"), sample).map(([name, s]) => withSample({ kind: "storage" as const, name }, s));
const joinSource: fc.Arbitrary<QuerySource> = fc.constantFrom(
  {
    kind: "join" as const,
    entities: [{ alias: "e", entity: "events" }, { alias: "g", entity: "groupedmessage" }],
    edges: [{ lhs: "e", relationship: "grouped", rhs: "g" }],
  },
  {
    kind: "join" as const,
    entities: [{ alias: "e", entity: "events" }, { alias: "g", entity: "groupedmessage" }, { alias: "a", entity: "groupassignee" }],
    edges: [{ lhs: "e", relationship: "grouped", rhs: "g" }, { lhs: "e", relationship: "assigned", rhs: "a" }],
  },
);
const simpleSource = fc.oneof(entitySource, storageSource, joinSource);
const subquerySource = queryOf(simpleSource, false).map((query): QuerySource => ({ kind: "subquery", query }));
export const anyQuery = queryOf(fc.oneof(simpleSource, subquerySource), true);

/** The query without positions (and without keys whose value is undefined). */
export function shape(query: LogicalQuery): unknown {
  return JSON.parse(JSON.stringify(query, (key, value: unknown) => (key === "position" ? undefined : value)));
}
