/**
 * The part of the typing pass that looks inside expressions: every function call's argument
 * count and argument types are judged against what the engine itself refuses
 * (probed-function-signatures.ts, measured on the embedded engine), so a call ClickHouse would
 * refuse with a type error (code 43) or a wrong argument count (42) is an `invalid_query` at
 * the argument's position instead.
 *
 * Conservative by construction: an argument is given a class only when its type is certain
 * (a literal, a column of a plain type, a call whose result class is known, an alias of one of
 * these), and a call's classes are judged only when every argument has one — the probe's
 * refusals hold "whatever the other arguments", but only among the classes it tried. A query
 * this lets through may still fail in ClickHouse; one it refuses would have.
 */
import type { TextPosition } from "../errors/query-service-error.js";
import { invalidQuery } from "../errors/query-service-error.js";
import type { EntityDefinition } from "../datasets/definition-types.js";
import { formatClickHouseType, parseClickHouseType } from "../datasets/clickhouse-type.js";
import { memoizePerDefinition } from "../query/memoize-per-definition.js";
import { queryExpressions, type Expression, type LogicalQuery } from "../query/ast.js";
import { ARGUMENT_CLASSES, CLASS_NAMES, classOfTypeName, elementClass, type ArgumentClass, type ProbedSignature } from "./argument-classes.js";
import { PROBED_FUNCTION_SIGNATURES } from "./probed-function-signatures.js";
import { comparesElements } from "./snql-array-conditions.js";
import { AGGREGATE_FUNCTIONS } from "../clickhouse/function-allow-list.js";

type EntityOf = (entityAlias: string | undefined) => EntityDefinition | undefined;

/** How the operators a query writes are named in messages (`plus (+)`). */
const OPERATOR_SYMBOLS: Readonly<Record<string, string>> = {
  plus: "+", minus: "-", multiply: "*", divide: "/", equals: "=", notEquals: "!=", less: "<", greater: ">",
  lessOrEquals: "<=", greaterOrEquals: ">=", like: "LIKE", notLike: "NOT LIKE", in: "IN", notIn: "NOT IN", and: "AND", or: "OR",
};

/** Column name -> class, from the entity's column types (Nested sub-columns are arrays). */
const columnClasses = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, ArgumentClass> => {
  const classes = new Map<string, ArgumentClass>();
  for (const column of entity.columns) {
    const type = parseClickHouseType(column.type);
    if (type.kind === "nested") {
      for (const field of type.fields) {
        const cls = classOfTypeName(`Array(${formatClickHouseType(field.type)})`);
        if (cls) classes.set(`${column.name}.${field.name}`, cls);
      }
      continue;
    }
    const cls = classOfTypeName(column.type);
    if (cls) classes.set(column.name, cls);
  }
  // Mapped columns are computed in the storage: their type is not certain from here.
  for (const name of Object.keys(entity.columnMappers)) classes.delete(name);
  return classes;
});

