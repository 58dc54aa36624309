/**
 * The part of the typing pass that looks inside expressions: arithmetic (`+ - * /`, `intDiv`,
 * `modulo`) takes numbers (or dates), never strings or arrays, and ClickHouse converts neither.
 * An operand is judged only when its type is certain — a string literal, a string or array
 * column, a function that always returns a string — so a query this lets through may still
 * fail in ClickHouse, but one it refuses would have: as `invalid_query` at the operand's
 * position instead of ClickHouse's type error (code 43).
 */
import type { TextPosition } from "../errors/query-service-error.js";
import { invalidQuery } from "../errors/query-service-error.js";
import type { EntityDefinition } from "../datasets/definition-types.js";
import { memoizePerDefinition } from "../query/memoize-per-definition.js";
import { queryExpressions, type Expression, type LogicalQuery } from "../query/ast.js";

type Certain = "string" | "array" | null;

const ARITHMETIC: Readonly<Record<string, string>> = {
  plus: "+",
  minus: "-",
  multiply: "*",
  divide: "/",
  intDiv: "intDiv",
  modulo: "modulo",
};

/** Functions whose result is a string whatever their arguments. */
const STRING_RESULT = new Set([
  "toString", "lower", "upper", "lowerUTF8", "upperUTF8", "concat", "substring", "substringUTF8", "trim", "trimLeft",
  "trimRight", "trimBoth", "replaceAll", "replaceOne", "replaceRegexpAll", "replaceRegexpOne", "leftPad", "rightPad",
  "reverse", "formatDateTime", "IPv4NumToString", "IPv6NumToString", "hex", "arrayStringConcat", "toValidUTF8",
]);

/** Functions whose result is an array whatever their arguments. */
const ARRAY_RESULT = new Set(["array", "groupArray", "groupUniqArray", "splitByChar", "splitByString", "arrayMap", "arrayFilter", "arraySlice", "arrayConcat", "arrayDistinct", "arraySort", "arrayReverse"]);

/** Column name -> certain kind, from the entity's column types (Nested sub-columns are arrays). */
const columnKinds = memoizePerDefinition((entity: EntityDefinition): ReadonlyMap<string, Certain> => {
  const kinds = new Map<string, Certain>();
  for (const column of entity.columns) {
    const type = column.type.replace(/^(Nullable|LowCardinality)\((.*)\)$/, "$2").replace(/^(Nullable|LowCardinality)\((.*)\)$/, "$2");
    if (/^Nested\(/.test(column.type)) {
      for (const part of column.type.slice("Nested(".length, -1).split(",")) {
        const name = part.trim().split(/\s+/)[0];
        if (name) kinds.set(`${column.name}.${name}`, "array");
      }
    } else if (/^(String|FixedString\(\d+\))$/.test(type)) {
      kinds.set(column.name, "string");
    } else if (/^Array\(/.test(type)) {
      kinds.set(column.name, "array");
    }
  }
  // Mapped columns are computed in the storage: their type is not certain from here.
  for (const name of Object.keys(entity.columnMappers)) kinds.delete(name);
  return kinds;
});

function certainKind(node: Expression, entityOf: (entityAlias: string | undefined) => EntityDefinition | undefined, aliases: ReadonlySet<string>): Certain {
  switch (node.kind) {
    case "literal":
      return typeof node.value === "string" ? "string" : null;
    case "column": {
      if (node.entityAlias === undefined && !node.insideOwnAlias && aliases.has(node.name)) return null;
      const entity = entityOf(node.entityAlias);
      return entity ? (columnKinds(entity).get(node.name) ?? null) : null;
    }
    case "function":
      if (STRING_RESULT.has(node.name)) return "string";
      if (ARRAY_RESULT.has(node.name)) return "array";
      return null;
    default:
      return null;
  }
}

function at(position: TextPosition | undefined): string {
  return position ? ` at line ${position.line}, column ${position.column}` : "";
}

export function checkArgumentTypes(
  query: LogicalQuery,
  entityOf: (entityAlias: string | undefined) => EntityDefinition | undefined,
  aliases: ReadonlySet<string>,
): void {
  const visit = (node: Expression): void => {
    if (node.kind === "function") {
      const operator = ARITHMETIC[node.name];
      if (operator !== undefined) {
        for (const arg of node.args) {
          const kind = certainKind(arg, entityOf, aliases);
          if (kind !== null) {
            const position = arg.position ?? node.position;
            const what = arg.kind === "literal" ? `'${String(arg.value).slice(0, 40)}'` : arg.kind === "column" ? `column ${arg.name}` : `${(arg as { name: string }).name}(…)`;
            const fn = operator === node.name ? node.name : `${node.name} (${operator})`;
            throw invalidQuery(`${what}${at(position)} is ${kind === "string" ? "a string" : "an array"}, and ${fn} takes numbers or dates`, position);
          }
        }
      }
      node.args.forEach(visit);
    } else if (node.kind === "curried") {
      node.params.forEach(visit);
      node.args.forEach(visit);
    } else if (node.kind === "lambda") {
      visit(node.body);
    }
  };
  for (const expression of queryExpressions(query)) visit(expression);
}
