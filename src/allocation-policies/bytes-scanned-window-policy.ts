/**
 * BytesScannedWindowAllocationPolicy (facts §7.3): bytes scanned per organization in a sliding
 * window (10 minutes), charged from ClickHouse's own `bytes_read` after each query. Past
 * `throttle_bytes_scanned` the query runs with `throttled_thread_number` threads (Snuba's window
 * policy); past `org_limit_bytes_scanned` it is refused (Snuba's rejecting policy), until enough
 * of the window has slid by.
 */
import type { TenantIds } from "../query/query-request.js";
import { TenantLimitPolicy, type Verdict } from "./policy-base.js";
import { NO_SUGGESTION, type PolicyUsage } from "./policy-types.js";
import { tenantBucket } from "./tenant-overrides.js";
import { TenantWindows } from "./tenant-windows.js";

const DEFAULT_ORG_LIMIT_BYTES_SCANNED = 1e12;
const DEFAULT_WINDOW_SECONDS = 600;
const QUOTA_UNIT = "bytes";
/** Charges within one second are merged, so a window holds at most `window_seconds` entries. */
const SLOT_MS = 1000;
const THROTTLE_SUGGESTION = "The organization scanned a lot of data recently: its queries run with fewer threads";
const REJECT_SUGGESTION = "The organization scanned more data than allowed in the window: scan less (narrower time range, fewer projects)";

class ChargeWindow {
  /**
   * The window's charges as (slot, bytes) pairs, oldest first, in one array of numbers: a fuzz
   * run leaves tens of thousands of tenants inside the window (18,000 after a 1,000,000-input
   * run), most with one or two charges, and a window with one charge costs 131 bytes of heap
   * this way against 178 with an array of {slot, bytes} objects. Made with its first charge: an
   * array literal holds just that, where a push onto an empty array reserves room for 17.
   */
  readonly charges: number[];
  total: number;

  constructor(nowMs: number, bytes: number) {
    this.charges = [Math.floor(nowMs / SLOT_MS), bytes];
    this.total = bytes;
  }

  get isEmpty(): boolean {
    return this.charges.length === 0;
  }

  prune(nowMs: number, windowMs: number): void {
    let drop = 0;
    while (drop < this.charges.length && this.charges[drop]! * SLOT_MS <= nowMs - windowMs) {
      this.total -= this.charges[drop + 1]!;
      drop += 2;
    }
    if (drop > 0) this.charges.splice(0, drop);
  }

  add(nowMs: number, bytes: number): void {
    const slot = Math.floor(nowMs / SLOT_MS);
    const last = this.charges.length - 2;
    if (last >= 0 && this.charges[last] === slot) this.charges[last + 1]! += bytes;
    else this.charges.push(slot, bytes);
    this.total += bytes;
  }

  /** Milliseconds until the total drops below `limit` as old charges leave the window. */
  msUntilBelow(limit: number, nowMs: number, windowMs: number): number {
    let total = this.total;
    for (let i = 0; i < this.charges.length; i += 2) {
      total -= this.charges[i + 1]!;
      if (total < limit) return Math.max(1, (this.charges[i]! + 1) * SLOT_MS + windowMs - nowMs);
    }
    return windowMs;
  }
}

export class BytesScannedWindowAllocationPolicy extends TenantLimitPolicy {
  readonly name = "BytesScannedWindowAllocationPolicy";
  private readonly limit: number;
  private readonly throttleAt: number | null;
  private readonly throttledThreads: number;
  private readonly windowMs: number;
  /**
   * Only tenants with charges in the window have one: a query that scanned nothing (refused,
   * failed, answered from the cache) leaves none behind, and a window is dropped once its last
   * charge has left it.
   */
  private readonly windows: TenantWindows<ChargeWindow>;

