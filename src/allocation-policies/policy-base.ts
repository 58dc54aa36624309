/**
 * What every policy shares (facts §7.1): an inactive policy admits everything with the
 * pass-through allowance; a policy that is not enforced computes its verdict (so the response
 * and the query log show what it would have done) but lets the query run with its configured
 * threads; `explanation.storage_key` is always the storage.
 */
import type { TenantIds } from "../query/query-request.js";
import { MAX_THRESHOLD, NO_SUGGESTION, NO_UNITS, type AllocationPolicy, type BasePolicyConfig, type PolicyTicket, type QueryOutcome } from "./policy-types.js";
import type { PolicyAllowance } from "../query/quota-allowance.js";
import type { TenantOverride } from "./tenant-overrides.js";

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
function enforce(config: BasePolicyConfig, storageKey: string, verdict: Verdict): PolicyTicket {
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

/**
 * A policy with a per-tenant limit: reads the base config and the overrides, and admits by
 * evaluating its own verdict unless inactive, then applying `is_enforced`.
 */
export abstract class TenantLimitPolicy implements AllocationPolicy {
  abstract readonly name: string;
  protected readonly config: BasePolicyConfig;
  protected readonly overrides: readonly TenantOverride[];

  constructor(
    readonly storageKey: string,
    args: Readonly<Record<string, unknown>>,
  ) {
    this.config = readBaseConfig(args);
    this.overrides = (args.overrides as TenantOverride[] | undefined) ?? [];
  }

  admit(tenants: TenantIds, nowMs: number): PolicyTicket {
    if (!this.config.isActive) return passthroughTicket(this.storageKey, this.config.maxThreads);
    return enforce(this.config, this.storageKey, this.evaluate(tenants, nowMs));
  }

  protected abstract evaluate(tenants: TenantIds, nowMs: number): Verdict;
}
