/**
 * The `rate_limit` stage (facts §3.1): ask each policy of the storage in order, stop at the first
 * refusal, run with the fewest threads any policy granted. Returns the admission, whose `settle`
 * tells every admitting policy how the query ended; a refusal is a `rate-limited` error (429)
 * naming the policy, the limit and the tenant.
 */
import { QueryServiceError } from "../errors/query-service-error.js";
import { markImmutable } from "../execution/result-values.js";
import type { TenantIds } from "../query/query-request.js";
import { passthroughAllowance } from "./policy-base.js";
import type { PolicyAllowance, QuotaAllowanceBody, QuotaSummary } from "../query/quota-allowance.js";
import { NO_UNITS, type AllocationPolicy, type PolicyTicket, type QueryOutcome } from "./policy-types.js";

export interface Admission {
  readonly quotaAllowance: QuotaAllowanceBody;
  readonly maxThreads: number;
  /** 0 when no policy caps the bytes a query may read. */
  readonly maxBytesToRead: number;
  readonly throttledBy: string | null;
  settle(outcome: QueryOutcome): void;
}

function attribution(policy: string, storageKey: string, allowance: PolicyAllowance, threshold: "rejection_threshold" | "throttle_threshold") {
  return {
    policy,
    quota_used: allowance.quota_used,
    quota_unit: allowance.quota_unit,
    suggestion: allowance.suggestion,
    storage_key: storageKey,
    [threshold]: allowance[threshold],
  };
}

/** The summary of a query no policy refused or throttled. */
function unrestrictedSummary(threads: number): QuotaSummary {
  return {
    threads_used: threads,
    is_successful: true,
    is_rejected: false,
    is_throttled: false,
    rejection_storage_key: null,
    throttle_storage_key: null,
    quota_used: 0,
    quota_unit: NO_UNITS,
    rejected_by: {},
    throttled_by: {},
  };
}

/** The allowance of a query no policy saw (a dry run): the pass-through, in the response's shape. */
export function passthroughQuotaAllowance(storageKey: string, maxThreads: number): QuotaAllowanceBody {
  return { details: { PassthroughPolicy: passthroughAllowance(storageKey, maxThreads) }, summary: unrestrictedSummary(maxThreads) };
}

export function admitQuery(policies: readonly AllocationPolicy[], tenants: TenantIds, nowMs: number): Admission {
  const tickets: { policy: AllocationPolicy; ticket: PolicyTicket }[] = [];
  const details: Record<string, PolicyAllowance> = {};
  const settleAll = (outcome: QueryOutcome) => {
    for (const { ticket } of tickets) ticket.settle(outcome);
  };
  for (const policy of policies) {
    const ticket = policy.admit(tenants, nowMs);
    details[policy.name] = ticket.allowance;
    if (!ticket.allowance.can_run) {
      // The policies that admitted it before this one give their slot back uncounted.
      settleAll({ ranOnColumnstore: false, bytesScanned: 0 });
      const summary: QuotaSummary = {
        threads_used: 0,
        is_successful: false,
        is_rejected: true,
        is_throttled: false,
        rejection_storage_key: policy.storageKey,
        throttle_storage_key: null,
        quota_used: ticket.allowance.quota_used,
        quota_unit: ticket.allowance.quota_unit,
        rejected_by: attribution(policy.name, policy.storageKey, ticket.allowance, "rejection_threshold"),
        throttled_by: {},
      };
      throw new QueryServiceError(
        "rate-limited",
        `Query on storage '${policy.storageKey}' could not be run due to allocation policies: ${policy.name}: ${ticket.reason}`,
        { extra: { quota_allowance: { details, summary }, retry_after_seconds: ticket.retryAfterSeconds } },
      );
    }
    tickets.push({ policy, ticket });
  }

  let threads = Number.POSITIVE_INFINITY;
  let maxBytesToRead = 0;
  let throttler: { policy: AllocationPolicy; ticket: PolicyTicket } | null = null;
  for (const entry of tickets) {
    const { allowance } = entry.ticket;
    threads = Math.min(threads, allowance.max_threads);
    if (allowance.max_bytes_to_read > 0) maxBytesToRead = maxBytesToRead === 0 ? allowance.max_bytes_to_read : Math.min(maxBytesToRead, allowance.max_bytes_to_read);
    // Throttling is attributed to the throttled policy that granted the fewest threads.
    if (allowance.is_throttled && (throttler === null || allowance.max_threads < throttler.ticket.allowance.max_threads)) throttler = entry;
  }
  const summary: QuotaSummary = {
    threads_used: threads,
    ...(maxBytesToRead > 0 ? { max_bytes_to_read: maxBytesToRead } : {}),
    is_successful: true,
    is_rejected: false,
    is_throttled: throttler !== null,
    rejection_storage_key: null,
    throttle_storage_key: throttler?.policy.storageKey ?? null,
    quota_used: throttler?.ticket.allowance.quota_used ?? 0,
    quota_unit: throttler?.ticket.allowance.quota_unit ?? NO_UNITS,
    rejected_by: {},
    throttled_by: throttler ? attribution(throttler.policy.name, throttler.policy.storageKey, throttler.ticket.allowance, "throttle_threshold") : {},
  };
  let settled = false;
  return {
    quotaAllowance: { details, summary },
    maxThreads: threads,
    maxBytesToRead,
    throttledBy: throttler?.policy.name ?? null,
    settle(outcome) {
      if (settled) return;
      settled = true;
      settleAll(outcome);
    },
  };
}

/**
 * The admission of a query the cache answers (a stored result or a running identical execution):
 * it costs ClickHouse nothing, so no policy counts or refuses it (as Snuba, cache hits do not
 * count against quotas); each policy's entry says so.
 */
const cacheDetails = new WeakMap<readonly AllocationPolicy[], Record<string, PolicyAllowance>>();

export function admitFromCache(policies: readonly AllocationPolicy[], maxThreads: number): Admission {
  // The same for every hit on a storage: built once (it is only ever read).
  let details = cacheDetails.get(policies);
  if (!details) {
    details = {};
    for (const policy of policies) {
      const allowance = passthroughAllowance(policy.storageKey, maxThreads);
      details[policy.name] = { ...allowance, explanation: { ...allowance.explanation, reason: "answered from the result cache: not counted" } };
    }
    cacheDetails.set(policies, details);
    markImmutable(details);
  }
  return {
    quotaAllowance: { details, summary: unrestrictedSummary(maxThreads) },
    maxThreads,
    maxBytesToRead: 0,
    throttledBy: null,
    settle() {},
  };
}