/** Nested subscriptables whose values are strings (`tags`, `contexts`; not `measurements`), read from the column types. */
export const stringSubscriptables = memoizePerDefinition((entity: EntityDefinition): ReadonlySet<string> => {
  const names = new Set<string>();
  for (const [name, definition] of Object.entries(entity.subscriptables)) {
    if (definition.kind !== "nested" || definition.integerKeys) continue;
    const dot = definition.valueColumn.indexOf(".");
    const column = entity.columns.find((c) => c.name === definition.valueColumn.slice(0, dot));
    if (!column) continue;
    const type = parseClickHouseType(column.type);
    const field = type.kind === "nested" ? type.fields.find((f) => f.name === definition.valueColumn.slice(dot + 1)) : undefined;
    if (field && /^(LowCardinality\()?(Nullable\()?String\)*$/.test(formatClickHouseType(field.type))) names.add(name);
  }
  return names;
});

/**
 * The class of a literal as ClickHouse types it: the smallest integer type that holds it
 * (0..255 is UInt8, 256..65535 UInt16, -1 Int8, ...), a float otherwise.
 */
function literalClass(value: unknown): ArgumentClass | null {
  if (typeof value === "string") return "string";
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  if (!Number.isInteger(value)) return "float64";
  if (value >= 0 && value <= 255) return "uint8";
  if (!Number.isSafeInteger(value)) return null;
  // Int8..Int64, UInt16 and UInt64 are Int64's class; UInt32 has none (see classOfTypeName).
  return value > 0xffff && value <= 0xffffffff ? null : "int64";
}

interface Typed {
  readonly cls: ArgumentClass | null;
  /** True: a constant to ClickHouse; false: a column; null: cannot tell. */
  readonly constant: boolean | null;
}

const UNKNOWN: Typed = { cls: null, constant: null };

/** One shared object per (class, constness): typing a query allocates none. */
const TYPED: ReadonlyMap<ArgumentClass | null, readonly [Typed, Typed, Typed]> = new Map(
  [...ARGUMENT_CLASSES, null].map((cls) => [cls, [{ cls, constant: true }, { cls, constant: false }, { cls, constant: null }]] as const),
);
function typed(cls: ArgumentClass | null, constant: boolean | null): Typed {
  return TYPED.get(cls)![constant === true ? 0 : constant === false ? 1 : 2];
}

/**
 * One walk over the query's expressions, children before parents: each node's class and
 * constness come from its children's, and each call is judged with its arguments' (linear in
 * the size of the query).
 */
class ArgumentTyping {
  /** Aliases typed so far; `null` while one is being typed (a reference back into it, a cycle, has no class). */
  private readonly aliasTypes = new Map<string, Typed | null>();

  constructor(
    private readonly entityOf: EntityOf,
    private readonly aliases: ReadonlyMap<string, Expression>,
  ) {}

  visit(node: Expression): Typed {
    switch (node.kind) {
      case "literal":
        return typed(literalClass(node.value), true);
      case "datetime":
        return typed("datetime", true);
      case "column": {
        if (node.entityAlias === undefined && !node.insideOwnAlias && this.aliases.has(node.name)) return this.aliasType(node.name);
        const entity = this.entityOf(node.entityAlias);
        return typed(entity ? (columnClasses(entity).get(node.name) ?? null) : null, false);
      }
      case "subscript": {
        const entity = this.entityOf(node.entityAlias);
        return typed(entity && stringSubscriptables(entity).has(node.column) ? "string" : null, false);
      }
      case "function": {
        const args: Typed[] = [];
        let constants = 0;
        let columns = 0;
        for (const arg of node.args) {
          let t = this.visit(arg);
          // `group_ids = 100` compares elements (snql-array-conditions.ts): the column counts as one.
          if (args.length === 0 && arg.kind === "column" && comparesElements(node.name)) t = elementOf(t);
          args.push(t);
          if (t.constant === true) constants++;
          else if (t.constant === false) columns++;
        }
        if (this.mapped(node.name, node.args)) return UNKNOWN;
        judge(node.name, node.args, args, node.position, false);
        const constant = constants > 0 && constants === args.length && !AGGREGATE_FUNCTIONS.has(node.name) ? true : columns > 0 ? false : null;
        return typed(resultClass(PROBED_FUNCTION_SIGNATURES.get(node.name), args), constant);
      }
      case "curried": {
        node.params.forEach((param) => this.visit(param));
        const args = node.args.map((arg) => this.visit(arg));
        if (!this.mapped(node.name, node.args)) judge(node.name, node.args, args, node.position, true);
        return typed(null, false);
      }
      case "lambda":
        this.visit(node.body);
        return UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  /** An alias has its definition's class (`count() AS c` is an integer wherever `c` is used). */
  private aliasType(name: string): Typed {
    const known = this.aliasTypes.get(name);
    if (known !== undefined) return known ?? UNKNOWN;
    this.aliasTypes.set(name, null);
    // An aliased expression is computed once per row: it is never a constant to its users.
    const result = typed(this.visit(this.aliases.get(name)!).cls, null);
    this.aliasTypes.set(name, result);
    return result;
  }

  /** An aggregate the entity rewrites to another call (`sum(value)` -> `sumMerge(...)` on metrics). */
  private mapped(name: string, args: readonly Expression[]): boolean {
    const first = args[0];
    if (first?.kind !== "column") return false;
    const mappers = this.entityOf(first.entityAlias)?.functionMappers;
    return mappers !== undefined && mappers.some((m) => m.from === name && m.argument === first.name);
  }
}

/** An array column's elements: `group_ids = 100` in a condition compares each one. */
function elementOf(t: Typed): Typed {
  const element = elementClass(t.cls);
  return element === null ? t : typed(element, false);
}

/** The class of a call's result: fixed for the function, or following its arguments' (ResultRule). */
function resultClass(signature: ProbedSignature | undefined, args: readonly Typed[]): ArgumentClass | null {
  if (!signature) return null;
  if (signature.result) return signature.result;
  const rule = signature.results[args.length];
  if (!rule) return null;
  if ("from" in rule) return args[rule.from]?.cls ?? null;
  if ("elementOf" in rule) return elementClass(args[rule.elementOf]?.cls ?? null);
  const [i, j] = rule.agreeing;
  const a = args[i]?.cls ?? null;
  return a !== null && a === (args[j]?.cls ?? null) ? a : null;
}

/** The functions that take a lambda, for messages. */
const LAMBDA_FUNCTIONS = [...PROBED_FUNCTION_SIGNATURES].filter(([, signature]) => signature.lambda).map(([name]) => name);

function at(position: TextPosition | undefined): string {
  return position ? ` at line ${position.line}, column ${position.column}` : "";
}

function describe(node: Expression): string {
  switch (node.kind) {
    case "literal":
      return typeof node.value === "string" ? `'${node.value.slice(0, 40)}'` : String(node.value);
    case "column":
      return `column ${node.name}`;
    case "subscript":
      return `${node.column}[${node.key}]`;
    case "function":
    case "curried":
      return `${node.name}(…)`;
    default:
      return "the argument";
  }
}

function nameOf(name: string): string {
  const symbol = OPERATOR_SYMBOLS[name];
  return symbol ? `${name} (${symbol})` : name;
}

function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]!}`;
}

type Forms = NonNullable<ProbedSignature["refused"][number]>;
type PairForms = NonNullable<ProbedSignature["pairs"][number]>;

/** Per pair list, the same as a set (and, for calls mixing constants and columns, the pairs refused both ways). */
const pairSets = new WeakMap<PairForms, { constant: ReadonlySet<string>; column: ReadonlySet<string>; both: ReadonlySet<string> }>();

function refusedPairsFor(signature: ProbedSignature, args: readonly Typed[]): ReadonlySet<string> | null {
  const forms = signature.pairs[args.length];
  if (!forms) return null;
  let sets = pairSets.get(forms);
  if (!sets) {
    const constant = new Set(forms.constant);
    const column = new Set(forms.column);
    sets = { constant, column, both: new Set([...constant].filter((pair) => column.has(pair))) };
    pairSets.set(forms, sets);
  }
  let constants = 0;
  let columns = 0;
  for (const a of args) {
    if (a.constant === true) constants++;
    else if (a.constant === false) columns++;
  }
  return constants === args.length ? sets.constant : columns === args.length ? sets.column : sets.both;
}

/** Per form pair, the classes refused as both a constant and a column (for calls that mix them). */
const refusedEitherWay = new WeakMap<Forms, readonly (readonly ArgumentClass[])[]>();

/** The classes refused at each position for these arguments' forms (both forms' refusals when mixed). */
function refusedFor(signature: ProbedSignature, args: readonly Typed[]): readonly (readonly ArgumentClass[])[] | null {
  const forms = signature.refused[args.length];
  if (!forms) return null;
  let constants = 0;
  let columns = 0;
  for (const a of args) {
    if (a.constant === true) constants++;
    else if (a.constant === false) columns++;
  }
  if (constants === args.length) return forms.constant;
  if (columns === args.length) return forms.column;
  let both = refusedEitherWay.get(forms);
  if (!both) refusedEitherWay.set(forms, (both = forms.constant.map((refused, i) => refused.filter((cls) => forms.column[i]!.includes(cls)))));
  return both;
}

function countsTaken(signature: ProbedSignature): string {
  const counts = [0, 1, 2, 3, 4].filter((n) => signature.counts[n] !== "refused");
  const shown = counts.filter((n) => n < 4).map(String);
  if (signature.counts[4] !== "refused") shown.push("4 or more");
  return `${list(shown)} argument${shown.length === 1 && shown[0] === "1" ? "" : "s"}`;
}

/** Throws `invalid_query` when the engine would refuse this call for its argument count or classes. */
function judge(name: string, args: readonly Expression[], types: readonly Typed[], position: TextPosition | undefined, curried: boolean): void {
  const signature = PROBED_FUNCTION_SIGNATURES.get(name);
  if (!signature) return;
  for (const arg of args) {
    if (arg.kind !== "lambda") continue;
    // The probe called each function with lambdas: only the higher-order array functions take
    // one, and always before at least one array.
    const lambdaPosition = arg.position ?? position;
    if (!signature.lambda) {
      throw invalidQuery(`${nameOf(name)}${at(position)} does not take a lambda (the one${at(lambdaPosition)}); functions that do: ${LAMBDA_FUNCTIONS.slice(0, 8).join(", ")}, ...`, lambdaPosition);
    }
    if (args.length === 1 && !signature.lambdaAlone) {
      throw invalidQuery(`${nameOf(name)}${at(position)} needs an array after its lambda, e.g. ${name}((\`x\`) -> ..., tags.value)`, position);
    }
    // The classes were probed without lambdas: nothing more to judge.
    return;
  }
  // A curried call's own parameters (quantile(0.5)) were not probed: only its argument classes are judged.
  if (!curried && signature.counts[args.length] === "refused") {
    throw invalidQuery(`${nameOf(name)}${at(position)} does not take ${args.length} argument${args.length === 1 ? "" : "s"}: it takes ${countsTaken(signature)}`, position);
  }
  for (const t of types) {
    if (t.cls === null) return;
    // A -Merge call takes only its own kind of state: the probe's one kind cannot judge it.
    if (t.cls === "aggregateState" && name.includes("Merge")) return;
  }
  const refused = refusedFor(signature, types);
  if (!refused) return;
  for (let i = 0; i < types.length; i++) {
    const t = types[i]!;
    if (!refused[i]!.includes(t.cls!)) continue;
    const arg = args[i]!;
    const argPosition = arg.position ?? position;
    const taken = ARGUMENT_CLASSES.filter((cls) => !refused[i]!.includes(cls)).map((cls) => CLASS_NAMES[cls]);
    const takes = taken.length > 0 ? `; it takes ${list(taken)} there` : "";
    throw invalidQuery(
      `${describe(arg)}${at(argPosition)} is ${CLASS_NAMES[t.cls!]}, and ${nameOf(name)} does not take ${CLASS_NAMES[t.cls!]} as argument ${i + 1} of ${args.length}${takes}`,
      argPosition,
    );
  }
  const pairs = refusedPairsFor(signature, types);
  if (!pairs || pairs.size === 0) return;
  for (let i = 0; i < types.length; i++) {
    for (let j = i + 1; j < types.length; j++) {
      if (!pairs.has(`${i} ${j} ${types[i]!.cls} ${types[j]!.cls}`)) continue;
      const [first, second] = [args[i]!, args[j]!];
      const secondPosition = second.position ?? position;
      throw invalidQuery(
        `${describe(first)}${at(first.position ?? position)} is ${CLASS_NAMES[types[i]!.cls!]} and ${describe(second)}${at(secondPosition)} is ${CLASS_NAMES[types[j]!.cls!]}: ${nameOf(name)} does not take them together as arguments ${i + 1} and ${j + 1} (ClickHouse finds no type for both)`,
        secondPosition,
      );
    }
  }
}

export function checkArgumentTypes(query: LogicalQuery, entityOf: EntityOf, aliases: ReadonlyMap<string, Expression>): void {
  const typing = new ArgumentTyping(entityOf, aliases);
  for (const expression of queryExpressions(query)) typing.visit(expression);
}
