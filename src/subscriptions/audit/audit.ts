/**
 * The subscription audit: from the store (what should have run) and the result topics (what was
 * published), per subscription the windows expected, published, missing and duplicated, and the
 * lag (Kafka timestamp − T). An operator runs it after an incident; the fault tests use it as
 * their oracle. It is pure: `audit-sources.ts` reads NATS and Kafka, and `recount.ts` runs the
 * published windows again on a query node (`--recount`).
 *
 * Expected windows: every T = k·resolution in [from, to) whose firing second (T + jitter) is at or
 * after the creation second. For a deleted subscription, windows that came due (fired + delay)
 * more than `deleteGraceSeconds` before the delete are expected; later ones may or may not have
 * run (the delete raced the scheduler), so they are neither missing nor surplus.
 */
import { dueWindows, jitterSeconds } from "../scheduling/schedule.js";
import type { SubscriptionRecord } from "../store/subscription-record.js";
import type { WindowRows } from "./recount-comparison.js";
import { formatRecountLines, type RecountReport } from "./recount-report.js";

export interface PublishedResult {
  readonly subscriptionId: string;
  /** The window end T, Unix seconds (the payload's timestamp). */
  readonly windowEnd: number;
  /** Epoch milliseconds the broker stamped. */
  readonly publishedAtMs: number;
  /** The lease epoch header (0 when absent: a single node). */
  readonly epoch: number;
  readonly topic: string;
  /** The rows and columns published (`payload.result`), for a recount; absent when the message carried none. */
  readonly result?: WindowRows;
}

export interface AuditOptions {
  readonly fromSecond: number;
  readonly toSecond: number;
  readonly records: readonly SubscriptionRecord[];
  readonly results: readonly PublishedResult[];
  /** Seconds a window waits after T before it runs, per entity. */
  readonly delayFor: (entity: string) => number;
  readonly deleteGraceSeconds?: number;
}

export interface SubscriptionAudit {
  readonly id: string;
  readonly entity: string;
  readonly expected: number;
  readonly published: number;
  /** Window ends T expected and never published. */
  readonly missing: number[];
  /** Window ends published more than once, with their copy counts. */
  readonly duplicated: { windowEnd: number; copies: number; epochs: number[] }[];
}

