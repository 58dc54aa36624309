/**
 * `quarry subscriptions audit --from <ISO> --to <ISO> [--json]`: reads the cluster's store
 * (NATS_URL) and the result topics (KAFKA_BROKERS) and reports, per subscription, the windows
 * expected, published, missing and duplicated, and the lag. Exit 1 when a window is missing.
 */
import type { Settings } from "../config/settings.js";
import type { DefinitionLookup } from "../datasets/definition-lookup.js";
import { auditSubscriptions, formatAuditReport } from "../subscriptions/audit/audit.js";
import { readResultTopics } from "../subscriptions/audit/audit-sources.js";
import { NatsSubscriptionStore } from "../subscriptions/store/nats-subscription-store.js";
import { openCluster } from "./cluster-connection.js";

function parseInstant(text: string | undefined, name: string): number {
  if (text === undefined) throw new Error(`${name} is required (an ISO 8601 datetime, e.g. 2026-11-24T10:00:00Z)`);
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(ms)) throw new Error(`${name} must be an ISO 8601 datetime, got '${text}'`);
  return Math.floor(ms / 1000);
}

export async function runAuditCommand(
  settings: Settings,
  definitions: DefinitionLookup,
  args: { from: string | undefined; to: string | undefined; json: boolean },
  out: (text: string) => void,
  log: (line: string) => void,
): Promise<number> {
  const fromSecond = parseInstant(args.from, "--from");
  const toSecond = parseInstant(args.to, "--to");
  if (toSecond <= fromSecond) throw new Error("--to must be after --from");
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
    const report = auditSubscriptions({
      fromSecond,
      toSecond,
      records,
      results,
      delayFor: (entity) => settings.subscriptionDelaySeconds ?? definitions.entity(entity)?.subscriptions?.delaySeconds ?? 0,
    });
    out(args.json ? `${JSON.stringify(report)}\n` : formatAuditReport(report));
    return report.totals.missing === 0 ? 0 : 1;
  } finally {
    await buckets.close();
  }
}
