/**
 * The `quota_allowance` block of a response. Until allocation policies are configured on a
 * storage, every query is admitted by the pass-through policy, reported in Snuba's shape.
 */
export const DEFAULT_MAX_THREADS = 10;

export interface QuotaAllowanceBody {
  details: Record<string, Record<string, unknown>>;
  summary: Record<string, unknown>;
}

export function passthroughAllowance(storageKey: string, maxThreads = DEFAULT_MAX_THREADS): QuotaAllowanceBody {
  return {
    details: {
      PassthroughPolicy: {
        can_run: true,
        max_threads: maxThreads,
        explanation: { storage_key: storageKey },
        is_throttled: false,
        throttle_threshold: 1e12,
        rejection_threshold: 1e12,
        quota_used: 0,
        quota_unit: "no_units",
        suggestion: "no_suggestion",
        max_bytes_to_read: 0,
      },
    },
    summary: {
      threads_used: maxThreads,
      is_successful: true,
      is_rejected: false,
      is_throttled: false,
      rejection_storage_key: null,
      throttle_storage_key: null,
      rejected_by: {},
      throttled_by: {},
    },
  };
}
