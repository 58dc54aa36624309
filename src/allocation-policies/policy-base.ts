/**
 * What every policy shares (facts §7.1): an inactive policy admits everything with the
 * pass-through allowance; a policy that is not enforced computes its verdict (so the response
 * and the query log show what it would have done) but lets the query run with its configured
 * threads; `explanation.storage_key` is always the storage.
 */
import type { TenantIds } from "../pipeline/query-request.js";
import { MAX_THRESHOLD, NO_SUGGESTION, NO_UNITS, type BasePolicyConfig, type PolicyAllowance, type PolicyTicket, type QueryOutcome } from "./policy-types.js";

export const DEFAULT_POLICY_MAX_THREADS = 10;

export function readBaseConfig(args: Readonly<Record<string, unknown>>): BasePolicyConfig {
  return {
    isActive: args.is_active !== false,
    isEnforced: args.is_enforced !== false,
    maxThreads: typeof args.max_threads === "number" ? args.max_threads : DEFAULT_POLICY_MAX_THREADS,
  };
}

export function passthroughAllowance(storageKey: string, maxThreads: number): PolicyAllowance {
  return {
    can_run: true,
    max_threads: maxThreads,
    explanation: { storage_key: storageKey },
    is_throttled: false,
    throttle_threshold: MAX_THRESHOLD,
    rejection_threshold: MAX_THRESHOLD,
    quota_used: 0,
    quota_unit: NO_UNITS,
    suggestion: NO_SUGGESTION,
    max_bytes_to_read: 0,
  };
}

const settleNothing = (): void => {};

export function passthroughTicket(storageKey: string, maxThreads: number): PolicyTicket {
  return { allowance: passthroughAllowance(storageKey, maxThreads), retryAfterSeconds: 0, reason: "", settle: settleNothing };
}

/** A policy's own verdict before the base config is applied. */
export interface Verdict {
  readonly allowance: PolicyAllowance;
  readonly retryAfterSeconds: number;
  readonly reason: string;
  readonly settle: (outcome: QueryOutcome) => void;
}

/** Applies is_enforced and the storage key to a verdict; releases what a non-running verdict held. */
export function enforce(config: BasePolicyConfig, storageKey: string, verdict: Verdict): PolicyTicket {
  const explanation = { ...verdict.allowance.explanation, storage_key: storageKey };
  if (config.isEnforced) {
    return { ...verdict, allowance: { ...verdict.allowance, explanation } };
  }
  // Log-only: the query runs with the configured threads whatever the verdict said.
  return {
    allowance: { ...verdict.allowance, can_run: true, is_throttled: false, max_threads: config.maxThreads, explanation: { storage_key: storageKey, would_have: explanation } },
    retryAfterSeconds: 0,
    reason: "",
    settle: verdict.settle,
  };
}

/** Entry point shape shared by the policies: inactive -> pass-through, else evaluate + enforce. */
export function admitWith(
  config: BasePolicyConfig,
  storageKey: string,
  tenants: TenantIds,
  nowMs: number,
  evaluate: (tenants: TenantIds, nowMs: number) => Verdict,
): PolicyTicket {
  if (!config.isActive) return passthroughTicket(storageKey, config.maxThreads);
  return enforce(config, storageKey, evaluate(tenants, nowMs));
}
