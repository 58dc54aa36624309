/**
 * SnQL for the fuzzer, from the chevrotain grammar of record (src/snql/parser.ts; the hand-written
 * fast path must accept the same language). The walk is steered by the dataset definitions
 * (src/datasets/configuration/*): entities, their columns and types, subscriptables, join
 * relationships, required time ranges and columns; function names by arity from the allow-list
 * of the SQL printer; literals from the demo data's vocabulary. Two shapes:
 *
 * - `snqlSentence`: a whole `query` of the grammar (any source: entity, join, storage, subquery),
 *   realistic words but no promise to validate;
 * - `anchoredSnql`: a query on a real entity with the conditions it requires, its SELECT, BY,
 *   WHERE, HAVING and ORDER BY generated from the grammar's rules, so that a good share passes
 *   validation and reaches ClickHouse.
 */
import type { TokenType } from "chevrotain";
import type { EntityDefinition } from "../../src/datasets/definition-types.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { snqlParser } from "../../src/snql/parser.js";
import { generateTokens, joinTokens, patternText, type GrammarProfile, type SentenceToken, type WalkContext } from "./grammar-sentences.js";
import type { Prng } from "./prng.js";

type Kind = "string" | "number" | "datetime" | "uuid" | "array" | "other";

interface ColumnInfo {
  readonly name: string;
  readonly kind: Kind;
}

export interface EntityInfo {
  readonly dataset: string;
  readonly name: string;
  readonly timeColumn: string | null;
  readonly required: readonly string[];
  readonly columns: readonly ColumnInfo[];
  readonly subscriptables: readonly string[];
  readonly joins: readonly (readonly [string, string])[];
}

function unwrap(type: string): string {
  let current = type.trim();
  for (let match = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(current); match; match = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(current)) current = match[1]!;
  return current;
}

function kindOf(type: string): Kind {
  const inner = unwrap(type);
  if (/^(U?Int\d+|Float\d+|Decimal|Bool)/.test(inner)) return "number";
  if (/^DateTime/.test(inner) || inner === "Date") return "datetime";
  if (/^(String|FixedString|Enum)/.test(inner)) return "string";
  if (inner === "UUID") return "uuid";
  if (/^Array/.test(inner)) return "array";
  return "other";
}

/** Top-level comma split of `a T, b U(x, y)`. */
function splitFields(text: string): string[] {
  const fields: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    if (char === ")") depth--;
    if (char === "," && depth === 0) {
      fields.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim()) fields.push(current.trim());
  return fields;
}

function columnsOf(entity: EntityDefinition): ColumnInfo[] {
  const columns: ColumnInfo[] = [];
  for (const column of entity.columns) {
    const nested = /^Nested\((.*)\)$/s.exec(column.type.trim());
    if (nested) {
      for (const field of splitFields(nested[1]!)) {
        const [name] = field.split(/\s+/, 1);
        columns.push({ name: `${column.name}.${name}`, kind: "array" });
      }
    } else columns.push({ name: column.name, kind: kindOf(column.type) });
  }
  return columns;
}

const registry = defaultRegistry();

export const ENTITIES: readonly EntityInfo[] = registry.datasets().flatMap((dataset) =>
  dataset.entities.flatMap((name) => {
    const entity = registry.entity(name);
    if (!entity) return [];
    return [
      {
        dataset: dataset.name,
        name,
        timeColumn: entity.requiredTimeColumn,
        required: entity.requiredColumns,
        columns: columnsOf(entity),
        subscriptables: Object.keys(entity.subscriptables),
        joins: Object.entries(entity.joinRelationships).map(([relationship, join]) => [relationship, join.rhsEntity] as const),
      },
    ];
  }),
);
const ALL_ENTITY_NAMES = registry.entities().map((entity) => entity.name);
const STORAGE_NAMES = registry.storages().map((storage) => storage.name);

function entityInfo(name: string): EntityInfo | undefined {
  const listed = ENTITIES.find((entity) => entity.name === name);
  if (listed) return listed;
  const entity = registry.entity(name);
  if (!entity) return undefined;
  return { dataset: "", name, timeColumn: entity.requiredTimeColumn, required: entity.requiredColumns, columns: columnsOf(entity), subscriptables: Object.keys(entity.subscriptables), joins: [] };
}

/** Entities a query can be anchored on: a time range and integer required columns we can give. */
export const ANCHORABLE: readonly EntityInfo[] = ENTITIES.filter(
  (entity) => entity.timeColumn !== null && entity.required.every((column) => ["project_id", "org_id", "organization_id"].includes(column)),
);

// ---- words -------------------------------------------------------------------------------

