/**
 * SQL for `MATCH (a: e1) -[rel]-> (b: e2), ...`: the left-most entity's table, then one JOIN per
 * edge with the type and key pairs its relationship declares in the lhs entity's YAML. Columns
 * are qualified by their entity alias (`e.project_id`), each table keeps its FINAL and
 * not-deleted condition, and SAMPLE applies to the left-most table only (ClickHouse samples the
 * left side of a join).
 */
import type { EntityDefinition, StorageDefinition } from "../datasets/definition-types.js";
import { invalidQuery } from "../errors/query-service-error.js";
import type { JoinSource, LogicalQuery } from "../query/ast.js";
import { quoteIdentifier } from "./escaping.js";
import { ExpressionPrinter } from "./expression-printer.js";
import { assembleSql, DEFAULT_GRANULARITY, outputItems, queryClauses, tableClause, type BuiltSql, type SqlBuildOptions } from "./sql-builder.js";

export interface JoinSqlInput {
  readonly query: LogicalQuery;
  readonly source: JoinSource;
  readonly entities: ReadonlyMap<string, EntityDefinition>;
  readonly storages: ReadonlyMap<string, StorageDefinition>;
  readonly aliases: ReadonlySet<string>;
}

export function buildJoinSql(input: JoinSqlInput, options: SqlBuildOptions = {}): BuiltSql {
  const { query, source, entities, storages, aliases } = input;
  const printer = new ExpressionPrinter({ kind: "join", entities }, aliases, query.granularity ?? DEFAULT_GRANULARITY, {
    basicFunctions: options.basicFunctions ?? false,
  });
  const [first, ...rest] = source.entities;
  for (const node of rest) {
    if (node.sample !== undefined) {
      throw invalidQuery(`SAMPLE is only supported on the left-most entity of a join ('${first!.alias}'), not on '${node.alias}'`, node.position);
    }
  }
  // Turbo's default sample is not applied to a join: with a joined table that has no sampling
  // key, ClickHouse refuses it (code 141) depending on the data read. An explicit SAMPLE stays.
  const left = tableClause(storages.get(first!.alias)!, first!.sample, { ...options, defaultSample: null }, { description: `entity '${first!.entity}'`, position: first!.position }, first!.alias);
  let from = left.from;
  let final = left.final;
  const joined = new Set([first!.alias]);
  for (const edge of source.edges) {
    const lhsEntity = entities.get(edge.lhs)!;
    const relationship = lhsEntity.joinRelationships[edge.relationship]!;
    // An edge may name the already-joined side on either end: `(g) -[groups]-> (e)` after `e`.
    const newAlias = !joined.has(edge.rhs) ? edge.rhs : !joined.has(edge.lhs) ? edge.lhs : null;
    if (newAlias === null) {
      throw invalidQuery(`the join names ${edge.lhs} and ${edge.rhs} twice: each edge must bring in a new entity`, edge.position);
    }
    const right = tableClause(storages.get(newAlias)!, undefined, { ...options, defaultSample: null }, { description: `entity '${entities.get(newAlias)!.name}'` }, newAlias);
    final ||= right.final;
    const keys = relationship.columns.map(
      ([lhs, rhs]) => `${printer.column(lhs, edge.lhs)} = ${printer.column(rhs, edge.rhs)}`,
    );
    from += ` ${relationship.joinType === "left" ? "LEFT" : "INNER"} JOIN ${right.from} ON ${keys.join(" AND ")}`;
    joined.add(newAlias);
  }
  const mandatory = [...storages].flatMap(([alias, storage]) =>
    storage.notDeletedColumn ? [`equals(${quoteIdentifier(`${alias}.${storage.notDeletedColumn}`)}, 0)`] : [],
  );
  const entityOf = (alias: string | undefined) => (alias === undefined ? null : entities.get(alias) ?? null);
  const sql = assembleSql(queryClauses(query, printer, entityOf, aliases, mandatory, from));
  const tables = [...new Set([...storages.values()].map((s) => s.table))].sort();
  return { sql, columnNames: outputItems(query, aliases).map((s) => s.name), table: tables.join(","), sample: left.sample, final };
}
