/** How a requested number of demo rows is shared between the datasets. */

export interface DemoRowSplit {
  readonly events: number;
  readonly transactions: number;
  /** Metrics rows over all tables and granularities (pre-aggregated buckets). */
  readonly metrics: number;
  readonly eapSpans: number;
  readonly eapLogs: number;
}

/** Events 45%, transactions 45%, metrics 6%, EAP items 4% (three spans for one log). */
export function splitDemoRows(rows: number): DemoRowSplit {
  if (!Number.isInteger(rows) || rows < 0) throw new Error(`demo rows must be a non-negative integer, got ${rows}`);
  const events = Math.round(rows * 0.45);
  const transactions = Math.round(rows * 0.45);
  const metrics = Math.round(rows * 0.06);
  const eap = Math.max(0, rows - events - transactions - metrics);
  const eapSpans = Math.round(eap * 0.75);
  return { events, transactions, metrics, eapSpans, eapLogs: eap - eapSpans };
}
