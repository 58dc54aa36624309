/**
 * The audit's recount without a broker: how a published result is compared with its recount
 * (exactly, rows in any order, 64-bit integers exact whichever wire carried them), how the
 * report prints and judges it, and what a recount reports when the query node does not answer.
 * The recount against a real `quarry serve` is audit-recount-serve.test.ts.
 */
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/test-services/free-port.js";
import { runAuditCommand } from "../../src/cli/audit-command.js";
import { readSettings } from "../../src/config/settings.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { auditPassed, auditSubscriptions, formatAuditReport, type PublishedResult } from "../../src/subscriptions/audit/audit.js";
import { parseResultMessage } from "../../src/subscriptions/audit/audit-sources.js";
import { parseJsonLosslessly } from "../../src/subscriptions/audit/lossless-json.js";
import { compareWindowRows, type WindowRows } from "../../src/subscriptions/audit/recount-comparison.js";
import type { RecountReport } from "../../src/subscriptions/audit/recount-report.js";
import { queryNodeRecounter, recountPublishedResults } from "../../src/subscriptions/audit/recount.js";
import type { Subscription } from "../../src/subscriptions/store/subscription.js";

const T0 = Date.parse("2026-11-24T10:00:00Z") / 1000;
/** 2^64 − 1: no double holds it (Number() of it is 2^64). */
const MAX_UINT64 = "18446744073709551615";

function subscription(uuid: string): Subscription {
  return {
    id: `3/${uuid}`,
    dataset: "events",
    entity: "events",
    partition: 3,
    uuid,
    projectId: 1,
    timeWindow: 60,
    resolution: 60,
    type: "snql",
    query: "MATCH (events) SELECT count() AS count",
    organizationId: 1,
    createdAt: (T0 - 600) * 1000,
  };
}

/** A result message as the publisher writes it, read back as the audit reads it. */
function published(id: string, windowEnd: number, resultJson: string, epoch = 0): PublishedResult {
  const timestamp = new Date(windowEnd * 1000).toISOString().slice(0, 19);
  const value = `{"version":3,"payload":{"subscription_id":${JSON.stringify(id)},"request":{},"result":${resultJson},"timestamp":"${timestamp}","entity":"events"}}`;
  const parsed = parseResultMessage("events-subscription-results", Buffer.from(value), String((windowEnd + 5) * 1000), epoch ? { "quarry-lease-epoch": Buffer.from(String(epoch)) } : undefined);
  if (!parsed) throw new Error("the test's message did not parse");
  return parsed;
}

const rows = (data: unknown[], meta: WindowRows["meta"] = []): WindowRows => ({ data, meta });

describe("reading a published result losslessly", () => {
  it("keeps integers beyond 2^53 exact as BigInt, and everything else as JSON.parse reads it", () => {
    expect(parseJsonLosslessly(`{"a":[${MAX_UINT64},-9007199254740993,9007199254740991,1.5e300,0.1,100.0],"s":"12345678901234567890 \\" ${MAX_UINT64}","z":"\\u0000"}`)).toEqual({
      a: [18446744073709551615n, -9007199254740993n, 9007199254740991, 1.5e300, 0.1, 100],
      s: `12345678901234567890 " ${MAX_UINT64}`,
      z: "\u0000",
    });
    expect(() => parseJsonLosslessly("{not json")).toThrow(/position/);
  });

  it("keeps a message's result rows and columns for the recount", () => {
    const result = published("3/a", T0, `{"data":[{"count":${MAX_UINT64}}],"meta":[{"name":"count","type":"UInt64"}]}`, 4);
    expect(result).toMatchObject({ subscriptionId: "3/a", windowEnd: T0, epoch: 4, result: { data: [{ count: 18446744073709551615n }], meta: [{ name: "count", type: "UInt64" }] } });
    expect(published("3/a", T0, "{}").result).toBeUndefined();
    expect(parseResultMessage("t", Buffer.from("null"), "0", undefined)).toBeNull();
  });
});

