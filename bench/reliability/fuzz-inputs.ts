/**
 * The fuzzer's inputs, all from one seeded PRNG: SnQL and MQL sentences generated from the
 * grammars (src/snql/parser.ts, src/mql/parser.ts), some anchored in a real entity with its
 * required conditions so they reach ClickHouse; mutations of those; random JSON bodies; and
 * requests that are wrong as HTTP (methods, paths, content types, bytes that are not JSON).
 */
import type { TokenType } from "chevrotain";
import { mqlParser } from "../../src/mql/parser.js";
import { snqlParser } from "../../src/snql/parser.js";
import { fixedText, generateSentence } from "./grammar-sentences.js";
import type { Prng } from "./prng.js";

export interface FuzzRequest {
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string;
}

const SNQL_COLUMNS = ["project_id", "timestamp", "level", "user", "release", "environment", "platform", "group_id", "event_id", "message", "title", "type", "duration", "transaction", "finish_ts", "exception_stacks.type", "tags.key", "tags.value"];
const SNQL_FUNCTIONS = ["count", "uniq", "avg", "max", "min", "sum", "quantile", "toStartOfHour", "toDateTime", "ifNull", "arrayExists", "has", "lower", "length", "notEmpty", "tuple", "array", "countIf", "argMax", "equals"];
const SNQL_ENTITIES = ["events", "transactions", "discover", "search_issues", "metrics_counters", "eap_items", "groupedmessage", "nope"];
const SUBSCRIPTS = ["tags[environment]", "tags[browser]", "contexts[device.family]", "tags[sentry:release]", "measurements[lcp]", "tags[]"];
const STRINGS = ["'error'", "'production'", "'python'", "'2024-01-01T00:00:00'", "'it\\'s'", "''", "'\\\\'", "'ünïcødé ✓'", "'yesterday'", "'00000000-0000-4000-8000-000000000000'"];

function snqlTerminal(token: TokenType, prng: Prng): string {
  switch (token.name) {
    case "Identifier":
      return prng.chance(0.5) ? prng.pick(SNQL_COLUMNS) : prng.chance(0.7) ? prng.pick(SNQL_FUNCTIONS) : prng.pick(SNQL_ENTITIES);
    case "Subscript":
      return prng.chance(0.3) ? prng.pick(SUBSCRIPTS) : prng.pick(SNQL_COLUMNS);
    case "QuotedIdentifier":
      return prng.pick(["`x`", "`k`", "`weird name`"]);
    case "StringLiteral":
    case "UnterminatedString":
      return prng.pick(STRINGS);
    case "NumberLiteral":
      return prng.pick(["0", "1", "2", "0.95", "60", "3600", "1e10", String(prng.int(0, 1_000_000)), "18446744073709551616"]);
    case "RelationshipArrow":
      return prng.pick(["-[grouped]->", "-[attributes]->", "-[nope]->"]);
    default:
      return fixedText(token) ?? token.name;
  }
}

const MRIS = ["c:custom/page_views@none", "d:transactions/duration@millisecond", "s:custom/users@none", "g:custom/queue.depth@none", "c:sessions/session@none", "c:x/y@z"];
const TAGS = ["environment", "page", "transaction", "transaction.op", "queue", "release", "nope"];

function mqlTerminal(token: TokenType, prng: Prng): string {
  switch (token.name) {
    case "Mri":
      return prng.pick(MRIS);
    case "BacktickMetric":
      return `\`${prng.pick(MRIS)}\``;
    case "Name":
      return prng.chance(0.5) ? prng.pick(["sum", "avg", "count", "max", "min", "uniq", "quantiles", "p95", "last", "apdex", "failure_rate"]) : prng.pick(TAGS);
    case "TagKey":
      return prng.pick(TAGS);
    case "QuotedString":
    case "UnterminatedString":
      return prng.pick(['"production"', '"GET /api"', '""', '"ü"', '"a\\"b"']);
    case "Variable":
      return "$x";
    case "BareValue":
      return prng.pick(["prod", "abc*", "1", "x.y"]);
    case "NumberLiteral":
      return prng.pick(["0", "1", "0.5", "100", "99999999999"]);
    default:
      return fixedText(token) ?? token.name;
  }
}

const snqlProductions = snqlParser.getGAstProductions();
const mqlProductions = mqlParser.getGAstProductions();

