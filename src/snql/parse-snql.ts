/**
 * SnQL text -> logical query: lex, parse, resolve datetime literals, apply defaults.
 * Every failure is an `invalid_query` error carrying the line and column in the text.
 */
import type { IRecognitionException, IToken } from "chevrotain";
import { invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import {
  queryExpressions,
  type Expression,
  type JoinEdge,
  type JoinEntity,
  type JoinSource,
  type LogicalQuery,
  type QuerySource,
} from "../query/ast.js";
import { snqlParser, type ParsedJoinEdge, type ParsedJoinNode, type ParsedSample, type ParsedSnql, type ParsedSource } from "./parser.js";
import { LCurly, LParen, RCurly, RParen, snqlLexer, UnterminatedString } from "./tokens.js";

const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 10_000;
/** Bounds that keep parsing time and stack depth small whatever a caller sends. */
const MAX_QUERY_BYTES = 256 * 1024;
const MAX_NESTING_DEPTH = 64;
/**
 * Operator chains fold into trees as deep as they are long (`a AND b AND c ...`), and every
 * later stage walks them recursively: past this depth the query is refused before a stack can
 * overflow (ClickHouse itself stops at an AST depth of 1000).
 */
const MAX_EXPRESSION_DEPTH = 500;

export function parseSnql(text: string): LogicalQuery {
  if (text.trim() === "") throw invalidQuery("the query is empty: expected 'MATCH (<entity>) SELECT ...'", { line: 1, column: 1 });
  if (Buffer.byteLength(text, "utf8") > MAX_QUERY_BYTES) {
    throw invalidQuery(`the query is ${Buffer.byteLength(text, "utf8")} bytes long; the maximum is ${MAX_QUERY_BYTES} bytes`, { line: 1, column: 1 });
  }
  const query = toLogicalQuery(parseSnqlText(text), true);
  checkExpressionDepth(query);
  return query;
}

/** Chevrotain's lexer and the grammar (parser.ts), with their errors in SnQL words. */
function parseSnqlText(text: string): ParsedSnql {
  const lexed = snqlLexer.tokenize(text);
  if (lexed.errors.length > 0) {
    const error = lexed.errors[0]!;
    const snippet = text.slice(error.offset, error.offset + 10);
    const afterAs = /\bAS\s*$/.test(text.slice(Math.max(0, error.offset - 40), error.offset));
    const what = afterAs ? "expected an alias after AS (letters, digits, _ . + * / : - [ ], or `back-quoted`)" : "unexpected character";
    throw invalidQuery(`${what} at line ${error.line}, column ${error.column}: '${snippet}'`, {
      line: error.line ?? 1,
      column: error.column ?? 1,
    });
  }
  checkTokens(lexed.tokens);
  snqlParser.text = text;
  snqlParser.input = lexed.tokens;
  const parsed = snqlParser.query();
  if (snqlParser.errors.length > 0) throw syntaxError(snqlParser.errors[0]!, text);
  return parsed;
}

/**
 * Walks every expression and refuses one too deep, or a number literal too large to be one. Recursive, but the walk stops at depth
 * MAX_EXPRESSION_DEPTH + 1, so the stack stays bounded whatever the text (and no per-node
 * work list is allocated, as an explicit stack would). Expressions and children are visited
 * last first, the order of the explicit stack this replaced, so the node an error names is
 * the same.
 */
function checkExpressionDepth(query: LogicalQuery): void {
  const expressions = queryExpressions(query);
  for (let i = expressions.length - 1; i >= 0; i--) checkDepth(expressions[i]!, 1);
  if (query.from.kind === "subquery") checkExpressionDepth(query.from.query);
}

function checkDepth(node: Expression, depth: number): void {
  if (depth > MAX_EXPRESSION_DEPTH) {
      throw invalidQuery(
        `the query nests expressions more than ${MAX_EXPRESSION_DEPTH} levels deep${node.position ? ` at line ${node.position.line}, column ${node.position.column}` : ""} (a chain of that many AND/OR or arithmetic operators); use IN tuple(...) or split the query`,
        node.position ?? { line: 1, column: 1 },
      );
  }
  if (node.kind === "function") {
    for (let i = node.args.length - 1; i >= 0; i--) checkDepth(node.args[i]!, depth + 1);
  } else if (node.kind === "curried") {
    for (let i = node.args.length - 1; i >= 0; i--) checkDepth(node.args[i]!, depth + 1);
    for (let i = node.params.length - 1; i >= 0; i--) checkDepth(node.params[i]!, depth + 1);
  } else if (node.kind === "lambda") {
    checkDepth(node.body, depth + 1);
  } else if (node.kind === "literal" && typeof node.value === "number" && !Number.isFinite(node.value)) {
    // 1e400 reads as Infinity: no ClickHouse number can hold it.
    throw invalidQuery(`the number at line ${node.position?.line ?? 1}, column ${node.position?.column ?? 1} is too large for a 64-bit float`, node.position ?? { line: 1, column: 1 });
  }
}

/** Applies Snuba's checks and defaults; only the outermost query gets the default LIMIT. */
function toLogicalQuery(parsed: ParsedSnql, outermost: boolean): LogicalQuery {
  // The grammar reads any number there; Snuba's takes integers, and the engine fails on a
  // fraction or a number past a UInt64 (code 440, a 500 in the seed 23 fuzz).
  for (const limit of [parsed.limit, parsed.limitBy?.limit]) {
    if (limit && limit.value > MAX_LIMIT) throw invalidQuery(`queries cannot have a limit higher than ${MAX_LIMIT}`, limit.position);
    if (limit && limit.value < 0) throw invalidQuery("LIMIT must not be negative", limit.position);
    if (limit && !Number.isInteger(limit.value)) throw invalidQuery(`LIMIT must be a whole number, got ${limit.value}`, limit.position);
  }
  if (parsed.offset !== null && parsed.offset.value < 0) throw invalidQuery("OFFSET must not be negative", parsed.offset.position);
  // Past 2^53 a number is no longer exact.
  if (parsed.offset !== null && !Number.isSafeInteger(parsed.offset.value)) {
    throw invalidQuery(`OFFSET must be a whole number of at most ${Number.MAX_SAFE_INTEGER}, got ${parsed.offset.value}`, parsed.offset.position);
  }
  // (A huge one is taken, as Snuba takes it: it picks the storage's granularity it is a multiple of.)
  if (parsed.granularity && !Number.isInteger(parsed.granularity.value)) {
    throw invalidQuery(`GRANULARITY must be a whole number of seconds, got ${parsed.granularity.value}`, parsed.granularity.position);
  }
  if (parsed.granularity && parsed.granularity.value <= 0) {
    throw invalidQuery("GRANULARITY must be a positive number of seconds", parsed.granularity.position);
  }

  // Built without object spreads (conditional `...{}` parts are slow in V8); the optional keys
  // are added in the same order, and only when present, as before.
  const position: { granularity?: TextPosition; totals?: TextPosition } = {};
  if (parsed.granularity) position.granularity = parsed.granularity.position;
  if (parsed.totals) position.totals = parsed.totals.position;
  const from = toSource(parsed.source);
  const selected = parsed.by.length === 0 ? parsed.select.slice() : parsed.by.concat(parsed.select);
  const groupBy = parsed.by.map((item) => item.expression);
  const limitBy = parsed.limitBy ? { limit: parsed.limitBy.limit.value, columns: parsed.limitBy.columns } : null;
  const limit = parsed.limit?.value ?? (outermost ? DEFAULT_LIMIT : null);
  const offset = parsed.offset?.value ?? 0;
  const granularity = parsed.granularity?.value ?? null;
  const totals = parsed.totals?.value ?? false;
  if (parsed.arrayJoin.length > 0) {
    const arrayJoin = parsed.arrayJoin;
    return { from, selected, groupBy, arrayJoin, where: parsed.where, having: parsed.having, orderBy: parsed.orderBy, limitBy, limit, offset, granularity, totals, position };
  }
  return { from, selected, groupBy, where: parsed.where, having: parsed.having, orderBy: parsed.orderBy, limitBy, limit, offset, granularity, totals, position };
}

/** Snuba accepts only a positive float literal: `SAMPLE 0.1` (a rate) or `SAMPLE 1000.0` (rows). */
function sampleValue(sample: ParsedSample | undefined): { sample?: number } {
  if (sample === undefined) return {};
  if (!/^\d+\.\d+$/.test(sample.text) || !(sample.value > 0)) {
    throw invalidQuery(
      `invalid SAMPLE ${sample.text} at line ${sample.position.line}, column ${sample.position.column}: SAMPLE takes a positive float literal such as 0.1`,
      sample.position,
    );
  }
  return { sample: sample.value };
}

function toSource(source: ParsedSource): QuerySource {
  switch (source.kind) {
    case "entity":
    case "storage":
      return { kind: source.kind, name: source.name, position: source.position, ...sampleValue(source.sample) };
    case "subquery":
      return { kind: "subquery", query: toLogicalQuery(source.query, false), position: source.position };
    case "join":
      return toJoinSource(source.edges, source.position);
  }
}

function toJoinSource(parsedEdges: readonly ParsedJoinEdge[], position: TextPosition): JoinSource {
  const entities = new Map<string, JoinEntity>();
  const edges: JoinEdge[] = [];
  const addNode = (node: ParsedJoinNode): string => {
    const alias = node.alias;
    if (alias === undefined) {
      throw invalidQuery(
        `every entity of a join needs an alias, e.g. (e: ${node.entity}), at line ${node.position.line}, column ${node.position.column}`,
        node.position,
      );
    }
    const previous = entities.get(alias);
    if (previous && previous.entity !== node.entity) {
      throw invalidQuery(
        `entity alias '${alias}' at line ${node.position.line}, column ${node.position.column} names two entities: ${previous.entity} and ${node.entity}`,
        node.position,
      );
    }
    if (!previous) entities.set(alias, { alias, entity: node.entity, position: node.position, ...sampleValue(node.sample) });
    return alias;
  };
  for (const edge of parsedEdges) {
    const lhs = addNode(edge.lhs);
    const rhs = addNode(edge.rhs);
    edges.push({ lhs, relationship: edge.relationship, rhs, position: edge.position });
  }
  return { kind: "join", entities: [...entities.values()], edges, position };
}

/** Rejects unterminated strings and absurd nesting before the recursive parser sees them. */
function checkTokens(tokens: IToken[]): void {
  let depth = 0;
  for (const token of tokens) {
    if (token.tokenType === UnterminatedString) {
      throw invalidQuery("unterminated string literal: a closing ' is missing", positionOf(token));
    }
    if (token.tokenType === LParen || token.tokenType === LCurly) {
      depth += 1;
      if (depth > MAX_NESTING_DEPTH) {
        throw invalidQuery(`the query nests parentheses more than ${MAX_NESTING_DEPTH} levels deep`, positionOf(token));
      }
    } else if (token.tokenType === RParen || token.tokenType === RCurly) {
      depth -= 1;
    }
  }
}

function positionOf(token: IToken): TextPosition {
  return { line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

function syntaxError(error: IRecognitionException, text: string): Error {
  const token = error.token;
  const atEnd = token.tokenType?.name === "EOF" || Number.isNaN(token.startOffset);
  if (atEnd) {
    const lines = text.split("\n");
    const position = { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
    return invalidQuery(`unexpected end of query at line ${position.line}, column ${position.column}: ${describe(error)}`, position);
  }
  const position = positionOf(token);
  const upper = token.image.toUpperCase();
  const hint = upper !== token.image && /^[A-Z]+$/.test(upper) && error.message.includes(upper)
    ? ` (SnQL keywords are upper-case: write ${upper})`
    : "";
  return invalidQuery(`syntax error at line ${position.line}, column ${position.column} near '${token.image}': ${describe(error)}${hint}`, position);
}

/** Chevrotain's messages list token names; say the same in SnQL words. */
function describe(error: IRecognitionException): string {
  const expected = /Expecting[^:]*?(?:token of type -->\s*(\w+)\s*<--|one of these possible Token sequences:)/.exec(error.message);
  if (error.name === "NotAllInputParsedException") return "expected the end of the query or the next clause in order (BY, ARRAY JOIN, WHERE, HAVING, ORDER BY, LIMIT BY, LIMIT, OFFSET, GRANULARITY, TOTALS)";
  if (expected?.[1]) return `expected ${tokenWord(expected[1])}`;
  const alternatives = [...error.message.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!.split(",").map((s) => s.trim()));
  // Every way an expression can start is listed; say so in one word instead.
  if (alternatives.some((tokens) => tokens[0] === "Identifier") && alternatives.some((tokens) => tokens[0] === "NumberLiteral")) {
    return "expected an expression (a column, a function call, a literal or a parenthesised expression)";
  }
  const words = alternatives.map((tokens) => tokens.map(tokenWord).join(" "));
  if (words.length > 0) return `expected one of: ${[...new Set(words)].slice(0, 8).join(", ")}`;
  return error.message;
}

const TOKEN_WORDS: Record<string, string> = {
  LParen: "'('",
  RParen: "')'",
  Comma: "','",
  Identifier: "a name",
  NumberLiteral: "a number",
  StringLiteral: "a string",
  Subscript: "a subscript like tags[key]",
  Equals: "'='",
  Minus: "'-'",
};

function tokenWord(name: string): string {
  return TOKEN_WORDS[name] ?? (/^[A-Z]+$/.test(name) ? name : name);
}
