/**
 * Snuba's retention rule (rust_snuba/src/processors/utils.rs `enforce_retention`, settings
 * DEFAULT_RETENTION_DAYS / LOWER_RETENTION_DAYS / VALID_RETENTION_DAYS): a row keeps a retention
 * that is one of the valid ones; any other becomes the lower retention when at most that, else
 * the default. A missing one is the default.
 */
export interface RetentionPolicy {
  readonly defaultDays: number;
  readonly lowerDays: number;
  readonly validDays: ReadonlySet<number>;
}

/** Snuba's settings: 90 days by default, 30 for shorter requests, {30, 90} valid. */
export const SNUBA_RETENTION: RetentionPolicy = { defaultDays: 90, lowerDays: 30, validDays: new Set([30, 90]) };

export function enforceRetention(days: number | null | undefined, policy: RetentionPolicy = SNUBA_RETENTION): number {
  const requested = days ?? policy.defaultDays;
  if (policy.validDays.has(requested)) return requested;
  return requested <= policy.lowerDays ? policy.lowerDays : policy.defaultDays;
}
