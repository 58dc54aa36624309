/**
 * The fuzzer's inputs. Input `index` of a run seeded `seed` is a pure function of
 * (seed, index, now): `fuzzInput` draws from `Prng.forInput(seed, index)`, so a failing input is
 * regenerated alone (`npm run reliability -- --replay seed:index --now ms`).
 *
 * What they are: SnQL and MQL generated from the grammars (snql-sentences.ts, mql-sentences.ts),
 * anchored on real entities so that a good share reaches ClickHouse; the bench corpora (realistic
 * shapes); those texts mutated (token deletions, repeats, swaps and substitutions, byte flips, odd
 * characters, NUL, lone surrogates, huge literals, deep nesting, long condition chains); valid
 * bodies with a field removed, of the wrong type, a huge array or a deep object; random JSON;
 * subscription creates, lists, gets and deletes; Connect calls; and requests that are wrong as
 * HTTP (methods, paths, content types, bytes that are not JSON or not UTF-8, bodies over the
 * limit).
 */
import { MQL_CORPUS } from "../mql/mql-corpus.js";
import { SNQL_CORPUS } from "../snql/snql-corpus.js";
import { mqlRequest, mqlSentence } from "./mql-sentences.js";
import { Prng } from "./prng.js";
import { rpcRequest } from "./rpc-inputs.js";
import { anchoredSnql, snqlSentence } from "./snql-sentences.js";

/** What a 2xx answer must be: JSON (query routes), or anything (the form, metrics, "ok"). */
export type Expectation = "json" | "any";

export interface FuzzRequest {
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string | Uint8Array;
  readonly expect: Expectation;
}

export const FUZZ_REFERRER = "reliability.fuzz";
export const SUBSCRIPTION_REFERRER = "reliability.subscription";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** Tenants spread over many organisations, so per-organisation rate limits refuse only some. */
function tenants(prng: Prng, referrer = FUZZ_REFERRER): Record<string, unknown> {
  return { organization_id: prng.chance(0.1) ? 1 : prng.int(2, 5000), referrer };
}