/** Values the demo data holds, by column name (docs/demo-data.md). */
const VALUES: Record<string, readonly string[]> = {
  level: ["error", "warning", "info", "fatal"],
  environment: ["production", "staging", "development"],
  platform: ["python", "javascript", "node"],
  release: ["backend@1.2.0", "backend@1.3.0", "frontend@2.5.1", "worker@0.10.1"],
  type: ["error", "default", "transaction"],
  dist: ["web"],
  http_method: ["GET", "POST"],
  transaction: ["GET /api/0/projects/{organization_slug}/{project_slug}/", "GET /api/0/organizations/{organization_slug}/issues/", "/issues/:id/"],
  transaction_name: ["GET /api/0/projects/{organization_slug}/{project_slug}/", "/issues/:id/"],
  transaction_op: ["http.server", "pageload", "navigation", "queue.task"],
  sdk_name: ["sentry.python.django", "sentry.javascript.react", "sentry.javascript.node"],
  user: ["id:101511", "id:1"],
  user_email: ["anita.thompson.101511@example.com"],
  message: ["KeyError: 'organization_id'", "timeout"],
  title: ["KeyError: 'organization_id'"],
  "tags[environment]": ["production", "staging"],
  "tags[browser.name]": ["Chrome", "Safari", "Firefox"],
  "tags[server_name]": ["web-1", "worker-2", "node-api-a"],
  "tags[handled]": ["yes", "no"],
};
const TAG_KEYS: Record<string, readonly string[]> = {
  tags: ["environment", "level", "sentry:release", "sentry:user", "browser", "browser.name", "os.name", "runtime", "handled", "server_name", "url", "transaction"],
  contexts: ["browser.name", "device.family", "os.name", "runtime.name", "trace.op", "trace.trace_id"],
  flags: ["organizations:new-ui", "projects:replay-canvas"],
  measurements: ["lcp", "fcp", "cls"],
  span_op_breakdowns: ["ops.db", "ops.http"],
};
const HOSTILE_STRINGS = ["", "it's", "\\", "ünïcødé ✓ 中文 😀", "%", "_%_", "'; DROP TABLE x; --", "\n\t", "a".repeat(300), "2024-13-45T25:61:61", "yesterday", "\u0000", "\uFFFF", "\\'"];

/** A SnQL string literal: quotes and backslashes escaped. */
const quote = (value: string) => `'${value.replace(/[\\']/g, (char) => `\\${char}`)}'`;

interface Fn {
  readonly name: string;
  /** Argument kinds; "any" for any column. */
  readonly args: readonly (Kind | "any" | "bool")[];
  /** Further arguments of the last kind allowed. */
  readonly variadic?: boolean;
}

const AGGREGATES: readonly Fn[] = [
  { name: "count", args: [] },
  { name: "count", args: ["any"] },
  { name: "uniq", args: ["any"] },
  { name: "uniqExact", args: ["any"] },
  { name: "any", args: ["any"] },
  { name: "anyLast", args: ["any"] },
  { name: "max", args: ["any"] },
  { name: "min", args: ["any"] },
  { name: "sum", args: ["number"] },
  { name: "avg", args: ["number"] },
  { name: "median", args: ["number"] },
  { name: "countIf", args: ["bool"] },
  { name: "uniqIf", args: ["any", "bool"] },
  { name: "sumIf", args: ["number", "bool"] },
  { name: "argMax", args: ["any", "datetime"] },
  { name: "argMin", args: ["any", "number"] },
  { name: "groupUniqArray", args: ["any"] },
];
const CURRIED: readonly Fn[] = [
  { name: "quantile", args: ["number"] },
  { name: "quantiles", args: ["number"] },
  { name: "quantileExact", args: ["number"] },
  { name: "topK", args: ["any"] },
];
const SCALARS: readonly Fn[] = [
  { name: "now", args: [] },
  { name: "isNull", args: ["any"] },
  { name: "isNotNull", args: ["any"] },
  { name: "toString", args: ["any"] },
  { name: "lower", args: ["string"] },
  { name: "upper", args: ["string"] },
  { name: "length", args: ["string"] },
  { name: "notEmpty", args: ["string"] },
  { name: "toStartOfHour", args: ["datetime"] },
  { name: "toStartOfDay", args: ["datetime"] },
  { name: "toDate", args: ["datetime"] },
  { name: "toHour", args: ["datetime"] },
  { name: "abs", args: ["number"] },
  { name: "round", args: ["number"] },
  { name: "not", args: ["bool"] },
  { name: "plus", args: ["number", "number"] },
  { name: "multiply", args: ["number", "number"] },
  { name: "divide", args: ["number", "number"] },
  { name: "ifNull", args: ["string", "string"] },
  { name: "coalesce", args: ["string", "string"] },
  { name: "equals", args: ["any", "any"] },
  { name: "greater", args: ["number", "number"] },
  { name: "has", args: ["array", "string"] },
  { name: "startsWith", args: ["string", "string"] },
  { name: "concat", args: ["string", "string"] },
  { name: "like", args: ["string", "string"] },
  { name: "arrayElement", args: ["array", "number"] },
  { name: "if", args: ["bool", "any", "any"] },
  { name: "multiIf", args: ["bool", "string", "string"] },
  { name: "substring", args: ["string", "number", "number"] },
  { name: "tuple", args: ["any"], variadic: true },
  { name: "array", args: ["string"], variadic: true },
  { name: "greatest", args: ["number"], variadic: true },
];
const LAMBDA_FUNCTIONS = ["arrayExists", "arrayFilter", "arrayMap", "arrayAll", "arrayCount"];
/** Names no allow-list has: refused by validation, kept as a small share. */
const UNKNOWN_FUNCTIONS = ["file", "url", "remote", "sleep", "nope", "system.numbers", "dictGet"];

