/**
 * ConcurrentRateLimitAllocationPolicy (facts §7.3): at most `concurrent_limit` (22) queries of one
 * tenant run at once on the storage. A query holds its slot from admission until it settles;
 * cache hits give their slot back without counting.
 */
import type { TenantIds } from "../query/query-request.js";
import { TenantLimitPolicy, type Verdict } from "./policy-base.js";
import { NO_SUGGESTION, type PolicyUsage } from "./policy-types.js";
import { tenantBucket } from "./tenant-overrides.js";

const DEFAULT_CONCURRENT_LIMIT = 22;
const QUOTA_UNIT = "concurrent_queries";
const SUGGESTION =
  "A customer is sending too many queries to snuba. The customer may be abusing an API or the queries may be innefficient";

export class ConcurrentRateLimitAllocationPolicy extends TenantLimitPolicy {
  readonly name = "ConcurrentRateLimitAllocationPolicy";
  private readonly limit: number;
  private readonly running = new Map<string, number>();

  constructor(storageKey: string, args: Readonly<Record<string, unknown>>) {
    super(storageKey, args);
    this.limit = (args.concurrent_limit as number | undefined) ?? DEFAULT_CONCURRENT_LIMIT;
  }

  usage(): PolicyUsage[] {
    return [...this.running].map(([bucket, used]) => ({ bucket, used, unit: QUOTA_UNIT, limit: this.limit }));
  }

  /** Queries currently holding a slot in a bucket (for tests and metrics). */
  runningIn(bucketKey: string): number {
    return this.running.get(bucketKey) ?? 0;
  }

  protected evaluate(tenants: TenantIds): Verdict {
    const bucket = tenantBucket(tenants, this.limit, this.overrides);
    const concurrent = (this.running.get(bucket.key) ?? 0) + 1;
    const canRun = concurrent <= bucket.limit;
    const base = {
      throttle_threshold: bucket.limit,
      rejection_threshold: bucket.limit,
      quota_used: concurrent,
      quota_unit: QUOTA_UNIT,
      max_bytes_to_read: 0,
      is_throttled: false,
    };
    const reason = `concurrent policy ${concurrent} exceeds limit of ${bucket.limit} for ${bucket.description}`;
    if (!canRun) {
      return {
        allowance: { ...base, can_run: false, max_threads: 0, explanation: { reason, overrides: { bucket: bucket.key } }, suggestion: SUGGESTION },
        retryAfterSeconds: 1,
        reason,
        settle: () => {},
      };
    }
    this.running.set(bucket.key, concurrent);
    let settled = false;
    return {
      allowance: { ...base, can_run: true, max_threads: this.config.maxThreads, explanation: {}, suggestion: NO_SUGGESTION },
      retryAfterSeconds: 0,
      reason: "",
      settle: () => {
        if (settled) return;
        settled = true;
        const left = (this.running.get(bucket.key) ?? 1) - 1;
        if (left <= 0) this.running.delete(bucket.key);
        else this.running.set(bucket.key, left);
      },
    };
  }
}
