/**
 * How a refusal names what it refuses, so that every message reads alike: an argument as the
 * query wrote it, a function with its operator (`plus (+)`), a type by its class or variant,
 * and the argument counts a function takes.
 */
import type { Expression } from "../../query/ast.js";
import { CLASS_NAMES, VARIANTS, countsUpTo, variantWhat } from "../argument-classes.js";
import type { Typed } from "./typed-values.js";

/** How the operators a query writes are named in messages (`plus (+)`). */
const OPERATOR_SYMBOLS: Readonly<Record<string, string>> = {
  plus: "+", minus: "-", multiply: "*", divide: "/", equals: "=", notEquals: "!=", less: "<", greater: ">",
  lessOrEquals: "<=", greaterOrEquals: ">=", like: "LIKE", notLike: "NOT LIKE", in: "IN", notIn: "NOT IN", and: "AND", or: "OR",
};

export function describe(node: Expression): string {
  switch (node.kind) {
    case "literal":
      return typeof node.value === "string" ? `'${node.value.slice(0, 40)}'` : node.value === null ? "NULL" : (node.digits ?? String(node.value));
    case "column":
      return node.label ?? `column ${node.name}`;
    case "subscript":
      return `${node.column}[${node.key}]`;
    case "function":
    case "curried":
      return `${node.name}(…)`;
    case "argument":
      return `the lambda's parameter \`${node.name}\``;
    default:
      return "the argument";
  }
}

export function nameOf(name: string): string {
  // Own keys only: `toString` and `constructor` are functions on every object's prototype.
  const symbol = Object.hasOwn(OPERATOR_SYMBOLS, name) ? OPERATOR_SYMBOLS[name] : undefined;
  return symbol ? `${name} (${symbol})` : name;
}

export function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]!}`;
}

export function countsTaken(refusedCounts: readonly boolean[]): string {
  const taken = countsUpTo(refusedCounts.length - 1).filter((n) => !refusedCounts[n]);
  return `${countList(taken, refusedCounts.length - 1)} argument${taken.length === 1 && taken[0] === 1 ? "" : "s"}`;
}

/** How a message names an argument's type: its class (Nullable or not), or its variant's type. */
export function typeName(t: Typed): string {
  if (t.variant >= 0) return variantWhat(VARIANTS[t.variant]!);
  // An alternative of a Variant the pass has no class for (two numbers of one family it cannot tell apart).
  if (t.cls === null) return "a value of a type the pass does not name";
  return `${CLASS_NAMES[t.cls]}${t.nullable ? " (Nullable)" : ""}`;
}

/** Counts for a message, the last probed one meaning "or more": [1, 2, 3] of 3 is "1 or more", [0, 1] "0 or 1". */
export function countList(taken: readonly number[], max: number): string {
  if (taken.length === 0) return "none the probe found";
  if (!taken.includes(max)) return list(taken.map(String));
  let from = max;
  while (taken.includes(from - 1)) from -= 1;
  return list([...taken.filter((n) => n < from).map(String), `${from} or more`]);
}