function fitsArity(fn: Fn, count: number): boolean {
  return fn.args.length === count || (fn.variadic === true && count >= fn.args.length);
}

// ---- the profile -------------------------------------------------------------------------

type Clause = "SELECT" | "BY" | "ARRAY JOIN" | "WHERE" | "HAVING" | "ORDER BY" | "LIMIT" | "LIMIT BY" | "OFFSET" | "GRANULARITY" | "SOURCE";

interface SnqlState {
  /** The entity whose columns the sentence uses; join aliases when the source is a join. */
  entity: EntityInfo;
  aliases: Map<string, EntityInfo>;
  clause: Clause;
  /** Columns (and subscripts) selected bare at the top of a SELECT item. */
  bareSelected: string[];
  aggregated: boolean;
  selectAliases: string[];
}

const DATETIME = (prng: Prng, now: number) => new Date(now - prng.int(0, 14 * 86_400) * 1000).toISOString().slice(0, 19);

function literalFor(kind: Kind, column: string, prng: Prng, now: number): string {
  if (prng.chance(0.04)) return quote(prng.pick(HOSTILE_STRINGS));
  switch (kind) {
    case "number":
      if (column.endsWith("project_id")) return String(prng.int(1, 3));
      if (column.endsWith("org_id")) return "1";
      return String(prng.pick([0, 1, 2, 10, 100, 300, 1000, 1001, 65_536]));
    case "datetime":
      return `toDateTime('${DATETIME(prng, now)}')`;
    case "uuid":
      return prng.chance(0.5) ? "'00000000-0000-4000-8000-000000000000'" : "'not-a-uuid'";
    case "array":
    case "string": {
      const values = VALUES[column.replace(/^\w+\./, "")] ?? VALUES[column];
      return quote(values ? prng.pick(values) : prng.pick(["production", "error", "x", "%a%"]));
    }
    default:
      return "'x'";
  }
}

/** The clause a token position belongs to, from the last query-level keyword before it. */
function clauseAt(tokens: readonly SentenceToken[], fallback: Clause): Clause {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!;
    if (token.rule === "matchSource" || token.rule === "matchNode" || token.rule === "entityOrJoin") return "SOURCE";
    if (token.rule === "limitClauses" && (token.type === "BY" || token.type === "LIMIT")) return token.type === "BY" ? "LIMIT BY" : "LIMIT";
    if (token.rule !== "query") continue;
    switch (token.type) {
      case "SELECT":
      case "WHERE":
      case "HAVING":
      case "OFFSET":
      case "GRANULARITY":
        return token.type;
      case "BY":
        return tokens[i - 1]?.type === "ORDER" ? "ORDER BY" : "BY";
      case "JOIN":
        return "ARRAY JOIN";
      case "MATCH":
        return "SOURCE";
    }
  }
  return fallback;
}

/** The end (exclusive) of the parenthesised group opening at `open`. */
function groupEnd(tokens: readonly SentenceToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i]!.type === "LParen") depth++;
    if (tokens[i]!.type === "RParen" && --depth === 0) return i + 1;
  }
  return tokens.length;
}

/** The argument spans [start, end) of the group opening at `open`. */
function argumentSpans(tokens: readonly SentenceToken[], open: number, end: number): [number, number][] {
  const spans: [number, number][] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < end - 1; i++) {
    const type = tokens[i]!.type;
    if (type === "LParen") depth++;
    else if (type === "RParen") depth--;
    else if (type === "Comma" && depth === 0) {
      spans.push([start, i]);
      start = i + 1;
    }
  }
  if (end - 1 > start) spans.push([start, end - 1]);
  return spans;
}

const isBareColumn = (tokens: readonly SentenceToken[], start: number, end: number) =>
  end - start === 1 && ((tokens[start]!.type === "Identifier" && tokens[start]!.rule === "columnOrCall") || tokens[start]!.type === "Subscript");

