/**
 * SnQL tokens. Keywords are upper-case only, as in Snuba; only TRUE, FALSE and NULL are
 * case-insensitive. Identifiers follow Snuba's COLUMN class (dots, colons, @ and / allowed), and
 * `name[key]` subscripts are one token because a tag key may hold almost any character.
 */
import { createToken, Lexer, type TokenType } from "chevrotain";

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /\s+/, group: Lexer.SKIPPED });

export const Subscript = createToken({ name: "Subscript", pattern: /[A-Za-z_][A-Za-z0-9_.]*\[[^[\]]*\]/ });
export const Identifier = createToken({ name: "Identifier", pattern: /[A-Za-z_][A-Za-z0-9_.:@/]*/ });
export const QuotedIdentifier = createToken({ name: "QuotedIdentifier", pattern: /`[^`]*`/ });
/**
 * The word after `AS`, with the characters Snuba's ALIAS class allows (`count() AS
 * equation[0]`, `AS p95/2`): letters, digits and `_ . + * / : - [ ]`. Lexed in a mode of its
 * own, entered by `AS` and left after the alias, so these characters stay operators elsewhere.
 */
export const AliasName = createToken({ name: "AliasName", pattern: /[A-Za-z0-9_.+*/:\-[\]]+/, pop_mode: true });
const QuotedAlias = createToken({ name: "QuotedAlias", pattern: /`[^`]*`/, pop_mode: true, categories: [QuotedIdentifier] });

/**
 * Every infix operator of an expression (AND, OR, comparisons, arithmetic) belongs to this
 * category, so the grammar reads "operand (operator operand)*" with one token test and folds the
 * chain by precedence afterwards (parser.ts).
 */
export const BinaryOperator = createToken({ name: "BinaryOperator", pattern: Lexer.NA });

function keyword(word: string, caseInsensitive = false, categories: TokenType[] = []): TokenType {
  return createToken({
    name: word,
    pattern: new RegExp(word, caseInsensitive ? "i" : ""),
    longer_alt: Identifier,
    categories,
  });
}

function operator(name: string, pattern: RegExp): TokenType {
  return createToken({ name, pattern, categories: [BinaryOperator] });
}

export const Match = keyword("MATCH");
export const Select = keyword("SELECT");
export const By = keyword("BY");
export const Where = keyword("WHERE");
export const Having = keyword("HAVING");
export const Order = keyword("ORDER");
export const Limit = keyword("LIMIT");
export const Offset = keyword("OFFSET");
export const Granularity = keyword("GRANULARITY");
export const Totals = keyword("TOTALS");
export const Sample = keyword("SAMPLE");
export const Storage = keyword("STORAGE");
export const ArrayKeyword = keyword("ARRAY");
export const JoinKeyword = keyword("JOIN");
/** `AS` switches the lexer to the alias mode for the one word that follows (see AliasName). */
export const As = createToken({ name: "AS", pattern: /AS/, longer_alt: Identifier, push_mode: "alias" });
export const And = keyword("AND", false, [BinaryOperator]);
export const Or = keyword("OR", false, [BinaryOperator]);
export const Asc = keyword("ASC");
export const Desc = keyword("DESC");
export const In = keyword("IN");
export const Like = keyword("LIKE");
export const Not = keyword("NOT");
export const Is = keyword("IS");
export const Null = keyword("NULL", true);
export const True = keyword("TRUE", true);
export const False = keyword("FALSE", true);

export const StringLiteral = createToken({ name: "StringLiteral", pattern: /'(?:[^'\\]|\\[\s\S])*'/ });
export const UnterminatedString = createToken({ name: "UnterminatedString", pattern: /'(?:[^'\\]|\\[\s\S])*/ });
export const NumberLiteral = createToken({ name: "NumberLiteral", pattern: /\d+(?:\.\d+)?(?:e[+-]\d+)?/ });

export const NotEquals = operator("NotEquals", /!=/);
export const GreaterOrEquals = operator("GreaterOrEquals", />=/);
export const LessOrEquals = operator("LessOrEquals", /<=/);
export const Greater = operator("Greater", />/);
export const Less = operator("Less", /</);
export const Equals = operator("Equals", /=/);
/** `-[grouped]->`: one token, so a join edge never reads as a minus sign. */
export const RelationshipArrow = createToken({ name: "RelationshipArrow", pattern: /-\[[A-Za-z_][A-Za-z0-9_]*\]->/ });
/** The arrow of a lambda: `(\`x\`) -> f(\`x\`)`. */
export const Arrow = createToken({ name: "Arrow", pattern: /->/ });
export const LCurly = createToken({ name: "LCurly", pattern: /\{/ });
export const RCurly = createToken({ name: "RCurly", pattern: /\}/ });
export const Plus = operator("Plus", /\+/);
export const Minus = operator("Minus", /-/);
export const Star = operator("Star", /\*/);
export const Slash = operator("Slash", /\//);
export const LParen = createToken({ name: "LParen", pattern: /\(/ });
export const RParen = createToken({ name: "RParen", pattern: /\)/ });
export const Comma = createToken({ name: "Comma", pattern: /,/ });

/** Order matters: longer and more specific patterns first. */
export const allTokens: TokenType[] = [
  WhiteSpace,
  StringLiteral,
  UnterminatedString,
  Subscript,
  Match,
  Select,
  By,
  Where,
  Having,
  Order,
  Limit,
  Offset,
  Granularity,
  Totals,
  Sample,
  Storage,
  ArrayKeyword,
  JoinKeyword,
  Asc,
  As,
  And,
  Or,
  Desc,
  In,
  Like,
  Not,
  Is,
  Null,
  True,
  False,
  Identifier,
  QuotedIdentifier,
  NumberLiteral,
  NotEquals,
  GreaterOrEquals,
  LessOrEquals,
  Greater,
  Less,
  Equals,
  RelationshipArrow,
  Arrow,
  LCurly,
  RCurly,
  Plus,
  Minus,
  Star,
  Slash,
  LParen,
  RParen,
  Comma,
  BinaryOperator,
];

/** The alias mode: whitespace, then one alias (bare or back-quoted); anything else is a lexing error. */
const aliasTokens: TokenType[] = [WhiteSpace, QuotedAlias, AliasName];

/** Every token type the parser may see. */
export const parserTokens: TokenType[] = [...allTokens, AliasName, QuotedAlias];

export const snqlLexer = new Lexer({ modes: { main: allTokens, alias: aliasTokens }, defaultMode: "main" }, { ensureOptimizations: true, positionTracking: "onlyStart" });
