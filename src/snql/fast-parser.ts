/**
 * A hand-written lexer and recursive-descent parser for the SnQL that clients actually send:
 * the fast path of `parseSnql`. Chevrotain's recognizer (rule wrappers, lookahead functions,
 * token objects with full position tracking) cost about half of the front end's time; this
 * reads the same grammar with plain loops over parallel arrays.
 *
 * It is only ever an accelerator, never the judge: on anything it is not certain about —
 * a character or token out of place, an unterminated string, deep nesting, a line break inside
 * a token, a semantic error from an action — it gives up (returns null) and the chevrotain
 * parser (`parser.ts`), which stays the reference grammar, parses the text again and reports
 * the error with its exact words and position. So for every text this parser accepts, it must
 * build exactly what `snqlParser.query()` builds (same nodes, same key order, same positions).
 * Keep the two in step when the grammar changes.
 */
import type { Expression, LiteralNode, OrderByItem, SelectedExpression } from "../query/ast.js";
import type { TextPosition } from "../errors/query-service-error.js";
import { parseDateTimeLiteral } from "./datetime-literal.js";
import {
  unescapeSnqlString,
  type ParsedJoinEdge,
  type ParsedJoinNode,
  type ParsedSample,
  type ParsedSnql,
  type ParsedSource,
  type PositionedNumber,
} from "./parser.js";

// Token kinds (the token types of tokens.ts that the grammar uses).
const EOF = 0;
const SUBSCRIPT = 1;
const IDENTIFIER = 2;
const QUOTED_IDENTIFIER = 3;
const STRING = 4;
const NUMBER = 5;
const NOT_EQUALS = 6;
const GREATER_OR_EQUALS = 7;
const LESS_OR_EQUALS = 8;
const GREATER = 9;
const LESS = 10;
const EQUALS = 11;
const RELATIONSHIP_ARROW = 12;
const ARROW = 13;
const LCURLY = 14;
const RCURLY = 15;
const PLUS = 16;
const MINUS = 17;
const STAR = 18;
const SLASH = 19;
const LPAREN = 20;
const RPAREN = 21;
const COMMA = 22;
const MATCH = 30;
const SELECT = 31;
const BY = 32;
const WHERE = 33;
const HAVING = 34;
const ORDER = 35;
const LIMIT = 36;
const OFFSET = 37;
const GRANULARITY = 38;
const TOTALS = 39;
const SAMPLE = 40;
const STORAGE = 41;
const ARRAY = 42;
const JOIN = 43;
const AS = 44;
const AND = 45;
const OR = 46;
const ASC = 47;
const DESC = 48;
const IN = 49;
const LIKE = 50;
const NOT = 51;
const IS = 52;
const NULL = 53;
const TRUE = 54;
const FALSE = 55;

/**
 * Upper-case keywords, matched on the whole identifier-class word: chevrotain's keyword tokens
 * carry `longer_alt: Identifier`, so `ASCII` or `INT` lex as identifiers, and no keyword is a
 * prefix of an earlier one in tokens.ts (ASC before AS, ORDER before OR).
 */
const KEYWORDS = new Map<string, number>([
  ["MATCH", MATCH],
  ["SELECT", SELECT],
  ["BY", BY],
  ["WHERE", WHERE],
  ["HAVING", HAVING],
  ["ORDER", ORDER],
  ["LIMIT", LIMIT],
  ["OFFSET", OFFSET],
  ["GRANULARITY", GRANULARITY],
  ["TOTALS", TOTALS],
  ["SAMPLE", SAMPLE],
  ["STORAGE", STORAGE],
  ["ARRAY", ARRAY],
  ["JOIN", JOIN],
  ["AS", AS],
  ["AND", AND],
  ["OR", OR],
  ["ASC", ASC],
  ["DESC", DESC],
  ["IN", IN],
  ["LIKE", LIKE],
  ["NOT", NOT],
  ["IS", IS],
]);

/** NULL, TRUE and FALSE are the case-insensitive keywords. */
const CASE_INSENSITIVE_KEYWORDS = new Map<string, number>([
  ["NULL", NULL],
  ["TRUE", TRUE],
  ["FALSE", FALSE],
]);

const COMPARISON_FUNCTION: Record<number, string> = {
  [EQUALS]: "equals",
  [NOT_EQUALS]: "notEquals",
  [LESS]: "less",
  [LESS_OR_EQUALS]: "lessOrEquals",
  [GREATER]: "greater",
  [GREATER_OR_EQUALS]: "greaterOrEquals",
};

