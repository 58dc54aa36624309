/**
 * A load soak: `clients` concurrent keep-alive clients for `seconds`, each sending a mix of
 * cached queries (one identical SnQL body), uncached ones (a random project and window), MQL,
 * and invalid queries; answers classified, latencies kept.
 */
import { mqlSentence, snqlSentence } from "./fuzz-inputs.js";
import { Outcomes } from "./outcomes.js";
import { Prng } from "./prng.js";
import { send } from "./send.js";
import type { FuzzRequest } from "./fuzz-inputs.js";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

function soakRequest(prng: Prng, now: number): FuzzRequest {
  const tenants = { organization_id: 1, referrer: "reliability.soak" };
  const roll = prng.next();
  if (roll < 0.3) {
    const query = `MATCH (events) SELECT count() AS n BY level WHERE timestamp >= toDateTime('${iso(now - 7 * DAY)}') AND timestamp < toDateTime('${iso(now)}') AND project_id = 1`;
    return { kind: "cached", method: "POST", path: "/events/snql", body: JSON.stringify({ query, tenant_ids: tenants }) };
  }
  if (roll < 0.6) {
    const from = now - prng.int(1, 13) * DAY - prng.int(0, 86_399) * 1000;
    const query = `MATCH (events) SELECT count() AS n, uniq(user) AS users BY ${prng.pick(["level", "release", "environment"])} WHERE timestamp >= toDateTime('${iso(from)}') AND timestamp < toDateTime('${iso(from + prng.int(1, 48) * 3_600_000)}') AND project_id = ${prng.int(1, 3)} LIMIT ${prng.int(1, 100)}`;
    return { kind: "uncached", method: "POST", path: "/events/snql", body: JSON.stringify({ query, tenant_ids: tenants }) };
  }
  if (roll < 0.75) {
    const end = now - prng.int(0, 3) * DAY;
    return {
      kind: "mql",
      method: "POST",
      path: "/generic_metrics/mql",
      body: JSON.stringify({
        mql: prng.pick(["sum(c:custom/page_views@none) by (page)", "avg(g:custom/queue.depth@none)", mqlSentence(prng)]),
        mql_context: { start: `${iso(end - DAY)}Z`, end: `${iso(end)}Z`, rollup: { granularity: 3600, interval: 3600 }, scope: { org_ids: [1], project_ids: [prng.int(1, 3)], use_case_id: "custom" } },
        tenant_ids: tenants,
      }),
    };
  }
  return { kind: "invalid", method: "POST", path: "/events/snql", body: JSON.stringify({ query: snqlSentence(prng), tenant_ids: tenants }) };
}

export interface SoakResult {
  readonly outcomes: Outcomes;
  readonly seconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export async function soak(baseUrl: string, options: { clients: number; seconds: number; seed: number }): Promise<SoakResult> {
  const prng = new Prng(options.seed);
  const outcomes = new Outcomes();
  const latencies: number[] = [];
  const now = Date.now();
  const until = performance.now() + options.seconds * 1000;
  const started = performance.now();
  const client = async () => {
    while (performance.now() < until) {
      const request = soakRequest(prng, now);
      const t0 = performance.now();
      const answer = await send(baseUrl, request);
      latencies.push(performance.now() - t0);
      outcomes.record(request.kind, `${request.path} ${request.body ?? ""}`, answer);
    }
  };
  await Promise.all(Array.from({ length: options.clients }, client));
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { outcomes, seconds: (performance.now() - started) / 1000, p50Ms: at(0.5), p99Ms: at(0.99) };
}