const LITERAL_TYPES = new Set(["StringLiteral", "NumberLiteral", "NULL", "TRUE", "FALSE"]);
const COMPARISON_TEXTS = new Set(["=", "!=", "<", "<=", ">", ">="]);
/** Where an operator chain sits: a WHERE/HAVING condition, a function argument, a list that takes no conditions, or a value. */
type ChainPlace = "condition" | "argument" | "list" | "value";

/** The top-level steps of an operator chain `a op b op c` that spans tokens [start, end). */
function chainSteps(tokens: readonly SentenceToken[], start: number, end: number): { at: number; width: number; comparison: boolean }[] {
  const steps: { at: number; width: number; comparison: boolean }[] = [];
  let depth = 0;
  for (let i = start; i < end; i++) {
    const token = tokens[i]!;
    if (token.type === "LParen" || token.type === "LCurly") depth++;
    else if (token.type === "RParen" || token.type === "RCurly") depth--;
    if (depth !== 0 || token.rule !== "expression") continue;
    if (token.type === "BinaryOperator") steps.push({ at: i, width: 1, comparison: COMPARISON_TEXTS.has(token.text) });
    else if (token.type === "IS") steps.push({ at: i, width: tokens[i + 1]?.type === "NOT" ? 3 : 2, comparison: true });
    else if (token.type === "IN" || token.type === "LIKE") steps.push({ at: i, width: 1, comparison: true });
    else if (token.type === "NOT" && (tokens[i + 1]?.type === "IN" || tokens[i + 1]?.type === "LIKE")) {
      steps.push({ at: i, width: 2, comparison: true });
      i++;
    }
  }
  return steps;
}

class SnqlProfile implements GrammarProfile {
  readonly productions = snqlParser.getGAstProductions();
  readonly state: SnqlState;
  /** Per expression being generated (by stack depth): whether its current condition has its comparison. */
  private readonly compared = new Map<number, boolean>();

  constructor(
    entity: EntityInfo,
    clause: Clause,
    private readonly now: number,
    /** Raw: whole queries, any source; anchored: clauses of a query on `entity`. */
    private readonly raw: boolean,
  ) {
    this.state = { entity, aliases: new Map(), clause, bareSelected: [], aggregated: false, selectAliases: [] };
  }

  private clause(context: WalkContext): Clause {
    return this.raw ? clauseAt(context.tokens, this.state.clause) : this.state.clause;
  }

  private column(prng: Prng, kind?: Kind | "any" | "bool"): string {
    const { entity, aliases } = this.state;
    let source = entity;
    let prefix = "";
    if (aliases.size > 0) {
      const [alias, info] = prng.pick([...aliases]);
      source = info;
      prefix = `${alias}.`;
    }
    const wanted = kind === undefined || kind === "any" || kind === "bool" ? source.columns : source.columns.filter((column) => column.kind === kind);
    if (kind !== "bool" && source.subscriptables.length > 0 && prng.chance(kind === "string" || kind === undefined ? 0.15 : 0.03)) {
      return this.subscript(prng);
    }
    if (wanted.length === 0 || prng.chance(0.02)) return prng.pick(["nope", "tags", "x.y", "timestamp", "time"]);
    return prefix + prng.pick(wanted).name;
  }

  /** `tags[environment]` (or `g.tags[...]` in a join) of an entity that has subscriptables. */
  private subscript(prng: Prng): string {
    const sources: (readonly [string, EntityInfo])[] = this.state.aliases.size > 0 ? [...this.state.aliases].map(([alias, info]) => [`${alias}.`, info] as const) : [["", this.state.entity]];
    const [prefix, info] = prng.pick(sources);
    const subscriptable = info.subscriptables.length > 0 ? prng.pick(info.subscriptables) : "tags";
    return `${prefix}${subscriptable}[${prng.pick(TAG_KEYS[subscriptable] ?? TAG_KEYS.tags!)}]`;
  }

  /** What the expression being expanded (the last `expression` on the stack) is for. */
  private chainPlace(context: WalkContext): ChainPlace {
    const stack = context.stack;
    const at = stack.lastIndexOf("expression");
    if (stack[at - 1] === "expressionList") return "list";
    const inArguments = stack.lastIndexOf("argumentList") > Math.max(stack.lastIndexOf("selectItem"), stack.lastIndexOf("orderByList"));
    const clause = this.clause(context);
    if (inArguments) return "argument";
    return clause === "WHERE" || clause === "HAVING" ? "condition" : "value";
  }

