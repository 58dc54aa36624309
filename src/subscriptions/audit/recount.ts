/**
 * The audit's recount: every window with a published result in [from, to) is run again now, on
 * a query node, past its result cache (`consistent`), and each published copy of it is compared
 * with that run (`recount-comparison.ts`). A copy that differs means the data of its window
 * changed after the window ran: data that arrived late, or a window that ran before its data
 * had landed.
 */
import { QueryServiceError } from "../../errors/query-service-error.js";
import { ConcurrencyLimiter } from "../execution/concurrency-limiter.js";
import { RemoteExecutor } from "../execution/remote-executor.js";
import type { Subscription } from "../store/subscription.js";
import { auditSubscriptions, type AuditOptions, type AuditReport, type PublishedResult } from "./audit.js";
import { compareWindowRows, normalizeRows, type WindowRows } from "./recount-comparison.js";
import type { RecountDifference, RecountFailure, RecountReport } from "./recount-report.js";

/** The referrer recounts run under (the query log and policies tell them from scheduled runs). */
export const RECOUNT_REFERRER = "subscriptions_audit";
export const DEFAULT_RECOUNT_CONCURRENCY = 8;
/** Differences and failures listed in a report (all are counted). */
const MAX_LISTED = 100;
/** A recount waits this long for its window (a consistent run has one thread). */
const RECOUNT_TIMEOUT_MS = 120_000;

/** Runs one window of a subscription now; rejects with a QueryServiceError. */
export interface WindowRecounter {
  recount(subscription: Subscription, windowEnd: number): Promise<WindowRows>;
}

/** Recounts on the query node at `queryUrl` (QUARRY_QUERY_URL), through RunSubscriptionWindow with `consistent`. */
export function queryNodeRecounter(queryUrl: string, concurrency: number): WindowRecounter {
  const executor = new RemoteExecutor(queryUrl, concurrency, RECOUNT_TIMEOUT_MS);
  return { recount: (subscription, windowEnd) => executor.runStored(subscription, windowEnd, RECOUNT_REFERRER, { consistent: true }) };
}

export interface RecountOptions {
  readonly fromSecond: number;
  readonly toSecond: number;
  readonly records: AuditOptions["records"];
  readonly results: readonly PublishedResult[];
  readonly recounter: WindowRecounter;
  /** Recounts in flight at once. */
  readonly concurrency?: number;
}

interface Window {
  readonly subscription: Subscription;
  readonly windowEnd: number;
  readonly copies: PublishedResult[];
}

type Outcome = { readonly window: Window; readonly recounted: WindowRows } | { readonly window: Window; readonly error: QueryServiceError };

export async function recountPublishedResults(options: RecountOptions): Promise<RecountReport> {
  const subscriptions = new Map(options.records.map((record) => [record.subscription.id, record.subscription]));
  const windows = new Map<string, Window>();
  let notInStore = 0;
  for (const result of options.results) {
    if (result.windowEnd < options.fromSecond || result.windowEnd >= options.toSecond) continue;
    const subscription = subscriptions.get(result.subscriptionId);
    if (!subscription) {
      notInStore += 1;
      continue;
    }
    const key = `${result.subscriptionId}\u0000${result.windowEnd}`;
    const window = windows.get(key) ?? { subscription, windowEnd: result.windowEnd, copies: [] };
    window.copies.push(result);
    windows.set(key, window);
  }
  const ordered = [...windows.values()].sort((a, b) => (a.subscription.id < b.subscription.id ? -1 : a.subscription.id > b.subscription.id ? 1 : a.windowEnd - b.windowEnd));

  const limiter = new ConcurrencyLimiter(options.concurrency ?? DEFAULT_RECOUNT_CONCURRENCY);
  const outcomes = await Promise.all(
    ordered.map((window) =>
      limiter.run(async (): Promise<Outcome> => {
        try {
          return { window, recounted: await options.recounter.recount(window.subscription, window.windowEnd) };
        } catch (reason) {
          return { window, error: QueryServiceError.from(reason) };
        }
      }),
    ),
  );

  let copies = 0;
  let equal = 0;
  let differing = 0;
  let errors = 0;
  const differences: RecountDifference[] = [];
  const failures: RecountFailure[] = [];
  for (const outcome of outcomes) {
    const { window } = outcome;
    if ("error" in outcome) {
      errors += 1;
      if (failures.length < MAX_LISTED) failures.push({ subscriptionId: window.subscription.id, windowEnd: window.windowEnd, type: outcome.error.type, message: outcome.error.message });
      continue;
    }
    for (const copy of window.copies) {
      copies += 1;
      const comparison = copy.result ? compareWindowRows(copy.result, outcome.recounted) : null;
      if (comparison?.equal) {
        equal += 1;
        continue;
      }
      differing += 1;
      if (differences.length < MAX_LISTED) {
        differences.push({
          subscriptionId: window.subscription.id,
          windowEnd: window.windowEnd,
          epoch: copy.epoch,
          published: comparison ? comparison.published : null,
          recounted: comparison ? comparison.recounted : normalizeRows(outcome.recounted),
        });
      }
    }
  }
  return { windows: ordered.length, copies, equal, differing, errors, notInStore, differences, failures };
}

/** The audit, with every published result in range recounted (`quarry subscriptions audit --recount`). */
export async function auditSubscriptionsWithRecount(options: AuditOptions & { readonly recounter: WindowRecounter; readonly concurrency?: number }): Promise<AuditReport> {
  const report = auditSubscriptions(options);
  return { ...report, recount: await recountPublishedResults(options) };
}
