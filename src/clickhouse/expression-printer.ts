/**
 * Prints logical expressions as ClickHouse SQL. Entity columns become storage columns or the
 * trusted expressions of the entity's YAML; subscripts become Nested/Map lookups; `time` becomes
 * a bucket of the time column at the query's granularity. Every literal is escaped and every
 * function name has passed the allow-list, so no request text reaches the SQL unescaped.
 *
 * One printer serves three scopes: a single entity (or a storage read as its own entity), the
 * entities of a join (columns qualified by their entity alias), and the outer level of a
 * subquery (columns are the inner query's output aliases).
 */
import type { ColumnMapper, EntityDefinition, SubscriptableDefinition } from "../datasets/definition-types.js";
import { invalidQuery } from "../errors/query-service-error.js";
import type { Expression, LiteralValue } from "../query/ast.js";
import { memoizePerDefinition } from "../datasets/memoize-per-definition.js";
import { formatDateTime } from "../query/datetime-literal.js";
import { formatNumber, quoteIdentifier, quoteString, resultAlias } from "./escaping.js";
import { fnv1a32 } from "./fnv1a.js";

const MAX_REMEMBERED_DATETIMES = 4096;
const rememberedDateTimes = new Map<number, string>();

/** A datetime literal in SQL; the same instants recur across queries, so the text is remembered. */
function dateTimeSql(epochSeconds: number): string {
  let sql = rememberedDateTimes.get(epochSeconds);
  if (sql === undefined) {
    sql = `toDateTime(${quoteString(formatDateTime(epochSeconds))}, 'Universal')`;
    if (rememberedDateTimes.size >= MAX_REMEMBERED_DATETIMES) rememberedDateTimes.clear();
    rememberedDateTimes.set(epochSeconds, sql);
  }
  return sql;
}

/** Where a query's columns come from. */
export type ColumnScope =
  | { readonly kind: "entity"; readonly entity: EntityDefinition }
  | { readonly kind: "join"; readonly entities: ReadonlyMap<string, EntityDefinition> }
  /** The outer query over a subquery: every column is an output of the inner query. */
  | { readonly kind: "subquery" };

export interface ExpressionPrinterOptions {
  /** Snuba's BasicFunctionsProcessor (entities only): `uniq(x)` -> `ifNull(uniq(x), 0)` ... */
  readonly basicFunctions: boolean;
}

/** An entity's column lookups as Maps, built once per definition (every printed column asks). */
interface EntityLookups {
  readonly timeBucketColumns: ReadonlyMap<string, string>;
  readonly columnMappers: ReadonlyMap<string, ColumnMapper>;
  readonly subscriptables: ReadonlyMap<string, SubscriptableDefinition>;
}

/** Own keys only, as `ownProperty` reads them: a name such as `constructor` finds nothing. */
const entityLookups = memoizePerDefinition(
  (entity: EntityDefinition): EntityLookups => ({
    timeBucketColumns: new Map(Object.entries(entity.timeBucketColumns)),
    columnMappers: new Map(Object.entries(entity.columnMappers)),
    subscriptables: new Map(Object.entries(entity.subscriptables)),
  }),
);

interface ColumnSource {
  readonly entity: EntityDefinition;
  readonly lookups: EntityLookups;
  readonly qualifier: string;
}

/** The granularity at which a time-bucket column (`time`) is a Date (`toDate(...)`); a DateTime at any other. */
const DATE_BUCKET_GRANULARITY = 86400;

export class ExpressionPrinter {
  /** The column source of each entity alias ("" for a single entity), made once per printer. */
  private readonly sources = new Map<string, ColumnSource>();

  constructor(
    private readonly scope: ColumnScope,
    private readonly aliases: ReadonlySet<string>,
    private readonly granularity: number,
    private readonly options: ExpressionPrinterOptions = { basicFunctions: false },
  ) {}

  expression(node: Expression, withAlias = true): string {
    switch (node.kind) {
      case "literal":
        return node.digits ?? this.literal(node.value);
      case "datetime":
        return dateTimeSql(node.epochSeconds);
      case "column":
        return this.column(node.name, node.entityAlias, node.insideOwnAlias);
      case "subscript":
        return this.subscript(node.column, node.key, node.entityAlias);
      case "argument":
        // Lambda parameters match [A-Za-z_][A-Za-z0-9_]* (checked by the parser).
        return quoteIdentifier(node.name);
      case "lambda":
        return `(${node.params.map(quoteIdentifier).join(", ")}) -> ${this.expression(node.body)}`;
      case "function": {
        const mapped = this.mappedAggregate(node.name, node.args, false);
        const body = mapped ? `${mapped.name}(${mapped.args})` : this.basicFunction(node.name, this.list(node.args));
        return withAlias && node.alias !== undefined ? `(${body} AS ${resultAlias(node.alias)})` : body;
      }
      case "curried": {
        const mapped = this.mappedAggregate(node.name, node.args, true);
        const name = mapped?.name ?? (node.name === "top" ? "topK" : node.name);
        const args = mapped?.args ?? this.list(node.args);
        const body = `${name}(${this.list(node.params)})(${args})`;
        return withAlias && node.alias !== undefined ? `(${body} AS ${resultAlias(node.alias)})` : body;
      }
    }
  }

  /** Snuba's BasicFunctionsProcessor: aggregates and logs that never return NULL or infinities. */
  private basicFunction(name: string, args: string): string {
    const call = `${name}(${args})`;
    if (!this.options.basicFunctions) return call;
    switch (name) {
      case "uniq":
        return `ifNull(${call}, 0)`;
      case "log":
        return `ifNotFinite(${call}, 0)`;
      default:
        return call;
    }
  }