  /**
   * An infix operator: a condition alternates comparison and AND/OR (with some arithmetic), an
   * argument is sometimes a comparison (`if(a = 1, ...)`), other values are arithmetic; after a
   * comparison only AND/OR keeps the chain valid.
   */
  private operatorText(context: WalkContext, prng: Prng): string {
    const depth = context.stack.length;
    const place = this.chainPlace(context);
    if (this.compared.get(depth)) {
      if (place !== "condition" && place !== "argument" && prng.chance(0.5)) return prng.pick(["+", "-", "*", "/"]);
      this.compared.set(depth, false);
      return prng.chance(0.7) ? "AND" : "OR";
    }
    const comparisonChance = { condition: 0.9, argument: 0.3, list: 0, value: 0.05 }[place];
    if (prng.chance(comparisonChance)) {
      this.compared.set(depth, true);
      return prng.weighted([["=", 40], ["!=", 15], ["<=", 10], [">=", 15], ["<", 10], [">", 10]] as const);
    }
    return prng.pick(["+", "-", "*", "/"]);
  }

  private kindOfColumn(name: string): Kind {
    if (/\[.*\]$/.test(name)) return "string";
    const dot = name.indexOf(".");
    const alias = dot > 0 ? name.slice(0, dot) : "";
    const info = this.state.aliases.get(alias);
    const bare = info ? name.slice(dot + 1) : name;
    return (info ?? this.state.entity).columns.find((column) => column.name === bare)?.kind ?? "other";
  }

  terminalText = (token: TokenType, context: WalkContext, prng: Prng): string => {
    const rule = context.stack[context.stack.length - 1]!;
    switch (token.name) {
      case "Identifier":
        if (rule === "matchNode") return this.raw && prng.chance(0.1) ? prng.pick(ALL_ENTITY_NAMES) : this.state.entity.name;
        if (rule === "matchSource") return prng.chance(0.9) ? prng.pick(STORAGE_NAMES) : patternText(token, prng);
        return this.column(prng);
      case "AliasName":
        return prng.pick(["c", "n", "total", "p95", "users", "x_1", "time", "level", "equation[0]", "p95/2", "a.b:c-d"]);
      case "Subscript":
        return prng.chance(0.95) ? this.subscript(prng) : patternText(token, prng);
      case "QuotedIdentifier":
        return rule === "alias" ? prng.pick(["`weird alias`", "`c`", "``"]) : prng.pick(["`x`", "`k`", "`v`"]);
      case "StringLiteral":
        return prng.chance(0.8) ? literalFor("string", this.column(prng, "string"), prng, this.now) : patternText(token, prng);
      case "NumberLiteral": {
        if (rule === "sampleClause") return prng.pick(["0.1", "0.5", "1", "1000", "0", "2.5"]);
        if (rule === "integer") {
          const clause = this.clause(context);
          if (clause === "GRANULARITY") return prng.pick(["60", "3600", "86400", "10", "0", "7"]);
          if (clause === "OFFSET") return String(prng.int(0, 100));
          return String(prng.chance(0.97) ? prng.pick([1, 5, 10, 100, 1000, 5000]) : prng.pick([0, 10_000, 10_001, 2 ** 53]));
        }
        return prng.chance(0.9) ? prng.pick(["0", "1", "2", "3", "10", "0.5", "0.95", "100", "1000"]) : prng.pick(["1e+10", "1.5e-7", "18446744073709551616", "99999999999999999999999", "0.000001", patternText(token, prng)]);
      }
      case "RelationshipArrow": {
        const relationships = this.state.entity.joins.map(([relationship]) => relationship);
        return `-[${relationships.length > 0 && prng.chance(0.9) ? prng.pick(relationships) : "nope"}]->`;
      }
      case "UnterminatedString":
        return "'x";
      case "BinaryOperator":
        return this.operatorText(context, prng);
      case "IS":
      case "IN":
      case "LIKE":
        if (rule === "expression") this.compared.set(context.stack.length, true);
        return patternText(token, prng);
      default:
        return patternText(token, prng);
    }
  };

  alternativeWeights = (rule: string, occurrence: number, count: number, context: WalkContext): readonly number[] | undefined => {
    switch (rule) {
      case "atom": {
        const clause = this.clause(context);
        const literal = clause === "WHERE" || clause === "HAVING" || context.stack.includes("argumentList") ? 20 : 6;
        return [literal, 8, 62, context.stack.includes("lambda") ? 15 : 1, 6];
      }
      case "literal":
        return [40, 45, 5, 5, 5];
      case "matchSource":
        return [8, 8, 84];
      case "argumentList":
        return [8, 92];
      case "alias":
        return [92, 8];
      case "expression": {
        if (occurrence === 2) return [60, 40];
        // A chain step: `op operand`, `IS [NOT] NULL` or `[NOT] IN/LIKE operand`.
        const place = this.chainPlace(context);
        if (this.compared.get(context.stack.length) || place === "list") return [1, 0, 0];
        return place === "condition" ? [72, 12, 16] : place === "argument" ? [80, 8, 12] : [94, 3, 3];
      }
      default:
        return undefined;
    }
  };