describe("comparing a published result with its recount", () => {
  const meta = [
    { name: "project_id", type: "UInt64" },
    { name: "count", type: "UInt64" },
  ];

  it("is equal for the same rows, whatever their order and the order of their keys", () => {
    const comparison = compareWindowRows(
      rows([{ project_id: 1, count: 3 }, { project_id: 2, count: 5 }], meta),
      rows([{ count: 5, project_id: 2 }, { count: 3, project_id: 1 }], meta),
    );
    expect(comparison.equal).toBe(true);
    expect(compareWindowRows(rows([]), rows([])).equal).toBe(true);
  });

  it("differs for a changed value, a missing or an extra row, and shows both sides", () => {
    const comparison = compareWindowRows(rows([{ count: 3 }], meta), rows([{ count: 4 }], meta));
    expect(comparison).toEqual({ equal: false, published: [{ count: 3 }], recounted: [{ count: 4 }] });
    expect(compareWindowRows(rows([{ count: 3 }], meta), rows([], meta)).equal).toBe(false);
    expect(compareWindowRows(rows([{ count: 3 }], meta), rows([{ count: 3 }, { count: 3 }], meta)).equal).toBe(false);
    expect(compareWindowRows(rows([{ count: 3 }]), rows([{ count: 3, extra: null }])).equal).toBe(false);
  });

  it("compares floats exactly, and a number is never equal to the string of it outside a 64-bit column", () => {
    expect(compareWindowRows(rows([{ avg: 0.1 + 0.2 }]), rows([{ avg: 0.3 }])).equal).toBe(false);
    expect(compareWindowRows(rows([{ avg: 0.1 + 0.2 }]), rows([{ avg: 0.30000000000000004 }])).equal).toBe(true);
    expect(compareWindowRows(rows([{ name: "1" }], [{ name: "name", type: "String" }]), rows([{ name: 1 }], [{ name: "name", type: "String" }])).equal).toBe(false);
  });

  it("holds a 64-bit integer exact: published as a bare number, recounted over Connect as a string", () => {
    const publishedMax = published("3/a", T0, `{"data":[{"count":${MAX_UINT64}}],"meta":[{"name":"count","type":"UInt64"}]}`).result!;
    // The query node's Connect answer carries an integer beyond 2^53 as a string.
    expect(compareWindowRows(publishedMax, rows([{ count: MAX_UINT64 }], [{ name: "count", type: "UInt64" }])).equal).toBe(true);
    // One less: a double cannot tell the two apart, the comparison does.
    const oneLess = "18446744073709551614";
    expect(Number(oneLess)).toBe(Number(MAX_UINT64));
    const comparison = compareWindowRows(publishedMax, rows([{ count: oneLess }], [{ name: "count", type: "UInt64" }]));
    expect(comparison.equal).toBe(false);
    expect(comparison.recounted).toEqual([{ count: 18446744073709551614n }]);
    // Nullable and LowCardinality wrappers, and arrays of 64-bit integers, the same.
    expect(
      compareWindowRows(
        rows([{ ids: [1, 18446744073709551615n], n: null }], [{ name: "ids", type: "Array(UInt64)" }, { name: "n", type: "Nullable(Int64)" }]),
        rows([{ ids: [1, MAX_UINT64], n: null }], [{ name: "ids", type: "Array(UInt64)" }, { name: "n", type: "Nullable(Int64)" }]),
      ).equal,
    ).toBe(true);
  });
});