/** As parse-snql.ts's MAX_NESTING_DEPTH: deeper texts go to the reference parser for its error. */
const MAX_NESTING_DEPTH = 64;

/** Thrown (never allocated per call) to abandon the fast path. */
const GIVE_UP = { giveUp: true };

const LAMBDA_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const JOIN_ALIAS = /^[A-Za-z_][A-Za-z0-9_]*$/;
const JOIN_ENTITY = /^[A-Za-z_]+$/;

// Character classes by code unit (ASCII only; anything else outside a literal gives up).
const IDENTIFIER_START = new Uint8Array(128);
const SUBSCRIPT_NAME = new Uint8Array(128);
const IDENTIFIER_PART = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_]/.test(ch)) IDENTIFIER_START[c] = 1;
  if (/[A-Za-z0-9_.]/.test(ch)) SUBSCRIPT_NAME[c] = 1;
  if (/[A-Za-z0-9_.:@/]/.test(ch)) IDENTIFIER_PART[c] = 1;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * The token stream as parallel arrays, reused from call to call (parsing is synchronous and not
 * re-entrant): no token object is allocated; `end` is exclusive.
 */
let count = 0;
const kinds: number[] = [];
const starts: number[] = [];
const ends: number[] = [];
const lines: number[] = [];
const columns: number[] = [];

function push(kind: number, start: number, end: number, line: number, column: number): void {
  kinds[count] = kind;
  starts[count] = start;
  ends[count] = end;
  lines[count] = line;
  columns[count] = column;
  count++;
}

