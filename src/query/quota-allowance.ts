/**
 * The `quota_allowance` of a query's answer (Snuba's shape): each allocation policy's verdict,
 * and their summary. Policies produce it; the wires write it.
 */

/** One policy's verdict: the `quota_allowance.details.<PolicyName>` object. */
export interface PolicyAllowance {
  can_run: boolean;
  max_threads: number;
  explanation: Record<string, unknown>;
  is_throttled: boolean;
  throttle_threshold: number;
  rejection_threshold: number;
  quota_used: number;
  quota_unit: string;
  suggestion: string;
  max_bytes_to_read: number;
}

export interface QuotaAllowanceBody {
  details: Record<string, PolicyAllowance>;
  summary: QuotaSummary;
}

// A type alias (not an interface) so it reads as a plain record where the wire code needs one.
export type QuotaSummary = {
  threads_used: number;
  max_bytes_to_read?: number;
  is_successful: boolean;
  is_rejected: boolean;
  is_throttled: boolean;
  rejection_storage_key: string | null;
  throttle_storage_key: string | null;
  quota_used: number;
  quota_unit: string;
  rejected_by: Record<string, unknown>;
  throttled_by: Record<string, unknown>;
};
