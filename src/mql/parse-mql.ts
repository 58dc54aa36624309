/**
 * MQL text -> syntax tree: lex, parse, and reject what cannot be a query. Every failure is an
 * `invalid_query` error carrying the line and column in the text.
 */
import type { IRecognitionException, IToken } from "chevrotain";
import { invalidQuery } from "../errors/query-service-error.js";
import type { MqlExpression } from "./mql-ast.js";
import { mqlParser, positionOf, requireExpression, TOKEN_WORDS } from "./parser.js";
import { BareValue, LBrace, LBracket, LParen, mqlLexer, RBrace, RBracket, RParen, UnterminatedString } from "./tokens.js";

/** Bounds that keep parsing time and stack depth small whatever a caller sends. */
const MAX_MQL_BYTES = 64 * 1024;
const MAX_MQL_NESTING = 32;

const OPENERS = new Set([LParen, LBrace, LBracket]);
const CLOSERS = new Set([RParen, RBrace, RBracket]);

export function parseMql(text: string): MqlExpression {
  if (text.trim() === "") throw invalidQuery("the MQL query is empty: write e.g. sum(c:transactions/count_per_root_project@none)", { line: 1, column: 1 });
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_MQL_BYTES) throw invalidQuery(`the MQL query is ${bytes} bytes long; the maximum is ${MAX_MQL_BYTES} bytes`);
  const lexed = mqlLexer.tokenize(text);
  if (lexed.errors.length > 0) {
    const error = lexed.errors[0]!;
    const position = { line: error.line ?? 1, column: error.column ?? 1 };
    const snippet = text.slice(error.offset, error.offset + 10);
    throw invalidQuery(`unexpected character at line ${position.line}, column ${position.column}: '${snippet}'`, position);
  }
  checkTokens(lexed.tokens);
  mqlParser.input = lexed.tokens;
  const parsed = mqlParser.query();
  if (mqlParser.errors.length > 0) throw syntaxError(mqlParser.errors[0]!, text);
  if (parsed.kind === "metric") {
    throw invalidQuery(`No aggregate/expression or formula specified in MQL query: wrap the metric in an aggregate, e.g. sum(${parsed.metric.mri ?? parsed.metric.publicName})`, parsed.position);
  }
  return requireExpression(parsed);
}

function checkTokens(tokens: IToken[]): void {
  let depth = 0;
  for (const token of tokens) {
    if (token.tokenType === UnterminatedString) {
      throw invalidQuery(`unterminated string at line ${token.startLine}, column ${token.startColumn}: a closing " is missing`, positionOf(token));
    }
    if (OPENERS.has(token.tokenType)) {
      depth += 1;
      if (depth > MAX_MQL_NESTING) {
        throw invalidQuery(`the query nests brackets more than ${MAX_MQL_NESTING} levels deep`, positionOf(token));
      }
    } else if (CLOSERS.has(token.tokenType)) {
      depth -= 1;
    }
  }
}

function syntaxError(error: IRecognitionException, text: string) {
  const token = error.token;
  if (token.tokenType?.name === "EOF" || Number.isNaN(token.startOffset)) {
    const lines = text.split("\n");
    const position = { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
    return invalidQuery(`unexpected end of MQL query at line ${position.line}, column ${position.column}: ${expected(error)}`, position);
  }
  const position = positionOf(token);
  if (error.name === "NotAllInputParsedException") {
    return invalidQuery(
      `unexpected '${token.image}' at line ${position.line}, column ${position.column}: expected an operator (+ - * /), a filter {…} or 'by' after a complete expression`,
      position,
    );
  }
  return invalidQuery(`syntax error at line ${position.line}, column ${position.column} near '${token.image}': ${expected(error)}`, position);
}

function expected(error: IRecognitionException): string {
  if (error.token.tokenType === BareValue) return "expected a condition such as key:value, !key:value or key:[a, b]";
  const single = /-->\s*(\w+)\s*<--/.exec(error.message);
  if (single?.[1]) return `expected ${word(single[1])}`;
  const alternatives = [...error.message.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!.split(",")[0]!.trim());
  if (alternatives.includes("Mri")) {
    return "expected a timeseries (e.g. sum(c:transactions/count_per_root_project@none)), a number or '('";
  }
  if (alternatives.includes("Name")) return "expected a group key (a tag name such as transaction)";
  if (alternatives.includes("TagKey")) return "expected a condition such as key:value, !key:value or key:[a, b]";
  if (alternatives.includes("BareValue") || alternatives.includes("QuotedString")) return "expected a tag value: word, \"quoted\", prefix* or [a, b]";
  const words = [...new Set(alternatives.map(word))];
  return words.length > 0 ? `expected one of: ${words.join(", ")}` : error.message;
}

function word(name: string): string {
  for (const [type, text] of TOKEN_WORDS) if (type.name === name) return text;
  return name;
}