/** Lexes `text` into the arrays, or throws GIVE_UP. Mirrors the patterns of tokens.ts. */
function lex(text: string): void {
  count = 0;
  const n = text.length;
  let line = 1;
  let lineStart = 0;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // Whitespace (ASCII; chevrotain counts \n, \r\n and \r as line breaks).
    if (c === 32 || (c >= 9 && c <= 13)) {
      if (c === 10) {
        line++;
        lineStart = i + 1;
      } else if (c === 13) {
        line++;
        lineStart = text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
        if (lineStart === i + 2) i++;
      }
      i++;
      continue;
    }
    const column = i - lineStart + 1;
    if (c === 39) {
      // 'string': backslash escapes any character; a line break inside is left to chevrotain.
      let j = i + 1;
      for (;;) {
        if (j >= n) throw GIVE_UP;
        const d = text.charCodeAt(j);
        if (d === 10 || d === 13) throw GIVE_UP;
        if (d === 92) {
          const e = text.charCodeAt(j + 1);
          if (j + 1 >= n || e === 10 || e === 13) throw GIVE_UP;
          j += 2;
        } else if (d === 39) {
          break;
        } else {
          j++;
        }
      }
      push(STRING, i, j + 1, line, column);
      i = j + 1;
      continue;
    }
    if (c < 128 && IDENTIFIER_START[c] === 1) {
      // Subscript `name[key]` first (its name excludes : @ /), then keyword or identifier.
      let j = i + 1;
      while (j < n && text.charCodeAt(j) < 128 && SUBSCRIPT_NAME[text.charCodeAt(j)] === 1) j++;
      if (text.charCodeAt(j) === 91) {
        let k = j + 1;
        while (k < n) {
          const d = text.charCodeAt(k);
          if (d === 91 || d === 93) break;
          if (d === 10 || d === 13) throw GIVE_UP;
          k++;
        }
        if (text.charCodeAt(k) === 93) {
          push(SUBSCRIPT, i, k + 1, line, column);
          i = k + 1;
          continue;
        }
      }
      // The identifier class is a superset of the subscript name's: go on from where that stopped.
      while (j < n && text.charCodeAt(j) < 128 && IDENTIFIER_PART[text.charCodeAt(j)] === 1) j++;
      const length = j - i;
      let kind = IDENTIFIER;
      if (length <= 11) {
        const word = text.slice(i, j);
        kind = KEYWORDS.get(word) ?? (length === 4 || length === 5 ? CASE_INSENSITIVE_KEYWORDS.get(word.toUpperCase()) : undefined) ?? IDENTIFIER;
      }
      push(kind, i, j, line, column);
      i = j;
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (isDigit(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === 46 && isDigit(text.charCodeAt(j + 1))) {
        j += 2;
        while (isDigit(text.charCodeAt(j))) j++;
      }
      if (text.charCodeAt(j) === 101) {
        const sign = text.charCodeAt(j + 1);
        if ((sign === 43 || sign === 45) && isDigit(text.charCodeAt(j + 2))) {
          j += 3;
          while (isDigit(text.charCodeAt(j))) j++;
        }
      }
      push(NUMBER, i, j, line, column);
      i = j;
      continue;
    }
    let kind: number;
    let length = 1;
    switch (c) {
      case 96: {
        // `quoted identifier`
        let j = i + 1;
        while (j < n && text.charCodeAt(j) !== 96) {
          const d = text.charCodeAt(j);
          if (d === 10 || d === 13) throw GIVE_UP;
          j++;
        }
        if (j >= n) throw GIVE_UP;
        kind = QUOTED_IDENTIFIER;
        length = j + 1 - i;
        break;
      }
      case 33: // !=
        if (text.charCodeAt(i + 1) !== 61) throw GIVE_UP;
        kind = NOT_EQUALS;
        length = 2;
        break;
      case 62: // > >=
        if (text.charCodeAt(i + 1) === 61) {
          kind = GREATER_OR_EQUALS;
          length = 2;
        } else {
          kind = GREATER;
        }
        break;
      case 60: // < <=
        if (text.charCodeAt(i + 1) === 61) {
          kind = LESS_OR_EQUALS;
          length = 2;
        } else {
          kind = LESS;
        }
        break;
      case 61:
        kind = EQUALS;
        break;
      case 45: {
        // -[rel]->, ->, -
        const next = text.charCodeAt(i + 1);
        if (next === 62) {
          kind = ARROW;
          length = 2;
        } else if (next === 91 && text.charCodeAt(i + 2) < 128 && IDENTIFIER_START[text.charCodeAt(i + 2)] === 1) {
          let j = i + 3;
          while (j < n && /[A-Za-z0-9_]/.test(text[j]!)) j++;
          if (text.charCodeAt(j) === 93 && text.charCodeAt(j + 1) === 45 && text.charCodeAt(j + 2) === 62) {
            kind = RELATIONSHIP_ARROW;
            length = j + 3 - i;
          } else {
            kind = MINUS;
          }
        } else {
          kind = MINUS;
        }
        break;
      }
      case 123:
        kind = LCURLY;
        if (++depth > MAX_NESTING_DEPTH) throw GIVE_UP;
        break;
      case 125:
        kind = RCURLY;
        depth--;
        break;
      case 40:
        kind = LPAREN;
        if (++depth > MAX_NESTING_DEPTH) throw GIVE_UP;
        break;
      case 41:
        kind = RPAREN;
        depth--;
        break;
      case 43:
        kind = PLUS;
        break;
      case 42:
        kind = STAR;
        break;
      case 47:
        kind = SLASH;
        break;
      case 44:
        kind = COMMA;
        break;
      default:
        throw GIVE_UP;
    }
    push(kind, i, i + length, line, column);
    i += length;
  }
  push(EOF, n, n, line, n - lineStart + 1);
}

// ---- parser -------------------------------------------------------------------------------

let source = "";
let p = 0;

function expect(kind: number): number {
  if (kinds[p] !== kind) throw GIVE_UP;
  return p++;
}

function image(token: number): string {
  return source.slice(starts[token]!, ends[token]!);
}

function positionOf(token: number): TextPosition {
  return { line: lines[token]!, column: columns[token]! };
}

/** The fast path: the parsed query, or null when the reference parser must decide. */
export function parseSnqlFast(text: string): ParsedSnql | null {
  source = text;
  try {
    lex(text);
    p = 0;
    const query = parseQuery();
    if (kinds[p] !== EOF) return null;
    return query;
  } catch {
    // GIVE_UP, or an action's error: the reference parser reports it (or what comes first).
    return null;
  } finally {
    source = "";
  }
}

