/**
 * The MQL grammar (Snuba's `MQL_GRAMMAR`, facts §A1.2) as a chevrotain embedded-actions parser.
 * Arithmetic folds left with `*`/`/` binding tighter than `+`/`-`, so `a + b + c` keeps every
 * term (Snuba's server silently drops the third; the SDK folds left as here).
 *
 * `name(…)` is parsed as an argument list and interpreted afterwards: one metric inside makes an
 * aggregate, anything else a function call, and a second `(…)` makes the first list curried
 * parameters. That keeps the grammar LL(k) where Snuba's PEG relies on ordered choice.
 */
import { EmbeddedActionsParser, type IToken, type ParserMethod, type TokenType } from "chevrotain";
import { invalidQuery, type TextPosition } from "../errors/query-service-error.js";
import type { ArithmeticOperator, Filter, MetricName, MqlExpression, TagCondition, Timeseries } from "./mql-ast.js";
import * as t from "./tokens.js";

/** A metric not (yet) inside an aggregate: only valid as the argument of one. */
interface BareMetric {
  readonly kind: "metric";
  readonly metric: MetricName;
  readonly filters: readonly Filter[];
  readonly groupBy: readonly string[];
  readonly position: TextPosition;
}

type Parsed = MqlExpression | BareMetric;