export interface LagSummary {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

export interface AuditReport {
  readonly from: number;
  readonly to: number;
  readonly subscriptions: SubscriptionAudit[];
  readonly totals: {
    readonly subscriptions: number;
    readonly expected: number;
    readonly published: number;
    readonly missing: number;
    /** Extra copies beyond the first. */
    readonly duplicates: number;
    /** Extra copies published under an older lease epoch than another copy of the same window (a fenced owner's). */
    readonly fencedDuplicates: number;
    /** Results of subscriptions the store does not know, or for windows the subscription does not have. */
    readonly unexpected: number;
  };
  /** Seconds from T to the broker's timestamp, over the first copy of each expected window. */
  readonly lag: LagSummary;
  /** Each published result compared with a run of its window now (`--recount`; `recount.ts`). */
  readonly recount?: RecountReport;
}

/** The audit holds: no window missing and, when recounted, every result equal to its recount. */
export function auditPassed(report: AuditReport): boolean {
  return report.totals.missing === 0 && (report.recount === undefined || (report.recount.differing === 0 && report.recount.errors === 0));
}

function verdict(report: AuditReport): string {
  const { missing } = report.totals;
  const recount = report.recount;
  if (!recount) return missing === 0 ? "OK: no window missing" : `FAILED: ${missing} window(s) missing`;
  if (auditPassed(report)) return "OK: no window missing, every published result equals its recount";
  const failures = [
    ...(missing > 0 ? [`${missing} window(s) missing`] : []),
    ...(recount.differing > 0 ? [`${recount.differing} published result(s) differ from their recount`] : []),
    ...(recount.errors > 0 ? [`${recount.errors} window(s) could not be recounted`] : []),
  ];
  return `FAILED: ${failures.join(", ")}`;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function auditSubscriptions(options: AuditOptions): AuditReport {
  const grace = options.deleteGraceSeconds ?? 15;
  const byId = new Map<string, Map<number, PublishedResult[]>>();
  for (const result of options.results) {
    if (result.windowEnd < options.fromSecond || result.windowEnd >= options.toSecond) continue;
    let windows = byId.get(result.subscriptionId);
    if (!windows) byId.set(result.subscriptionId, (windows = new Map()));
    const copies = windows.get(result.windowEnd) ?? [];
    copies.push(result);
    windows.set(result.windowEnd, copies);
  }

  const audits: SubscriptionAudit[] = [];
  const lags: number[] = [];
  let unexpected = 0;
  let fencedDuplicates = 0;
  const known = new Set<string>();
  for (const { subscription, deletedAt } of options.records) {
    known.add(subscription.id);
    const jitter = jitterSeconds(subscription);
    const delay = options.delayFor(subscription.entity);
    const windows = byId.get(subscription.id) ?? new Map<number, PublishedResult[]>();
    const due = dueWindows(subscription, options.fromSecond + jitter, options.toSecond + jitter, jitter);
    const expected = new Set<number>();
    const optional = new Set<number>();
    for (const window of due) {
      if (deletedAt === null || (window.firesAt + delay + grace) * 1000 < deletedAt) expected.add(window.windowEnd);
      else if (window.firesAt * 1000 < deletedAt + grace * 1000) optional.add(window.windowEnd);
    }
    const missing: number[] = [];
    for (const windowEnd of expected) {
      const copies = windows.get(windowEnd);
      if (!copies) missing.push(windowEnd);
      else lags.push(Math.min(...copies.map((c) => c.publishedAtMs)) / 1000 - windowEnd);
    }
    const duplicated: SubscriptionAudit["duplicated"] = [];
    let published = 0;
    for (const [windowEnd, copies] of windows) {
      if (!expected.has(windowEnd) && !optional.has(windowEnd)) {
        unexpected += copies.length;
        continue;
      }
      published += 1;
      if (copies.length > 1) {
        const epochs = copies.map((c) => c.epoch);
        const newest = Math.max(...epochs);
        fencedDuplicates += epochs.filter((e) => e < newest).length;
        duplicated.push({ windowEnd, copies: copies.length, epochs });
      }
    }
    missing.sort((a, b) => a - b);
    duplicated.sort((a, b) => a.windowEnd - b.windowEnd);
    audits.push({ id: subscription.id, entity: subscription.entity, expected: expected.size, published, missing, duplicated });
  }
  for (const [id, windows] of byId) {
    if (!known.has(id)) for (const copies of windows.values()) unexpected += copies.length;
  }
  lags.sort((a, b) => a - b);
  return {
    from: options.fromSecond,
    to: options.toSecond,
    subscriptions: audits,
    totals: {
      subscriptions: audits.length,
      expected: audits.reduce((n, a) => n + a.expected, 0),
      published: audits.reduce((n, a) => n + a.published, 0),
      missing: audits.reduce((n, a) => n + a.missing.length, 0),
      duplicates: audits.reduce((n, a) => n + a.duplicated.reduce((m, d) => m + d.copies - 1, 0), 0),
      fencedDuplicates,
      unexpected,
    },
    lag: { count: lags.length, p50: quantile(lags, 0.5), p90: quantile(lags, 0.9), p99: quantile(lags, 0.99), max: lags.at(-1) ?? 0 },
  };
}

/** The report as an operator reads it: totals, lag, then every subscription with a problem. */
export function formatAuditReport(report: AuditReport): string {
  const iso = (second: number) => new Date(second * 1000).toISOString().replace(".000Z", "Z");
  const t = report.totals;
  const lines = [
    `subscription audit ${iso(report.from)} .. ${iso(report.to)}`,
    `subscriptions ${t.subscriptions}  windows expected ${t.expected}  published ${t.published}  missing ${t.missing}  duplicate copies ${t.duplicates} (from a fenced owner ${t.fencedDuplicates})  unexpected ${t.unexpected}`,
    `lag (T -> Kafka timestamp) over ${report.lag.count} windows: p50 ${report.lag.p50.toFixed(1)} s  p90 ${report.lag.p90.toFixed(1)} s  p99 ${report.lag.p99.toFixed(1)} s  max ${report.lag.max.toFixed(1)} s`,
  ];
  for (const audit of report.subscriptions) {
    if (audit.missing.length === 0 && audit.duplicated.length === 0) continue;
    lines.push(`  ${audit.id} (${audit.entity}): expected ${audit.expected}, published ${audit.published}`);
    if (audit.missing.length > 0) lines.push(`    MISSING ${audit.missing.length}: ${audit.missing.map(iso).join(", ")}`);
    for (const d of audit.duplicated) lines.push(`    duplicated ${iso(d.windowEnd)} x${d.copies} (lease epochs ${d.epochs.join(", ")})`);
  }
  if (report.recount) lines.push(...formatRecountLines(report.recount));
  lines.push(verdict(report));
  return `${lines.join("\n")}\n`;
}