function parseQuery(): ParsedSnql {
  expect(MATCH);
  const matched = parseMatchSource();
  expect(SELECT);
  const select = parseSelectList();
  let by: SelectedExpression[] = [];
  let arrayJoin: Expression[] = [];
  let where: Expression | null = null;
  let having: Expression | null = null;
  let orderBy: OrderByItem[] = [];
  let limitBy: ParsedSnql["limitBy"] = null;
  let limit: PositionedNumber | null = null;
  let offset: PositionedNumber | null = null;
  let granularity: PositionedNumber | null = null;
  let totals: ParsedSnql["totals"] = null;
  if (kinds[p] === BY) {
    p++;
    by = parseSelectList();
  }
  if (kinds[p] === ARRAY) {
    p++;
    expect(JOIN);
    arrayJoin = parseExpressionList();
  }
  if (kinds[p] === WHERE) {
    p++;
    where = parseOr();
  }
  if (kinds[p] === HAVING) {
    p++;
    having = parseOr();
  }
  if (kinds[p] === ORDER) {
    p++;
    expect(BY);
    orderBy = parseOrderByList();
  }
  if (kinds[p] === LIMIT) {
    const keyword = p++;
    const value = parseInteger();
    const first = { value, position: positionOf(keyword) };
    if (kinds[p] === BY) {
      p++;
      const columns = parseExpressionList();
      let second: PositionedNumber | null = null;
      if (kinds[p] === LIMIT) {
        const again = p++;
        const againValue = parseInteger();
        second = { value: againValue, position: positionOf(again) };
      }
      limitBy = { limit: first, columns };
      limit = second;
    } else {
      limit = first;
    }
  }
  if (kinds[p] === OFFSET) {
    const keyword = p++;
    const value = parseInteger();
    offset = { value, position: positionOf(keyword) };
  }
  if (kinds[p] === GRANULARITY) {
    const keyword = p++;
    const value = parseInteger();
    granularity = { value, position: positionOf(keyword) };
  }
  if (kinds[p] === TOTALS) {
    const keyword = p++;
    let value: boolean;
    if (kinds[p] === TRUE) value = true;
    else if (kinds[p] === FALSE) value = false;
    else throw GIVE_UP;
    p++;
    totals = { value, position: positionOf(keyword) };
  }
  return { source: matched, select, by, arrayJoin, where, having, orderBy, limitBy, limit, offset, granularity, totals };
}

function parseMatchSource(): ParsedSource {
  const kind = kinds[p];
  if (kind === LCURLY) {
    const open = p++;
    const query = parseQuery();
    expect(RCURLY);
    return { kind: "subquery" as const, query, position: positionOf(open) };
  }
  if (kind === STORAGE) {
    p++;
    expect(LPAREN);
    const name = expect(IDENTIFIER);
    const sample = kinds[p] === SAMPLE ? parseSample() : undefined;
    expect(RPAREN);
    return { kind: "storage" as const, name: image(name), position: positionOf(name), ...(sample ? { sample } : {}) };
  }
  const first = parseMatchNode();
  const edges: ParsedJoinEdge[] = [];
  if (kinds[p] === RELATIONSHIP_ARROW) {
    const arrow = p++;
    const rhs = parseMatchNode();
    edges.push(edge(first, arrow, rhs));
    while (kinds[p] === COMMA) {
      p++;
      const lhs = parseMatchNode();
      const next = expect(RELATIONSHIP_ARROW);
      const target = parseMatchNode();
      edges.push(edge(lhs, next, target));
    }
  }
  if (edges.length > 0) return { kind: "join", edges, position: first.position };
  if (first.alias !== undefined) throw GIVE_UP;
  return { kind: "entity", name: first.entity, position: first.position, ...(first.sample ? { sample: first.sample } : {}) };
}

function edge(lhs: ParsedJoinNode, arrow: number, rhs: ParsedJoinNode): ParsedJoinEdge {
  return { lhs, relationship: image(arrow).slice(2, -3), rhs, position: positionOf(arrow) };
}

function parseMatchNode(): ParsedJoinNode {
  expect(LPAREN);
  const head = expect(IDENTIFIER);
  const tail = kinds[p] === IDENTIFIER ? p++ : -1;
  const sample = kinds[p] === SAMPLE ? parseSample() : undefined;
  expect(RPAREN);
  const position = positionOf(head);
  const headImage = image(head);
  const colon = headImage.indexOf(":");
  const sampled = sample ? { sample } : {};
  if (colon < 0) {
    if (tail >= 0) throw GIVE_UP;
    return { entity: headImage, position, ...sampled };
  }
  const alias = headImage.slice(0, colon);
  const inline = headImage.slice(colon + 1);
  const entity = inline || (tail >= 0 ? image(tail) : "") || "";
  if (!JOIN_ALIAS.test(alias) || !JOIN_ENTITY.test(entity) || (tail >= 0 && inline !== "")) throw GIVE_UP;
  return { alias, entity, position, ...sampled };
}