describe("the audit report with a recount", () => {
  const a = subscription("0".repeat(32));
  const base = auditSubscriptions({ fromSecond: T0, toSecond: T0 + 120, records: [{ subscription: a, deletedAt: null }], results: [published(a.id, T0, "{}"), published(a.id, T0 + 60, "{}")], delayFor: () => 0 });
  const recount = (overrides: Partial<RecountReport>): RecountReport => ({ windows: 2, copies: 2, equal: 2, differing: 0, errors: 0, notInStore: 0, differences: [], failures: [], ...overrides });

  it("passes only when no window is missing and every result equals its recount", () => {
    expect(base.totals.missing).toBe(0);
    expect(auditPassed(base)).toBe(true);
    const equal = { ...base, recount: recount({}) };
    expect(auditPassed(equal)).toBe(true);
    expect(formatAuditReport(equal)).toContain("recount: windows 2  copies compared 2  equal 2  differing 0  recount errors 0  not in the store 0");
    expect(formatAuditReport(equal)).toMatch(/OK: no window missing, every published result equals its recount\n$/);

    const differing = {
      ...base,
      recount: recount({
        equal: 1,
        differing: 1,
        errors: 1,
        differences: [{ subscriptionId: a.id, windowEnd: T0 + 60, epoch: 2, published: [{ count: 0 }], recounted: [{ count: 18446744073709551615n }] }],
        failures: [{ subscriptionId: a.id, windowEnd: T0, type: "rate-limited", message: "too many queries" }],
      }),
    };
    expect(auditPassed(differing)).toBe(false);
    const text = formatAuditReport(differing);
    expect(text).toContain(`DIFFERS ${a.id} 2026-11-24T10:01:00Z (lease epoch 2): published [{"count":0}]  recounted [{"count":${MAX_UINT64}}]`);
    expect(text).toContain(`RECOUNT ERROR ${a.id} 2026-11-24T10:00:00Z: rate-limited: too many queries`);
    expect(text).toMatch(/FAILED: 1 published result\(s\) differ from their recount, 1 window\(s\) could not be recounted\n$/);
  });
});

describe("recounting when the query node does not answer", () => {
  it("reports each window's recount as a typed error, skips results outside the range, and counts those of unknown subscriptions apart", async () => {
    const port = await freePort(); // nothing listens there
    const a = subscription("0".repeat(32));
    const results = [
      published(a.id, T0, `{"data":[{"count":1}],"meta":[]}`, 1),
      published(a.id, T0, `{"data":[{"count":1}],"meta":[]}`, 2), // a duplicate: one recount for both copies
      published(a.id, T0 + 60, `{"data":[{"count":1}],"meta":[]}`),
      published(a.id, T0 + 120, `{"data":[{"count":1}],"meta":[]}`), // at `to`: outside the range
      published("9/unknown", T0, `{"data":[],"meta":[]}`),
    ];
    const report = await recountPublishedResults({
      fromSecond: T0,
      toSecond: T0 + 120,
      records: [{ subscription: a, deletedAt: null }],
      results,
      recounter: queryNodeRecounter(`http://127.0.0.1:${port}`, 2),
      concurrency: 2,
    });
    expect(report).toMatchObject({ windows: 2, copies: 0, equal: 0, differing: 0, errors: 2, notInStore: 1, differences: [] });
    expect(report.failures.map((f) => [f.subscriptionId, f.windowEnd, f.type])).toEqual([
      [a.id, T0, "storage-not-available"],
      [a.id, T0 + 60, "storage-not-available"],
    ]);
    expect(report.failures[0]!.message).toContain(`query node http://127.0.0.1:${port} did not answer`);
  });
});

describe("the audit command's recount flags", () => {
  const run = (args: Partial<Parameters<typeof runAuditCommand>[2]>) =>
    runAuditCommand(readSettings({ KAFKA_BROKERS: "" }), defaultRegistry(), { from: "2026-11-24T10:00:00Z", to: "2026-11-24T10:05:00Z", json: false, ...args }, () => {}, () => {});

  it("refuses a concurrency that is not an integer from 1 to 256, or one given without --recount, before reading anything", async () => {
    for (const bad of ["0", "-1", "2.5", "eight", "257", ""]) {
      await expect(run({ recount: true, recountConcurrency: bad })).rejects.toThrow(`--recount-concurrency must be an integer from 1 to 256, got '${bad}'`);
    }
    await expect(run({ recountConcurrency: "4" })).rejects.toThrow("--recount-concurrency needs --recount");
    // A valid one gets as far as the settings check.
    await expect(run({ recount: true, recountConcurrency: "4" })).rejects.toThrow("KAFKA_BROKERS is not set");
  });
});
