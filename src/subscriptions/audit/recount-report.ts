/**
 * What the audit's recount found (`quarry subscriptions audit --recount`), and how the audit
 * report prints it. Counts cover everything; the listings stop at a cap.
 */
import { stringifyResponse } from "../../execution/result-values.js";
import type { ResultRow } from "../../query/query-result.js";

/** A published copy whose rows are not the recount's. */
export interface RecountDifference {
  readonly subscriptionId: string;
  /** The window end T, Unix seconds. */
  readonly windowEnd: number;
  /** The lease epoch of the copy (0 when the message had none). */
  readonly epoch: number;
  /** Its rows, or null when the message carried no `payload.result.data`. */
  readonly published: ResultRow[] | null;
  readonly recounted: ResultRow[];
}

/** A window whose recount failed: the typed error the query node (or the way to it) gave. */
export interface RecountFailure {
  readonly subscriptionId: string;
  readonly windowEnd: number;
  /** A QueryServiceError type: `storage-not-available` when the query node did not answer. */
  readonly type: string;
  readonly message: string;
}

export interface RecountReport {
  /** Distinct (subscription, window end) pairs run again. */
  readonly windows: number;
  /** Published copies compared with their window's recount (duplicates each count). */
  readonly copies: number;
  readonly equal: number;
  readonly differing: number;
  /** Windows whose recount failed (their copies are neither equal nor differing). */
  readonly errors: number;
  /** Copies not recounted: the store does not know their subscription (the audit counts them as unexpected). */
  readonly notInStore: number;
  /** The first differences, by subscription and window end. */
  readonly differences: RecountDifference[];
  readonly failures: RecountFailure[];
}

const iso = (second: number) => new Date(second * 1000).toISOString().replace(".000Z", "Z");
const rowsText = (rows: ResultRow[] | null) => (rows === null ? "(no result rows)" : stringifyResponse(rows));

/** The recount's lines of the audit report: a summary, then each listed difference and failure. */
export function formatRecountLines(recount: RecountReport): string[] {
  const lines = [
    `recount: windows ${recount.windows}  copies compared ${recount.copies}  equal ${recount.equal}  differing ${recount.differing}  recount errors ${recount.errors}  not in the store ${recount.notInStore}`,
  ];
  for (const d of recount.differences) {
    lines.push(`  DIFFERS ${d.subscriptionId} ${iso(d.windowEnd)} (lease epoch ${d.epoch}): published ${rowsText(d.published)}  recounted ${rowsText(d.recounted)}`);
  }
  if (recount.differing > recount.differences.length) lines.push(`  ... and ${recount.differing - recount.differences.length} more differing`);
  for (const f of recount.failures) lines.push(`  RECOUNT ERROR ${f.subscriptionId} ${iso(f.windowEnd)}: ${f.type}: ${f.message}`);
  if (recount.errors > recount.failures.length) lines.push(`  ... and ${recount.errors - recount.failures.length} more recount errors`);
  return lines;
}