  optionChance = (rule: string, occurrence: number, context: WalkContext): number | undefined => {
    switch (rule) {
      case "query":
        return [0.35, undefined, 0.85, 0.12, 0.3, 0.4, 0.08, 0.12, 0.05, 0.05][occurrence];
      case "expression":
        return 0.15;
      case "columnOrCall":
        return occurrence === 0 ? (context.stack.at(-2) === "lambda" ? 1 : 0.45) : 0.08;
      case "selectItem":
        return 0.5;
      case "entityOrJoin":
        return this.raw ? 0.15 : 0;
      case "matchNode":
        return occurrence === 0 ? 0.2 : 0.04;
      case "limitClauses":
        return occurrence === 0 ? 0.15 : 0.5;
      case "integer":
      case "literal":
      case "sampleClause":
        return 0.04;
      default:
        return undefined;
    }
  };

  repetitions = (rule: string, _occurrence: number, context: WalkContext, prng: Prng): readonly [number, number] | undefined => {
    const condition = () => {
      const clause = this.clause(context);
      return clause === "WHERE" || clause === "HAVING";
    };
    switch (rule) {
      case "selectList":
        return [1, 3];
      case "expression": {
        // Steps of an operator chain: a condition is 1-3 comparisons joined by AND/OR.
        const place = this.chainPlace(context);
        if (place === "condition" || (place === "argument" && condition() && prng.chance(0.3))) {
          const comparisons = prng.weighted([[1, 60], [2, 25], [3, 15]] as const);
          return [2 * comparisons - 1, 2 * comparisons - 1];
        }
        const steps = prng.weighted([[0, 78], [1, 17], [2, 5]] as const);
        return [steps, steps];
      }
      case "entityOrJoin":
        return prng.chance(0.2) ? [1, 1] : [0, 0];
      case "argumentList":
        return [0, 3];
      case "lambda":
        return [1, 2];
      default:
        return [1, 2];
    }
  };

  onRuleExit = (rule: string, start: number, context: WalkContext, prng: Prng): void => {
    const tokens = context.tokens;
    if (rule === "columnOrCall") this.fixColumnOrCall(tokens, start, context, prng);
    else if (rule === "expression") {
      this.fixComparisons(tokens, start, prng);
      this.compared.delete(context.stack.length);
    }
    else if (rule === "entityOrJoin") this.fixSource(tokens, start, prng);
    else if (rule === "selectItem" && this.clause(context) === "SELECT" && !context.stack.slice(0, -1).includes("selectItem")) {
      const end = tokens.length;
      const asAt = tokens.findIndex((token, i) => i >= start && token.type === "AS" && token.rule === "selectItem");
      const expressionEnd = asAt >= 0 ? asAt : end;
      if (isBareColumn(tokens, start, expressionEnd)) this.state.bareSelected.push(tokens[start]!.text);
      if (asAt >= 0 && tokens[asAt + 1]?.type === "AliasName" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(tokens[asAt + 1]!.text)) this.state.selectAliases.push(tokens[asAt + 1]!.text);
    }
  };

  private fixColumnOrCall(tokens: SentenceToken[], start: number, context: WalkContext, prng: Prng): void {
    const head = tokens[start]!;
    if (tokens[start + 1]?.type !== "LParen") {
      head.text = this.column(prng);
      return;
    }
    const firstEnd = groupEnd(tokens, start + 1);
    const curried = tokens[firstEnd]?.type === "LParen";
    const argsOpen = curried ? firstEnd : start + 1;
    const argsEnd = curried ? groupEnd(tokens, firstEnd) : firstEnd;
    const args = argumentSpans(tokens, argsOpen, argsEnd);
    const clause = this.clause(context);
    const outerCall = context.stack.slice(0, -1).lastIndexOf("argumentList") > Math.max(context.stack.lastIndexOf("selectItem"), context.stack.lastIndexOf("orderByList"));
    const wantsAggregate = (clause === "SELECT" || clause === "HAVING" || clause === "ORDER BY") && !outerCall && !context.stack.includes("lambda");
    if (prng.chance(0.02)) {
      head.text = prng.pick(UNKNOWN_FUNCTIONS);
      return;
    }
    if (args.length > 0 && tokens[args[0]![0]]!.rule === "lambda") {
      head.text = prng.pick(LAMBDA_FUNCTIONS);
      return;
    }
    let fn: Fn | undefined;
    if (curried) {
      fn = prng.pick(CURRIED);
      // Levels between 0 and 1 (topK: a count).
      for (const [from, to] of argumentSpans(tokens, start + 1, firstEnd)) {
        if (to - from === 1 && tokens[from]!.type === "NumberLiteral") tokens[from]!.text = fn.name === "topK" ? String(prng.int(1, 10)) : prng.pick(["0.5", "0.9", "0.95", "0.99"]);
      }
    } else {
      const pools = wantsAggregate && prng.chance(0.85) ? [AGGREGATES, SCALARS] : [SCALARS, AGGREGATES];
      for (const pool of pools) {
        const fitting = pool.filter((candidate) => fitsArity(candidate, args.length));
        if (fitting.length > 0) {
          fn = prng.pick(fitting);
          break;
        }
      }
    }
    if (!fn) {
      head.text = prng.pick([...AGGREGATES, ...SCALARS]).name;
      return;
    }
    const chosen = fn;
    head.text = chosen.name;
    if (wantsAggregate && AGGREGATES.includes(fn)) this.state.aggregated = true;
    if (curried && wantsAggregate) this.state.aggregated = true;
    // A bare column argument gets a column of the kind the function takes.
    args.forEach(([from, to], i) => {
      const kind = chosen.args[Math.min(i, chosen.args.length - 1)];
      if (kind && kind !== "bool" && isBareColumn(tokens, from, to) && prng.chance(0.9)) tokens[from]!.text = this.column(prng, kind);
    });
  }