  constructor(storageKey: string, args: Readonly<Record<string, unknown>>) {
    super(storageKey, args);
    this.limit = (args.org_limit_bytes_scanned as number | undefined) ?? DEFAULT_ORG_LIMIT_BYTES_SCANNED;
    this.throttleAt = (args.throttle_bytes_scanned as number | undefined) ?? null;
    this.throttledThreads = (args.throttled_thread_number as number | undefined) ?? 1;
    this.windowMs = ((args.window_seconds as number | undefined) ?? DEFAULT_WINDOW_SECONDS) * 1000;
    this.windows = new TenantWindows((window, nowMs) => {
      window.prune(nowMs, this.windowMs);
      return window.isEmpty;
    });
  }

  usage(nowMs: number): PolicyUsage[] {
    const rows: PolicyUsage[] = [];
    for (const [bucket] of this.windows.entries()) {
      const used = this.usedBy(bucket, nowMs);
      if (used > 0) rows.push({ bucket, used, unit: QUOTA_UNIT, limit: this.limit });
    }
    return rows;
  }

  /** Bytes charged to a bucket in the current window. */
  usedBy(bucketKey: string, nowMs: number): number {
    const window = this.windows.get(bucketKey);
    window?.prune(nowMs, this.windowMs);
    return window?.total ?? 0;
  }

  protected evaluate(tenants: TenantIds, nowMs: number): Verdict {
    this.windows.admitted(nowMs);
    const bucket = tenantBucket(tenants, this.limit, this.overrides);
    // Without an explicit throttle threshold, throttle at two thirds of the limit (Snuba: limit / 1.5).
    const throttleAt = Math.min(this.throttleAt ?? bucket.limit / 1.5, bucket.limit);
    const used = this.usedBy(bucket.key, nowMs);
    const windowText = `${this.windowMs / 1000} s`;
    const base = {
      throttle_threshold: Math.round(throttleAt),
      rejection_threshold: bucket.limit,
      quota_used: used,
      quota_unit: QUOTA_UNIT,
      max_bytes_to_read: 0,
    };
    // The window is made (or looked up again) only when there is something to charge: a sweep
    // may have dropped it meanwhile.
    const charge = (outcome: { bytesScanned: number }) => {
      if (outcome.bytesScanned <= 0) return;
      const nowMs = Date.now();
      const window = this.windows.get(bucket.key);
      if (window) window.add(nowMs, outcome.bytesScanned);
      else this.windows.getOrCreate(bucket.key, () => new ChargeWindow(nowMs, outcome.bytesScanned));
    };
    if (used >= bucket.limit) {
      const reason = `bytes scanned ${used} in the last ${windowText} reached the limit of ${bucket.limit} bytes for ${bucket.description}`;
      return {
        allowance: { ...base, can_run: false, max_threads: 0, is_throttled: false, explanation: { reason, granted_quota: 0, limit: bucket.limit }, suggestion: REJECT_SUGGESTION },
        // Without a window (a limit of 0), nothing leaves it: a whole window's wait.
        retryAfterSeconds: (this.windows.get(bucket.key)?.msUntilBelow(bucket.limit, nowMs, this.windowMs) ?? this.windowMs) / 1000,
        reason,
        settle: () => {},
      };
    }
    if (used >= throttleAt) {
      const reason = `bytes scanned ${used} in the last ${windowText} exceeds the throttle threshold of ${Math.round(throttleAt)} bytes for ${bucket.description}`;
      const threads = Math.min(this.throttledThreads, this.config.maxThreads);
      return {
        allowance: { ...base, can_run: true, max_threads: threads, is_throttled: true, explanation: { reason }, suggestion: THROTTLE_SUGGESTION },
        retryAfterSeconds: 0,
        reason,
        settle: charge,
      };
    }
    return {
      allowance: { ...base, can_run: true, max_threads: this.config.maxThreads, is_throttled: false, explanation: {}, suggestion: NO_SUGGESTION },
      retryAfterSeconds: 0,
      reason: "",
      settle: charge,
    };
  }

  /** Drops the windows whose charges have all left (when a sweep is due). */
  sweep(nowMs: number): void {
    this.windows.sweep(nowMs);
  }

  /** Tenants with a window now (for tests). */
  get tenants(): number {
    return this.windows.size;
  }
}