function parseSample(): ParsedSample {
  const keyword = expect(SAMPLE);
  let negative = false;
  if (kinds[p] === MINUS) {
    p++;
    negative = true;
  }
  const value = image(expect(NUMBER));
  return { value: (negative ? -1 : 1) * Number(value), text: (negative ? "-" : "") + value, position: positionOf(keyword) };
}

function parseInteger(): number {
  let negative = false;
  if (kinds[p] === MINUS) {
    p++;
    negative = true;
  }
  const value = Number(image(expect(NUMBER)));
  return negative ? -value : value;
}

function parseExpressionList(): Expression[] {
  const items = [parseAdditive()];
  while (kinds[p] === COMMA) {
    p++;
    items.push(parseAdditive());
  }
  return items;
}

function parseSelectList(): SelectedExpression[] {
  const items = [parseSelectItem()];
  while (kinds[p] === COMMA) {
    p++;
    items.push(parseSelectItem());
  }
  return items;
}

function parseSelectItem(): SelectedExpression {
  const first = p;
  const expression = parseOr();
  const last = p - 1;
  let alias: string | undefined;
  if (kinds[p] === AS) {
    p++;
    alias = parseAlias();
  }
  const ownAlias = "alias" in expression ? expression.alias : undefined;
  const name = alias ?? ownAlias ?? source.slice(starts[first]!, ends[last]!).trim();
  return alias === undefined ? { name, expression } : { name, expression, alias };
}

function parseAlias(): string {
  if (kinds[p] === IDENTIFIER) return image(p++);
  if (kinds[p] === QUOTED_IDENTIFIER) return image(p++).slice(1, -1);
  throw GIVE_UP;
}

function parseOrderByList(): OrderByItem[] {
  const items: OrderByItem[] = [];
  for (;;) {
    const expression = parseOr();
    let direction: "ASC" | "DESC";
    if (kinds[p] === ASC) direction = "ASC";
    else if (kinds[p] === DESC) direction = "DESC";
    else throw GIVE_UP;
    p++;
    items.push({ expression, direction });
    if (kinds[p] !== COMMA) return items;
    p++;
  }
}

function parseOr(): Expression {
  let left = parseAnd();
  while (kinds[p] === OR) {
    const op = p++;
    const right = parseAnd();
    left = { kind: "function", name: "or", args: [left, right], position: positionOf(op) };
  }
  return left;
}

function parseAnd(): Expression {
  let left = parseComparison();
  while (kinds[p] === AND) {
    const op = p++;
    const right = parseComparison();
    left = { kind: "function", name: "and", args: [left, right], position: positionOf(op) };
  }
  return left;
}

function parseComparison(): Expression {
  const left = parseAdditive();
  const kind = kinds[p]!;
  if (kind >= NOT_EQUALS && kind <= EQUALS) {
    const op = p++;
    const right = parseAdditive();
    return { kind: "function", name: COMPARISON_FUNCTION[kind]!, args: [left, right], position: positionOf(op) };
  }
  if (kind === IS) {
    const op = p++;
    let negated = false;
    if (kinds[p] === NOT) {
      p++;
      negated = true;
    }
    expect(NULL);
    return { kind: "function", name: negated ? "isNotNull" : "isNull", args: [left], position: positionOf(op) };
  }
  if (kind === NOT || kind === IN || kind === LIKE) {
    let negated = false;
    let first = -1;
    if (kind === NOT) {
      first = p++;
      negated = true;
    }
    const op = p;
    const opKind = kinds[op];
    if (opKind !== IN && opKind !== LIKE) throw GIVE_UP;
    p++;
    const right = parseAdditive();
    const base = opKind === IN ? "in" : "like";
    const name = negated ? (base === "in" ? "notIn" : "notLike") : base;
    return { kind: "function", name, args: [left, right], position: positionOf(first >= 0 ? first : op) };
  }
  return left;
}

function parseAdditive(): Expression {
  let left = parseMultiplicative();
  for (;;) {
    const kind = kinds[p];
    if (kind !== PLUS && kind !== MINUS) return left;
    const op = p++;
    const right = parseMultiplicative();
    left = { kind: "function", name: kind === PLUS ? "plus" : "minus", args: [left, right], position: positionOf(op) };
  }
}

function parseMultiplicative(): Expression {
  let left = parseAtom();
  for (;;) {
    const kind = kinds[p];
    if (kind !== STAR && kind !== SLASH) return left;
    const op = p++;
    const right = parseAtom();
    left = { kind: "function", name: kind === STAR ? "multiply" : "divide", args: [left, right], position: positionOf(op) };
  }
}

