/**
 * MQL tokens. The lexer has two modes because the same characters mean different things inside
 * and outside a filter: outside, `c:transactions/duration@millisecond` is one metric (MRI) token
 * and `by` a keyword; inside `{…}`, `key:value` is a tag key, a colon and a value that may hold
 * almost any character (`release:backend@1.2.0`, `url:http://x/y`).
 */
import { createToken, Lexer, type IToken, type TokenType } from "chevrotain";

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /\s+/, group: Lexer.SKIPPED, line_breaks: true });

/** `"…"` with backslash escapes; the parser unescapes `\"` and `\\`. */
export const QuotedString = createToken({ name: "QuotedString", pattern: /"(?:[^"\\]|\\[\s\S])*"/, line_breaks: true });
export const UnterminatedString = createToken({ name: "UnterminatedString", pattern: /"(?:[^"\\]|\\[\s\S])*/, line_breaks: true });
export const Variable = createToken({ name: "Variable", pattern: /\$[a-zA-Z0-9_.]+/ });

export const LParen = createToken({ name: "LParen", pattern: /\(/ });
export const RParen = createToken({ name: "RParen", pattern: /\)/ });
export const Comma = createToken({ name: "Comma", pattern: /,/ });
export const LBrace = createToken({ name: "LBrace", pattern: /\{/, push_mode: "filter" });
export const RBrace = createToken({ name: "RBrace", pattern: /\}/, pop_mode: true });

// ---- outside filters ---------------------------------------------------------------------

/** TYPE:NAMESPACE/NAME@UNIT (the unit may not hold whitespace here, unlike Snuba's PEG quirk). */
export const Mri = createToken({
  name: "Mri",
  pattern: /[a-zA-Z0-9_]+:[^\s(){}[\]"`,:/]+\/[^\s(){}[\]"`,@]+@[^\s(){}[\]"`,]+/,
});
export const BacktickMetric = createToken({ name: "BacktickMetric", pattern: /`[^`]*`/ });
/** Function names, public metric names, group keys and bare parameters. */
export const Name = createToken({ name: "Name", pattern: /[a-zA-Z0-9_.]+/ });
export const NumberLiteral = createToken({ name: "NumberLiteral", pattern: /[0-9]+(?:\.[0-9]+)?/, longer_alt: Name });
/** `by` is lower-case only, as in Snuba's grammar. */
export const By = createToken({ name: "By", pattern: /by/, longer_alt: Name });
export const Plus = createToken({ name: "Plus", pattern: /\+/ });
export const Minus = createToken({ name: "Minus", pattern: /-/ });
export const Star = createToken({ name: "Star", pattern: /\*/ });
export const Slash = createToken({ name: "Slash", pattern: /\// });

// ---- inside filters ----------------------------------------------------------------------

const TAG_KEY = /[a-zA-Z0-9_.]+(?=\s*:)/y;

/** A tag key: a key-like word followed by `:`, unless it is itself the value after a colon. */
export const TagKey = createToken({
  name: "TagKey",
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]): RegExpExecArray | null {
      if (tokens[tokens.length - 1]?.tokenType === Colon) return null;
      TAG_KEY.lastIndex = offset;
      return TAG_KEY.exec(text);
    },
  },
  line_breaks: false,
  start_chars_hint: [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_."],
});
export const Colon = createToken({ name: "Colon", pattern: /:/ });
export const Bang = createToken({ name: "Bang", pattern: /!/ });
export const LBracket = createToken({ name: "LBracket", pattern: /\[/ });
export const RBracket = createToken({ name: "RBracket", pattern: /]/ });
/** Any run of characters but whitespace and `, [ ] " { } ( ) *`. */
export const BareValue = createToken({ name: "BareValue", pattern: /[^\s,[\]"{}()*]+/ });
export const And = createToken({ name: "And", pattern: /AND|and/, longer_alt: BareValue });
export const Or = createToken({ name: "Or", pattern: /OR|or/, longer_alt: BareValue });
export const Wildcard = createToken({ name: "Wildcard", pattern: /\*/ });

const mainTokens: TokenType[] = [
  WhiteSpace, QuotedString, UnterminatedString, Variable, Mri, BacktickMetric, NumberLiteral, By, Name,
  Plus, Minus, Star, Slash, LParen, RParen, Comma, LBrace,
];
const filterTokens: TokenType[] = [
  WhiteSpace, QuotedString, UnterminatedString, Variable, TagKey, Colon, Bang, LBracket, RBracket,
  LParen, RParen, Comma, RBrace, And, Or, Wildcard, BareValue,
];

export const allTokens: TokenType[] = [...new Set([...mainTokens, ...filterTokens])];

export const mqlLexer = new Lexer(
  { modes: { main: mainTokens, filter: filterTokens }, defaultMode: "main" },
  { positionTracking: "full", ensureOptimizations: false },
);
