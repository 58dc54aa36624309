/**
 * SQL for `MATCH { <inner> } SELECT ...`: the outer level reads the inner query's output columns,
 * which the inner SQL names `_snuba_<name>` (as Snuba mangles subquery aliases).
 */
import type { LogicalQuery } from "../query/ast.js";
import { ExpressionPrinter } from "./expression-printer.js";
import { assembleSql, DEFAULT_GRANULARITY, outputItems, queryClauses, type BuiltSql } from "./sql-builder.js";

export function buildSubquerySql(query: LogicalQuery, inner: BuiltSql, aliases: ReadonlySet<string>): BuiltSql {
  const printer = new ExpressionPrinter({ kind: "subquery" }, aliases, query.granularity ?? DEFAULT_GRANULARITY);
  const sql = assembleSql(queryClauses(query, printer, () => null, aliases, [], `(${inner.sql})`));
  return { ...inner, sql, columnNames: outputItems(query, aliases).map((s) => s.name) };
}