/** A corpus query with its dates moved into the demo data's window (the 14 days before now). */
export function corpusSnql(prng: Prng, now: number): string {
  const query = prng.pick(SNQL_CORPUS);
  const from = now - prng.int(2, 13) * DAY;
  let n = 0;
  return query.replace(/toDateTime\('[^']*'\)/g, () => `toDateTime('${iso(n++ % 2 === 0 ? from : from + prng.pick([1, 24, 48]) * 3_600_000)}')`);
}

function corpusMql(prng: Prng, now: number): { dataset: string; body: Record<string, unknown> } {
  const entry = prng.pick(MQL_CORPUS);
  const body = mqlRequest(prng, now, { dataset: entry.dataset, useCase: entry.useCase, tokens: [], mql: entry.mql }, tenants(prng));
  return { dataset: entry.dataset, body };
}

// ---- mutations ---------------------------------------------------------------------------

const ODD = ["\u0000", "\uD800", "\uDFFF", "\uFFFE", "\u202E", "\u200B", "é", "😀", "\\", "'", '"', "`", "(", ")", "[", "]", "{", "}", ",", "\n", "\r\n", "\t", "--", "/*", ";", "%", "$", "->", "-[", "]->"];
const KEYWORDS = ["MATCH", "SELECT", "BY", "WHERE", "AND", "OR", "NOT", "IN", "LIKE", "IS", "NULL", "HAVING", "ORDER BY", "LIMIT", "OFFSET", "GRANULARITY", "TOTALS", "SAMPLE", "ARRAY JOIN", "AS", "STORAGE", "by", "{", "}", "(", ")", ","];

/** Splits a query text into rough tokens (words, strings, punctuation) for token-level edits. */
function roughTokens(text: string): string[] {
  return text.match(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`|[A-Za-z0-9_.:@/[\]]+|\S/g) ?? [text];
}

/** Token-level damage: deletions, repeats, swaps, substitutions and insertions of keywords. */
export function mutateTokens(prng: Prng, text: string): string {
  const tokens = roughTokens(text);
  for (let edits = prng.int(1, 3); edits > 0 && tokens.length > 0; edits--) {
    const at = prng.int(0, tokens.length - 1);
    switch (prng.int(0, 5)) {
      case 0:
        tokens.splice(at, 1);
        break;
      case 1:
        tokens.splice(at, 0, ...tokens.slice(at, at + prng.int(1, 4)));
        break;
      case 2: {
        const other = prng.int(0, tokens.length - 1);
        [tokens[at], tokens[other]] = [tokens[other]!, tokens[at]!];
        break;
      }
      case 3:
        tokens[at] = prng.pick(KEYWORDS);
        break;
      case 4:
        tokens.splice(at, 0, prng.pick(KEYWORDS));
        break;
      default:
        tokens[at] = prng.pick(tokens);
    }
  }
  return tokens.join(" ");
}

/** Character-level damage: flips, deletions, repeats, odd characters, truncation. */
export function mutateChars(prng: Prng, text: string): string {
  let out = text;
  for (let edits = prng.int(1, 4); edits > 0 && out.length > 0; edits--) {
    const at = prng.int(0, out.length - 1);
    switch (prng.int(0, 5)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + 1);
        break;
      case 1:
        out = out.slice(0, at) + String.fromCharCode(out.charCodeAt(at) ^ (1 << prng.int(0, 7))) + out.slice(at + 1);
        break;
      case 2: {
        const length = prng.int(1, 20);
        out = out.slice(0, at) + out.slice(at, at + length).repeat(prng.int(2, 20)) + out.slice(at + length);
        break;
      }
      case 3:
        out = out.slice(0, at) + prng.pick(ODD) + out.slice(at);
        break;
      case 4:
        out = out.slice(0, at) + String.fromCodePoint(prng.int(0, 0x10ffff)) + out.slice(at);
        break;
      default:
        out = out.slice(0, at);
    }
  }
  return out;
}

/** Big damage: huge literals, deep nesting, long chains, many columns. */
export function mutateLarge(prng: Prng, text: string): string {
  const where = text.indexOf(" WHERE ");
  const condition = prng.pick(["level = 'error'", "project_id = 1", "1 = 1", "environment != 'x'"]);
  switch (prng.int(0, 7)) {
    case 0: {
      const length = prng.pick([1_000, 100_000, 300_000]);
      return `${text} AND message = '${"x".repeat(length)}'`;
    }
    case 1: {
      const depth = prng.pick([63, 64, 65, 200, 5_000, 50_000]);
      return where < 0 ? "(".repeat(depth) + text : `${text.slice(0, where)} WHERE ${"(".repeat(depth)}${condition}${")".repeat(depth)} AND ${text.slice(where + 7)}`;
    }
    case 2: {
      const depth = prng.pick([50, 500, 5_000]);
      return where < 0 ? text : `${text.slice(0, where)} WHERE ${"not(".repeat(depth)}${condition}${")".repeat(depth)} AND ${text.slice(where + 7)}`;
    }
    case 3: {
      const count = prng.pick([100, 2_000, 20_000]);
      return `${text} AND (${Array.from({ length: count }, (_, i) => `level = 'l${i}'`).join(" OR ")})`;
    }
    case 4: {
      const count = prng.pick([1_000, 50_000]);
      return `${text} AND group_id IN tuple(${Array.from({ length: count }, (_, i) => i).join(", ")})`;
    }
    case 5: {
      const count = prng.pick([100, 1_000, 10_000]);
      return text.replace(" SELECT ", ` SELECT ${Array.from({ length: count }, (_, i) => `count() AS c${i}`).join(", ")}, `);
    }
    case 6:
      return `${text} AND x = ${"9".repeat(prng.pick([30, 400, 20_000]))}`;
    default:
      return text.replace(/'([^']*)'/, `'${"\\'".repeat(prng.pick([10, 10_000]))}'`);
  }
}

// ---- JSON --------------------------------------------------------------------------------

function randomJson(prng: Prng, depth = 0): unknown {
  switch (prng.int(0, depth > 3 ? 4 : 7)) {
    case 0:
      return null;
    case 1:
      return prng.chance(0.5);
    case 2:
      return prng.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, 42, -(2 ** 63), 1e-320]);
    case 3:
      return prng.pick(["", "x", "MATCH", "events", "\u0000", "\uD800", "True", "1", "x".repeat(prng.int(0, 5000))]);
    case 4:
      return prng.pick([[], {}]);
    case 5:
      return Array.from({ length: prng.int(0, 5) }, () => randomJson(prng, depth + 1));
    default: {
      const keys = ["query", "dataset", "tenant_ids", "organization_id", "referrer", "debug", "consistent", "turbo", "dry_run", "mql", "mql_context", "project_id", "time_window", "resolution", "subscription_type", "parent_api", "app_id", "__proto__", "constructor", "zzz"];
      const object: Record<string, unknown> = {};
      for (let i = prng.int(0, 6); i > 0; i--) object[prng.pick(keys)] = randomJson(prng, depth + 1);
      return object;
    }
  }
}

