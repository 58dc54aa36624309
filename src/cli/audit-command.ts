/**
 * `quarry subscriptions audit --from <ISO> --to <ISO> [--json] [--recount [--recount-concurrency N]]`:
 * reads the cluster's store (NATS_URL) and the result topics (KAFKA_BROKERS) and reports, per
 * subscription, the windows expected, published, missing and duplicated, and the lag. With
 * --recount, every published result in range is compared with a run of its window now on the
 * query node at QUARRY_QUERY_URL. Exit 1 when a window is missing, a result differs from its
 * recount, or a window could not be recounted.
 */
import type { Settings } from "../config/settings.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { stringifyResponse } from "../execution/result-values.js";
import { auditPassed, auditSubscriptions, formatAuditReport } from "../subscriptions/audit/audit.js";
import { readResultTopics } from "../subscriptions/audit/audit-sources.js";
import { auditSubscriptionsWithRecount, DEFAULT_RECOUNT_CONCURRENCY, queryNodeRecounter } from "../subscriptions/audit/recount.js";
import { NatsSubscriptionStore } from "../subscriptions/store/nats-subscription-store.js";
import { openCluster } from "./cluster-connection.js";

function parseInstant(text: string | undefined, name: string): number {
  if (text === undefined) throw new Error(`${name} is required (an ISO 8601 datetime, e.g. 2026-11-24T10:00:00Z)`);
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(ms)) throw new Error(`${name} must be an ISO 8601 datetime, got '${text}'`);
  return Math.floor(ms / 1000);
}

/** The most recounts in flight a flag may ask for: each holds a query node's thread. */
const MAX_RECOUNT_CONCURRENCY = 256;

function parseConcurrency(text: string | undefined): number {
  if (text === undefined) return DEFAULT_RECOUNT_CONCURRENCY;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > MAX_RECOUNT_CONCURRENCY) {
    throw new Error(`--recount-concurrency must be an integer from 1 to ${MAX_RECOUNT_CONCURRENCY}, got '${text}'`);
  }
  return value;
}

export interface AuditArguments {
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly json: boolean;
  /** Compare every published result in range with a run of its window now (QUARRY_QUERY_URL). */
  readonly recount?: boolean;
  /** Recounts in flight at once (default 8). */
  readonly recountConcurrency?: string | undefined;
}

export async function runAuditCommand(
  settings: Settings,
  definitions: DefinitionLookup,
  args: AuditArguments,
  out: (text: string) => void,
  log: (line: string) => void,
): Promise<number> {
  const fromSecond = parseInstant(args.from, "--from");
  const toSecond = parseInstant(args.to, "--to");
  if (toSecond <= fromSecond) throw new Error("--to must be after --from");
  if (!args.recount && args.recountConcurrency !== undefined) throw new Error("--recount-concurrency needs --recount");
  const concurrency = parseConcurrency(args.recountConcurrency);
  if (settings.kafkaBrokers.length === 0) throw new Error("KAFKA_BROKERS is not set: the audit reads the result topics");
  const buckets = await openCluster(settings, log);
  try {
    const store = new NatsSubscriptionStore(buckets.subscriptions);
    const records = await store.records();
    store.close();
    const topics = new Set<string>();
    for (const entity of definitions.entities()) {
      if (entity.subscriptions) topics.add(settings.subscriptionTopics[entity.name] ?? entity.subscriptions.resultTopic);
    }
    const results = await readResultTopics(settings.kafkaBrokers, [...topics], fromSecond * 1000);
    const options = {
      fromSecond,
      toSecond,
      records,
      results,
      delayFor: (entity: string) => settings.subscriptionDelaySeconds ?? definitions.entity(entity)?.subscriptions?.delaySeconds ?? 0,
    };
    const report = args.recount
      ? await auditSubscriptionsWithRecount({ ...options, recounter: queryNodeRecounter(settings.queryUrl, concurrency), concurrency })
      : auditSubscriptions(options);
    // stringifyResponse: recounted rows may hold 64-bit integers as BigInt, written as bare integers.
    out(args.json ? `${stringifyResponse(report)}\n` : formatAuditReport(report));
    return auditPassed(report) ? 0 : 1;
  } finally {
    await buckets.close();
  }
}
