/**
 * How far an entity's data has landed, from its partitions' commits
 * (src/subscriptions/scheduling/entity-watermark.ts): per partition, over all partitions, and the
 * idle-partition rule that keeps one empty partition from holding the others back.
 */
import { describe, expect, it } from "vitest";
import { EntityWatermark, type EndOffsetObservation } from "../../src/subscriptions/scheduling/entity-watermark.js";

/** An observation at wall second `second` of [low, high) offsets per partition. */
function ends(second: number, ...partitions: [number, number][]): EndOffsetObservation {
  return { observedAtMs: second * 1000, partitions: new Map(partitions.map(([low, high], partition) => [partition, { low: BigInt(low), high: BigInt(high) }])) };
}

/** Observations once a second from `from` to `to` (the broker answering without a gap). */
function answer(watermark: EntityWatermark, from: number, to: number, ...partitions: [number, number][]): void {
  for (let second = from; second <= to; second++) watermark.observe(ends(second, ...partitions));
}

describe("an entity's data watermark", () => {
  it("in partition mode, keeps each partition's latest commit time; a time going back is ignored", () => {
    const watermark = new EntityWatermark("partition", 30, 2);
    expect(watermark.landedSeconds(0)).toBeNull();
    watermark.commit(0, 10n, 970);
    watermark.commit(1, 4n, 960);
    watermark.commit(0, 12n, 965);
    expect(watermark.landedSeconds(0)).toBe(970);
    expect(watermark.landedSeconds(1)).toBe(960);
    expect(watermark.slowestSeconds()).toBe(960);
  });

  it("in global mode, gives the slowest partition's time, and nothing until every partition has committed", () => {
    const watermark = new EntityWatermark("global", 60, 3);
    watermark.commit(0, 5n, 100);
    watermark.commit(1, 5n, 120);
    expect(watermark.landedSeconds(0)).toBeNull();
    watermark.commit(2, 5n, 110);
    expect(watermark.landedSeconds(0)).toBe(100);
    expect(watermark.landedSeconds(2)).toBe(100);
    watermark.commit(0, 9n, 130);
    expect(watermark.landedSeconds(0)).toBe(110);
  });

  it("lets a caught-up partition advance to the latest time of any partition, never past the observation less the delay", () => {
    const delay = 10;
    const watermark = new EntityWatermark("global", delay, 2);
    watermark.commit(0, 50n, 1000);
    // Partition 1 has an old commit at its end offset: idle; partition 0 has data up to its end.
    watermark.commit(1, 7n, 400);
    expect(watermark.landedSeconds(0)).toBe(400);
    // The broker has answered for less than the delay: not trusted yet.
    answer(watermark, 1000, 1005, [0, 60], [0, 7]);
    expect(watermark.landedSeconds(0)).toBe(400);
    expect(watermark.idlePartitions()).toEqual([]);
    answer(watermark, 1006, 1010, [0, 60], [0, 7]);
    // Trusted: partition 1 advances to partition 0's time (1000), bounded by 1010 − 10 = 1000.
    expect(watermark.idlePartitions()).toEqual([1]);
    expect(watermark.landedSeconds(0)).toBe(1000);
    // Partition 0 moves on to 1015, but an idle partition stays behind the observation less the delay.
    watermark.commit(0, 60n, 1015);
    expect(watermark.landedSeconds(0)).toBe(1000);
    answer(watermark, 1011, 1020, [0, 60], [0, 7]);
    expect(watermark.landedSeconds(0)).toBe(1010);
    // Partition 0 not caught up (offset 60 of 70) only holds itself: it is not idle, and its own time leads.
    answer(watermark, 1021, 1030, [0, 70], [0, 7]);
    expect(watermark.idlePartitions()).toEqual([1]);
    expect(watermark.landedSeconds(0)).toBe(1015);
  });

  it("counts an empty partition as idle, and never one whose messages are not all written", () => {
    const watermark = new EntityWatermark("global", 0, 3);
    watermark.commit(0, 10n, 500);
    answer(watermark, 600, 600, [0, 12], [3, 3], [0, 5]);
    // Partition 1 holds nothing (low = high); partitions 0 and 2 have messages not yet written.
    expect(watermark.idlePartitions()).toEqual([1]);
    expect(watermark.landedSeconds(0)).toBeNull();
    watermark.commit(2, 4n, 520);
    expect(watermark.landedSeconds(0)).toBe(500);
    // Partition 0 writes its last two messages: caught up, it leads; partition 2 (4 of 5) holds the rest back.
    watermark.commit(0, 12n, 530);
    expect(watermark.idlePartitions()).toEqual([0, 1]);
    expect(watermark.landedSeconds(0)).toBe(520);
  });

  it("trusts no idle partition after a gap in the broker's answers until it has answered for the delay again", () => {
    const delay = 30;
    const watermark = new EntityWatermark("partition", delay, 2, 5000);
    watermark.commit(0, 100n, 2000);
    watermark.commit(1, 20n, 1990);
    answer(watermark, 2000, 2040, [0, 100], [0, 20]);
    expect(watermark.landedSeconds(1)).toBe(2000);
    // The broker paused: no answer from 2041 to 2190. Partition 0's consumer then writes its backlog up to 2100.
    // The last observation before the pause (2040) still bounds partition 1: 2040 − 30.
    watermark.commit(0, 400n, 2100);
    expect(watermark.landedSeconds(1)).toBe(2010);
    // Partition 1 looks caught up (its producer has not flushed yet), but the answers have just resumed.
    answer(watermark, 2191, 2200, [0, 400], [0, 20]);
    expect(watermark.landedSeconds(1)).toBe(2010);
    answer(watermark, 2201, 2221, [0, 400], [0, 20]);
    expect(watermark.landedSeconds(1)).toBe(2100);
    // A failed observation restarts the run as well (the one before it still bounds: 2221 − 30).
    watermark.commit(0, 500n, 2200);
    expect(watermark.landedSeconds(1)).toBe(2191);
    watermark.observationFailed();
    answer(watermark, 2222, 2240, [0, 500], [0, 20]);
    expect(watermark.landedSeconds(1)).toBe(2191);
    answer(watermark, 2241, 2252, [0, 500], [0, 20]);
    expect(watermark.landedSeconds(1)).toBe(2200);
  });

  it("follows a source topic that grew: global mode waits for the new partition", () => {
    const watermark = new EntityWatermark("global", 0, 1);
    watermark.commit(0, 5n, 100);
    expect(watermark.landedSeconds(0)).toBe(100);
    answer(watermark, 50, 50, [0, 9], [0, 3]);
    watermark.commit(0, 9n, 150);
    expect(watermark.landedSeconds(0)).toBe(100);
    watermark.commit(1, 3n, 140);
    expect(watermark.landedSeconds(0)).toBe(140);
  });

  it("refuses a source topic without partitions", () => {
    expect(() => new EntityWatermark("global", 0, 0)).toThrow(/at least one partition/);
  });
});