/** A JSON text nesting `depth` arrays or objects. */
function deepJson(prng: Prng, depth: number): string {
  return prng.chance(0.5) ? `${"[".repeat(depth)}1${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

const WRONG_VALUES: readonly (() => unknown)[] = [
  () => null,
  () => 1,
  () => -1,
  () => 1.5,
  () => "1",
  () => "",
  () => true,
  () => [],
  () => ({}),
  () => [1, "2", null],
  () => "x".repeat(100_000),
  () => Array.from({ length: 100_000 }, (_, i) => i),
  () => 2 ** 64,
  () => "True",
];

/** A valid body with one structural fault: a field removed, of the wrong type, huge, deep. */
function mutateStructure(prng: Prng, body: Record<string, unknown>): string {
  const paths: string[][] = [];
  const collect = (value: unknown, path: string[]) => {
    if (path.length > 0) paths.push(path);
    if (value && typeof value === "object" && !Array.isArray(value)) for (const [key, inner] of Object.entries(value)) collect(inner, [...path, key]);
  };
  collect(body, []);
  const path = prng.pick(paths);
  const copy = structuredClone(body);
  let parent: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  const roll = prng.int(0, 9);
  if (roll < 3) delete parent[last];
  else if (roll < 8) parent[last] = prng.pick(WRONG_VALUES)();
  else if (roll === 8) Object.defineProperty(parent, prng.pick(["zzz", "__proto__", "constructor", "query ", "QUERY", "tenant_ids"]), { value: randomJson(prng), enumerable: true, configurable: true, writable: true });
  else {
    // A deep value: built as text (JSON.stringify would recurse as deep).
    const marker = "__DEEP__";
    parent[last] = marker;
    return JSON.stringify(copy).replace(`"${marker}"`, deepJson(prng, prng.pick([100, 10_000, 200_000])));
  }
  return JSON.stringify(copy);
}

// ---- HTTP --------------------------------------------------------------------------------

const DATASETS = ["events", "transactions", "discover", "metrics", "generic_metrics", "events_analytics_platform", "nope", "querylog", "%zz", "..", "", "%00", "events%2Fsnql", "ÉVENTS"];
const CONNECT_METHODS = ["quarry.v1.QueryService/Snql", "quarry.v1.QueryService/Mql", "quarry.v1.QueryService/Query", "quarry.v1.SubscriptionService/CreateSubscription", "quarry.v1.HealthService/Check", "quarry.v1.Nope/Nope", "quarry.v1.QueryService/Nope"];

function wrongHttp(prng: Prng, now: number): FuzzRequest {
  const dataset = prng.pick(DATASETS);
  const validBody = JSON.stringify({ query: anchoredSnql(prng, now).query, tenant_ids: tenants(prng) });
  switch (prng.int(0, 11)) {
    case 0:
      return { kind: "http-method", method: prng.pick(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"]), path: `/${dataset}/${prng.pick(["snql", "mql"])}`, expect: "any" };
    case 1:
      return {
        kind: "http-content-type",
        method: "POST",
        path: `/${dataset}/snql`,
        contentType: prng.pick(["text/plain", "application/x-www-form-urlencoded", "application/proto", "multipart/form-data; boundary=x", "application/json; charset=latin1", "application/grpc", ""]),
        body: prng.chance(0.5) ? validBody : "query=MATCH",
        expect: "json",
      };
    case 2:
      return { kind: "http-bytes", method: "POST", path: `/${prng.pick(["events/snql", "query", "generic_metrics/mql", "events/events/subscriptions"])}`, body: Uint8Array.from({ length: prng.int(0, 64) }, () => prng.int(0, 255)), expect: "json" };
    case 3: {
      // Not UTF-8: bytes 0x80-0xff inside a JSON string.
      const text = new TextEncoder().encode(validBody);
      const at = text.indexOf(0x27); // the first quote of the query's literals
      const bytes = Uint8Array.from([...text.slice(0, at + 1), 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, ...text.slice(at + 1)]);
      return { kind: "http-not-utf8", method: "POST", path: "/events/snql", body: bytes, expect: "json" };
    }
    case 4:
      return { kind: "http-path", method: prng.pick(["GET", "POST"]), path: prng.pick(["/", "/%", "/%%", "/a/b/c/d/e/f", `/${"x".repeat(prng.pick([200, 5000]))}`, "/events/snql/", "/events//snql", "/events/snql?x=1", "/health/x", "/metrics?x", "/../../etc/passwd", "/events/snql%00"]), expect: "any" };
    case 5:
      return { kind: "http-path", method: "GET", path: prng.pick(["/health", "/metrics", "/events/snql", "/generic_metrics/mql"]), expect: "any" };
    case 6:
      return {
        kind: "http-too-large",
        method: "POST",
        path: prng.pick(["/events/snql", "/query", "/generic_metrics/mql", "/events/events/subscriptions"]),
        body: prng.chance(0.02) ? JSON.stringify({ query: "x".repeat(1_100_000) }) : JSON.stringify({ query: "x".repeat(prng.pick([300_000, 1_000_000])), tenant_ids: tenants(prng) }),
        expect: "json",
      };
    case 7:
      return { kind: "http-empty", method: "POST", path: prng.pick(["/events/snql", "/query", "/generic_metrics/mql", "/events/events/subscriptions"]), body: prng.pick(["", " ", "null", "[]", "{}", '""', "1", "{", '{"query":'] as const), expect: "json" };
    case 8: {
      const method = prng.pick(CONNECT_METHODS);
      const body = prng.chance(0.6)
        ? JSON.stringify({ dataset: prng.pick(["events", "transactions", "nope"]), query: prng.chance(0.5) ? anchoredSnql(prng, now).query : snqlSentence(prng, now).query, tenantIds: { organizationId: prng.int(1, 5000), referrer: FUZZ_REFERRER } })
        : prng.pick(["{}", "", "[]", '{"dataset": 1}', "\u0000\u0000", '{"tenantIds": {"organizationId": "x"}}']);
      const verb = prng.chance(0.9) ? "POST" : prng.pick(["GET", "PUT"]);
      const contentType = prng.pick(["application/json", "application/json", "application/proto", "application/connect+json", "text/plain"]);
      return { kind: "connect", method: verb, path: `/${method}`, contentType, ...(verb === "GET" ? {} : { body }), expect: "json" };
    }
    case 9:
      return { kind: "connect", method: "POST", path: `/${prng.pick(CONNECT_METHODS)}`, contentType: "application/proto", body: Uint8Array.from({ length: prng.int(0, 40) }, () => prng.int(0, 255)), expect: "json" };
    case 10:
      return { kind: "http-method", method: prng.pick(["PUT", "PATCH"]), path: `/${dataset}/events/subscriptions`, body: "{}", expect: "any" };
    default:
      return { kind: "http-path", method: "POST", path: `/${prng.pick(["health", "metrics", "events", "events/nope", "events/events", "events/events/subscriptions/1"])}`, body: validBody, expect: "any" };
  }
}

// ---- subscriptions -----------------------------------------------------------------------

const SUBSCRIPTION_QUERIES = [
  "MATCH (events) SELECT count() AS count WHERE level = 'error'",
  "MATCH (events) SELECT count() AS count, uniq(user) AS users WHERE environment = 'production'",
  "MATCH (transactions) SELECT quantile(0.95)(duration) AS p95",
  "MATCH (events) SELECT count() AS count",
];

function subscriptionRequest(prng: Prng): FuzzRequest {
  const [dataset, entity] = prng.pick([
    ["events", "events"],
    ["transactions", "transactions"],
    ["events", "nope"],
    ["generic_metrics", "generic_metrics_counters"],
  ] as const);
  const path = `/${dataset}/${entity}/subscriptions`;
  switch (prng.int(0, 5)) {
    case 0:
    case 1: {
      const query = prng.chance(0.7) ? prng.pick(SUBSCRIPTION_QUERIES) : mutateTokens(prng, prng.pick(SUBSCRIPTION_QUERIES));
      const body: Record<string, unknown> = {
        project_id: prng.int(1, 3),
        time_window: prng.pick([60, 3600, 86400, 59, 86401]),
        resolution: prng.pick([60, 300, 30]),
        query,
        tenant_ids: tenants(prng, SUBSCRIPTION_REFERRER),
      };
      return { kind: "subscription-create", method: "POST", path, body: prng.chance(0.8) ? JSON.stringify(body) : mutateStructure(prng, body), expect: "json" };
    }
    case 2:
      return { kind: "subscription-list", method: "GET", path, expect: "json" };
    case 3:
      return { kind: "subscription-get", method: "GET", path: `${path}/${prng.pick(["0", "1", "x", "-1", "99999999999"])}/${prng.pick(["0".repeat(32), "zz", "%2F", "a".repeat(300)])}`, expect: "json" };
    case 4:
      return { kind: "subscription-delete", method: "DELETE", path: `${path}/${prng.pick(["0", "1", "x"])}/${prng.pick(["0".repeat(32), "zz", ""])}`, expect: "any" };
    default:
      return { kind: "subscription-random", method: "POST", path, body: JSON.stringify(randomJson(prng)), expect: "json" };
  }
}

// ---- the mix -----------------------------------------------------------------------------

type Category = "snql-anchored" | "snql-grammar" | "mql-grammar" | "corpus" | "text-mutated" | "body-mutated" | "json-structure" | "json-random" | "subscription" | "http" | "rpc";

const MIX: readonly (readonly [Category, number])[] = [
  ["snql-anchored", 26],
  ["snql-grammar", 10],
  ["mql-grammar", 14],
  ["corpus", 5],
  ["text-mutated", 16],
  ["body-mutated", 5],
  ["json-structure", 9],
  ["json-random", 4],
  ["subscription", 4],
  ["http", 7],
  ["rpc", 6],
];

function snqlBody(prng: Prng, query: string, dataset: string): Record<string, unknown> {
  const body: Record<string, unknown> = { query, tenant_ids: tenants(prng) };
  if (prng.chance(0.2)) body.debug = true;
  if (prng.chance(0.08)) body.turbo = true;
  if (prng.chance(0.08)) body.consistent = true;
  if (prng.chance(0.1)) body.dataset = dataset;
  // No dry_run: a dry run leaves no query-log row, and the run accounts for every row.
  return body;
}

/** A valid-looking query body and its path, for mutation. */
function someQuery(prng: Prng, now: number): { path: string; body: Record<string, unknown>; text: string; field: string } {
  const roll = prng.next();
  if (roll < 0.45) {
    const { dataset, query } = anchoredSnql(prng, now);
    return { path: `/${dataset}/snql`, body: snqlBody(prng, query, dataset), text: query, field: "query" };
  }
  if (roll < 0.6) {
    const query = corpusSnql(prng, now);
    return { path: "/events/snql", body: snqlBody(prng, query, "events"), text: query, field: "query" };
  }
  if (roll < 0.75) {
    const { dataset, query } = snqlSentence(prng, now);
    return { path: `/${dataset}/snql`, body: snqlBody(prng, query, dataset), text: query, field: "query" };
  }
  const sentence = mqlSentence(prng);
  const body = mqlRequest(prng, now, sentence, tenants(prng));
  return { path: `/${sentence.dataset}/mql`, body, text: sentence.mql, field: "mql" in body ? "mql" : "query" };
}

/** Input `index` of the run seeded `seed`. */
export function fuzzInput(seed: number, index: number, now: number): FuzzRequest {
  const prng = Prng.forInput(seed, index);
  const category = prng.weighted(MIX);
  switch (category) {
    case "snql-anchored": {
      const { dataset, query } = anchoredSnql(prng, now);
      const path = prng.chance(0.85) ? `/${dataset}/snql` : "/query";
      const body = snqlBody(prng, query, dataset);
      if (path === "/query") body.dataset = dataset;
      return { kind: category, method: "POST", path, body: JSON.stringify(body), expect: "json" };
    }
    case "snql-grammar": {
      const { dataset, query } = snqlSentence(prng, now);
      return { kind: category, method: "POST", path: `/${dataset}/snql`, body: JSON.stringify(snqlBody(prng, query, dataset)), expect: "json" };
    }
    case "mql-grammar": {
      const sentence = mqlSentence(prng);
      return { kind: category, method: "POST", path: `/${sentence.dataset}/mql`, body: JSON.stringify(mqlRequest(prng, now, sentence, tenants(prng))), expect: "json" };
    }
    case "corpus": {
      if (prng.chance(0.6)) {
        const query = corpusSnql(prng, now);
        const dataset = /MATCH \(transactions\)/.test(query) ? "transactions" : /metrics/.test(query) ? (/generic_metrics/.test(query) ? "generic_metrics" : "metrics") : "events";
        return { kind: category, method: "POST", path: `/${dataset}/snql`, body: JSON.stringify(snqlBody(prng, query, dataset)), expect: "json" };
      }
      const { dataset, body } = corpusMql(prng, now);
      return { kind: category, method: "POST", path: `/${dataset}/mql`, body: JSON.stringify(body), expect: "json" };
    }
    case "text-mutated": {
      const { path, body, text, field } = someQuery(prng, now);
      const how = prng.weighted<(p: Prng, t: string) => string>([
        [mutateTokens, 5],
        [mutateChars, 4],
        [mutateLarge, 1],
      ]);
      body[field] = how(prng, text);
      return { kind: `${category}:${how.name}`, method: "POST", path, body: JSON.stringify(body), expect: "json" };
    }
    case "body-mutated": {
      const { path, body } = someQuery(prng, now);
      return { kind: category, method: "POST", path, body: mutateChars(prng, JSON.stringify(body)), expect: "json" };
    }
    case "json-structure": {
      const { path, body } = someQuery(prng, now);
      return { kind: category, method: "POST", path, body: mutateStructure(prng, body), expect: "json" };
    }
    case "json-random": {
      const path = prng.pick(["/events/snql", "/query", "/generic_metrics/mql", "/metrics/mql", "/events/events/subscriptions"]);
      return { kind: category, method: "POST", path, body: prng.chance(0.9) ? JSON.stringify(randomJson(prng)) : deepJson(prng, prng.pick([1_000, 100_000])), expect: "json" };
    }
    case "subscription":
      return subscriptionRequest(prng);
    case "http":
      return wrongHttp(prng, now);
    case "rpc":
      return rpcRequest(prng, now);
  }
}

/** A request as text, for reports and replays. */
export function describeRequest(request: FuzzRequest, maxBody = 2000): string {
  const body = request.body === undefined ? "" : typeof request.body === "string" ? request.body : `<bytes ${Buffer.from(request.body).toString("hex")}>`;
  const shown = body.length > maxBody ? `${body.slice(0, maxBody)}… (${body.length.toLocaleString("en")} chars)` : body;
  return `${request.method} ${request.path}${request.contentType !== undefined ? ` [content-type: ${request.contentType}]` : ""} ${shown}`;
}
