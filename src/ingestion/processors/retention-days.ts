/**
 * The retention a metrics row gets (Snuba's `enforce_retention`): a message's retention_days is
 * kept when it is one the deployment offers, otherwise it becomes the lower retention when it is
 * at most that, and the default one above. Snuba's settings offer 30 and 90 days, with 30 as the
 * lower and 90 as the default; self-hosted Sentry adds its event retention and 60.
 */
export interface RetentionPolicy {
  readonly validDays: ReadonlySet<number>;
  readonly lowerDays: number;
  readonly defaultDays: number;
}

export const SNUBA_RETENTION_POLICY: RetentionPolicy = { validDays: new Set([30, 90]), lowerDays: 30, defaultDays: 90 };

export function enforceRetention(days: number, policy: RetentionPolicy = SNUBA_RETENTION_POLICY): number {
  if (policy.validDays.has(days)) return days;
  return days <= policy.lowerDays ? policy.lowerDays : policy.defaultDays;
}
