/**
 * PerSecondRateLimitAllocationPolicy: at most `per_second_limit` (50) queries of one tenant start
 * in any sliding second on the storage (the per-second limit of Snuba's rate limiter, facts §7.5,
 * as a policy). Cache hits are taken back out of the count when they settle.
 */
import type { TenantIds } from "../query/query-request.js";
import { TenantLimitPolicy, type Verdict } from "./policy-base.js";
import { NO_SUGGESTION, type PolicyUsage } from "./policy-types.js";
import { tenantBucket } from "./tenant-overrides.js";
import { TenantWindows } from "./tenant-windows.js";

const DEFAULT_PER_SECOND_LIMIT = 50;
const WINDOW_MS = 1000;
const QUOTA_UNIT = "queries_per_second";
const SUGGESTION = "Spread the queries out over time, or cache results on the caller's side";

interface Start {
  readonly at: number;
  counted: boolean;
}

/** The starts of one bucket in the last second, oldest first; `count` is the counted ones. */
class StartWindow {
  readonly starts: Start[] = [];
  private head = 0;
  count = 0;

  prune(nowMs: number): void {
    while (this.head < this.starts.length && this.starts[this.head]!.at <= nowMs - WINDOW_MS) {
      if (this.starts[this.head]!.counted) this.count--;
      this.head++;
    }
    // Compact once the dead prefix dominates, so the array stays as long as one window.
    if (this.head > 1024 && this.head * 2 > this.starts.length) {
      this.starts.splice(0, this.head);
      this.head = 0;
    }
  }

  oldestCounted(): number | null {
    for (let i = this.head; i < this.starts.length; i++) if (this.starts[i]!.counted) return this.starts[i]!.at;
    return null;
  }

  get isEmpty(): boolean {
    return this.head >= this.starts.length;
  }
}

export class PerSecondRateLimitAllocationPolicy extends TenantLimitPolicy {
  readonly name = "PerSecondRateLimitAllocationPolicy";
  private readonly limit: number;
  /** A tenant's window is empty one second after its last start, and then dropped. */
  private readonly windows = new TenantWindows<StartWindow>((window, nowMs) => {
    window.prune(nowMs);
    return window.isEmpty;
  });

  constructor(storageKey: string, args: Readonly<Record<string, unknown>>) {
    super(storageKey, args);
    this.limit = (args.per_second_limit as number | undefined) ?? DEFAULT_PER_SECOND_LIMIT;
  }

  usage(nowMs: number): PolicyUsage[] {
    const rows: PolicyUsage[] = [];
    for (const [bucket, window] of this.windows.entries()) {
      window.prune(nowMs);
      if (window.count > 0) rows.push({ bucket, used: window.count, unit: QUOTA_UNIT, limit: this.limit });
    }
    return rows;
  }

  protected evaluate(tenants: TenantIds, nowMs: number): Verdict {
    this.windows.admitted(nowMs);
    const bucket = tenantBucket(tenants, this.limit, this.overrides);
    const window = this.windows.getOrCreate(bucket.key, () => new StartWindow());
    window.prune(nowMs);
    const rate = window.count + 1;
    const base = {
      throttle_threshold: bucket.limit,
      rejection_threshold: bucket.limit,
      quota_used: rate,
      quota_unit: QUOTA_UNIT,
      max_bytes_to_read: 0,
      is_throttled: false,
    };
    if (rate > bucket.limit) {
      const reason = `per-second policy ${rate} exceeds limit of ${bucket.limit} queries per second for ${bucket.description}`;
      const oldest = window.oldestCounted() ?? nowMs;
      return {
        allowance: { ...base, can_run: false, max_threads: 0, explanation: { reason, overrides: { bucket: bucket.key } }, suggestion: SUGGESTION },
        retryAfterSeconds: Math.max(0.001, (oldest + WINDOW_MS - nowMs) / 1000),
        reason,
        settle: () => {},
      };
    }
    const start: Start = { at: nowMs, counted: true };
    window.starts.push(start);
    window.count++;
    const owner = window;
    return {
      allowance: { ...base, can_run: true, max_threads: this.config.maxThreads, explanation: {}, suggestion: NO_SUGGESTION },
      retryAfterSeconds: 0,
      reason: "",
      settle: (outcome) => {
        if (outcome.ranOnColumnstore || !start.counted) return;
        start.counted = false;
        owner.count--;
      },
    };
  }

  /** Drops the windows of tenants that went quiet (when a sweep is due), so the map does not grow with every tenant ever seen. */
  sweep(nowMs: number): void {
    this.windows.sweep(nowMs);
  }

  /** Tenants with a window now (for tests). */
  get tenants(): number {
    return this.windows.size;
  }
}