  /**
   * In each comparison `column op operand` of the chain just generated, a literal operand gets a
   * value of the column's type (a tuple for IN, a pattern for LIKE). Right to left, so that a
   * rewrite leaves the positions of the earlier steps as they were.
   */
  private fixComparisons(tokens: SentenceToken[], start: number, prng: Prng): void {
    const steps = chainSteps(tokens, start, tokens.length);
    for (let k = steps.length - 1; k >= 0; k--) {
      const step = steps[k]!;
      const leftStart = k === 0 ? start : steps[k - 1]!.at + steps[k - 1]!.width;
      const rightEnd = k + 1 < steps.length ? steps[k + 1]!.at : tokens.length;
      if (step.comparison) this.fixComparison(tokens, leftStart, step.at, step.at + step.width, rightEnd, prng);
    }
  }

  private fixComparison(tokens: SentenceToken[], leftStart: number, operatorAt: number, rightAt: number, rightEnd: number, prng: Prng): void {
    if (!isBareColumn(tokens, leftStart, operatorAt)) return;
    const column = tokens[leftStart]!.text;
    const kind = this.kindOfColumn(column);
    const operator = tokens[operatorAt]!.type === "NOT" ? tokens[operatorAt + 1]!.type : tokens[operatorAt]!.type;
    if (operator === "IS" || rightAt >= rightEnd) return;
    const right = tokens.slice(rightAt, rightEnd);
    const literal = right.every((token) => LITERAL_TYPES.has(token.type) || (token.type === "Minus" && token.rule === "literal"));
    if (operator === "IN") {
      if (literal || prng.chance(0.5)) {
        const values = Array.from({ length: prng.int(1, 3) }, () => literalFor(kind, column, prng, this.now));
        tokens.splice(rightAt, right.length, { type: "Identifier", text: `tuple(${values.join(", ")})`, rule: "atom" });
      }
      return;
    }
    if (!literal) return;
    if (kind === "array" && prng.chance(0.7)) {
      // An array compared with a scalar: has(column, value) = 1 instead.
      tokens.splice(leftStart, rightEnd - leftStart, { type: "Identifier", text: `has(${column}, ${literalFor("string", column, prng, this.now)}) = 1`, rule: "atom" });
      return;
    }
    const text = operator === "LIKE" ? `'%${prng.pick(["error", "a", "GET", ""])}%'` : literalFor(kind, column, prng, this.now);
    tokens.splice(rightAt, right.length, { type: "StringLiteral", text, rule: "literal" });
  }

  /** A join gets aliased nodes and the relationships the left entity declares. */
  private fixSource(tokens: SentenceToken[], start: number, prng: Prng): void {
    const arrows = tokens.slice(start).filter((token) => token.type === "RelationshipArrow");
    const nodes: SentenceToken[][] = [];
    for (let i = start; i < tokens.length; i++) {
      if (tokens[i]!.type === "LParen" && tokens[i]!.rule === "matchNode") {
        const idents: SentenceToken[] = [];
        for (let j = i + 1; j < tokens.length && tokens[j]!.type !== "RParen"; j++) if (tokens[j]!.type === "Identifier") idents.push(tokens[j]!);
        nodes.push(idents);
      }
    }
    if (arrows.length === 0) {
      const [head, tail] = nodes[0] ?? [];
      if (head && tail && prng.chance(0.9)) tail.text = "";
      const info = head ? entityInfo(head.text) : undefined;
      if (info) this.state.entity = info;
      return;
    }
    // Edge k joins node 2k to node 2k+1 (a -[r]-> b, c -[s]-> d, ...).
    const letters = ["e", "g", "a", "b", "c", "d"];
    const lhsEntity = this.state.entity;
    arrows.forEach((arrow, k) => {
      const relationships = lhsEntity.joins;
      const [relationship, rhs] = relationships.length > 0 && prng.chance(0.92) ? prng.pick(relationships) : ["nope", "nope"];
      arrow.text = `-[${relationship}]->`;
      const lhsNode = nodes[2 * k];
      const rhsNode = nodes[2 * k + 1];
      const lhsAlias = letters[(2 * k) % letters.length]!;
      const rhsAlias = letters[(2 * k + 1) % letters.length]!;
      if (lhsNode?.[0]) {
        lhsNode[0].text = `${lhsAlias}: ${lhsEntity.name}`;
        if (lhsNode[1]) lhsNode[1].text = "";
        this.state.aliases.set(lhsAlias, lhsEntity);
      }
      if (rhsNode?.[0]) {
        rhsNode[0].text = `${rhsAlias}: ${rhs}`;
        if (rhsNode[1]) rhsNode[1].text = "";
        const info = entityInfo(rhs);
        if (info) this.state.aliases.set(rhsAlias, info);
      }
    });
  }
}

