/**
 * SnQL text -> logical query: lex, parse, resolve datetime literals, apply defaults.
 * Every failure is an `invalid_query` error carrying the line and column in the text.
 */
import type { IRecognitionException, IToken } from "chevrotain";
import { invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import type { Expression, LogicalQuery } from "../query/ast.js";
import { parseDateTimeLiteral } from "./datetime-literal.js";
import { snqlParser } from "./parser.js";
import { LParen, RParen, snqlLexer, UnterminatedString } from "./tokens.js";

export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 10_000;
/** Bounds that keep parsing time and stack depth small whatever a caller sends. */
export const MAX_QUERY_BYTES = 256 * 1024;
export const MAX_NESTING_DEPTH = 64;

export function parseSnql(text: string): LogicalQuery {
  if (text.trim() === "") throw invalidQuery("the query is empty: expected 'MATCH (<entity>) SELECT ...'", { line: 1, column: 1 });
  if (Buffer.byteLength(text, "utf8") > MAX_QUERY_BYTES) {
    throw invalidQuery(`the query is ${Buffer.byteLength(text, "utf8")} bytes long; the maximum is ${MAX_QUERY_BYTES} bytes`);
  }
  const lexed = snqlLexer.tokenize(text);
  if (lexed.errors.length > 0) {
    const error = lexed.errors[0]!;
    const snippet = text.slice(error.offset, error.offset + 10);
    throw invalidQuery(`unexpected character at line ${error.line}, column ${error.column}: '${snippet}'`, {
      line: error.line ?? 1,
      column: error.column ?? 1,
    });
  }
  checkTokens(lexed.tokens);
  snqlParser.text = text;
  snqlParser.input = lexed.tokens;
  const parsed = snqlParser.query();
  if (snqlParser.errors.length > 0) throw syntaxError(snqlParser.errors[0]!, text);

  if (parsed.limit && parsed.limit.value > MAX_LIMIT) {
    throw invalidQuery(`queries cannot have a limit higher than ${MAX_LIMIT}`, parsed.limit.position);
  }
  if (parsed.limit && parsed.limit.value < 0) throw invalidQuery("LIMIT must not be negative", parsed.limit.position);
  if (parsed.offset !== null && parsed.offset < 0) throw invalidQuery("OFFSET must not be negative");
  if (parsed.granularity && parsed.granularity.value <= 0) {
    throw invalidQuery("GRANULARITY must be a positive number of seconds", parsed.granularity.position);
  }
  if (parsed.entity.sample !== undefined && !(parsed.entity.sample > 0)) {
    throw invalidQuery("SAMPLE must be a positive number", parsed.entity.position);
  }

  const selected = [...parsed.by, ...parsed.select].map((item) => ({ ...item, expression: resolveDateTimes(item.expression) }));
  return {
    from: { kind: "entity", name: parsed.entity.name, position: parsed.entity.position, ...(parsed.entity.sample === undefined ? {} : { sample: parsed.entity.sample }) },
    selected,
    groupBy: parsed.by.map((item) => resolveDateTimes(item.expression)),
    where: parsed.where ? resolveDateTimes(parsed.where) : null,
    having: parsed.having ? resolveDateTimes(parsed.having) : null,
    orderBy: parsed.orderBy.map((item) => ({ ...item, expression: resolveDateTimes(item.expression) })),
    limit: parsed.limit?.value ?? DEFAULT_LIMIT,
    offset: parsed.offset ?? 0,
    granularity: parsed.granularity?.value ?? null,
    totals: parsed.totals ?? false,
  };
}

/** Rejects unterminated strings and absurd nesting before the recursive parser sees them. */
function checkTokens(tokens: IToken[]): void {
  let depth = 0;
  for (const token of tokens) {
    if (token.tokenType === UnterminatedString) {
      throw invalidQuery("unterminated string literal: a closing ' is missing", positionOf(token));
    }
    if (token.tokenType === LParen) {
      depth += 1;
      if (depth > MAX_NESTING_DEPTH) {
        throw invalidQuery(`the query nests parentheses more than ${MAX_NESTING_DEPTH} levels deep`, positionOf(token));
      }
    } else if (token.tokenType === RParen) {
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
  if (error.name === "NotAllInputParsedException") return "expected the end of the query or the next clause in order (BY, WHERE, HAVING, ORDER BY, LIMIT, OFFSET, GRANULARITY, TOTALS)";
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

function resolveDateTimes(expression: Expression): Expression {
  switch (expression.kind) {
    case "function": {
      const only = expression.args[0];
      if (expression.name === "toDateTime" && expression.args.length === 1 && only?.kind === "literal" && typeof only.value === "string") {
        const epochSeconds = parseDateTimeLiteral(only.value, expression.position);
        return { kind: "datetime", epochSeconds, ...(expression.position ? { position: expression.position } : {}) };
      }
      return { ...expression, args: expression.args.map(resolveDateTimes) };
    }
    case "curried":
      return { ...expression, params: expression.params.map(resolveDateTimes), args: expression.args.map(resolveDateTimes) };
    default:
      return expression;
  }
}