export function positionOf(token: IToken): TextPosition {
  return { line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

function at(position: TextPosition): string {
  return ` at line ${position.line}, column ${position.column}`;
}

/** Undoes the SDK's string escapes `\"` and `\\`; other backslashes stay as written. */
function unquote(image: string): string {
  return image.slice(1, -1).replace(/\\(["\\])/g, "$1");
}

const PUBLIC_NAME = /^[a-z_]+(\.[a-z_]+)*$/;
const LENIENT_MRI = /^[^`:]+:[^`/]+\/[^`@,]+@[^`]+$/;

function metricFrom(token: IToken): MetricName {
  const position = positionOf(token);
  if (token.tokenType === t.Mri) return { mri: token.image, position };
  if (token.tokenType === t.BacktickMetric) {
    const inner = token.image.slice(1, -1);
    if (LENIENT_MRI.test(inner)) return { mri: inner, position };
    if (PUBLIC_NAME.test(inner)) return { publicName: inner, position };
    throw invalidQuery(`'${inner}' is neither an MRI (type:namespace/name@unit) nor a public metric name${at(position)}`, position);
  }
  if (!PUBLIC_NAME.test(token.image)) {
    throw invalidQuery(
      `'${token.image}' is not a metric: write an MRI such as d:transactions/duration@millisecond${at(position)}`,
      position,
    );
  }
  return { publicName: token.image, position };
}

function appendUnique(keys: readonly string[], more: readonly string[]): string[] {
  return [...new Set([...keys, ...more])];
}

/** Filters and `by` written after a formula apply to each timeseries in it (Snuba: pushed down). */
function pushDown(target: Parsed, filters: readonly Filter[], groupBy: readonly string[]): Parsed {
  if (filters.length === 0 && groupBy.length === 0) return target;
  switch (target.kind) {
    case "metric":
    case "timeseries":
      return { ...target, filters: [...target.filters, ...filters], groupBy: appendUnique(target.groupBy, groupBy) };
    case "arithmetic":
      return {
        ...target,
        left: pushDown(target.left, filters, groupBy) as MqlExpression,
        right: pushDown(target.right, filters, groupBy) as MqlExpression,
      };
    case "call":
      return { ...target, args: target.args.map((arg) => pushDown(arg, filters, groupBy) as MqlExpression) };
    default:
      return target;
  }
}

function requireExpression(parsed: Parsed): MqlExpression {
  if (parsed.kind === "metric") {
    const name = parsed.metric.mri ?? parsed.metric.publicName ?? "";
    throw invalidQuery(
      `the metric '${name}' needs an aggregate${at(parsed.position)}, e.g. sum(${name}) or avg(${name})`,
      parsed.position,
    );
  }
  return parsed;
}

function asParameter(parsed: Parsed, position: TextPosition): number | string {
  if (parsed.kind === "number" || parsed.kind === "string") return parsed.value;
  if (parsed.kind === "metric" && parsed.metric.publicName && parsed.filters.length === 0 && parsed.groupBy.length === 0) {
    return parsed.metric.publicName;
  }
  throw invalidQuery(`function parameters must be numbers or strings${at(position)}`, position);
}

function interpretFunction(nameToken: IToken, first: Parsed[], second: Parsed[] | null): Parsed {
  const position = positionOf(nameToken);
  const name = nameToken.image;
  const params = second === null ? null : first.map((p) => asParameter(p, position));
  const args = second ?? first;
  const only = args.length === 1 ? args[0] : undefined;
  if (only?.kind === "metric") {
    const timeseries: Timeseries = {
      kind: "timeseries",
      aggregate: name,
      params,
      metric: only.metric,
      filters: only.filters,
      groupBy: only.groupBy,
      position,
    };
    return timeseries;
  }
  if (args.length === 0) throw invalidQuery(`'${name}()' needs an argument${at(position)}: a metric or a timeseries`, position);
  return { kind: "call", name, params, args: args.map(requireExpression), position };
}

class MqlParser extends EmbeddedActionsParser {
  constructor() {
    super(t.allTokens, { maxLookahead: 2 });
    this.performSelfAnalysis();
  }

  public query = this.RULE("query", (): Parsed => this.SUBRULE(this.expression));

  private expression = this.RULE("expression", (): Parsed => this.foldLeft(this.term, t.Plus, "plus", t.Minus, "minus"));

  private term = this.RULE("term", (): Parsed => this.foldLeft(this.unary, t.Star, "multiply", t.Slash, "divide"));

  /** `operand (op operand)*`, folded left: `a - b - c` is `(a - b) - c`. */
  private foldLeft(
    operand: ParserMethod<[], Parsed>,
    first: TokenType,
    firstOperator: ArithmeticOperator,
    second: TokenType,
    secondOperator: ArithmeticOperator,
  ): Parsed {
    let left = this.SUBRULE(operand);
    this.MANY(() => {
      const operator = this.OR([{ ALT: () => this.CONSUME(first) }, { ALT: () => this.CONSUME(second) }]);
      const right = this.SUBRULE2(operand);
      this.ACTION(() => {
        left = {
          kind: "arithmetic",
          operator: operator.tokenType === first ? firstOperator : secondOperator,
          left: requireExpression(left),
          right: requireExpression(right),
          position: positionOf(operator),
        };
      });
    });
    return left;
  }

  private unary = this.RULE("unary", (): Parsed => {
    const minus = this.OPTION(() => this.CONSUME(t.Minus));
    const value = this.SUBRULE(this.coefficient);
    return this.ACTION((): Parsed => {
      if (!minus) return value;
      if (value.kind === "number") return { kind: "number", value: -value.value, position: positionOf(minus) };
      return { kind: "call", name: "negate", params: null, args: [requireExpression(value)], position: positionOf(minus) };
    });
  });

  private coefficient = this.RULE("coefficient", (): Parsed =>
    this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(t.NumberLiteral);
          return { kind: "number", value: Number(token.image), position: positionOf(token) };
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(t.QuotedString);
          return { kind: "string", value: unquote(token.image), position: positionOf(token) };
        },
      },
      { ALT: () => this.SUBRULE(this.filtered) },
    ]),
  );

  private filtered = this.RULE("filtered", (): Parsed => {
    const target = this.SUBRULE(this.target);
    const filters = this.OPTION(() => this.SUBRULE(this.filterBlock)) ?? [];
    const groupBy = this.OPTION2(() => this.SUBRULE(this.byClause)) ?? [];
    return this.ACTION(() => pushDown(target, filters, groupBy));
  });

  private target = this.RULE("target", (): Parsed =>
    this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(t.Variable);
          return this.ACTION(() => {
            throw invalidQuery(`Variables are not supported yet: '${token.image}'${at(positionOf(token))}`, positionOf(token));
          });
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
      { GATE: () => this.LA(2).tokenType === t.LParen, ALT: () => this.SUBRULE(this.functionCall) },
      {
        ALT: () => {
          const token = this.OR2([
            { ALT: () => this.CONSUME(t.Mri) },
            { ALT: () => this.CONSUME(t.BacktickMetric) },
            { ALT: () => this.CONSUME(t.Name) },
          ]);
          return this.ACTION((): Parsed => ({ kind: "metric", metric: metricFrom(token), filters: [], groupBy: [], position: positionOf(token) }));
        },
      },
    ]),
  );

  private functionCall = this.RULE("functionCall", (): Parsed => {
    const name = this.CONSUME(t.Name);
    this.CONSUME(t.LParen);
    const first = this.SUBRULE(this.argumentList);
    this.CONSUME(t.RParen);
    const second = this.OPTION(() => {
      this.CONSUME2(t.LParen);
      const args = this.SUBRULE2(this.argumentList);
      this.CONSUME2(t.RParen);
      return args;
    });
    return this.ACTION(() => interpretFunction(name, first, second ?? null));
  });

  private argumentList = this.RULE("argumentList", (): Parsed[] => {
    const items: Parsed[] = [];
    this.OPTION(() => {
      items.push(this.SUBRULE(this.expression));
      this.MANY(() => {
        this.CONSUME(t.Comma);
        items.push(this.SUBRULE2(this.expression));
      });
    });
    return items;
  });

  private byClause = this.RULE("byClause", (): string[] => {
    this.CONSUME(t.By);
    return this.OR([
      { ALT: () => [this.SUBRULE(this.groupKey)] },
      {
        ALT: () => {
          const keys: string[] = [];
          this.CONSUME(t.LParen);
          this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => keys.push(this.SUBRULE2(this.groupKey)) });
          this.CONSUME(t.RParen);
          return keys;
        },
      },
    ]);
  });

  private groupKey = this.RULE("groupKey", (): string =>
    this.OR([{ ALT: () => this.CONSUME(t.Name).image }, { ALT: () => this.CONSUME(t.NumberLiteral).image }]),
  );

  private filterBlock = this.RULE("filterBlock", (): Filter[] => {
    this.CONSUME(t.LBrace);
    const filter = this.OPTION(() => this.SUBRULE(this.filterExpression));
    this.CONSUME(t.RBrace);
    return this.ACTION(() => (filter ? (filter.kind === "and" ? [...filter.args] : [filter]) : []));
  });

  private filterExpression = this.RULE("filterExpression", (): Filter => {
    const terms: Filter[] = [this.SUBRULE(this.filterTerm)];
    this.MANY(() => {
      this.CONSUME(t.Or);
      terms.push(this.SUBRULE2(this.filterTerm));
    });
    return terms.length === 1 ? terms[0]! : { kind: "or", args: terms };
  });

  /** Factors joined by `,`, AND, or nothing at all. */
  private filterTerm = this.RULE("filterTerm", (): Filter => {
    const factors: Filter[] = [this.SUBRULE(this.filterFactor)];
    this.MANY(() => {
      this.OPTION(() => this.OR([{ ALT: () => this.CONSUME(t.Comma) }, { ALT: () => this.CONSUME(t.And) }]));
      factors.push(this.SUBRULE2(this.filterFactor));
    });
    return factors.length === 1 ? factors[0]! : { kind: "and", args: factors };
  });

  private filterFactor = this.RULE("filterFactor", (): Filter =>
    this.OR([
      {
        ALT: () => {
          this.CONSUME(t.LParen);
          const inner = this.SUBRULE(this.filterExpression);
          this.CONSUME(t.RParen);
          return inner;
        },
      },
      { ALT: () => this.SUBRULE(this.condition) },
    ]),
  );

  private condition = this.RULE("condition", (): TagCondition => {
    const bang = this.OPTION(() => this.CONSUME(t.Bang));
    const key = this.OR([{ ALT: () => this.CONSUME(t.TagKey) }, { ALT: () => this.CONSUME(t.Variable) }]);
    this.CONSUME(t.Colon);
    const value = this.SUBRULE(this.tagValue);
    return this.ACTION((): TagCondition => {
      const position = positionOf(bang ?? key);
      if (key.tokenType === t.Variable) {
        throw invalidQuery(`Variables are not supported yet: '${key.image}'${at(positionOf(key))}`, positionOf(key));
      }
      return { kind: "condition", key: key.image, negated: bang !== undefined, ...value, position };
    });
  });

  private tagValue = this.RULE("tagValue", (): Pick<TagCondition, "values" | "list" | "wildcard"> =>
    this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(t.QuotedString);
          return this.ACTION(() => {
            const raw = unquote(token.image);
            const wildcard = raw.endsWith("*");
            return { values: [wildcard ? raw.slice(0, -1) : raw], list: false, wildcard };
          });
        },
      },
      {
        ALT: () => {
          const value = this.SUBRULE(this.bareWord);
          const star = this.OPTION(() => this.CONSUME(t.Wildcard));
          return { values: [value], list: false, wildcard: star !== undefined };
        },
      },
      {
        ALT: () => {
          const values: string[] = [];
          this.CONSUME(t.LBracket);
          this.AT_LEAST_ONE_SEP({ SEP: t.Comma, DEF: () => values.push(this.SUBRULE(this.listItem)) });
          this.CONSUME(t.RBracket);
          return { values, list: true, wildcard: false };
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(t.Variable);
          return this.ACTION(() => {
            throw invalidQuery(`Variables are not supported yet: '${token.image}'${at(positionOf(token))}`, positionOf(token));
          });
        },
      },
    ]),
  );

  private listItem = this.RULE("listItem", (): string =>
    this.OR([{ ALT: () => unquote(this.CONSUME(t.QuotedString).image) }, { ALT: () => this.SUBRULE(this.bareWord) }]),
  );

  /** A bare value; `and`/`or` are keywords only between conditions. */
  private bareWord = this.RULE("bareWord", (): string =>
    this.OR([
      { ALT: () => this.CONSUME(t.BareValue).image },
      { ALT: () => this.CONSUME(t.And).image },
      { ALT: () => this.CONSUME(t.Or).image },
    ]),
  );
}

export const mqlParser = new MqlParser();

export type { Parsed };
export { requireExpression };

/** For messages: the words for chevrotain's token names. */
export const TOKEN_WORDS: ReadonlyMap<TokenType, string> = new Map<TokenType, string>([
  [t.LParen, "'('"],
  [t.RParen, "')'"],
  [t.LBrace, "'{'"],
  [t.RBrace, "'}'"],
  [t.LBracket, "'['"],
  [t.RBracket, "']'"],
  [t.Comma, "','"],
  [t.Colon, "':'"],
  [t.Name, "a name"],
  [t.Mri, "a metric (MRI)"],
  [t.NumberLiteral, "a number"],
  [t.QuotedString, "a quoted string"],
  [t.TagKey, "a tag key"],
  [t.BareValue, "a tag value"],
  [t.By, "'by'"],
]);
