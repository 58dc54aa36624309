/**
 * A load soak: `clients` concurrent keep-alive clients for `seconds`, each sending a mix of
 * cached queries (a few identical bodies, repeated), uncached ones (a random window, project and
 * grouping each time), MQL, heavier scans, invalid queries and bodies, and a hot organisation
 * that the per-organisation rate limits refuse now and then. Answers are classified as in the
 * fuzz (outcomes.ts).
 */
import { MQL_CORPUS } from "../mql/mql-corpus.js";
import { corpusSnql, describeRequest, fuzzInput, type FuzzRequest } from "./fuzz-inputs.js";
import { mqlRequest } from "./mql-sentences.js";
import { Outcomes } from "./outcomes.js";
import { Prng } from "./prng.js";
import { send } from "./send.js";
import { anchoredSnql } from "./snql-sentences.js";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
export const SOAK_REFERRER = "reliability.soak";

/** The cached set: a few bodies sent again and again (the result cache and its single-flight). */
function cachedBodies(now: number): string[] {
  const day = iso(now - 2 * DAY).slice(0, 10);
  const range = (column: string) => `${column} >= toDateTime('${day}T00:00:00') AND ${column} < toDateTime('${day}T12:00:00')`;
  return [
    `MATCH (events) SELECT count() AS n BY level WHERE ${range("timestamp")} AND project_id = 1`,
    `MATCH (events) SELECT count() AS c, uniq(user) AS users BY release, environment WHERE ${range("timestamp")} AND project_id IN tuple(1, 2, 3) ORDER BY c DESC LIMIT 20`,
    `MATCH (transactions) SELECT quantile(0.95)(duration) AS p95, count() AS n BY transaction WHERE ${range("finish_ts")} AND project_id = 1 ORDER BY n DESC LIMIT 20`,
    `MATCH (events) SELECT count() AS c BY time WHERE ${range("timestamp")} AND project_id = 2 GRANULARITY 3600`,
  ].map((query) => JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: SOAK_REFERRER } }));
}

function tenants(prng: Prng): Record<string, unknown> {
  // 5 % from one hot organisation: the per-organisation limits (22 concurrent, 50/s) refuse some.
  return { organization_id: prng.chance(0.05) ? 1 : prng.int(2, 10_000), referrer: SOAK_REFERRER };
}

export function soakRequest(prng: Prng, now: number, cached: readonly string[]): FuzzRequest {
  const roll = prng.next();
  if (roll < 0.3) {
    return { kind: "soak-cached", method: "POST", path: prng.chance(0.5) ? "/events/snql" : "/transactions/snql", body: prng.pick(cached), expect: "json" };
  }
  if (roll < 0.55) {
    const from = now - prng.int(1, 13) * DAY - prng.int(0, 86_399) * 1000;
    const to = from + prng.int(1, 48) * 3_600_000;
    const [dataset, time] = prng.pick([
      ["events", "timestamp"],
      ["transactions", "finish_ts"],
    ] as const);
    const by = prng.pick(dataset === "events" ? ["level", "release", "environment", "tags[browser.name]", "time"] : ["transaction", "transaction_op", "platform", "time"]);
    const aggregate = dataset === "events" ? "uniq(user) AS users" : "avg(duration) AS mean";
    const query = `MATCH (${dataset}) SELECT count() AS n, ${aggregate} BY ${by} WHERE ${time} >= toDateTime('${iso(from)}') AND ${time} < toDateTime('${iso(to)}') AND project_id = ${prng.int(1, 3)} ORDER BY n DESC LIMIT ${prng.int(1, 100)}${by === "time" ? " GRANULARITY 3600" : ""}`;
    return { kind: "soak-uncached", method: "POST", path: `/${dataset}/snql`, body: JSON.stringify({ query, tenant_ids: tenants(prng) }), expect: "json" };
  }
  if (roll < 0.65) {
    const { dataset, query } = prng.chance(0.5) ? anchoredSnql(prng, now) : { dataset: "events", query: corpusSnql(prng, now) };
    return { kind: "soak-generated", method: "POST", path: `/${dataset}/snql`, body: JSON.stringify({ query, tenant_ids: tenants(prng) }), expect: "json" };
  }
  if (roll < 0.8) {
    const entry = prng.pick(MQL_CORPUS);
    const body = mqlRequest(prng, now, { dataset: entry.dataset, useCase: entry.useCase, tokens: [], mql: entry.mql }, tenants(prng));
    return { kind: "soak-mql", method: "POST", path: `/${entry.dataset}/mql`, body: JSON.stringify(body), expect: "json" };
  }
  if (roll < 0.85) {
    // Heavier: the whole 14 days, many groups, up to 10,000 rows back.
    const query = `MATCH (events) SELECT count() AS n, max(timestamp) AS last BY user, release WHERE timestamp >= toDateTime('${iso(now - 14 * DAY)}') AND timestamp < toDateTime('${iso(now)}') AND project_id IN tuple(1, 2, 3) ORDER BY n DESC LIMIT ${prng.pick([1000, 10_000])}`;
    return { kind: "soak-heavy", method: "POST", path: "/events/snql", body: JSON.stringify({ query, tenant_ids: tenants(prng), turbo: prng.chance(0.2) }), expect: "json" };
  }
  // Invalid: anything the fuzzer makes (grammar sentences, mutations, random JSON, wrong HTTP).
  const input = fuzzInput(prng.int(0, 2 ** 31), prng.int(0, 2 ** 31), now);
  return { ...input, kind: `soak-invalid:${input.kind.split(":")[0]!}` };
}

export interface SoakOptions {
  readonly clients: number;
  readonly seconds: number;
  readonly seed: number;
  readonly now: number;
  /** Stops early when this resolves (the stop-under-load phase). */
  readonly until?: Promise<unknown>;
  readonly onAnswer?: (request: FuzzRequest, startedAt: number, answer: Awaited<ReturnType<typeof send>>) => void;
}

export interface SoakResult {
  readonly outcomes: Outcomes;
  readonly seconds: number;
}

export async function soak(baseUrl: string, options: SoakOptions): Promise<SoakResult> {
  const outcomes = new Outcomes();
  const cached = cachedBodies(options.now);
  const deadline = performance.now() + options.seconds * 1000;
  let stopped = false;
  void options.until?.then(() => (stopped = true));
  const started = performance.now();
  const client = async (id: number) => {
    const prng = new Prng(options.seed * 1000 + id);
    for (let n = 0; performance.now() < deadline && !stopped; n++) {
      const request = soakRequest(prng, options.now, cached);
      const startedAt = performance.now();
      const answer = await send(baseUrl, request, 60_000);
      options.onAnswer?.(request, startedAt, answer);
      if (stopped && "network" in answer) break;
      outcomes.record(request, answer, `soak client ${id} request ${n}`, (r) => describeRequest(r, 1500));
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, id) => client(id)));
  return { outcomes, seconds: (performance.now() - started) / 1000 };
}
