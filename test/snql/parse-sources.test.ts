/** The logical query the parser builds for each MATCH source and for the clauses added with them. */
import { describe, expect, it } from "vitest";
import { parseSnql } from "../../src/snql/parse-snql.js";

describe("parseSnql sources and clauses", () => {
  it("MATCH STORAGE(name SAMPLE f)", () => {
    expect(parseSnql("MATCH STORAGE(errors SAMPLE 0.5) SELECT count()").from).toEqual({
      kind: "storage",
      name: "errors",
      sample: 0.5,
      position: { line: 1, column: 15 },
    });
  });

  it("joins: aliases once, in order of appearance, and one edge per relationship", () => {
    const query = parseSnql("MATCH (e: events) -[grouped]-> (g:groupedmessage), (e: events) -[assigned]-> (a: groupassignee) SELECT e.project_id");
    expect(query.from).toMatchObject({
      kind: "join",
      entities: [
        { alias: "e", entity: "events" },
        { alias: "g", entity: "groupedmessage" },
        { alias: "a", entity: "groupassignee" },
      ],
      edges: [
        { lhs: "e", relationship: "grouped", rhs: "g", position: { line: 1, column: 19 } },
        { lhs: "e", relationship: "assigned", rhs: "a" },
      ],
    });
    expect(query.selected[0]).toMatchObject({ name: "e.project_id", expression: { kind: "column", name: "e.project_id" } });
  });

  it("a join alias naming two entities is refused", () => {
    expect(() => parseSnql("MATCH (e: events) -[grouped]-> (e: groupedmessage) SELECT count()")).toThrow(/alias 'e' at line 1, column 33 names two entities/);
  });

  it("subqueries nest a whole query; only the outer one gets the default LIMIT", () => {
    const query = parseSnql("MATCH { MATCH (events) SELECT count() AS c BY project_id } SELECT max(c) AS m");
    expect(query.limit).toBe(1000);
    expect(query.from).toMatchObject({ kind: "subquery", query: { from: { kind: "entity", name: "events" }, limit: null } });
  });

  it("ARRAY JOIN, LIMIT BY with LIMIT, OFFSET, TOTALS", () => {
    const query = parseSnql("MATCH (events) SELECT count() BY tags.key ARRAY JOIN tags.key LIMIT 2 BY tags.key LIMIT 5 OFFSET 3 TOTALS true");
    expect(query.arrayJoin).toEqual([expect.objectContaining({ kind: "column", name: "tags.key" })]);
    expect(query.limitBy).toEqual({ limit: 2, columns: [expect.objectContaining({ kind: "column", name: "tags.key" })] });
    expect([query.limit, query.offset, query.totals]).toEqual([5, 3, true]);
  });

  it("lambdas bind back-quoted parameters; their body is a function call", () => {
    const [item] = parseSnql("MATCH (events) SELECT arrayExists((`x`, `y`) -> equals(`x`, `y`), tags.key, tags.value)").selected;
    expect(item!.expression).toMatchObject({
      kind: "function",
      name: "arrayExists",
      args: [
        { kind: "lambda", params: ["x", "y"], body: { kind: "function", name: "equals", args: [{ kind: "argument", name: "x" }, { kind: "argument", name: "y" }] } },
        { kind: "column", name: "tags.key" },
        { kind: "column", name: "tags.value" },
      ],
    });
    expect(() => parseSnql("MATCH (events) SELECT arrayExists((`x`) -> `x`, tags.key)")).toThrow(/syntax error/);
  });

  it("SAMPLE takes a float literal", () => {
    expect(parseSnql("MATCH (events SAMPLE 0.25) SELECT count()").from).toMatchObject({ sample: 0.25 });
    expect(() => parseSnql("MATCH (events SAMPLE 10) SELECT count()")).toThrow(/invalid SAMPLE 10 at line 1, column 15/);
  });
});
