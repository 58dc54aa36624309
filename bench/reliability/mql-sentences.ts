/**
 * MQL for the fuzzer, from the chevrotain grammar (src/mql/parser.ts). The walk is steered by the
 * demo metrics (src/demo-data/demo-indexer-mappings.ts: MRIs, tag keys and values) and by the
 * aggregates each metrics entity maps (its `function_mappers` in the dataset definitions): an
 * aggregate over one metric gets a name that entity knows, filters name real tag keys, `by` real
 * group keys. `mqlRequest` wraps a sentence in a request body with a consistent `mql_context`.
 */
import type { TokenType } from "chevrotain";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { DEMO_METRIC_IDS, DEMO_TAG_KEY_IDS, DEMO_TAG_VALUE_IDS } from "../../src/demo-data/demo-indexer-mappings.js";
import { mqlParser } from "../../src/mql/parser.js";
import { generateTokens, joinTokens, patternText, type GrammarProfile, type SentenceToken, type WalkContext } from "./grammar-sentences.js";
import type { Prng } from "./prng.js";

const registry = defaultRegistry();

/** Use case -> the dataset its metrics live in and their MRIs. */
const USE_CASES: Record<string, { dataset: "generic_metrics" | "metrics"; mris: string[] }> = {};
for (const mri of Object.keys(DEMO_METRIC_IDS)) {
  const useCase = mri.slice(2, mri.indexOf("/"));
  const dataset = useCase === "sessions" ? "metrics" : "generic_metrics";
  (USE_CASES[useCase] ??= { dataset, mris: [] }).mris.push(mri);
}
const ENTITY_BY_TYPE: Record<string, Record<string, string>> = {
  generic_metrics: { c: "generic_metrics_counters", d: "generic_metrics_distributions", s: "generic_metrics_sets", g: "generic_metrics_gauges" },
  metrics: { c: "metrics_counters", d: "metrics_distributions", s: "metrics_sets" },
};

/** Aggregates an entity maps over its value, plain and curried (`quantiles(0.5)(…)`). */
function aggregatesOf(entityName: string | undefined): { plain: string[]; curried: string[] } {
  const mappers = (entityName ? registry.entity(entityName)?.functionMappers : undefined) ?? [];
  const usable = mappers.filter((mapper) => mapper.argument === "value" && !mapper.from.endsWith("If"));
  const plain = usable.filter((mapper) => !mapper.curried).map((mapper) => mapper.from);
  if (plain.includes("sum") && plain.includes("count") && !plain.includes("avg")) plain.push("avg");
  return { plain: plain.length > 0 ? plain : ["sum"], curried: usable.filter((mapper) => mapper.curried).map((mapper) => mapper.from) };
}

const TAG_KEYS = Object.keys(DEMO_TAG_KEY_IDS);
const TAG_VALUES: Record<string, readonly string[]> = {
  environment: ["production", "staging"],
  release: ["backend@1.2.0", "frontend@2.5.1"],
  "session.status": ["crashed", "errored", "exited", "init", "abnormal"],
  transaction: ["GET /api/0/projects/{organization_slug}/{project_slug}/", "/issues/:id/"],
  "transaction.status": ["ok", "internal_error", "cancelled", "unknown"],
  "transaction.op": ["http.server", "pageload", "queue.task"],
  "http.method": ["GET", "POST"],
  "browser.name": ["Chrome", "Safari"],
  decision: ["keep", "drop"],
  "span.op": ["db", "http.client"],
  page: ["/", "/pricing", "/docs"],
  queue: ["default", "emails"],
};
const OTHER_VALUES = [...Object.keys(DEMO_TAG_VALUE_IDS), "", "ünï ✓", 'quote"inside', "back\\slash", "x".repeat(200), "*"];
const FUNCTIONS = ["apdex", "failure_rate", "topK", "negate", "abs", "nope"];