export function snqlSentence(prng: Prng, start = "query"): string {
  return generateSentence({ productions: snqlProductions, start, terminalText: snqlTerminal, maxRecursion: prng.int(1, 3) }, prng);
}

export function mqlSentence(prng: Prng): string {
  return generateSentence({ productions: mqlProductions, start: "query", terminalText: mqlTerminal, maxRecursion: prng.int(1, 3) }, prng);
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** A SnQL query on a real entity with its required conditions, the rest from the grammar. */
function anchoredSnql(prng: Prng, now: number): { dataset: string; query: string } {
  const [dataset, entity, timeColumn] = prng.pick([
    ["events", "events", "timestamp"],
    ["transactions", "transactions", "finish_ts"],
    ["discover", "discover_events", "timestamp"],
  ] as const);
  const from = now - prng.int(1, 14) * DAY;
  const range = `${timeColumn} >= toDateTime('${iso(from)}') AND ${timeColumn} < toDateTime('${iso(from + prng.int(1, 3) * DAY)}')`;
  const extra = prng.chance(0.6) ? ` AND ${snqlSentence(prng, "orExpression")}` : "";
  const by = prng.chance(0.3) ? ` BY ${snqlSentence(prng, "expressionList")}` : "";
  const tail = prng.chance(0.3) ? ` LIMIT ${prng.int(0, 2000)}` : "";
  return { dataset, query: `MATCH (${entity}) SELECT ${snqlSentence(prng, "selectList")}${by} WHERE ${range} AND project_id = ${prng.int(1, 3)}${extra}${tail}` };
}

function mqlBody(prng: Prng, now: number, text: string): Record<string, unknown> {
  const end = now - prng.int(0, 5) * DAY;
  return {
    [prng.chance(0.5) ? "mql" : "query"]: text,
    mql_context: {
      start: iso(end - prng.int(1, 7) * DAY) + "Z",
      end: iso(end) + "Z",
      rollup: { granularity: prng.pick([60, 3600, 86400, 7]), interval: prng.pick([3600, 86400, 10]), with_totals: prng.pick(["True", "False", null]) },
      scope: { org_ids: [1], project_ids: [prng.int(1, 3)], use_case_id: prng.pick(["custom", "transactions", "sessions"]) },
      ...(prng.chance(0.3) ? { limit: prng.int(1, 10_000), offset: prng.int(0, 10) } : {}),
    },
    tenant_ids: { organization_id: 1, referrer: "reliability.fuzz" },
  };
}

/** Small damage to a text: flips, deletions, duplications, swaps, insertions of odd characters. */
export function mutateText(prng: Prng, text: string): string {
  let out = text;
  const edits = prng.int(1, 4);
  for (let i = 0; i < edits && out.length > 0; i++) {
    const at = prng.int(0, out.length - 1);
    switch (prng.int(0, 7)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + 1);
        break;
      case 1:
        out = out.slice(0, at) + String.fromCharCode(out.charCodeAt(at) ^ (1 << prng.int(0, 6))) + out.slice(at + 1);
        break;
      case 2: {
        const length = prng.int(1, 20);
        out = out.slice(0, at) + out.slice(at, at + length).repeat(prng.int(2, 50)) + out.slice(at + length);
        break;
      }
      case 3:
        out = out.slice(0, at) + prng.pick(["(", ")", "'", "`", "[", "]", "{", "}", "\\", "\u0000", "\uD800", "é", ",", " AND ", " OR ", "-[", "]->"]) + out.slice(at);
        break;
      case 4:
        out = out.slice(0, at) + "(".repeat(prng.int(50, 3000)) + out.slice(at);
        break;
      case 5:
        out = out.slice(0, at) + prng.pick(["'", ""]) + "x".repeat(prng.int(1000, 100_000)) + out.slice(at);
        break;
      case 6: {
        const other = prng.int(0, out.length - 1);
        const [a, b] = at < other ? [at, other] : [other, at];
        out = out.slice(0, a) + out.slice(b) + out.slice(a, b);
        break;
      }
      default:
        out = out.slice(0, at);
    }
  }
  return out;
}

