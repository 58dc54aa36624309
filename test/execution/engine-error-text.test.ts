/**
 * The text of engine errors, on messages in the shapes the engine and its clients produce: what
 * is dropped, what is renamed, which names a message gives, and where a SnQL text wrote them.
 * (engine-errors.test.ts holds the same to the embedded engine's own messages.)
 */
import { describe, expect, it } from "vitest";
import { columnstoreError } from "../../src/clickhouse/clickhouse-error.js";
import { engineErrorPosition, locatedEngineError, namesInEngineMessage } from "../../src/query/engine-error-position.js";
import { readableEngineMessage } from "../../src/errors/readable-engine-message.js";
import { writtenNames } from "../../src/query/written-names.js";
import { parseSnql } from "../../src/snql/parse-snql.js";

const RANGE = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00') AND project_id = 1";

describe("readableEngineMessage", () => {
  it("drops a server's banner, code name, version and stack trace", () => {
    const raw =
      "Code: 62. DB::Exception: Syntax error: failed at position 17 (_snuba_x) (line 1, col 17): _snuba_x FROM errors_local. Expected one of: token. (SYNTAX_ERROR) (version 24.8.4.13 (official build))\nStack trace:\n0. DB::Exception::Exception() @ 0x1";
    expect(readableEngineMessage(raw)).toBe("Syntax error");
  });

  it("keeps a sentence that has no noise as it is", () => {
    expect(readableEngineMessage("Quantile level is out of range [0..1]. ")).toBe("Quantile level is out of range [0..1]");
  });

  it("reduces the analyzer's action on a function to the function's name, whatever its literals hold", () => {
    const raw =
      "Cannot parse input: expected ':' before: 'x': while executing 'FUNCTION match(__table1.title :: 0, '.:'_String :: 1) -> match(__table1.title, '.:'_String) UInt8 : 2': While executing MergeTreeSelect(pool: ReadPoolInOrder, algorithm: InOrder). ";
    expect(readableEngineMessage(raw)).toBe("Cannot parse input: expected ':' before: 'x': while executing function match");
  });

  it("reduces a function's arguments as the engine lists them to the function's name", () => {
    const raw =
      "'%' must not be the last character in the format string, use '%%' instead: while executing function formatDateTime on arguments __table1.timestamp DateTime UInt32(size = 0), '%Q%'_String String Const(size = 0, String(size = 1)). ";
    expect(readableEngineMessage(raw)).toBe("'%' must not be the last character in the format string, use '%%' instead: while executing function formatDateTime");
  });

  it("cuts the echoed SQL however the engine introduces it", () => {
    expect(readableEngineMessage("Unknown expression identifier `nosuchcol` in scope SELECT nosuchcol AS _snuba_x FROM errors_local. ")).toBe(
      "Unknown expression identifier `nosuchcol`",
    );
    expect(readableEngineMessage("Column 'default.errors_local.title' is not under aggregate function and not in GROUP BY keys. In query SELECT title AS _snuba_title FROM errors_local. ")).toBe(
      "Column 'title' is not under aggregate function and not in GROUP BY keys",
    );
    expect(readableEngineMessage("Missing columns: '_snuba_x' while processing query: 'SELECT _snuba_x FROM errors_local', required columns: '_snuba_x'")).toBe(
      "Missing columns: 'x'",
    );
    expect(readableEngineMessage("Aggregate function sum(project_id) is found in WHERE in query. ")).toBe("Aggregate function sum(project_id) is found in WHERE");
  });

  it("names aliases and columns as the query does", () => {
    expect(readableEngineMessage("Multiple expressions (2) AS _snuba_a and (1) AS `_snuba_b c` for alias _snuba_a")).toBe("Multiple expressions (2) AS a and (1) AS `b c` for alias a");
    expect(readableEngineMessage("Illegal type String of argument of function plus: __table1.title, __table2.release")).toBe("Illegal type String of argument of function plus: title, release");
  });

  it("reads a message of a megabyte in one pass, whatever runs of spaces, dots or quotes the query's values put in it", () => {
    const started = performance.now();
    for (const raw of ["x" + " ".repeat(1_000_000) + "y", ". ".repeat(500_000) + "x", ": while executing 'FUNCTION f(".repeat(50_000), "function sum(".repeat(100_000)]) {
      const message = readableEngineMessage(raw);
      expect(message.length).toBeLessThanOrEqual(2002);
      namesInEngineMessage(message);
    }
    // One pass takes milliseconds; a pattern tried again from each character of a run took minutes.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("columnstore errors carry the readable message, the code and the status", () => {
    const error = columnstoreError(Object.assign(new Error("Unknown aggregate function sumI✘: In scope SELECT arrayReduce('sumI✘', [1]) AS _snuba_x. "), { code: "63" }), {});
    expect(error).toMatchObject({ type: "columnstore", code: 63, httpStatus: 400, message: "Unknown aggregate function sumI✘" });
    expect(columnstoreError(Object.assign(new Error("Timeout exceeded: elapsed 30 seconds"), { code: "159" }), {}).httpStatus).toBe(500);
  });
});

