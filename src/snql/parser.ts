/**
 * The SnQL grammar as a chevrotain embedded-actions parser: it builds the logical query model
 * (src/query/ast.ts) directly. One instance is created and reused (chevrotain parsers are
 * stateful but cheap to reset).
 *
 * Conditions and arithmetic share one precedence ladder (OR < AND < comparison < + - < * /);
 * the validator then checks that WHERE/HAVING hold conditions, which lets the parser stay LL(k)
 * where Snuba's PEG grammar needs backtracking for `(` .
 */
import { EmbeddedActionsParser, type IToken } from "chevrotain";
import type { Expression, LiteralNode, OrderByItem, SelectedExpression } from "../query/ast.js";
import type { TextPosition } from "../errors/query-service-error.js";
import * as t from "./tokens.js";

/** What the parser returns before defaults and validation are applied. */
export interface ParsedSnql {
  readonly entity: { readonly name: string; readonly sample?: number; readonly position: TextPosition };
  readonly select: readonly SelectedExpression[];
  readonly by: readonly SelectedExpression[];
  readonly where: Expression | null;
  readonly having: Expression | null;
  readonly orderBy: readonly OrderByItem[];
  readonly limit: { readonly value: number; readonly position: TextPosition } | null;
  readonly offset: number | null;
  readonly granularity: { readonly value: number; readonly position: TextPosition } | null;
  readonly totals: boolean | null;
}

const COMPARISON_FUNCTION: Record<string, string> = {
  Equals: "equals",
  NotEquals: "notEquals",
  Less: "less",
  LessOrEquals: "lessOrEquals",
  Greater: "greater",
  GreaterOrEquals: "greaterOrEquals",
};

