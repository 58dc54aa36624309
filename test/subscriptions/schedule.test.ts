import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { partitionFor } from "../../src/subscriptions/scheduling/partitioner.js";
import { countWindows, dueWindows, jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";

// Expected values computed with Python's binascii.crc32 and uuid.UUID(hex).int, as Snuba does.

describe("partitionFor (crc32 of the decimal project id, as Snuba)", () => {
  it.each([
    [1, 16, 7],
    [2, 16, 13],
    [3, 16, 11],
    [42, 16, 8],
    [1234567, 16, 15],
    [4551586472787969, 16, 3],
    [1, 64, 55],
    [3, 64, 27],
  ])("project %d over %d partitions -> %d", (project, partitions, expected) => {
    expect(partitionFor(project, partitions)).toBe(expected);
  });
});

describe("jitterSeconds", () => {
  it("is uuid.int % 60 for resolution 60 (Snuba's jittered builder)", () => {
    expect(jitterSeconds({ uuid: "73fb573ac29811ed8dbb0242ac120006", resolution: 60 })).toBe(38);
    expect(jitterSeconds({ uuid: "ffffffffffffffffffffffffffffffff", resolution: 60 })).toBe(15);
    expect(jitterSeconds({ uuid: "00000000000000000000000000000000", resolution: 60 })).toBe(0);
  });

  it("is 0 above resolution 60", () => {
    expect(jitterSeconds({ uuid: "73fb573ac29811ed8dbb0242ac120006", resolution: 120 })).toBe(0);
    expect(jitterSeconds({ uuid: "ffffffffffffffffffffffffffffffff", resolution: 3600 })).toBe(0);
  });
});

describe("dueWindows", () => {
  const base = { uuid: "73fb573ac29811ed8dbb0242ac120006", createdAt: 0 };

  it("fires at T + jitter and keeps T aligned to the resolution", () => {
    const windows = dueWindows({ ...base, resolution: 60 }, 1_700_000_000, 1_700_000_180);
    expect(windows.map((w) => w.firesAt - w.windowEnd)).toEqual([38, 38, 38]);
    for (const w of windows) expect(w.windowEnd % 60).toBe(0);
    expect(windows[0]!.firesAt).toBeGreaterThanOrEqual(1_700_000_000);
  });

  it("starts at the creation second", () => {
    const createdAt = 1_700_000_030_500; // ms: the first firing second is ...031
    const windows = dueWindows({ uuid: "0".repeat(32), resolution: 60, createdAt }, 1_699_999_000, 1_700_000_200);
    expect(windows.map((w) => w.windowEnd)).toEqual([1_700_000_040, 1_700_000_100, 1_700_000_160]);
  });

  it("counts what it lists, and every window fires inside the range exactly once", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(60, 120, 300, 900, 3600, 86400),
        fc.stringMatching(/^[0-9a-f]{32}$/),
        fc.integer({ min: 1_600_000_000, max: 1_800_000_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        (resolution, uuid, from, length, split, createdOffset) => {
          const subscription = { uuid, resolution, createdAt: (from + createdOffset) * 1000 };
          const to = from + length;
          const windows = dueWindows(subscription, from, to);
          expect(countWindows(subscription, from, to)).toBe(windows.length);
          const jitter = jitterSeconds(subscription);
          for (const w of windows) {
            expect(w.windowEnd % resolution).toBe(0);
            expect(w.firesAt).toBe(w.windowEnd + jitter);
            expect(w.firesAt).toBeGreaterThanOrEqual(Math.max(from, Math.ceil(subscription.createdAt / 1000)));
            expect(w.firesAt).toBeLessThan(to);
          }
          // Two adjacent ranges list the same windows as their union.
          const middle = from + Math.min(split, length);
          const halves = [...dueWindows(subscription, from, middle), ...dueWindows(subscription, middle, to)];
          expect(halves).toEqual(windows);
        },
      ),
    );
  });
});