function parseAtom(): Expression {
  const token = p;
  switch (kinds[token]) {
    case STRING:
      p++;
      return literal(unescapeSnqlString(image(token)), token);
    case MINUS: {
      if (kinds[token + 1] !== NUMBER) throw GIVE_UP;
      p += 2;
      return literal(-1 * Number(image(token + 1)), token + 1);
    }
    case NUMBER:
      p++;
      return literal(1 * Number(image(token)), token);
    case NULL:
      p++;
      return literal(null, token);
    case TRUE:
      p++;
      return literal(true, token);
    case FALSE:
      p++;
      return literal(false, token);
    case SUBSCRIPT: {
      p++;
      const text = image(token);
      const open = text.indexOf("[");
      return { kind: "subscript", column: text.slice(0, open), key: text.slice(open + 1, -1), position: positionOf(token) };
    }
    case IDENTIFIER:
      return parseColumnOrCall();
    case QUOTED_IDENTIFIER:
      p++;
      return { kind: "argument", name: lambdaIdentifier(token), position: positionOf(token) };
    case LPAREN: {
      p++;
      const inner = parseOr();
      expect(RPAREN);
      return inner;
    }
    default:
      throw GIVE_UP;
  }
}

function literal(value: LiteralNode["value"], token: number): LiteralNode {
  return { kind: "literal", value, position: positionOf(token) };
}

function lambdaIdentifier(token: number): string {
  const name = image(token).slice(1, -1);
  if (!LAMBDA_IDENTIFIER.test(name)) throw GIVE_UP;
  return name;
}

function parseColumnOrCall(): Expression {
  const nameToken = expect(IDENTIFIER);
  const name = image(nameToken);
  if (kinds[p] !== LPAREN) return { kind: "column", name, position: positionOf(nameToken) };
  p++;
  const params = parseArgumentList();
  expect(RPAREN);
  let args: Expression[] | null = null;
  if (kinds[p] === LPAREN) {
    p++;
    args = parseArgumentList();
    expect(RPAREN);
  }
  let alias: string | undefined;
  if (kinds[p] === AS) {
    p++;
    alias = parseAlias();
  }
  const position = positionOf(nameToken);
  if (args === null) {
    const only = params[0];
    if (name === "toDateTime" && alias === undefined && params.length === 1 && only?.kind === "literal" && typeof only.value === "string") {
      return { kind: "datetime", epochSeconds: parseDateTimeLiteral(only.value, position), position };
    }
    return alias === undefined ? { kind: "function", name, args: params, position } : { kind: "function", name, args: params, position, alias };
  }
  return alias === undefined
    ? { kind: "curried", name, params, args, position }
    : { kind: "curried", name, params, args, position, alias };
}

/** Tokens that can start an expression (the reference grammar's `orExpression`). */
function startsExpression(kind: number): boolean {
  switch (kind) {
    case STRING:
    case MINUS:
    case NUMBER:
    case NULL:
    case TRUE:
    case FALSE:
    case SUBSCRIPT:
    case IDENTIFIER:
    case QUOTED_IDENTIFIER:
    case LPAREN:
      return true;
    default:
      return false;
  }
}

function parseArgumentList(): Expression[] {
  const args: Expression[] = [];
  if (!startsExpression(kinds[p]!)) return args;
  for (;;) {
    args.push(atLambda() ? parseLambda() : parseOr());
    if (kinds[p] !== COMMA) return args;
    p++;
  }
}

/** As the reference parser's `atLambda`: `(`x`, ...` or `(`x`) ->`. */
function atLambda(): boolean {
  if (kinds[p] !== LPAREN || kinds[p + 1] !== QUOTED_IDENTIFIER) return false;
  const third = kinds[p + 2];
  return third === COMMA || (third === RPAREN && kinds[p + 3] === ARROW);
}

function parseLambda(): Expression {
  const open = expect(LPAREN);
  const params: string[] = [lambdaIdentifier(expect(QUOTED_IDENTIFIER))];
  while (kinds[p] === COMMA) {
    p++;
    params.push(lambdaIdentifier(expect(QUOTED_IDENTIFIER)));
  }
  expect(RPAREN);
  expect(ARROW);
  if (kinds[p] !== IDENTIFIER) throw GIVE_UP;
  const body = parseColumnOrCall();
  if (body.kind !== "function" && body.kind !== "curried") throw GIVE_UP;
  return { kind: "lambda", params, body, position: positionOf(open) };
}