function dropEmpty(tokens: readonly SentenceToken[]): string {
  return joinTokens(tokens.filter((token) => token.text !== ""));
}

/**
 * A whole query of the grammar (rule `query`), with realistic words: its tokens, and the dataset
 * of the entity it mostly names.
 */
export function snqlSentence(prng: Prng, now: number): { dataset: string; tokens: SentenceToken[]; query: string } {
  const entity = prng.pick(ENTITIES);
  const profile = new SnqlProfile(entity, "SELECT", now, true);
  const tokens = generateTokens(profile, { start: "query", maxRecursion: prng.int(1, 3), maxTokens: prng.chance(0.05) ? 400 : 80 }, prng).filter((token) => token.text !== "");
  return { dataset: entity.dataset, tokens, query: joinTokens(tokens) };
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const DAY = 86_400_000;

export interface AnchoredSnql {
  readonly dataset: string;
  readonly entity: string;
  readonly query: string;
}

/**
 * A query on a real entity with its required conditions (the time range within the demo data,
 * the project and organisation), the rest generated from the grammar's rules: the SELECT list;
 * BY with the bare columns the SELECT needs when it aggregates; extra WHERE conditions; HAVING,
 * ORDER BY, LIMIT, GRANULARITY and TOTALS sometimes.
 */
export function anchoredSnql(prng: Prng, now: number, entity: EntityInfo = prng.pick(ANCHORABLE)): AnchoredSnql {
  const profile = new SnqlProfile(entity, "SELECT", now, false);
  const rule = (start: string, clause: Clause, maxTokens = 40) => {
    profile.state.clause = clause;
    return dropEmpty(generateTokens(profile, { start, maxRecursion: prng.int(1, 2), maxTokens }, prng));
  };
  const select = rule("selectList", "SELECT");
  const { bareSelected, aggregated, selectAliases } = profile.state;
  let by = "";
  if (aggregated && bareSelected.length > 0) by = [...new Set(bareSelected)].join(", ");
  if (prng.chance(0.15)) by = by ? `${by}, ${rule("expressionList", "BY", 10)}` : aggregated ? rule("expressionList", "BY", 10) : "";
  const from = now - prng.int(1, 13) * DAY - prng.int(0, 23) * 3_600_000;
  const to = from + prng.pick([1, 6, 24, 72]) * 3_600_000;
  const conditions = [`${entity.timeColumn} >= toDateTime('${iso(from)}')`, `${entity.timeColumn} < toDateTime('${iso(to)}')`];
  for (const column of entity.required) {
    conditions.push(column === "project_id" ? (prng.chance(0.7) ? `project_id = ${prng.int(1, 3)}` : "project_id IN tuple(1, 2, 3)") : `${column} = 1`);
  }
  if (prng.chance(0.6)) conditions.push(`(${rule("expression", "WHERE", 24)})`);
  if (prng.chance(0.5)) conditions.reverse();
  let query = `MATCH (${entity.name}) SELECT ${select}${by ? ` BY ${by}` : ""} WHERE ${conditions.join(" AND ")}`;
  if (aggregated && prng.chance(0.1)) query += ` HAVING ${rule("expression", "HAVING", 16)}`;
  if (prng.chance(0.3)) {
    const direction = prng.pick(["ASC", "DESC"]);
    query += ` ORDER BY ${selectAliases.length > 0 && prng.chance(0.6) ? `${prng.pick(selectAliases)} ${direction}` : rule("orderByList", "ORDER BY", 12)}`;
  }
  if (prng.chance(0.5)) query += ` LIMIT ${prng.pick([1, 10, 100, 1000])}`;
  if (prng.chance(0.05)) query += ` OFFSET ${prng.int(0, 50)}`;
  if (prng.chance(0.12)) query += ` GRANULARITY ${prng.pick([60, 3600, 86400])}`;
  if (by && prng.chance(0.05)) query += " TOTALS true";
  return { dataset: entity.dataset, entity: entity.name, query };
}