  private entityOf(entityAlias: string | undefined): ColumnSource | null {
    switch (this.scope.kind) {
      case "entity": {
        let source = this.sources.get("");
        if (source === undefined) {
          source = { entity: this.scope.entity, lookups: entityLookups(this.scope.entity), qualifier: "" };
          this.sources.set("", source);
        }
        return source;
      }
      case "join": {
        const entity = entityAlias === undefined ? undefined : this.scope.entities.get(entityAlias);
        if (!entity) throw invalidQuery(`column must be qualified by an entity alias of the join (${[...this.scope.entities.keys()].join(", ")})`);
        let source = this.sources.get(entityAlias!);
        if (source === undefined) {
          source = { entity, lookups: entityLookups(entity), qualifier: `${entityAlias}.` };
          this.sources.set(entityAlias!, source);
        }
        return source;
      }
      case "subquery":
        return null;
    }
  }

  /**
   * Aggregates over pre-aggregated columns (metrics): `sum(value)` reads `sumMerge(value)`,
   * `quantiles(0.5)(value)` reads `quantilesMerge(0.5)(percentiles)`, as the entity's YAML says.
   * Returns the replacement function and its printed arguments, or null when no mapper applies.
   */
  private mappedAggregate(name: string, args: readonly Expression[], curried: boolean): { name: string; args: string } | null {
    const first = args[0];
    if (first?.kind !== "column" || (this.aliases.has(first.name) && !first.insideOwnAlias)) return null;
    const source = this.entityOf(first.entityAlias);
    const mapper = source?.entity.functionMappers?.find(
      (m) => m.from === name && m.argument === first.name && Boolean(m.curried) === curried,
    );
    if (!source || !mapper) return null;
    const rest = args.slice(1).map((arg) => this.expression(arg));
    return { name: mapper.to, args: [quoteIdentifier(source.qualifier + mapper.column), ...rest].join(", ") };
  }

  private list(nodes: readonly Expression[]): string {
    let text = "";
    for (let i = 0; i < nodes.length; i++) text += i === 0 ? this.expression(nodes[i]!) : `, ${this.expression(nodes[i]!)}`;
    return text;
  }

  literal(value: LiteralValue): string {
    if (value === null) return "NULL";
    if (typeof value === "string") return quoteString(value);
    if (typeof value === "boolean") return value ? "true" : "false";
    return formatNumber(value);
  }

  /** `itself`: the column even where an alias of that name exists (alias-resolution.ts). */
  column(name: string, entityAlias?: string, itself = false): string {
    if (entityAlias === undefined && !itself && this.aliases.has(name)) return resultAlias(name);
    const source = this.entityOf(entityAlias);
    if (!source) return resultAlias(name);
    const { lookups, qualifier } = source;
    const bucketed = lookups.timeBucketColumns.get(name);
    if (bucketed !== undefined) return this.timeBucket(this.column(bucketed, entityAlias));
    const mapper = lookups.columnMappers.get(name);
    if (mapper) {
      switch (mapper.kind) {
        case "column":
          return quoteIdentifier(qualifier + mapper.column);
        case "expression":
          // Trusted SQL from our own YAML, over storage columns of this entity.
          return `(${mapper.sql})`;
        case "literal":
          return this.literal(mapper.value);
        case "subscript":
          return this.subscript(mapper.subscriptable, mapper.key, entityAlias, true);
      }
    }
    return quoteIdentifier(qualifier + name);
  }

  private timeBucket(column: string): string {
    switch (this.granularity) {
      case 60:
        return `toStartOfMinute(${column}, 'Universal')`;
      case 3600:
        return `toStartOfHour(${column}, 'Universal')`;
      case DATE_BUCKET_GRANULARITY:
        return `toDate(${column}, 'Universal')`;
      default:
        return `toDateTime(multiply(intDiv(toUInt32(${column}), ${this.granularity}), ${this.granularity}), 'Universal')`;
    }
  }

  subscript(column: string, key: string, entityAlias?: string, forceNullable = false): string {
    const source = this.entityOf(entityAlias);
    if (!source) throw invalidQuery(`'${column}[${key}]' cannot be subscripted in the outer query of a subquery`);
    const { entity, lookups, qualifier } = source;
    const definition: SubscriptableDefinition | undefined = lookups.subscriptables.get(column);
    if (!definition) throw invalidQuery(`'${column}[...]' cannot be subscripted on entity '${entity.name}'`);
    if (definition.kind === "map") {
      const mapColumn = definition.buckets ? `${definition.column}_${fnv1a32(key) % definition.buckets}` : definition.column;
      return `${quoteIdentifier(qualifier + mapColumn)}[${quoteString(key)}]`;
    }
    let keyLiteral: string = quoteString(key);
    if (definition.integerKeys) {
      if (!/^\d+$/.test(key)) {
        throw invalidQuery(`'${column}[${key}]': keys of ${column} are indexed integer ids, e.g. ${column}[1234]`);
      }
      keyLiteral = key;
    }
    const keys = quoteIdentifier(qualifier + definition.keyColumn);
    const value = `arrayElement(${quoteIdentifier(qualifier + definition.valueColumn)}, indexOf(${keys}, ${keyLiteral}))`;
    return definition.nullable || forceNullable ? `if(has(${keys}, ${keyLiteral}), ${value}, NULL)` : value;
  }
}
