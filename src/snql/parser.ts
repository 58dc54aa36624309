/**
 * The SnQL grammar as a chevrotain embedded-actions parser: it builds the logical query model
 * (src/query/ast.ts) directly. One instance is created and reused (chevrotain parsers are
 * stateful but cheap to reset).
 *
 * Conditions and arithmetic share one precedence ladder (OR < AND < comparison < + - < * /);
 * the validator then checks that WHERE/HAVING hold conditions, which lets the parser stay LL(k)
 * where Snuba's PEG grammar needs backtracking for `(` .
 */
import { EmbeddedActionsParser, type IOrAlt, type IToken, type TokenType } from "chevrotain";
import type { Expression, LiteralNode, OrderByItem, SelectedExpression } from "../query/ast.js";
import { invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import { parseDateTimeLiteral } from "../query/datetime-literal.js";
import * as t from "./tokens.js";

/** A `SAMPLE` value as written: its token text tells a float literal from an integer. */
export interface ParsedSample {
  readonly value: number;
  readonly text: string;
  readonly position: TextPosition;
}

export interface ParsedJoinNode {
  readonly alias?: string;
  readonly entity: string;
  readonly sample?: ParsedSample;
  readonly position: TextPosition;
}

export interface ParsedJoinEdge {
  readonly lhs: ParsedJoinNode;
  readonly relationship: string;
  readonly rhs: ParsedJoinNode;
  readonly position: TextPosition;
}

/** The MATCH clause before validation. */
export type ParsedSource =
  | { readonly kind: "entity"; readonly name: string; readonly sample?: ParsedSample; readonly position: TextPosition }
  | { readonly kind: "storage"; readonly name: string; readonly sample?: ParsedSample; readonly position: TextPosition }
  | { readonly kind: "join"; readonly edges: readonly ParsedJoinEdge[]; readonly position: TextPosition }
  | { readonly kind: "subquery"; readonly query: ParsedSnql; readonly position: TextPosition };

export interface PositionedNumber {
  readonly value: number;
  readonly position: TextPosition;
}

/** What the parser returns before defaults and validation are applied. */
export interface ParsedSnql {
  readonly source: ParsedSource;
  readonly select: readonly SelectedExpression[];
  readonly by: readonly SelectedExpression[];
  readonly arrayJoin: readonly Expression[];
  readonly where: Expression | null;
  readonly having: Expression | null;
  readonly orderBy: readonly OrderByItem[];
  readonly limitBy: { readonly limit: PositionedNumber; readonly columns: readonly Expression[] } | null;
  readonly limit: PositionedNumber | null;
  readonly offset: PositionedNumber | null;
  readonly granularity: PositionedNumber | null;
  readonly totals: { readonly value: boolean; readonly position: TextPosition } | null;
}

/** One step of an operator chain: `op right`, or a postfix `IS [NOT] NULL` (right null). */
interface OperatorStep {
  readonly token: IToken;
  readonly name: string;
  readonly precedence: number;
  readonly right: Expression | null;
  readonly position: TextPosition;
}

/** Binding strength, loosest first: OR < AND < comparisons < + - < * /. All left-associative. */
const OR = 1;
const AND = 2;
const COMPARISON = 3;
const ADDITIVE = 4;
const MULTIPLICATIVE = 5;

const OPERATORS = new Map<TokenType, { readonly name: string; readonly precedence: number }>([
  [t.Or, { name: "or", precedence: OR }],
  [t.And, { name: "and", precedence: AND }],
  [t.Equals, { name: "equals", precedence: COMPARISON }],
  [t.NotEquals, { name: "notEquals", precedence: COMPARISON }],
  [t.Less, { name: "less", precedence: COMPARISON }],
  [t.LessOrEquals, { name: "lessOrEquals", precedence: COMPARISON }],
  [t.Greater, { name: "greater", precedence: COMPARISON }],
  [t.GreaterOrEquals, { name: "greaterOrEquals", precedence: COMPARISON }],
  [t.Plus, { name: "plus", precedence: ADDITIVE }],
  [t.Minus, { name: "minus", precedence: ADDITIVE }],
  [t.Star, { name: "multiply", precedence: MULTIPLICATIVE }],
  [t.Slash, { name: "divide", precedence: MULTIPLICATIVE }],
]);

const NO_CONDITIONS = { ARGS: [false] as [boolean] };

function binaryStep(op: IToken, right: Expression): OperatorStep {
  const operator = OPERATORS.get(op.tokenType)!;
  return { token: op, name: operator.name, precedence: operator.precedence, right, position: positionOf(op) };
}

/**
 * Folds `first step step ...` into a tree by precedence (shunting-yard): a step waits on a stack
 * until a step that binds no tighter arrives, and then applies to the operands left of it.
 * Comparisons do not chain (`a = b = c`, `a IS NULL = 1`): between two ANDs/ORs there is at most
 * one, and nothing but AND or OR follows `IS NULL`, as in Snuba's grammar.
 */
function foldOperators(first: Expression, steps: readonly OperatorStep[], conditions: boolean): Expression {
  const operands: Expression[] = [first];
  const waiting: OperatorStep[] = [];
  let compared = false;
  let postfix = false;
  for (const step of steps) {
    if (step.precedence <= COMPARISON && !conditions) {
      throw syntaxErrorAt(step.token, "a list of columns and expressions holds no conditions (put one in parentheses)");
    }
    if (postfix && step.precedence > COMPARISON) throw syntaxErrorAt(step.token, "expected AND, OR or the end of the condition after IS NULL");
    postfix = step.right === null;
    if (step.precedence === COMPARISON) {
      if (compared) throw syntaxErrorAt(step.token, "comparisons do not chain: join conditions with AND or OR");
      compared = true;
    } else if (step.precedence < COMPARISON) {
      compared = false;
    }
    while (waiting.length > 0 && waiting[waiting.length - 1]!.precedence >= step.precedence) apply(waiting.pop()!, operands);
    if (step.right === null) {
      operands.push({ kind: "function", name: step.name, args: [operands.pop()!], position: step.position });
    } else {
      waiting.push(step);
      operands.push(step.right);
    }
  }
  while (waiting.length > 0) apply(waiting.pop()!, operands);
  return operands[0]!;
}

function apply(step: OperatorStep, operands: Expression[]): void {
  const right = operands.pop()!;
  const left = operands.pop()!;
  operands.push({ kind: "function", name: step.name, args: [left, right], position: step.position });
}

function positionOf(token: IToken): TextPosition {
  return { line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

/** Undoes SnQL string escapes: \n \t \r \\ \' and a backslash before any other character. */
function unescapeSnqlString(raw: string): string {
  const body = raw.slice(1, -1);
  if (!body.includes("\\")) return body;
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
  private atomAlternatives: IOrAlt<Expression>[] | undefined;
  private literalAlternatives: IOrAlt<LiteralNode>[] | undefined;
  private operatorSteps: IOrAlt<OperatorStep>[] | undefined;
  private setOperators: IOrAlt<IToken>[] | undefined;

  constructor() {
    // The grammar is checked by the tests (and by chevrotain in development); skipping the
    // self-analysis validations keeps start-up cheap in production.
    super(t.parserTokens, { maxLookahead: 2, skipValidations: process.env.NODE_ENV === "production" });
    this.performSelfAnalysis();
  }

  public query = this.RULE("query", (): ParsedSnql => {
    this.CONSUME(t.Match);
    const source = this.SUBRULE(this.matchSource);
    this.CONSUME(t.Select);
    const select = this.SUBRULE(this.selectList);
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
    this.OPTION(() => {
      this.CONSUME(t.By);
      by = this.SUBRULE2(this.selectList);
    });
    this.OPTION9(() => {
      this.CONSUME(t.ArrayKeyword);
      this.CONSUME(t.JoinKeyword);
      arrayJoin = this.SUBRULE(this.expressionList);
    });
    this.OPTION2(() => {
      this.CONSUME(t.Where);
      where = this.SUBRULE(this.expression);
    });
    this.OPTION3(() => {
      this.CONSUME(t.Having);
      having = this.SUBRULE2(this.expression);
    });
    this.OPTION4(() => {
      this.CONSUME(t.Order);
      this.CONSUME2(t.By);
      orderBy = this.SUBRULE(this.orderByList);
    });
    this.OPTION5(() => {
      const limits = this.SUBRULE(this.limitClauses);
      limitBy = limits.limitBy;
      limit = limits.limit;
    });
    this.OPTION6(() => {
      const keyword = this.CONSUME(t.Offset);
      const value = this.SUBRULE(this.integer);
      offset = { value, position: positionOf(keyword) };
    });
    this.OPTION7(() => {
      const keyword = this.CONSUME(t.Granularity);
      const value = this.SUBRULE2(this.integer);
      granularity = { value, position: positionOf(keyword) };
    });
    this.OPTION8(() => {
      const keyword = this.CONSUME(t.Totals);
      const value = this.OR([
        { ALT: () => (this.CONSUME(t.True), true) },
        { ALT: () => (this.CONSUME(t.False), false) },
      ]);
      totals = { value, position: positionOf(keyword) };
    });
    return { source, select, by, arrayJoin, where, having, orderBy, limitBy, limit, offset, granularity, totals };
  });

  /** `LIMIT n BY cols` comes before `LIMIT n`: the BY after the number tells them apart. */
  private limitClauses = this.RULE("limitClauses", (): Pick<ParsedSnql, "limitBy" | "limit"> => {
    const keyword = this.CONSUME(t.Limit);
    const value = this.SUBRULE(this.integer);
    const first = { value, position: positionOf(keyword) };
    let columns: Expression[] | null = null;
    let second: PositionedNumber | null = null;
    this.OPTION(() => {
      this.CONSUME(t.By);
      columns = this.SUBRULE(this.expressionList);
      this.OPTION2(() => {
        const again = this.CONSUME2(t.Limit);
        const limit = this.SUBRULE2(this.integer);
        second = { value: limit, position: positionOf(again) };
      });
    });
    return columns === null ? { limitBy: null, limit: first } : { limitBy: { limit: first, columns }, limit: second };
  });

  private matchSource = this.RULE("matchSource", (): ParsedSource => {
    return this.OR([
      {
        ALT: () => {
          const open = this.CONSUME(t.LCurly);
          const query = this.SUBRULE(this.query);
          this.CONSUME(t.RCurly);
          return { kind: "subquery" as const, query, position: positionOf(open) };
        },
      },
      {
        ALT: () => {
          this.CONSUME(t.Storage);
          this.CONSUME(t.LParen);
          const name = this.CONSUME(t.Identifier);
          const sample = this.OPTION(() => this.SUBRULE(this.sampleClause));
          this.CONSUME(t.RParen);
          return { kind: "storage" as const, name: name.image, position: positionOf(name), ...(sample ? { sample } : {}) };
        },
      },
      { ALT: () => this.SUBRULE(this.entityOrJoin) },
    ]);
  });

  /** `(entity)` or `(a: e1) -[rel]-> (b: e2), ...`: an arrow after the first node makes a join. */
  private entityOrJoin = this.RULE("entityOrJoin", (): ParsedSource => {
    const first = this.SUBRULE(this.matchNode);
    const edges: ParsedJoinEdge[] = [];
    this.OPTION(() => {
      const arrow = this.CONSUME(t.RelationshipArrow);
      const rhs = this.SUBRULE2(this.matchNode);
      if (!this.RECORDING_PHASE) edges.push(edge(first, arrow, rhs));
      this.MANY(() => {
        this.CONSUME(t.Comma);
        const lhs = this.SUBRULE3(this.matchNode);
        const next = this.CONSUME2(t.RelationshipArrow);
        const target = this.SUBRULE4(this.matchNode);
        if (!this.RECORDING_PHASE) edges.push(edge(lhs, next, target));
      });
    });
    return this.ACTION((): ParsedSource => {
      if (edges.length > 0) return { kind: "join", edges, position: first.position };
      if (first.alias !== undefined) {
        throw invalidQuery(
          `entity alias '${first.alias}' at line ${first.position.line}, column ${first.position.column} is only allowed in a join such as (${first.alias}: ${first.entity}) -[relationship]-> (b: other)`,
          first.position,
        );
      }
      return { kind: "entity", name: first.entity, position: first.position, ...(first.sample ? { sample: first.sample } : {}) };
    });
  });

  /**
   * `(entity [SAMPLE f])` or `(alias: entity [SAMPLE f])`. The identifier class admits `:`, so
   * `a:` or `a:events` arrives as one identifier and is split here.
   */
  private matchNode = this.RULE("matchNode", (): ParsedJoinNode => {
    this.CONSUME(t.LParen);
    const head = this.CONSUME(t.Identifier);
    let tail: IToken | undefined;
    this.OPTION(() => {
      tail = this.CONSUME2(t.Identifier);
    });
    const sample = this.OPTION2(() => this.SUBRULE(this.sampleClause));
    this.CONSUME(t.RParen);
    return this.ACTION((): ParsedJoinNode => {
      const position = positionOf(head);
      const colon = head.image.indexOf(":");
      const sampled = sample ? { sample } : {};
      if (colon < 0) {
        if (tail) throw syntaxErrorAt(tail, "expected ')' or SAMPLE");
        return { entity: head.image, position, ...sampled };
      }
      const alias = head.image.slice(0, colon);
      const inline = head.image.slice(colon + 1);
      const entity = inline || tail?.image || "";
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(alias) || !/^[A-Za-z_]+$/.test(entity) || (tail !== undefined && inline !== "")) {
        throw syntaxErrorAt(head, "expected a join node such as (e: events)");
      }
      return { alias, entity, position, ...sampled };
    });
  });

  private sampleClause = this.RULE("sampleClause", (): ParsedSample => {
    const keyword = this.CONSUME(t.Sample);
    let negative = false;
    this.OPTION(() => {
      this.CONSUME(t.Minus);
      negative = true;
    });
    const value = this.CONSUME(t.NumberLiteral);
    return this.ACTION(() => ({
      value: (negative ? -1 : 1) * Number(value.image),
      text: (negative ? "-" : "") + value.image,
      position: positionOf(keyword),
    }));
  });

  private expressionList = this.RULE("expressionList", (): Expression[] => this.commaSeparated(() => this.SUBRULE(this.expression, NO_CONDITIONS)));

  /** `item, item, ...` (at least one) inside the calling rule. */
  private commaSeparated<T>(item: () => T): T[] {
    const items: T[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: t.Comma,
      DEF: () => {
        items.push(item());
      },
    });
    return items;
  }

  private integer = this.RULE("integer", (): number => {
    let negative = false;
    this.OPTION(() => {
      this.CONSUME(t.Minus);
      negative = true;
    });
    const token = this.CONSUME(t.NumberLiteral);
    if (this.RECORDING_PHASE) return undefined as never;
    const value = Number(token.image);
    return negative ? -value : value;
  });

  private selectList = this.RULE("selectList", (): SelectedExpression[] => this.commaSeparated(() => this.SUBRULE(this.selectItem)));

  private selectItem = this.RULE("selectItem", (): SelectedExpression => {
    const first = this.LA(1);
    const expression = this.SUBRULE(this.expression);
    const last = this.LA(0);
    let alias: string | undefined;
    let as: IToken | undefined;
    this.OPTION(() => {
      as = this.CONSUME(t.As);
      alias = this.SUBRULE(this.alias);
    });
    if (this.RECORDING_PHASE) return undefined as never;
    const ownAlias = "alias" in expression ? expression.alias : undefined;
    // One expression, one name (Snuba's grammar has no second AS): ClickHouse's SQL could carry
    // only one of the two, and a reference to the other would name nothing.
    if (as !== undefined && ownAlias !== undefined) throw syntaxErrorAt(as, `${String(ownAlias)} already names this expression: give it one alias`);
    const name = alias ?? ownAlias ?? this.text.slice(first.startOffset, last.startOffset + last.image.length).trim();
    return alias === undefined ? { name, expression } : { name, expression, alias };
  });

  private alias = this.RULE("alias", (): string => {
    return this.OR([
      { ALT: () => this.CONSUME(t.AliasName).image },
      { ALT: () => this.CONSUME(t.QuotedIdentifier).image.slice(1, -1) },
    ]);
  });

  private orderByList = this.RULE("orderByList", (): OrderByItem[] => {
    const items: OrderByItem[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: t.Comma,
      DEF: () => {
        const expression = this.SUBRULE(this.expression);
        const direction = this.OR([
          { ALT: () => (this.CONSUME(t.Asc), "ASC" as const) },
          { ALT: () => (this.CONSUME(t.Desc), "DESC" as const) },
        ]);
        items.push({ expression, direction });
      },
    });
    return items;
  });

  /**
   * Every expression: an operand, then any number of "operator operand" steps (and the postfix
   * `IS [NOT] NULL`), folded into a tree by precedence in the action (foldOperators). One rule
   * call per operand, where a rule per precedence level cost five; the precedence ladder lives
   * in OPERATORS. `conditions` false (ARRAY JOIN and LIMIT BY lists) refuses AND, OR and
   * comparisons outside parentheses, as Snuba's grammar does.
   */
  public expression = this.RULE("expression", (conditions: boolean = true): Expression => {
    const first = this.SUBRULE(this.atom);
    let steps: OperatorStep[] | null = null;
    this.MANY(() => {
      const step = this.OR((this.operatorSteps ??= [
        {
          ALT: () => {
            const op = this.CONSUME(t.BinaryOperator);
            const right = this.SUBRULE2(this.atom);
            return this.RECORDING_PHASE ? (undefined as never) : binaryStep(op, right);
          },
        },
        {
          ALT: () => {
            const op = this.CONSUME(t.Is);
            let negated = false;
            this.OPTION(() => {
              this.CONSUME(t.Not);
              negated = true;
            });
            this.CONSUME(t.Null);
            return this.RECORDING_PHASE ? (undefined as never) : ({ token: op, name: negated ? "isNotNull" : "isNull", precedence: COMPARISON, right: null, position: positionOf(op) });
          },
        },
        {
          ALT: () => {
            let not: IToken | undefined;
            this.OPTION2(() => {
              not = this.CONSUME2(t.Not);
            });
            const op = this.OR2((this.setOperators ??= [{ ALT: () => this.CONSUME(t.In) }, { ALT: () => this.CONSUME(t.Like) }]));
            const right = this.SUBRULE3(this.atom);
            if (this.RECORDING_PHASE) return undefined as never;
            const base = op.tokenType === t.In ? "in" : "like";
            const name = not === undefined ? base : base === "in" ? "notIn" : "notLike";
            return { token: not ?? op, name, precedence: COMPARISON, right, position: positionOf(not ?? op) };
          },
        },
      ]));
      if (!this.RECORDING_PHASE) (steps ??= []).push(step);
    });
    return this.RECORDING_PHASE ? (undefined as never) : (steps === null ? first : foldOperators(first, steps, conditions));
  });

  private atom = this.RULE("atom", (): Expression => {
    // The alternatives are built once: allocating them on every call is chevrotain's main cost.
    return this.OR((this.atomAlternatives ??= [
      { ALT: () => this.SUBRULE(this.literal) },
      {
        ALT: () => {
          const token = this.CONSUME(t.Subscript);
          return this.RECORDING_PHASE ? (undefined as never) : subscriptNode(token);
        },
      },
      { ALT: () => this.SUBRULE(this.columnOrCall) },
      {
        ALT: () => {
          const token = this.CONSUME(t.QuotedIdentifier);
          return this.RECORDING_PHASE ? (undefined as never) : ({ kind: "argument", name: lambdaIdentifier(token), position: positionOf(token) });
        },
      },
      {
        ALT: () => {
          this.CONSUME(t.LParen);
          const inner = this.SUBRULE(this.expression);
          this.CONSUME(t.RParen);
          return inner;
        },
      },
    ]));
  });

  private literal = this.RULE("literal", (): LiteralNode => {
    return this.OR((this.literalAlternatives ??= [
      {
        ALT: () => {
          const token = this.CONSUME(t.StringLiteral);
          return this.RECORDING_PHASE ? (undefined as never) : literal(unescapeSnqlString(token.image), token);
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
          return this.RECORDING_PHASE ? (undefined as never) : numberLiteral(token, negative);
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(t.Null);
          return this.RECORDING_PHASE ? (undefined as never) : literal(null, token);
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(t.True);
          return this.RECORDING_PHASE ? (undefined as never) : literal(true, token);
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(t.False);
          return this.RECORDING_PHASE ? (undefined as never) : literal(false, token);
        },
      },
    ]));
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
    // Actions run outside the recording phase only; written inline, not in ACTION(() => ...),
    // so that the parse allocates no closure per call (its garbage slowed the whole front end).
    if (this.RECORDING_PHASE) return undefined as never;
    const position = positionOf(name);
    if (call === null) return { kind: "column", name: name.image, position };
    const { params, args } = call as { params: Expression[]; args: Expression[] | null };
    if (args === null) {
      const only = params[0];
      if (name.image === "toDateTime" && alias === undefined && params.length === 1 && only?.kind === "literal" && typeof only.value === "string") {
        // A datetime literal (Snuba's post-processing step, done here to spare a tree copy).
        return { kind: "datetime", epochSeconds: parseDateTimeLiteral(only.value, position), position };
      }
      return alias === undefined ? { kind: "function", name: name.image, args: params, position } : { kind: "function", name: name.image, args: params, position, alias };
    }
    if (args.length === 0) {
      // ClickHouse's own grammar refuses `f(p)()`: say so here, with the position.
      throw invalidQuery(`${name.image}(…)() at line ${position.line}, column ${position.column} needs at least one argument in its second parentheses, e.g. quantile(0.5)(duration)`, position);
    }
    return alias === undefined
      ? { kind: "curried", name: name.image, params, args, position }
      : { kind: "curried", name: name.image, params, args, position, alias };
  });

  private argumentList = this.RULE("argumentList", (): Expression[] => {
    const args: Expression[] = [];
    this.MANY_SEP({
      SEP: t.Comma,
      DEF: () => {
        args.push(
          this.OR({
            IGNORE_AMBIGUITIES: true,
            DEF: [
              { GATE: () => this.atLambda(), ALT: () => this.SUBRULE(this.lambda) },
              { ALT: () => this.SUBRULE(this.expression) },
            ],
          }),
        );
      },
    });
    return args;
  });

  /** `(`x`, ...` or `(`x`) ->`: a parenthesised expression never holds a comma or an arrow. */
  private atLambda(): boolean {
    if (this.LA(1).tokenType !== t.LParen || this.LA(2).tokenType !== t.QuotedIdentifier) return false;
    const third = this.LA(3).tokenType;
    return third === t.Comma || (third === t.RParen && this.LA(4).tokenType === t.Arrow);
  }

  private lambda = this.RULE("lambda", (): Expression => {
    const open = this.CONSUME(t.LParen);
    const params: string[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: t.Comma,
      DEF: () => {
        const token = this.CONSUME(t.QuotedIdentifier);
        if (!this.RECORDING_PHASE) params.push(lambdaIdentifier(token));
      },
    });
    this.CONSUME(t.RParen);
    this.CONSUME(t.Arrow);
    const body = this.SUBRULE(this.columnOrCall);
    return this.ACTION((): Expression => {
      if (body.kind !== "function" && body.kind !== "curried") {
        throw invalidQuery(`the body of a lambda must be a function call${at(body.position)}`, body.position ?? positionOf(open));
      }
      return { kind: "lambda", params, body, position: positionOf(open) };
    });
  });
}

