/**
 * The audit's arithmetic: which windows a subscription owes (creation, deletion, jitter), what
 * counts as missing, duplicated (and from a fenced owner) or unexpected, and the lag quantiles.
 */
import { describe, expect, it } from "vitest";
import { auditSubscriptions, formatAuditReport, type PublishedResult } from "../../src/subscriptions/audit/audit.js";
import { parseResultMessage } from "../../src/subscriptions/audit/audit-sources.js";
import { jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import type { Subscription } from "../../src/subscriptions/store/subscription.js";

const T0 = Date.parse("2026-11-24T10:00:00Z") / 1000;

function subscription(uuid: string, createdAt: number, resolution = 60): Subscription {
  return {
    id: `3/${uuid}`,
    dataset: "events",
    entity: "events",
    partition: 3,
    uuid,
    projectId: 1,
    timeWindow: 3600,
    resolution,
    type: "snql",
    query: "MATCH (events) SELECT count() AS count",
    organizationId: 1,
    createdAt,
  };
}

const result = (id: string, windowEnd: number, lag: number, epoch = 1): PublishedResult => ({ subscriptionId: id, windowEnd, publishedAtMs: (windowEnd + lag) * 1000, epoch, topic: "events-subscription-results" });

describe("subscription audit", () => {
  const a = subscription("0".repeat(31) + "a", (T0 - 30) * 1000); // jitter 10
  const b = subscription("0".repeat(32), (T0 + 90) * 1000); // jitter 0, created mid-range

  it("counts expected, missing, duplicated (fenced) and unexpected windows", () => {
    expect(jitterSeconds(a)).toBe(10);
    const results = [
      result(a.id, T0, 12),
      result(a.id, T0 + 60, 11, 1),
      result(a.id, T0 + 60, 14, 2), // a duplicate: the epoch-1 copy is a fenced owner's
      // T0 + 120 missing for a
      result(a.id, T0 + 180, 13),
      result(b.id, T0 + 120, 3),
      result(b.id, T0 + 180, 4),
      result(b.id, T0 + 60, 4), // before b fired for the first time: unexpected
      result("9/unknown", T0, 1),
      result(a.id, T0 + 240, 1), // outside [from, to): ignored
    ];
    const report = auditSubscriptions({ fromSecond: T0, toSecond: T0 + 240, records: [{ subscription: a, deletedAt: null }, { subscription: b, deletedAt: null }], results, delayFor: () => 2 });
    const byId = new Map(report.subscriptions.map((s) => [s.id, s]));
    expect(byId.get(a.id)).toMatchObject({ expected: 4, published: 3, missing: [T0 + 120] });
    expect(byId.get(a.id)!.duplicated).toEqual([{ windowEnd: T0 + 60, copies: 2, epochs: [1, 2] }]);
    expect(byId.get(b.id)).toMatchObject({ expected: 2, published: 2, missing: [] });
    expect(report.totals).toEqual({ subscriptions: 2, expected: 6, published: 5, missing: 1, duplicates: 1, fencedDuplicates: 1, unexpected: 2 });
    expect(report.lag).toMatchObject({ count: 5, p50: 11, max: 13 });
    const text = formatAuditReport(report);
    expect(text).toMatch(/MISSING 1: 2026-11-24T10:02:00Z/);
    expect(text).toMatch(/FAILED: 1 window\(s\) missing/);
  });

  it("owes a deleted subscription only the windows that came due well before the delete", () => {
    const deletedAt = (T0 + 130 + 20) * 1000; // T0+120 fires at +130: due at +132, deleted 18 s later
    const report = auditSubscriptions({
      fromSecond: T0,
      toSecond: T0 + 600,
      records: [{ subscription: a, deletedAt }],
      results: [result(a.id, T0, 12), result(a.id, T0 + 60, 12)],
      delayFor: () => 2,
    });
    // T0 and T0+60 are owed; T0+120 came due 18 s before the delete (grace 15 s): owed too, and missing.
    expect(report.subscriptions[0]).toMatchObject({ expected: 3, missing: [T0 + 120] });
    const lenient = auditSubscriptions({
      fromSecond: T0,
      toSecond: T0 + 600,
      records: [{ subscription: a, deletedAt: (T0 + 140) * 1000 }],
      results: [result(a.id, T0, 12), result(a.id, T0 + 60, 12), result(a.id, T0 + 120, 12)],
      delayFor: () => 2,
    });
    // Deleted 8 s after T0+120 came due: that window may or may not have run; either is fine.
    expect(lenient.subscriptions[0]).toMatchObject({ expected: 2, published: 3, missing: [] });
    expect(lenient.totals.unexpected).toBe(0);
  });

  it("reads a result message with and without the lease epoch header, and skips what is not one", () => {
    const value = Buffer.from(JSON.stringify({ version: 3, payload: { subscription_id: a.id, timestamp: "2026-11-24T10:01:00", request: {}, result: {}, entity: "events" } }));
    expect(parseResultMessage("t", value, String((T0 + 75) * 1000), { "quarry-lease-epoch": Buffer.from("7") })).toEqual({
      subscriptionId: a.id,
      windowEnd: T0 + 60,
      publishedAtMs: (T0 + 75) * 1000,
      epoch: 7,
      topic: "t",
    });
    expect(parseResultMessage("t", value, "0", undefined)?.epoch).toBe(0);
    expect(parseResultMessage("t", Buffer.from("not json"), "0", undefined)).toBeNull();
    expect(parseResultMessage("t", Buffer.from("{\"payload\":{}}"), "0", undefined)).toBeNull();
    expect(parseResultMessage("t", null, "0", undefined)).toBeNull();
  });
});
