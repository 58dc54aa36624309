/**
 * Each policy on its own, with a controlled clock: where it admits, throttles and refuses, what
 * it reports, and that cache hits and refused queries do not count.
 */
import { describe, expect, it } from "vitest";
import { admitQuery } from "../../src/allocation-policies/admit-query.js";
import { BytesScannedWindowAllocationPolicy } from "../../src/allocation-policies/bytes-scanned-window-policy.js";
import { ConcurrentRateLimitAllocationPolicy } from "../../src/allocation-policies/concurrent-rate-limit-policy.js";
import { PerSecondRateLimitAllocationPolicy } from "../../src/allocation-policies/per-second-rate-limit-policy.js";
import { PolicyRegistry } from "../../src/allocation-policies/policy-registry.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { defaultRegistry } from "../../src/datasets/registry.js";

const ORG_1 = { organization_id: 1, referrer: "test.api" };
const ORG_2 = { organization_id: 2, referrer: "test.api" };
const ran = { ranOnColumnstore: true, bytesScanned: 0 };
const cached = { ranOnColumnstore: false, bytesScanned: 0 };

function refusal(work: () => unknown): QueryServiceError {
  try {
    work();
  } catch (reason) {
    if (reason instanceof QueryServiceError) return reason;
    throw reason;
  }
  throw new Error("expected a refusal");
}

describe("ConcurrentRateLimitAllocationPolicy", () => {
  it("admits up to the limit per organization, refuses the next, and frees slots on settle", () => {
    const policy = new ConcurrentRateLimitAllocationPolicy("errors", { concurrent_limit: 2 });
    const first = admitQuery([policy], ORG_1, 0);
    admitQuery([policy], ORG_1, 0);
    const error = refusal(() => admitQuery([policy], ORG_1, 0));
    expect(error.type).toBe("rate-limited");
    expect(error.httpStatus).toBe(429);
    expect(error.message).toContain("ConcurrentRateLimitAllocationPolicy");
    expect(error.message).toContain("concurrent policy 3 exceeds limit of 2 for organization_id 1");
    const body = error.extra.quota_allowance as { summary: Record<string, unknown> };
    expect(body.summary).toMatchObject({
      is_successful: false,
      is_rejected: true,
      rejection_storage_key: "errors",
      quota_used: 3,
      quota_unit: "concurrent_queries",
      threads_used: 0,
    });
    // Another organization has its own count.
    expect(admitQuery([policy], ORG_2, 0).maxThreads).toBe(10);
    first.settle(ran);
    expect(admitQuery([policy], ORG_1, 0).quotaAllowance.summary.is_successful).toBe(true);
  });

  it("applies the smallest matching override, counted in its own bucket", () => {
    const policy = new ConcurrentRateLimitAllocationPolicy("errors", {
      concurrent_limit: 5,
      overrides: [{ referrer: "slow.report", limit: 1 }, { organization_id: 1, limit: 3 }],
    });
    admitQuery([policy], { organization_id: 1, referrer: "slow.report" }, 0);
    const error = refusal(() => admitQuery([policy], { organization_id: 1, referrer: "slow.report" }, 0));
    expect(error.message).toContain("limit of 1 for organization_id 1, referrer slow.report");
    // The referrer's bucket does not use up the organization's.
    for (let i = 0; i < 3; i++) admitQuery([policy], ORG_1, 0);
    expect(refusal(() => admitQuery([policy], ORG_1, 0)).message).toContain("limit of 3 for organization_id 1");
  });

  it("log-only (is_enforced: false) runs the query but reports what it would have done", () => {
    const policy = new ConcurrentRateLimitAllocationPolicy("errors", { concurrent_limit: 1, is_enforced: false, max_threads: 4 });
    admitQuery([policy], ORG_1, 0);
    const admission = admitQuery([policy], ORG_1, 0);
    const detail = admission.quotaAllowance.details.ConcurrentRateLimitAllocationPolicy!;
    expect(detail).toMatchObject({ can_run: true, max_threads: 4, quota_used: 2, rejection_threshold: 1 });
    expect(JSON.stringify(detail.explanation)).toContain("exceeds limit of 1");
  });

  it("an inactive policy is a pass-through", () => {
    const policy = new ConcurrentRateLimitAllocationPolicy("errors", { concurrent_limit: 1, is_active: false });
    for (let i = 0; i < 5; i++) admitQuery([policy], ORG_1, 0);
    expect(admitQuery([policy], ORG_1, 0).quotaAllowance.details.ConcurrentRateLimitAllocationPolicy!.quota_unit).toBe("no_units");
  });
});