function randomJson(prng: Prng, depth = 0): unknown {
  switch (prng.int(0, depth > 3 ? 4 : 7)) {
    case 0:
      return null;
    case 1:
      return prng.chance(0.5);
    case 2:
      return prng.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, 42]);
    case 3:
      return prng.pick(["", "x", "MATCH", "events", "\u0000", "x".repeat(prng.int(0, 5000))]);
    case 4:
      return prng.pick([[], {}]);
    case 5:
      return Array.from({ length: prng.int(0, 5) }, () => randomJson(prng, depth + 1));
    default: {
      const keys = ["query", "dataset", "tenant_ids", "organization_id", "referrer", "debug", "consistent", "turbo", "dry_run", "mql", "mql_context", "project_id", "time_window", "resolution", "subscription_type", "zzz"];
      const object: Record<string, unknown> = {};
      for (let i = prng.int(0, 6); i > 0; i--) object[prng.pick(keys)] = randomJson(prng, depth + 1);
      return object;
    }
  }
}

const DATASETS = ["events", "transactions", "discover", "metrics", "generic_metrics", "events_analytics_platform", "nope", "querylog", "%zz", "..", ""];

export function nextInput(prng: Prng, now: number): FuzzRequest {
  const roll = prng.next();
  const tenants = { organization_id: 1, referrer: "reliability.fuzz" };
  if (roll < 0.25) {
    const dataset = prng.pick(["events", "transactions", "discover"]);
    return { kind: "snql-grammar", method: "POST", path: `/${dataset}/snql`, body: JSON.stringify({ query: snqlSentence(prng), tenant_ids: tenants, debug: prng.chance(0.2) }) };
  }
  if (roll < 0.5) {
    const { dataset, query } = anchoredSnql(prng, now);
    // No dry_run: dry runs leave no query-log row, and the run accounts for every row.
    const flags = { debug: prng.chance(0.2), turbo: prng.chance(0.1), consistent: prng.chance(0.1) };
    return { kind: "snql-anchored", method: "POST", path: prng.chance(0.8) ? `/${dataset}/snql` : "/query", body: JSON.stringify({ query, dataset, tenant_ids: tenants, ...flags }) };
  }
  if (roll < 0.65) {
    return { kind: "mql-grammar", method: "POST", path: `/${prng.pick(["generic_metrics", "metrics"])}/mql`, body: JSON.stringify(mqlBody(prng, now, mqlSentence(prng))) };
  }
  if (roll < 0.8) {
    const base = prng.chance(0.6) ? anchoredSnql(prng, now).query : prng.chance(0.5) ? snqlSentence(prng) : mqlSentence(prng);
    const mutated = mutateText(prng, base);
    if (prng.chance(0.5)) return { kind: "snql-mutated", method: "POST", path: "/events/snql", body: JSON.stringify({ query: mutated, tenant_ids: tenants }) };
    return { kind: "body-mutated", method: "POST", path: prng.pick(["/events/snql", "/generic_metrics/mql", "/query"]), body: mutateText(prng, JSON.stringify({ query: base, tenant_ids: tenants })) };
  }
  if (roll < 0.92) {
    const path = prng.pick(["/events/snql", "/query", "/generic_metrics/mql", "/events/events/subscriptions", "/metrics/metrics_counters/subscriptions"]);
    return { kind: "random-json", method: "POST", path, body: JSON.stringify(randomJson(prng)) };
  }
  // Wrong as HTTP: methods, paths, content types, bytes that are not JSON.
  const dataset = prng.pick(DATASETS);
  const choices: FuzzRequest[] = [
    { kind: "http", method: prng.pick(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"]), path: `/${dataset}/snql` },
    { kind: "http", method: "POST", path: `/${dataset}/snql`, contentType: prng.pick(["text/plain", "application/x-www-form-urlencoded", "application/proto", "multipart/form-data"]), body: "query=MATCH" },
    { kind: "http", method: "POST", path: `/${dataset}/${prng.pick(["events", "nope", ""])}/subscriptions`, body: "\u0000\u0001\u00ff" },
    { kind: "http", method: "DELETE", path: `/events/events/subscriptions/${prng.pick(["1", "x", "99999999999", "-1"])}/${prng.pick(["0".repeat(32), "zz", "%2F"])}` },
    { kind: "http", method: "GET", path: prng.pick(["/", "/health", "/metrics", "/%", "/a/b/c/d/e/f", `/${"x".repeat(5000)}`, "/quarry.v1.QueryService/Snql"]) },
    { kind: "http", method: "POST", path: "/quarry.v1.QueryService/Snql", contentType: prng.pick(["application/json", "application/proto", "application/connect+json"]), body: prng.pick(["{}", "\u0000\u0000", '{"query": 1}']) },
  ];
  return prng.pick(choices);
}
