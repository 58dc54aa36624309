/**
 * The `quota_allowance` block of a response, in Snuba's shape (facts §4). Allocation policies
 * (src/allocation-policies/) fill it; a dry run, which runs no policy, reports the pass-through.
 */
import type { QuotaAllowanceBody } from "../allocation-policies/admit-query.js";
import { DEFAULT_POLICY_MAX_THREADS, passthroughAllowance as passthroughDetail } from "../allocation-policies/policy-base.js";
import { NO_UNITS } from "../allocation-policies/policy-types.js";

export type { QuotaAllowanceBody } from "../allocation-policies/admit-query.js";

export const DEFAULT_MAX_THREADS = DEFAULT_POLICY_MAX_THREADS;

export function passthroughAllowance(storageKey: string, maxThreads = DEFAULT_MAX_THREADS): QuotaAllowanceBody {
  return {
    details: { PassthroughPolicy: passthroughDetail(storageKey, maxThreads) },
    summary: {
      threads_used: maxThreads,
      is_successful: true,
      is_rejected: false,
      is_throttled: false,
      rejection_storage_key: null,
      throttle_storage_key: null,
      quota_used: 0,
      quota_unit: NO_UNITS,
      rejected_by: {},
      throttled_by: {},
    },
  };
}