describe("namesInEngineMessage", () => {
  it("finds functions before or after the word, quoted or not, and columns, in the order the message gives them", () => {
    expect(namesInEngineMessage("Column 'title' is not under aggregate function and not in GROUP BY keys").map((n) => [n.kind, n.name])).toEqual([["column", "title"]]);
    expect(namesInEngineMessage("Illegal types of arguments (`Array(UInt8)`, `Array(Array(UInt8))`) of function `equals`").map((n) => n.name)).toEqual(["equals"]);
    expect(namesInEngineMessage("Value passed to 'throwIf' function is non-zero: while executing function throwIf").map((n) => n.name)).toEqual(["throwIf", "throwIf"]);
    expect(namesInEngineMessage("Function with name `nosuchfn` does not exist").map((n) => n.name)).toEqual(["nosuchfn"]);
    expect(namesInEngineMessage("Unknown expression identifier `x`").map((n) => [n.kind, n.name])).toEqual([["column", "x"]]);
  });

  it("takes an operator's name for a function only where the sentence ends after it", () => {
    expect(namesInEngineMessage("Illegal type (String) of 2 argument of function and").map((n) => n.name)).toEqual(["and"]);
    expect(namesInEngineMessage("Column `x` is not under aggregate function and not in GROUP BY keys").map((n) => n.name)).toEqual(["x"]);
  });

  it("ends a named call after its arguments, so a position follows the whole call", () => {
    const message = "Aggregate function sum(plus(project_id, 1)) is found in WHERE";
    const [named] = namesInEngineMessage(message);
    expect(message.slice(0, named!.end)).toBe("Aggregate function sum(plus(project_id, 1))");
  });
});

describe("positions in the SnQL text", () => {
  it("collects functions (operators too), columns and strings once per place, through subqueries", () => {
    const query = `MATCH { MATCH (events) SELECT count() AS c BY title WHERE ${RANGE} AND title != 'sumIf' } SELECT max(c) AS m BY title`;
    const names = writtenNames(parseSnql(query));
    expect(names.functions.get("count")).toHaveLength(1);
    expect(names.functions.get("notEquals")).toEqual([{ line: 1, column: query.indexOf("!=") + 1 }]);
    expect(names.functions.get("sumIf")).toEqual([{ line: 1, column: query.indexOf("'sumIf'") + 1 }]);
    expect(names.functions.get("toDateTime")).toHaveLength(2);
    // `title` in the inner BY (once, though BY keys are also outputs), its condition, the outer BY.
    expect(names.columns.get("title")).toHaveLength(3);
    expect(names.columns.get("c")).toHaveLength(1);
  });

  it("places the first name the query wrote; a name written twice, or one it wrote first twice, places nothing", () => {
    const names = writtenNames(parseSnql(`MATCH (events) SELECT plus(title, 1) AS x, toString(title) AS y WHERE ${RANGE}`));
    expect(engineErrorPosition("Illegal types String and UInt8 of arguments of function plus", names)?.position).toEqual({ line: 1, column: 23 });
    // `title` is written twice: the message names it first, so no position, though plus is once.
    expect(engineErrorPosition("Column 'title' is bad in function plus", names)).toBeNull();
    // A name the query never wrote is passed over.
    expect(engineErrorPosition("Illegal type of function ifNull in function plus", names)?.position).toEqual({ line: 1, column: 23 });
  });

  it("a placed error says the position in its message and body; an unplaced one is the same error", () => {
    const names = writtenNames(parseSnql(`MATCH (events) SELECT plus(title, 1) AS x WHERE ${RANGE}`));
    const error = columnstoreError(Object.assign(new Error("Illegal types String and UInt8 of arguments of function plus: In scope SELECT plus(title, 1)"), { code: 43 }), { sql: "SELECT" });
    const placed = locatedEngineError(error, names);
    expect(placed.message).toBe("Illegal types String and UInt8 of arguments of function plus at line 1, column 23");
    expect(placed.toErrorBody()).toEqual({ type: "columnstore", message: placed.message, code: 43, line: 1, column: 23 });
    expect(placed.extra).toEqual({ sql: "SELECT" });
    expect(placed.httpStatus).toBe(400);
    const unplaced = columnstoreError(Object.assign(new Error("Division by zero"), { code: 153 }), {});
    expect(locatedEngineError(unplaced, names)).toBe(unplaced);
  });
});
