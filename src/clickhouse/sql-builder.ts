/**
 * Prints a validated single-entity logical query as ClickHouse SQL against the entity's storage
 * (expressions: `expression-printer.ts`), and assembles the clauses every query shape shares
 * (joins: `join-sql.ts`, subqueries and storages: `query-sql.ts`).
 */
import type { EntityDefinition, StorageDefinition } from "../datasets/definition-types.js";
import { invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import type { Expression, LogicalQuery, SelectedExpression } from "../query/ast.js";
import { memoizePerDefinition } from "../datasets/memoize-per-definition.js";
import { formatNumber, quoteIdentifier, resultAlias } from "./escaping.js";
import { ExpressionPrinter } from "./expression-printer.js";

export interface BuiltSql {
  readonly sql: string;
  /** Output column names, in SELECT order. */
  readonly columnNames: readonly string[];
  readonly table: string;
  readonly sample: number | null;
  readonly final: boolean;
}

export interface SqlBuildOptions {
  /** A sampling rate applied when the query has none (turbo). */
  readonly defaultSample?: number | null;
  /** turbo: no FINAL on storages that would read with it. */
  readonly turbo?: boolean;
  /** Snuba's BasicFunctionsProcessor; on for entities, off for `MATCH STORAGE(...)`. */
  readonly basicFunctions?: boolean;
}

export const DEFAULT_GRANULARITY = 3600;

/** The printed parts of one SELECT, in ClickHouse clause order. */
export interface SqlClauses {
  readonly select: readonly string[];
  /** Everything after FROM up to ARRAY JOIN: table, alias, FINAL, SAMPLE, joins. */
  readonly from: string;
  readonly arrayJoin: readonly string[];
  readonly where: readonly string[];
  readonly groupBy: readonly string[];
  readonly totals: boolean;
  readonly having: string | null;
  readonly orderBy: readonly string[];
  readonly limitBy: { readonly limit: number; readonly columns: readonly string[] } | null;
  readonly limit: number | null;
  readonly offset: number;
}

export function assembleSql(clauses: SqlClauses): string {
  let sql = `SELECT ${clauses.select.join(", ")} FROM ${clauses.from}`;
  if (clauses.arrayJoin.length > 0) sql += ` ARRAY JOIN ${clauses.arrayJoin.join(", ")}`;
  const where = clauses.where;
  if (where.length > 0) sql += ` WHERE ${where.length === 1 ? where[0] : `and(${where.join(", ")})`}`;
  if (clauses.groupBy.length > 0) {
    sql += ` GROUP BY ${clauses.groupBy.join(", ")}`;
    if (clauses.totals) sql += " WITH TOTALS";
  }
  if (clauses.having !== null) sql += ` HAVING ${clauses.having}`;
  if (clauses.orderBy.length > 0) sql += ` ORDER BY ${clauses.orderBy.join(", ")}`;
  if (clauses.limitBy) sql += ` LIMIT ${clauses.limitBy.limit} BY ${clauses.limitBy.columns.join(", ")}`;
  if (clauses.limit !== null) sql += ` LIMIT ${clauses.limit} OFFSET ${clauses.offset}`;
  else if (clauses.offset > 0) sql += ` OFFSET ${clauses.offset}`;
  return sql;
}

/** The entity's UUID columns (Snuba's UUIDColumnProcessor reads them as dash-less hex). */
export const uuidColumns = memoizePerDefinition(
  (entity: EntityDefinition): ReadonlySet<string> =>
    new Set(entity.columns.filter((c) => /^(Nullable\()?UUID\)?$/.test(c.type)).map((c) => c.name)),
);

/**
 * A SELECT item. As Snuba's UUIDColumnProcessor does, a selected UUID column is returned as 32
 * hex digits without dashes.
 */
function selectItem(
  printer: ExpressionPrinter,
  item: SelectedExpression,
  entityOf: (entityAlias: string | undefined) => EntityDefinition | null,
  aliases: ReadonlySet<string>,
): string {
  const node = item.expression;
  let printed = printer.expression(node, false);
  if (node.kind === "column" && !(node.entityAlias === undefined && !node.insideOwnAlias && aliases.has(node.name))) {
    const entity = entityOf(node.entityAlias);
    if (entity && uuidColumns(entity).has(node.name)) printed = `replaceAll(toString(${printed}), '-', '')`;
  }
  const alias = resultAlias(item.name);
  // A bare reference to an alias another clause defines (`SELECT c ... ORDER BY count() AS c`) is
  // that alias already: `_snuba_c AS _snuba_c` would name it twice (code 179; seed 23).
  return printed === alias ? alias : `${printed} AS ${alias}`;
}

/**
 * The SELECT items once each: an item repeated (`SELECT project_id BY project_id`) or a bare
 * reference to an alias that another item defines (`BY b` with `tags[browser] AS b`) is one
 * output column, as Snuba's reader returns one column per name.
 */
export function outputItems(query: LogicalQuery, aliases: ReadonlySet<string>): SelectedExpression[] {
  const items: SelectedExpression[] = [];
  const seen = new Set<string>();
  for (const item of query.selected) {
    if (seen.has(item.name)) continue;
    const node = item.expression;
    const aliasReference = node.kind === "column" && node.entityAlias === undefined && !node.insideOwnAlias && node.name === item.name && aliases.has(item.name);
    if (aliasReference && query.selected.some((other) => other !== item && other.name === item.name)) continue;
    seen.add(item.name);
    items.push(item);
  }
  return items;
}

/** The clauses of one query level that do not depend on its source. */
export function queryClauses(
  query: LogicalQuery,
  printer: ExpressionPrinter,
  entityOf: (entityAlias: string | undefined) => EntityDefinition | null,
  aliases: ReadonlySet<string>,
  mandatoryConditions: readonly string[],
  from: string,
): SqlClauses {
  const print = (node: Expression) => printer.expression(node);
  return {
    select: outputItems(query, aliases).map((item) => selectItem(printer, item, entityOf, aliases)),
    from,
    arrayJoin: (query.arrayJoin ?? []).map((node) => printer.expression(node, false)),
    where: [...mandatoryConditions, ...(query.where ? [print(query.where)] : [])],
    groupBy: query.groupBy.map((g) => printer.expression(g, false)),
    totals: query.totals,
    having: query.having ? print(query.having) : null,
    orderBy: query.orderBy.map((o) => `${print(o.expression)} ${o.direction}`),
    limitBy: query.limitBy ? { limit: query.limitBy.limit, columns: query.limitBy.columns.map(print) } : null,
    limit: query.limit,
    offset: query.offset,
  };
}

/** `table [FINAL] [SAMPLE r]` for one storage, and whether it reads with FINAL. */
export function tableClause(
  storage: StorageDefinition,
  requestedSample: number | undefined,
  options: SqlBuildOptions,
  owner: { readonly description: string; readonly position?: TextPosition },
  tableAlias?: string,
): { from: string; sample: number | null; final: boolean } {
  if (requestedSample !== undefined && !storage.sampleBy) {
    const where = owner.position ? ` at line ${owner.position.line}, column ${owner.position.column}` : "";
    throw invalidQuery(`${owner.description}${where} does not support SAMPLE: its storage '${storage.name}' has no sampling key`, owner.position);
  }
  const sample = requestedSample ?? (storage.sampleBy ? options.defaultSample ?? null : null);
  const final = Boolean(storage.final) && !options.turbo;
  let from = quoteIdentifier(storage.table);
  if (tableAlias !== undefined) from += ` AS ${quoteIdentifier(tableAlias)}`;
  if (final) from += " FINAL";
  if (sample !== null) from += ` SAMPLE ${formatNumber(sample)}`;
  return { from, sample, final };
}

export function buildSql(
  query: LogicalQuery,
  entity: EntityDefinition,
  storage: StorageDefinition,
  aliases: ReadonlySet<string>,
  options: SqlBuildOptions = {},
): BuiltSql {
  if (query.from.kind !== "entity" && query.from.kind !== "storage") {
    throw invalidQuery(`buildSql prints single-entity queries; this one reads a ${query.from.kind}`);
  }
  const printer = new ExpressionPrinter({ kind: "entity", entity }, aliases, query.granularity ?? DEFAULT_GRANULARITY, {
    basicFunctions: options.basicFunctions ?? false,
  });
  const table = tableClause(storage, query.from.sample, options, { description: `entity '${entity.name}'`, position: query.from.position });
  const mandatory = storage.notDeletedColumn ? [`equals(${quoteIdentifier(storage.notDeletedColumn)}, 0)`] : [];
  const sql = assembleSql(queryClauses(query, printer, () => entity, aliases, mandatory, table.from));
  return { sql, columnNames: outputItems(query, aliases).map((s) => s.name), table: storage.table, sample: table.sample, final: table.final };
}