function positionOf(token: IToken): TextPosition {
  return { line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

/** Undoes SnQL string escapes: \n \t \r \\ \' and a backslash before any other character. */
export function unescapeSnqlString(raw: string): string {
  const body = raw.slice(1, -1);
  return body.replace(/\\([\s\S])/g, (_match, char: string) => {
    switch (char) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      default:
        return char;
    }
  });
}

class SnqlParser extends EmbeddedActionsParser {
  /** The query text, to name un-aliased SELECT items by their own source text. */
  text = "";

  constructor() {
    super(t.allTokens, { maxLookahead: 3 });
    this.performSelfAnalysis();
  }

  public query = this.RULE("query", (): ParsedSnql => {
    this.CONSUME(t.Match);
    const entity = this.SUBRULE(this.entitySource);
    this.CONSUME(t.Select);
    const select = this.SUBRULE(this.selectList);
    let by: SelectedExpression[] = [];
    let where: Expression | null = null;
    let having: Expression | null = null;
    let orderBy: OrderByItem[] = [];
    let limit: ParsedSnql["limit"] = null;
    let offset: number | null = null;
    let granularity: ParsedSnql["granularity"] = null;
    let totals: boolean | null = null;
    this.OPTION(() => {
      this.CONSUME(t.By);
      by = this.SUBRULE2(this.selectList);
    });
    this.OPTION2(() => {
      this.CONSUME(t.Where);
      where = this.SUBRULE(this.orExpression);
    });
    this.OPTION3(() => {
      this.CONSUME(t.Having);
      having = this.SUBRULE2(this.orExpression);
    });
    this.OPTION4(() => {
      this.CONSUME(t.Order);
      this.CONSUME2(t.By);
      orderBy = this.SUBRULE(this.orderByList);
    });
    this.OPTION5(() => {
      const keyword = this.CONSUME(t.Limit);
      const value = this.SUBRULE(this.integer);
      limit = this.ACTION(() => ({ value, position: positionOf(keyword) }));
    });
    this.OPTION6(() => {
      this.CONSUME(t.Offset);
      offset = this.SUBRULE2(this.integer);
    });
    this.OPTION7(() => {
      const keyword = this.CONSUME(t.Granularity);
      const value = this.SUBRULE3(this.integer);
      granularity = this.ACTION(() => ({ value, position: positionOf(keyword) }));
    });
    this.OPTION8(() => {
      this.CONSUME(t.Totals);
      totals = this.OR([
        { ALT: () => (this.CONSUME(t.True), true) },
        { ALT: () => (this.CONSUME(t.False), false) },
      ]);
    });
    return { entity, select, by, where, having, orderBy, limit, offset, granularity, totals };
  });

  private entitySource = this.RULE("entitySource", () => {
    this.CONSUME(t.LParen);
    const name = this.CONSUME(t.Identifier);
    let sample: number | undefined;
    this.OPTION(() => {
      this.CONSUME(t.Sample);
      const value = this.CONSUME(t.NumberLiteral);
      sample = this.ACTION(() => Number(value.image));
    });
    this.CONSUME(t.RParen);
    return this.ACTION(() => ({
      name: name.image,
      position: positionOf(name),
      ...(sample === undefined ? {} : { sample }),
    }));
  });

  private integer = this.RULE("integer", (): number => {
    let negative = false;
    this.OPTION(() => {
      this.CONSUME(t.Minus);
      negative = true;
    });
    const token = this.CONSUME(t.NumberLiteral);
    return this.ACTION(() => {
      const value = Number(token.image);
      return negative ? -value : value;
    });
  });

  private selectList = this.RULE("selectList", (): SelectedExpression[] => {
    const items: SelectedExpression[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: t.Comma,
      DEF: () => {
        items.push(this.SUBRULE(this.selectItem));
      },
    });
    return items;
  });

  private selectItem = this.RULE("selectItem", (): SelectedExpression => {
    const first = this.LA(1);
    const expression = this.SUBRULE(this.orExpression);
    const last = this.LA(0);
    let alias: string | undefined;
    this.OPTION(() => {
      this.CONSUME(t.As);
      alias = this.SUBRULE(this.alias);
    });
    return this.ACTION(() => {
      const ownAlias = "alias" in expression ? expression.alias : undefined;
      const name = alias ?? ownAlias ?? this.text.slice(first.startOffset, (last.endOffset ?? last.startOffset) + 1).trim();
      return alias === undefined ? { name, expression } : { name, expression, alias };
    });
  });

  private alias = this.RULE("alias", (): string => {
    return this.OR([
      { ALT: () => this.CONSUME(t.Identifier).image },
      { ALT: () => this.CONSUME(t.QuotedIdentifier).image.slice(1, -1) },
    ]);
  });

  private orderByList = this.RULE("orderByList", (): OrderByItem[] => {
    const items: OrderByItem[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: t.Comma,
      DEF: () => {
        const expression = this.SUBRULE(this.orExpression);
        const direction = this.OR([
          { ALT: () => (this.CONSUME(t.Asc), "ASC" as const) },
          { ALT: () => (this.CONSUME(t.Desc), "DESC" as const) },
        ]);
        items.push({ expression, direction });
      },
    });
    return items;
  });

  public orExpression = this.RULE("orExpression", (): Expression => {
    let left = this.SUBRULE(this.andExpression);
    this.MANY(() => {
      const op = this.CONSUME(t.Or);
      const right = this.SUBRULE2(this.andExpression);
      left = this.ACTION(() => ({ kind: "function", name: "or", args: [left, right], position: positionOf(op) }));
    });
    return left;
  });

  private andExpression = this.RULE("andExpression", (): Expression => {
    let left = this.SUBRULE(this.comparison);
    this.MANY(() => {
      const op = this.CONSUME(t.And);
      const right = this.SUBRULE2(this.comparison);
      left = this.ACTION(() => ({ kind: "function", name: "and", args: [left, right], position: positionOf(op) }));
    });
    return left;
  });

  private comparison = this.RULE("comparison", (): Expression => {
    const left = this.SUBRULE(this.additive);
    let result: Expression = left;
    this.OPTION(() => {
      this.OR([
        {
          ALT: () => {
            const op = this.OR2([
              { ALT: () => this.CONSUME(t.Equals) },
              { ALT: () => this.CONSUME(t.NotEquals) },
              { ALT: () => this.CONSUME(t.LessOrEquals) },
              { ALT: () => this.CONSUME(t.GreaterOrEquals) },
              { ALT: () => this.CONSUME(t.Less) },
              { ALT: () => this.CONSUME(t.Greater) },
            ]);
            const right = this.SUBRULE2(this.additive);
            result = this.ACTION(() => ({
              kind: "function",
              name: COMPARISON_FUNCTION[op.tokenType.name] ?? "equals",
              args: [left, right],
              position: positionOf(op),
            }));
          },
        },
        {
          ALT: () => {
            const op = this.CONSUME(t.Is);
            let negated = false;
            this.OPTION2(() => {
              this.CONSUME(t.Not);
              negated = true;
            });
            this.CONSUME(t.Null);
            result = this.ACTION(() => ({
              kind: "function",
              name: negated ? "isNotNull" : "isNull",
              args: [left],
              position: positionOf(op),
            }));
          },
        },
        {
          ALT: () => {
            let negated = false;
            let first: IToken | undefined;
            this.OPTION3(() => {
              first = this.CONSUME2(t.Not);
              negated = true;
            });
            const op = this.OR3([{ ALT: () => this.CONSUME(t.In) }, { ALT: () => this.CONSUME(t.Like) }]);
            const right = this.SUBRULE3(this.additive);
            result = this.ACTION(() => {
              const base = op.tokenType === t.In ? "in" : "like";
              const name = negated ? (base === "in" ? "notIn" : "notLike") : base;
              return { kind: "function", name, args: [left, right], position: positionOf(first ?? op) };
            });
          },
        },
      ]);
    });
    return result;
  });

  private additive = this.RULE("additive", (): Expression => {
    let left = this.SUBRULE(this.multiplicative);
    this.MANY(() => {
      const op = this.OR([{ ALT: () => this.CONSUME(t.Plus) }, { ALT: () => this.CONSUME(t.Minus) }]);
      const right = this.SUBRULE2(this.multiplicative);
      left = this.ACTION(() => ({
        kind: "function",
        name: op.tokenType === t.Plus ? "plus" : "minus",
        args: [left, right],
        position: positionOf(op),
      }));
    });
    return left;
  });

  private multiplicative = this.RULE("multiplicative", (): Expression => {
    let left = this.SUBRULE(this.atom);
    this.MANY(() => {
      const op = this.OR([{ ALT: () => this.CONSUME(t.Star) }, { ALT: () => this.CONSUME(t.Slash) }]);
      const right = this.SUBRULE2(this.atom);
      left = this.ACTION(() => ({
        kind: "function",
        name: op.tokenType === t.Star ? "multiply" : "divide",
        args: [left, right],
        position: positionOf(op),
      }));
    });
    return left;
  });

  private atom = this.RULE("atom", (): Expression => {
    return this.OR([
      { ALT: () => this.SUBRULE(this.literal) },
      {
        ALT: () => {
          const token = this.CONSUME(t.Subscript);
          return this.ACTION(() => subscriptNode(token));
        },
      },
      { ALT: () => this.SUBRULE(this.columnOrCall) },
      {
        ALT: () => {
          this.CONSUME(t.LParen);
          const inner = this.SUBRULE(this.orExpression);
          this.CONSUME(t.RParen);
          return inner;
        },
      },
    ]);
  });

  private literal = this.RULE("literal", (): LiteralNode => {
    return this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(t.StringLiteral);
          return this.ACTION(() => literal(unescapeSnqlString(token.image), token));
        },
      },
      {
        ALT: () => {
          let negative = false;
          this.OPTION(() => {
            this.CONSUME(t.Minus);
            negative = true;
          });
          const token = this.CONSUME(t.NumberLiteral);
          return this.ACTION(() => literal((negative ? -1 : 1) * Number(token.image), token));
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(t.Null);
          return this.ACTION(() => literal(null, token));
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(t.True);
          return this.ACTION(() => literal(true, token));
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(t.False);
          return this.ACTION(() => literal(false, token));
        },
      },
    ]);
  });

  private columnOrCall = this.RULE("columnOrCall", (): Expression => {
    const name = this.CONSUME(t.Identifier);
    let call: { params: Expression[]; args: Expression[] | null } | null = null;
    let alias: string | undefined;
    this.OPTION(() => {
      this.CONSUME(t.LParen);
      const first = this.SUBRULE(this.argumentList);
      this.CONSUME(t.RParen);
      let second: Expression[] | null = null;
      this.OPTION2(() => {
        this.CONSUME2(t.LParen);
        second = this.SUBRULE2(this.argumentList);
        this.CONSUME2(t.RParen);
      });
      call = { params: first, args: second };
      this.OPTION3(() => {
        this.CONSUME(t.As);
        alias = this.SUBRULE(this.alias);
      });
    });
    return this.ACTION((): Expression => {
      const position = positionOf(name);
      if (call === null) {
        return { kind: "column", name: name.image, position };
      }
      const aliasPart = alias === undefined ? {} : { alias };
      if (call.args === null) {
        return { kind: "function", name: name.image, args: call.params, position, ...aliasPart };
      }
      return { kind: "curried", name: name.image, params: call.params, args: call.args, position, ...aliasPart };
    });
  });

  private argumentList = this.RULE("argumentList", (): Expression[] => {
    const args: Expression[] = [];
    this.MANY_SEP({
      SEP: t.Comma,
      DEF: () => {
        args.push(this.SUBRULE(this.orExpression));
      },
    });
    return args;
  });
}

function literal(value: LiteralNode["value"], token: IToken): LiteralNode {
  return { kind: "literal", value, position: positionOf(token) };
}

function subscriptNode(token: IToken): Expression {
  const open = token.image.indexOf("[");
  return {
    kind: "subscript",
    column: token.image.slice(0, open),
    key: token.image.slice(open + 1, -1),
    position: positionOf(token),
  };
}

/** The shared parser instance (chevrotain parsers are built once and reset per input). */
export const snqlParser = new SnqlParser();