describe("PerSecondRateLimitAllocationPolicy", () => {
  it("refuses past the limit within a second and admits again once the second slides", () => {
    const policy = new PerSecondRateLimitAllocationPolicy("errors", { per_second_limit: 3 });
    for (let i = 0; i < 3; i++) admitQuery([policy], ORG_1, 1000 + i * 100).settle(ran);
    const error = refusal(() => admitQuery([policy], ORG_1, 1300));
    expect(error.message).toContain("per-second policy 4 exceeds limit of 3 queries per second for organization_id 1");
    // The oldest start (t=1000) leaves the window at t=2000: Retry-After is 0.7 s.
    expect(error.extra.retry_after_seconds).toBeCloseTo(0.7, 5);
    expect(admitQuery([policy], ORG_1, 2001).quotaAllowance.summary.is_successful).toBe(true);
  });

  it("does not count cache hits", () => {
    const policy = new PerSecondRateLimitAllocationPolicy("errors", { per_second_limit: 2 });
    for (let i = 0; i < 10; i++) admitQuery([policy], ORG_1, 1000).settle(cached);
    admitQuery([policy], ORG_1, 1000).settle(ran);
    admitQuery([policy], ORG_1, 1000).settle(ran);
    expect(() => admitQuery([policy], ORG_1, 1000)).toThrow(/per-second policy 3 exceeds limit of 2/);
  });
});

describe("BytesScannedWindowAllocationPolicy", () => {
  it("throttles past the throttle threshold, refuses at the limit, and forgets bytes that left the window", () => {
    const now = Date.now();
    const policy = new BytesScannedWindowAllocationPolicy("errors", {
      org_limit_bytes_scanned: 1000,
      throttle_bytes_scanned: 500,
      throttled_thread_number: 2,
      window_seconds: 60,
    });
    admitQuery([policy], ORG_1, now).settle({ ranOnColumnstore: true, bytesScanned: 600 });
    const throttled = admitQuery([policy], ORG_1, now);
    expect(throttled.maxThreads).toBe(2);
    expect(throttled.quotaAllowance.summary).toMatchObject({ is_throttled: true, threads_used: 2, throttle_storage_key: "errors", quota_used: 600, quota_unit: "bytes" });
    throttled.settle({ ranOnColumnstore: true, bytesScanned: 500 });
    const error = refusal(() => admitQuery([policy], ORG_1, now));
    expect(error.message).toContain("BytesScannedWindowAllocationPolicy");
    expect(error.message).toContain("bytes scanned 1100 in the last 60 s reached the limit of 1000 bytes for organization_id 1");
    expect(error.extra.retry_after_seconds).toBeGreaterThan(59);
    expect(error.extra.retry_after_seconds).toBeLessThanOrEqual(61);
    expect(admitQuery([policy], ORG_2, now).maxThreads).toBe(10);
    // 61 s later the window is empty again.
    expect(admitQuery([policy], ORG_1, now + 61_000).quotaAllowance.summary).toMatchObject({ is_throttled: false, threads_used: 10 });
  });
});

