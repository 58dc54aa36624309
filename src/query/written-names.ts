/**
 * Where a query text wrote each function and column name, for pointing an engine error at the
 * one place it names. Positions are kept distinct: an alias's expression copied to each of its
 * references (alias-resolution.ts) or a BY expression that is also an output is still one place.
 */
import type { TextPosition } from "../errors/query-service-error.js";
import { queryExpressions, type Expression, type LogicalQuery } from "./ast.js";

export interface WrittenNames {
  /**
   * Function names, and the texts that name a function as a string (`arrayReduce('sumIf', ...)`,
   * the engine names those as functions too). A datetime literal counts as the `toDateTime` it
   * was written as.
   */
  readonly functions: ReadonlyMap<string, readonly TextPosition[]>;
  /** Column names as written: `e.title` in a join, `title` otherwise. */
  readonly columns: ReadonlyMap<string, readonly TextPosition[]>;
}

/** Strings longer than this name no function: they are not kept. */
const MAX_FUNCTION_NAME = 128;

function add(names: Map<string, TextPosition[]>, name: string, position: TextPosition | undefined): void {
  if (!position) return;
  const positions = names.get(name);
  if (!positions) {
    names.set(name, [position]);
  } else if (!positions.some((known) => known.line === position.line && known.column === position.column)) {
    positions.push(position);
  }
}

export function writtenNames(query: LogicalQuery): WrittenNames {
  const functions = new Map<string, TextPosition[]>();
  const columns = new Map<string, TextPosition[]>();
  const visit = (node: Expression): void => {
    switch (node.kind) {
      case "function":
        add(functions, node.name, node.position);
        for (const arg of node.args) visit(arg);
        return;
      case "curried":
        add(functions, node.name, node.position);
        for (const param of node.params) visit(param);
        for (const arg of node.args) visit(arg);
        return;
      case "lambda":
        visit(node.body);
        return;
      case "column":
        add(columns, node.entityAlias === undefined ? node.name : `${node.entityAlias}.${node.name}`, node.position);
        return;
      case "literal":
        if (typeof node.value === "string" && node.value.length <= MAX_FUNCTION_NAME && /^[^\s'"`(),]+$/.test(node.value)) add(functions, node.value, node.position);
        return;
      case "datetime":
        add(functions, "toDateTime", node.position);
        return;
      case "subscript":
      case "argument":
        return;
    }
  };
  const visitQuery = (current: LogicalQuery): void => {
    if (current.from.kind === "subquery") visitQuery(current.from.query);
    for (const expression of queryExpressions(current)) visit(expression);
  };
  visitQuery(query);
  return { functions, columns };
}
