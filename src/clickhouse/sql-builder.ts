/**
 * Prints a validated logical query as ClickHouse SQL against the entity's storage. Entity columns
 * become storage columns or the trusted expressions of the entity's YAML; subscripts become
 * Nested/Map lookups; `time` becomes a bucket of the time column at the query's granularity.
 * Every literal is escaped and every function name has passed the allow-list, so no request
 * text reaches the SQL unescaped.
 */
import type { EntityDefinition, StorageDefinition, SubscriptableDefinition } from "../datasets/definition-types.js";
import { invalidQuery } from "../errors/query-service-error.js";
import type { Expression, LogicalQuery } from "../query/ast.js";
import { formatDateTime } from "../snql/datetime-literal.js";
import { formatNumber, quoteIdentifier, quoteString, resultAlias } from "./escaping.js";
import { fnv1a32 } from "./fnv1a.js";

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
}

const DEFAULT_GRANULARITY = 3600;

class SqlPrinter {
  constructor(
    private readonly entity: EntityDefinition,
    private readonly storage: StorageDefinition,
    private readonly aliases: ReadonlySet<string>,
    private readonly granularity: number,
  ) {}

  expression(node: Expression, withAlias = true): string {
    switch (node.kind) {
      case "literal":
        return this.literal(node.value);
      case "datetime":
        return `toDateTime(${quoteString(formatDateTime(node.epochSeconds))}, 'Universal')`;
      case "column":
        return this.column(node.name);
      case "subscript":
        return this.subscript(node.column, node.key);
      case "function": {
        const mapped = this.mappedAggregate(node.name, node.args, false);
        const body = mapped ? `${mapped.name}(${mapped.args})` : `${node.name}(${this.list(node.args)})`;
        return withAlias && node.alias !== undefined ? `(${body} AS ${resultAlias(node.alias)})` : body;
      }
      case "curried": {
        const mapped = this.mappedAggregate(node.name, node.args, true);
        const name = mapped?.name ?? node.name;
        const args = mapped?.args ?? this.list(node.args);
        const body = `${name}(${this.list(node.params)})(${args})`;
        return withAlias && node.alias !== undefined ? `(${body} AS ${resultAlias(node.alias)})` : body;
      }
    }
  }

  /**
   * Aggregates over pre-aggregated columns (metrics): `sum(value)` reads `sumMerge(value)`,
   * `quantiles(0.5)(value)` reads `quantilesMerge(0.5)(percentiles)`, as the entity's YAML says.
   * Returns the replacement function and its printed arguments, or null when no mapper applies.
   */
  private mappedAggregate(name: string, args: readonly Expression[], curried: boolean): { name: string; args: string } | null {
    const first = args[0];
    if (first?.kind !== "column" || this.aliases.has(first.name)) return null;
    const mapper = this.entity.functionMappers?.find(
      (m) => m.from === name && m.argument === first.name && Boolean(m.curried) === curried,
    );
    if (!mapper) return null;
    const rest = args.slice(1).map((arg) => this.expression(arg));
    return { name: mapper.to, args: [quoteIdentifier(mapper.column), ...rest].join(", ") };
  }

  private list(nodes: readonly Expression[]): string {
    return nodes.map((node) => this.expression(node)).join(", ");
  }

  private literal(value: string | number | boolean | null): string {
    if (value === null) return "NULL";
    if (typeof value === "string") return quoteString(value);
    if (typeof value === "boolean") return value ? "true" : "false";
    return formatNumber(value);
  }

  column(name: string): string {
    if (this.aliases.has(name)) return resultAlias(name);
    const bucketed = this.entity.timeBucketColumns[name];
    if (bucketed !== undefined) return this.timeBucket(this.column(bucketed));
    const mapper = this.entity.columnMappers[name];
    if (mapper) {
      switch (mapper.kind) {
        case "column":
          return quoteIdentifier(mapper.column);
        case "expression":
          return `(${mapper.sql})`;
        case "literal":
          return this.literal(mapper.value);
        case "subscript":
          return this.subscript(mapper.subscriptable, mapper.key, true);
      }
    }
    return quoteIdentifier(name);
  }