describe("policy state stays bounded", () => {
  it("sweeps windows of quiet tenants without losing the charge of a query still running", () => {
    const now = Date.now();
    const policy = new BytesScannedWindowAllocationPolicy("errors", { org_limit_bytes_scanned: 1e9 });
    const running = admitQuery([policy], ORG_1, now);
    // Thousands of one-off tenants trigger a sweep, which drops every empty window (ORG_1's too).
    for (let org = 100; org < 100 + 5000; org++) admitQuery([policy], { organization_id: org, referrer: "r" }, now);
    running.settle({ ranOnColumnstore: true, bytesScanned: 1234 });
    expect(policy.usedBy("organization_id=1", now)).toBe(1234);
  });

  it("a quiet server keeps no window of the tenants its last burst saw once they count nothing", () => {
    const registry = new PolicyRegistry();
    const policies = registry.forStorage(defaultRegistry().storage("errors")!);
    const perSecond = policies.find((p) => p instanceof PerSecondRateLimitAllocationPolicy) as PerSecondRateLimitAllocationPolicy;
    const bytes = policies.find((p) => p instanceof BytesScannedWindowAllocationPolicy) as BytesScannedWindowAllocationPolicy;
    const now = Date.now();
    // A burst of one-off organizations (a fuzzer, a caller with a new id per query), each scanning a little.
    for (let org = 100; org < 100 + 3000; org++) admitQuery(policies, { organization_id: org, referrer: "r" }, now).settle({ ranOnColumnstore: true, bytesScanned: 10 });
    expect(perSecond.tenants).toBe(3000);
    expect(bytes.tenants).toBe(3000);
    // Then nothing: no admission comes to sweep. The backend's timer asks the registry instead.
    registry.sweep(now + 11_000);
    expect(perSecond.tenants).toBe(0); // a second after their start, nothing counts
    expect(bytes.tenants).toBe(3000); // their bytes are still in the 10-minute window
    expect(bytes.usedBy("organization_id=100", now + 11_000)).toBe(10);
    registry.sweep(now + 611_000);
    expect(bytes.tenants).toBe(0);
  });

  it("a slow trickle of new tenants is swept too, not only a burst of thousands", () => {
    const policy = new PerSecondRateLimitAllocationPolicy("errors", {});
    const start = Date.now();
    // One new organization a second for ten minutes: far fewer admissions than a count-based sweep waits for.
    for (let second = 0; second < 600; second++) admitQuery([policy], { organization_id: 1000 + second, referrer: "r" }, start + second * 1000).settle(ran);
    expect(policy.tenants).toBeLessThanOrEqual(12);
  });

  it("a query that scanned nothing leaves no bytes window behind", () => {
    const policy = new BytesScannedWindowAllocationPolicy("errors", { org_limit_bytes_scanned: 1e9 });
    const now = Date.now();
    for (let org = 100; org < 200; org++) admitQuery([policy], { organization_id: org, referrer: "r" }, now).settle({ ranOnColumnstore: true, bytesScanned: 0 });
    admitQuery([policy], ORG_1, now).settle(cached);
    expect(policy.tenants).toBe(0);
    admitQuery([policy], ORG_1, now).settle({ ranOnColumnstore: true, bytesScanned: 5 });
    admitQuery([policy], ORG_1, now).settle({ ranOnColumnstore: true, bytesScanned: 7 });
    expect(policy.tenants).toBe(1);
    expect(policy.usedBy("organization_id=1", now)).toBe(12);
  });
});

describe("admission across policies", () => {
  it("stops at the first refusal and gives earlier policies their slot back", () => {
    const concurrent = new ConcurrentRateLimitAllocationPolicy("errors", { concurrent_limit: 1 });
    const perSecond = new PerSecondRateLimitAllocationPolicy("errors", { per_second_limit: 1 });
    admitQuery([concurrent, perSecond], ORG_1, 0).settle(ran);
    const error = refusal(() => admitQuery([concurrent, perSecond], ORG_1, 10));
    const body = error.extra.quota_allowance as { details: Record<string, unknown>; summary: { rejected_by: Record<string, unknown> } };
    expect(Object.keys(body.details)).toEqual(["ConcurrentRateLimitAllocationPolicy", "PerSecondRateLimitAllocationPolicy"]);
    expect(body.summary.rejected_by).toMatchObject({ policy: "PerSecondRateLimitAllocationPolicy", quota_unit: "queries_per_second", rejection_threshold: 1 });
    // The concurrency slot taken before the refusal was released.
    expect(concurrent.runningIn("organization_id=1")).toBe(0);
  });

  it("the shipped storages carry Snuba's defaults: 22 concurrent, 50 per second, enforced", () => {
    const registry = new PolicyRegistry();
    const policies = registry.forStorage(defaultRegistry().storage("errors")!);
    expect(policies.map((p) => p.name)).toEqual([
      "ConcurrentRateLimitAllocationPolicy",
      "PerSecondRateLimitAllocationPolicy",
      "BytesScannedWindowAllocationPolicy",
    ]);
    for (let i = 0; i < 22; i++) admitQuery(policies, { organization_id: 9, referrer: `r${i}` }, 0);
    expect(() => admitQuery(policies, { organization_id: 9, referrer: "r" }, 0)).toThrow(/limit of 22 for organization_id 9/);
  });

  it("refuses invalid runtime overrides naming the policy and field", () => {
    expect(() => new PolicyRegistry({ ConcurrentRateLimitAllocationPolicy: { concurrent_limit: -5 } })).toThrow(/ConcurrentRateLimitAllocationPolicy.concurrent_limit: must be >= 1/);
    expect(() => new PolicyRegistry({ NoSuchPolicy: {} })).toThrow(/unknown policy 'NoSuchPolicy'/);
  });
});
