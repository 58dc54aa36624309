/**
 * Logical query -> SnQL text, the inverse of `parseSnql` for queries it can express: parsing
 * the printed text gives back the same query (the property tests check this). Operators are
 * printed infix with the parentheses their precedence needs; everything else as written in SnQL.
 */
import type { Expression, FunctionCallNode, LiteralValue, LogicalQuery, QuerySource, SelectedExpression } from "../query/ast.js";
import { ownProperty } from "../query/own-property.js";
import { formatDateTime } from "../query/datetime-literal.js";

const INFIX: Readonly<Record<string, { readonly text: string; readonly precedence: number }>> = {
  or: { text: "OR", precedence: 1 },
  and: { text: "AND", precedence: 2 },
  equals: { text: "=", precedence: 3 },
  notEquals: { text: "!=", precedence: 3 },
  less: { text: "<", precedence: 3 },
  lessOrEquals: { text: "<=", precedence: 3 },
  greater: { text: ">", precedence: 3 },
  greaterOrEquals: { text: ">=", precedence: 3 },
  in: { text: "IN", precedence: 3 },
  notIn: { text: "NOT IN", precedence: 3 },
  like: { text: "LIKE", precedence: 3 },
  notLike: { text: "NOT LIKE", precedence: 3 },
  plus: { text: "+", precedence: 4 },
  minus: { text: "-", precedence: 4 },
  multiply: { text: "*", precedence: 5 },
  divide: { text: "/", precedence: 5 },
};
const COMPARISON = 3;
const ADDITIVE = 4;
const ATOM = 6;

/** A string literal with SnQL escapes: backslash, quote and the control characters that have one. */
export function quoteSnqlString(value: string): string {
  return `'${value.replace(/[\\'\n\t\r]/g, (char) => ({ "\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r" })[char]!)}'`;
}

function literal(value: LiteralValue): string {
  if (value === null) return "NULL";
  if (typeof value === "string") return quoteSnqlString(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

function alias(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``;
}

function precedenceOf(node: Expression): number {
  if (node.kind === "function" && node.alias === undefined) {
    if (node.name === "isNull" || node.name === "isNotNull") return node.args.length === 1 ? COMPARISON : ATOM;
    const infix = ownProperty(INFIX, node.name);
    if (infix && node.args.length === 2) return infix.precedence;
  }
  // A negative number written after an operator reads as part of it (`a - -1` is fine, `a*-1` too).
  return ATOM;
}

/** `node` printed where an operand of at least `minimum` precedence is expected. */
function operand(node: Expression, minimum: number): string {
  const text = printSnqlExpression(node);
  return precedenceOf(node) < minimum ? `(${text})` : text;
}

export function printSnqlExpression(node: Expression): string {
  switch (node.kind) {
    case "literal":
      return node.digits ?? literal(node.value);
    case "datetime":
      return `toDateTime('${formatDateTime(node.epochSeconds)}')`;
    case "column":
      return node.entityAlias === undefined ? node.name : `${node.entityAlias}.${node.name}`;
    case "subscript":
      return `${node.entityAlias === undefined ? "" : `${node.entityAlias}.`}${node.column}[${node.key}]`;
    case "argument":
      return `\`${node.name}\``;
    case "lambda":
      // The body of a lambda is a function call in SnQL, never an infix operator.
      return `(${node.params.map((p) => `\`${p}\``).join(", ")}) -> ${node.body.kind === "function" ? call(node.body) : printSnqlExpression(node.body)}`;
    case "curried": {
      const call = `${node.name}(${node.params.map(printSnqlExpression).join(", ")})(${node.args.map(printSnqlExpression).join(", ")})`;
      return node.alias === undefined ? call : `${call} AS ${alias(node.alias)}`;
    }
    case "function": {
      const precedence = precedenceOf(node);
      if (precedence === COMPARISON && (node.name === "isNull" || node.name === "isNotNull")) {
        return `${operand(node.args[0]!, ADDITIVE)} ${node.name === "isNull" ? "IS NULL" : "IS NOT NULL"}`;
      }
      const infix = ownProperty(INFIX, node.name);
      if (infix && precedence !== ATOM) {
        const [left, right] = node.args as [Expression, Expression];
        // Comparisons take additive operands on both sides; the others are left-associative.
        const leftMinimum = precedence === COMPARISON ? ADDITIVE : precedence;
        const rightMinimum = precedence === COMPARISON ? ADDITIVE : precedence + 1;
        return `${operand(left, leftMinimum)} ${infix.text} ${operand(right, rightMinimum)}`;
      }
      return call(node);
    }
  }
}

function call(node: FunctionCallNode): string {
  const text = `${node.name}(${node.args.map(printSnqlExpression).join(", ")})`;
  return node.alias === undefined ? text : `${text} AS ${alias(node.alias)}`;
}

function selectItem(item: SelectedExpression): string {
  const text = printSnqlExpression(item.expression);
  return item.alias === undefined ? text : `${text} AS ${alias(item.alias)}`;
}

function sample(value: number | undefined): string {
  if (value === undefined) return "";
  return ` SAMPLE ${Number.isInteger(value) ? value.toFixed(1) : String(value)}`;
}

function printSource(source: QuerySource): string {
  switch (source.kind) {
    case "entity":
      return `(${source.name}${sample(source.sample)})`;
    case "storage":
      return `STORAGE(${source.name}${sample(source.sample)})`;
    case "subquery":
      return `{ ${printSnql(source.query)} }`;
    case "join": {
      const node = (name: string) => {
        const entity = source.entities.find((e) => e.alias === name)!;
        return `(${entity.alias}: ${entity.entity}${sample(entity.sample)})`;
      };
      return source.edges.map((edge) => `${node(edge.lhs)} -[${edge.relationship}]-> ${node(edge.rhs)}`).join(", ");
    }
  }
}

/** The query as SnQL, clauses in Snuba's order. BY items are the first `groupBy.length` selected. */
export function printSnql(query: LogicalQuery): string {
  const by = query.selected.slice(0, query.groupBy.length);
  const select = query.selected.slice(query.groupBy.length);
  const parts = [`MATCH ${printSource(query.from)}`, `SELECT ${select.map(selectItem).join(", ")}`];
  if (by.length > 0) parts.push(`BY ${by.map(selectItem).join(", ")}`);
  if (query.arrayJoin && query.arrayJoin.length > 0) parts.push(`ARRAY JOIN ${query.arrayJoin.map((e) => operand(e, ADDITIVE)).join(", ")}`);
  if (query.where) parts.push(`WHERE ${printSnqlExpression(query.where)}`);
  if (query.having) parts.push(`HAVING ${printSnqlExpression(query.having)}`);
  if (query.orderBy.length > 0) {
    parts.push(`ORDER BY ${query.orderBy.map((o) => `${printSnqlExpression(o.expression)} ${o.direction}`).join(", ")}`);
  }
  if (query.limitBy) parts.push(`LIMIT ${query.limitBy.limit} BY ${query.limitBy.columns.map((e) => operand(e, ADDITIVE)).join(", ")}`);
  if (query.limit !== null) parts.push(`LIMIT ${query.limit}`);
  if (query.offset !== 0) parts.push(`OFFSET ${query.offset}`);
  if (query.granularity !== null) parts.push(`GRANULARITY ${query.granularity}`);
  if (query.totals) parts.push("TOTALS true");
  return parts.join(" ");
}