  private timeBucket(column: string): string {
    switch (this.granularity) {
      case 60:
        return `toStartOfMinute(${column}, 'Universal')`;
      case 3600:
        return `toStartOfHour(${column}, 'Universal')`;
      case 86400:
        return `toDate(${column}, 'Universal')`;
      default:
        return `toDateTime(multiply(intDiv(toUInt32(${column}), ${this.granularity}), ${this.granularity}), 'Universal')`;
    }
  }

  subscript(column: string, key: string, forceNullable = false): string {
    const definition: SubscriptableDefinition | undefined = this.entity.subscriptables[column];
    if (!definition) throw invalidQuery(`'${column}[...]' cannot be subscripted on entity '${this.entity.name}'`);
    if (definition.kind === "map") {
      const mapColumn = definition.buckets ? `${definition.column}_${fnv1a32(key) % definition.buckets}` : definition.column;
      return `${quoteIdentifier(mapColumn)}[${quoteString(key)}]`;
    }
    let keyLiteral: string = quoteString(key);
    if (definition.integerKeys) {
      if (!/^\d+$/.test(key)) {
        throw invalidQuery(`'${column}[${key}]': keys of ${column} are indexed integer ids, e.g. ${column}[1234]`);
      }
      keyLiteral = key;
    }
    const keys = quoteIdentifier(definition.keyColumn);
    const value = `arrayElement(${quoteIdentifier(definition.valueColumn)}, indexOf(${keys}, ${keyLiteral}))`;
    return definition.nullable || forceNullable ? `if(has(${keys}, ${keyLiteral}), ${value}, NULL)` : value;
  }
}

export function buildSql(
  query: LogicalQuery,
  entity: EntityDefinition,
  storage: StorageDefinition,
  aliases: ReadonlySet<string>,
  options: SqlBuildOptions = {},
): BuiltSql {
  const printer = new SqlPrinter(entity, storage, aliases, query.granularity ?? DEFAULT_GRANULARITY);
  const sample = query.from.sample ?? (storage.sampleBy ? options.defaultSample ?? null : null);
  if (query.from.sample !== undefined && !storage.sampleBy) {
    throw invalidQuery(`entity '${entity.name}' does not support SAMPLE: its storage '${storage.name}' has no sampling key`);
  }

  const select = query.selected.map((item) => `${printer.expression(item.expression, false)} AS ${resultAlias(item.name)}`);
  const conditions: string[] = [];
  if (storage.notDeletedColumn) conditions.push(`equals(${quoteIdentifier(storage.notDeletedColumn)}, 0)`);
  if (query.where) conditions.push(printer.expression(query.where));

  let sql = `SELECT ${select.join(", ")} FROM ${quoteIdentifier(storage.table)}`;
  if (sample !== null) sql += ` SAMPLE ${formatNumber(sample)}`;
  if (conditions.length > 0) sql += ` WHERE ${conditions.length === 1 ? conditions[0] : `and(${conditions.join(", ")})`}`;
  if (query.groupBy.length > 0) {
    sql += ` GROUP BY ${query.groupBy.map((g) => printer.expression(g, false)).join(", ")}`;
    if (query.totals) sql += " WITH TOTALS";
  }
  if (query.having) sql += ` HAVING ${printer.expression(query.having)}`;
  if (query.orderBy.length > 0) {
    sql += ` ORDER BY ${query.orderBy.map((o) => `${printer.expression(o.expression)} ${o.direction}`).join(", ")}`;
  }
  sql += ` LIMIT ${query.limit} OFFSET ${query.offset}`;
  return { sql, columnNames: query.selected.map((s) => s.name), table: storage.table, sample, final: false };
}
