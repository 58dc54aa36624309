/**
 * What an allocation policy decides about one query, in Snuba's shapes (facts §7.1, §4): the
 * per-policy `details` entry of `quota_allowance`, and the ticket that tells the policy how the
 * query ended so it can release a concurrency slot or charge the bytes it scanned.
 */
import type { TenantIds } from "../query/query-request.js";
import type { PolicyAllowance } from "../query/quota-allowance.js";

export const MAX_THRESHOLD = 1e12;
export const NO_UNITS = "no_units";
export const NO_SUGGESTION = "no_suggestion";

/** How a query that a policy admitted ended. */
export interface QueryOutcome {
  /** False for cache hits and shared (waited) executions: they do not count against quotas. */
  readonly ranOnColumnstore: boolean;
  /** ClickHouse's own `bytes_read` for the execution (0 when it did not run). */
  readonly bytesScanned: number;
}

export interface PolicyTicket {
  readonly allowance: PolicyAllowance;
  /** Seconds after which a refused query may succeed (Retry-After). */
  readonly retryAfterSeconds: number;
  /** A one-line reason naming the limit and the tenant, for refusal messages. */
  readonly reason: string;
  /** Called exactly once when the query is over (or was refused by a later policy). */
  settle(outcome: QueryOutcome): void;
}

/** What one tenant bucket (an organization, or an override's scope) uses of a policy now. */
export interface PolicyUsage {
  /** The bucket, e.g. `organization_id=1`. */
  readonly bucket: string;
  readonly used: number;
  readonly unit: string;
  /** The policy's default limit (an override's own limit is in its bucket's scope). */
  readonly limit: number;
}

export interface AllocationPolicy {
  /** Snuba's class name, the key under `quota_allowance.details`. */
  readonly name: string;
  readonly storageKey: string;
  admit(tenants: TenantIds, nowMs: number): PolicyTicket;
  /** The buckets with something counted now (for the admin UI); none for policies that count nothing. */
  usage?(nowMs: number): PolicyUsage[];
  /** Drops per-tenant state that counts nothing any more; cheap to call often (policies walk their state only when a sweep is due). */
  sweep?(nowMs: number): void;
}

/** Base configuration every policy has (facts §7.1). */
export interface BasePolicyConfig {
  readonly isActive: boolean;
  readonly isEnforced: boolean;
  readonly maxThreads: number;
}