function at(position: TextPosition | undefined): string {
  return position ? ` at line ${position.line}, column ${position.column}` : "";
}

function syntaxErrorAt(token: IToken, expected: string): Error {
  const position = positionOf(token);
  return invalidQuery(`syntax error at line ${position.line}, column ${position.column} near '${token.image}': ${expected}`, position);
}

function edge(lhs: ParsedJoinNode, arrow: IToken, rhs: ParsedJoinNode): ParsedJoinEdge {
  return { lhs, relationship: arrow.image.slice(2, -3), rhs, position: positionOf(arrow) };
}

/** A back-quoted lambda identifier; Snuba admits only plain names there. */
function lambdaIdentifier(token: IToken): string {
  const name = token.image.slice(1, -1);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw syntaxErrorAt(token, "a lambda identifier is a plain name such as `x`");
  return name;
}

function literal(value: LiteralNode["value"], token: IToken): LiteralNode {
  return { kind: "literal", value, position: positionOf(token) };
}

function numberLiteral(token: IToken, negative: boolean): LiteralNode {
  const value = (negative ? -1 : 1) * Number(token.image);
  if (Number.isSafeInteger(value) || !/^\d+$/.test(token.image)) return literal(value, token);
  return { kind: "literal", value, digits: `${negative ? "-" : ""}${token.image.replace(/^0+(?=\d)/, "")}`, position: positionOf(token) };
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
