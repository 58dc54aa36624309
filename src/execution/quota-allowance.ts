/**
 * The `quota_allowance` block of a response, in Snuba's shape (facts §4). Allocation policies
 * (src/allocation-policies/) fill it; a dry run, which runs no policy, reports the pass-through.
 */
import { unrestrictedSummary, type QuotaAllowanceBody } from "../allocation-policies/admit-query.js";
import { DEFAULT_POLICY_MAX_THREADS, passthroughAllowance as passthroughDetail } from "../allocation-policies/policy-base.js";

export type { QuotaAllowanceBody } from "../allocation-policies/admit-query.js";

export const DEFAULT_MAX_THREADS = DEFAULT_POLICY_MAX_THREADS;

export function passthroughAllowance(storageKey: string, maxThreads = DEFAULT_MAX_THREADS): QuotaAllowanceBody {
  return { details: { PassthroughPolicy: passthroughDetail(storageKey, maxThreads) }, summary: unrestrictedSummary(maxThreads) };
}