/** The end (exclusive) of the parenthesised group opening at `open`. */
function groupEnd(tokens: readonly SentenceToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i]!.type === "LParen") depth++;
    if (tokens[i]!.type === "RParen" && --depth === 0) return i + 1;
  }
  return tokens.length;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`;

class MqlProfile implements GrammarProfile {
  readonly productions = mqlParser.getGAstProductions();
  private readonly mris: readonly string[];

  constructor(
    private readonly dataset: string,
    useCase: string,
  ) {
    this.mris = USE_CASES[useCase]?.mris ?? Object.keys(DEMO_METRIC_IDS);
  }

  private mri(prng: Prng): string {
    if (prng.chance(0.05)) return prng.pick(Object.keys(DEMO_METRIC_IDS));
    if (prng.chance(0.02)) return prng.pick(["c:x/y@z", "q:custom/page_views@none", "d:transactions/duration@second"]);
    return prng.pick(this.mris);
  }

  terminalText = (token: TokenType, context: WalkContext, prng: Prng): string => {
    const rule = context.stack[context.stack.length - 1]!;
    switch (token.name) {
      case "Mri":
        return this.mri(prng);
      case "BacktickMetric":
        return `\`${prng.chance(0.8) ? this.mri(prng) : prng.pick(["transaction.duration", "not a metric", ""])}\``;
      case "Name":
        if (rule === "groupKey") return prng.chance(0.9) ? prng.pick(TAG_KEYS) : prng.pick(["project_id", "aggregate_value", "time", "nope"]);
        if (rule === "target") return prng.pick(["transaction.duration", "session.crashed", "nope"]);
        return prng.pick(FUNCTIONS);
      case "TagKey":
        return prng.chance(0.95) ? prng.pick(TAG_KEYS) : prng.pick(["project_id", "nope", "a.b.c"]);
      case "QuotedString":
        return quoted(prng.chance(0.8) ? prng.pick(Object.values(TAG_VALUES).flat()) : prng.pick(OTHER_VALUES));
      case "BareValue":
        return prng.chance(0.8) ? prng.pick(Object.values(TAG_VALUES).flat().filter((value) => /^[^\s,[\]"{}()*]+$/.test(value))) : patternText(token, prng);
      case "NumberLiteral":
        return prng.pick(["0", "1", "0.5", "0.95", "100", "1000", "99999999999"]);
      case "Variable":
        return "$x";
      case "UnterminatedString":
        return '"x';
      default:
        return patternText(token, prng);
    }
  };

  alternativeWeights = (rule: string, occurrence: number, _count: number, context: WalkContext): readonly number[] | undefined => {
    switch (rule) {
      case "coefficient": {
        // A number is an operand of arithmetic or a parameter, seldom a whole query.
        const operand = context.stack.includes("argumentList") || context.tokens.some((token) => ["Plus", "Minus", "Star", "Slash"].includes(token.type));
        return [operand ? 20 : 1, 1, operand ? 79 : 98];
      }
      case "target": {
        if (occurrence !== 0) return [90, 5, 5];
        // Directly inside `f(…)`, a metric (the aggregate's argument); elsewhere a call.
        const stack = context.stack;
        const direct = stack.lastIndexOf("argumentList") >= 0 && stack.slice(stack.lastIndexOf("argumentList") + 1).filter((rule) => rule === "target").length === 1;
        return direct ? [1, 4, 10, 85] : [1, 12, 84, 3];
      }
      case "tagValue":
        return [55, 20, 22, 3];
      case "filterFactor":
        return [10, 90];
      case "condition":
        return [98, 2];
      case "groupKey":
        return [97, 3];
      case "byClause":
        return [40, 60];
      default:
        return undefined;
    }
  };

  optionChance = (rule: string, occurrence: number): number | undefined => {
    switch (rule) {
      case "unary":
        return 0.03;
      case "filtered":
        return occurrence === 0 ? 0.4 : 0.35;
      case "filterBlock":
        return 0.92;
      case "functionCall":
        return 0.08;
      case "condition":
        return 0.15;
      case "tagValue":
        return 0.1;
      case "argumentList":
        return 0.95;
      default:
        return undefined;
    }
  };

  repetitions = (rule: string, _occurrence: number, _context: WalkContext, prng: Prng): readonly [number, number] | undefined => {
    switch (rule) {
      case "expression":
      case "term":
        return prng.chance(0.2) ? [1, 1] : [0, 0];
      case "argumentList":
        return prng.chance(0.15) ? [1, 1] : [0, 0];
      case "filterExpression":
        return prng.chance(0.1) ? [1, 1] : [0, 0];
      case "filterTerm":
        return [0, 2];
      default:
        return [1, 2];
    }
  };

  onRuleExit = (rule: string, start: number, context: WalkContext, prng: Prng): void => {
    if (rule === "functionCall") this.fixCall(context.tokens, start, prng);
    else if (rule === "condition") this.fixCondition(context.tokens, start, prng);
  };

  /** `name(metric …)`: an aggregate the metric's entity maps; curried levels between 0 and 1. */
  private fixCall(tokens: SentenceToken[], start: number, prng: Prng): void {
    const firstEnd = groupEnd(tokens, start + 1);
    const curriedCall = tokens[firstEnd]?.type === "LParen";
    const argsOpen = curriedCall ? firstEnd : start + 1;
    const metric = tokens[argsOpen + 1];
    if (!metric || (metric.type !== "Mri" && metric.type !== "BacktickMetric") || prng.chance(0.03)) return;
    const entity = ENTITY_BY_TYPE[this.dataset]?.[metric.text.replace(/`/g, "")[0] ?? ""];
    const { plain, curried } = aggregatesOf(entity);
    if (curriedCall && curried.length > 0) {
      tokens[start]!.text = prng.pick(curried);
      for (let i = start + 2; i < firstEnd; i++) {
        if (tokens[i]!.type === "NumberLiteral") tokens[i]!.text = prng.pick(["0.5", "0.75", "0.95", "0.99"]);
      }
    } else tokens[start]!.text = prng.pick(plain);
  }

  /** `key:value`: a value that key holds in the demo data. */
  private fixCondition(tokens: SentenceToken[], start: number, prng: Prng): void {
    const key = tokens.slice(start).find((token) => token.type === "TagKey");
    const values = key ? TAG_VALUES[key.text] : undefined;
    if (!values || prng.chance(0.2)) return;
    for (const token of tokens.slice(start)) {
      if (token.type === "QuotedString") token.text = quoted(prng.pick(values));
    }
  }
}

export interface MqlSentence {
  readonly dataset: "generic_metrics" | "metrics";
  readonly useCase: string;
  readonly tokens: SentenceToken[];
  readonly mql: string;
}

export function mqlSentence(prng: Prng): MqlSentence {
  const useCase = prng.pick(Object.keys(USE_CASES));
  const { dataset } = USE_CASES[useCase]!;
  const tokens = generateTokens(new MqlProfile(dataset, useCase), { start: "query", maxRecursion: prng.int(1, 3), maxTokens: 60 }, prng);
  return { dataset, useCase, tokens, mql: joinTokens(tokens) };
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const DAY = 86_400_000;

/** A request body for `POST /{dataset}/mql`: `mql` or `query`, and an `mql_context` in the demo window. */
export function mqlRequest(prng: Prng, now: number, sentence: MqlSentence, tenantIds: Record<string, unknown>): Record<string, unknown> {
  const end = now - prng.int(0, 5) * DAY - prng.int(0, 23) * 3_600_000;
  const granularity = prng.weighted<number>([
    [3600, 5],
    [86400, 3],
    [60, 2],
    [10, 1],
    [7, 1],
  ]);
  const rollup: Record<string, unknown> = { granularity, interval: prng.chance(0.8) ? granularity : prng.pick([null, 3600, 10]) };
  if (prng.chance(0.3)) rollup.with_totals = prng.pick(["True", "False"]);
  if (prng.chance(0.2)) rollup.orderby = prng.pick(["ASC", "DESC", null]);
  const context: Record<string, unknown> = {
    start: `${iso(end - prng.pick([1, 6, 24, 24 * 7]) * 3_600_000)}${prng.pick(["Z", "+00:00"])}`,
    end: `${iso(end)}Z`,
    rollup,
    scope: { org_ids: [1], project_ids: prng.chance(0.7) ? [prng.int(1, 3)] : [1, 2, 3], use_case_id: sentence.useCase },
  };
  if (prng.chance(0.3)) context.limit = prng.pick([1, 10, 100, 10_000, 10_001]);
  if (prng.chance(0.1)) context.offset = prng.int(0, 10);
  if (prng.chance(0.3)) context.indexer_mappings = { ...DEMO_METRIC_IDS, ...DEMO_TAG_KEY_IDS };
  return { [prng.chance(0.6) ? "mql" : "query"]: sentence.mql, mql_context: context, tenant_ids: tenantIds };
}
