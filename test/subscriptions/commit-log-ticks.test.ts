/**
 * Ticks from commit-log lines as Snuba's scheduler forms them, and the global watermark that
 * orders them across partitions (src/subscriptions/scheduling/commit-log-ticks.ts and
 * global-tick-buffer.ts). The lines are the commit log's own encoding, decoded as a reader does.
 */
import { describe, expect, it } from "vitest";
import { decodeCommitLogMessage, encodeCommitLogMessage } from "../../src/ingestion/commit-log-message.js";
import { CommitLogTickFormer, type CommitLogTick } from "../../src/subscriptions/scheduling/commit-log-ticks.js";
import { GlobalTickBuffer } from "../../src/subscriptions/scheduling/global-tick-buffer.js";

function line(partition: number, offset: number, origSeconds: number, receivedP99: number | null = null, group = "snuba-consumers", topic = "events") {
  const encoded = encodeCommitLogMessage({
    topic,
    partition,
    group,
    offset: BigInt(offset),
    origMessageTsMs: origSeconds * 1000,
    // One origin time: its p99 is itself.
    originTimestamps: receivedP99 === null ? [] : [receivedP99],
  });
  return decodeCommitLogMessage(encoded.key, encoded.value);
}

const former = (synchronization: "orig_message_ts" | "received_p99" = "orig_message_ts", delaySeconds = 30) =>
  new CommitLogTickFormer({ group: "snuba-consumers", topic: "events", synchronization, delaySeconds });

function tick(partition: number, lower: number, upper: number, from: number, to: number): CommitLogTick {
  return { partition, offsets: { lower: BigInt(lower), upper: BigInt(upper) }, timestamps: { lower: from, upper: to } };
}

describe("ticks from the commit log", () => {
  it("forms a tick from two consecutive commits of a partition, moved back by the delay; the first commit opens none", () => {
    const ticks = former();
    expect(ticks.add(line(0, 100, 1000))).toBeNull();
    expect(ticks.add(line(1, 7, 1001))).toBeNull();
    expect(ticks.add(line(0, 150, 1002.5))).toEqual(tick(0, 100, 150, 970, 972.5));
    expect(ticks.add(line(0, 180, 1004))).toEqual(tick(0, 150, 180, 972.5, 974));
    expect(ticks.add(line(1, 9, 1004))).toEqual(tick(1, 7, 9, 971, 974));
  });

  it("follows received_p99 where the storage says so, and the broker's time where a line has none", () => {
    const ticks = former("received_p99", 0);
    ticks.add(line(0, 10, 2000, 1990));
    expect(ticks.add(line(0, 20, 2005, 1995))).toEqual(tick(0, 10, 20, 1990, 1995));
    expect(ticks.add(line(0, 30, 2010, null))).toEqual(tick(0, 20, 30, 1995, 2010));
  });

  it("ignores other groups and topics, and drops a commit whose time goes back, keeping the previous one as the start", () => {
    const ticks = former("orig_message_ts", 0);
    ticks.add(line(0, 10, 500));
    expect(ticks.add(line(0, 20, 510, null, "another-group"))).toBeNull();
    expect(ticks.add(line(0, 20, 510, null, "snuba-consumers", "transactions"))).toBeNull();
    expect(ticks.add(line(0, 20, 499))).toBeNull();
    expect(ticks.invalidIntervals).toBe(1);
    expect(ticks.add(line(0, 30, 520))).toEqual(tick(0, 10, 30, 500, 520));
  });

  it("opens no tick after a reset until each partition has committed again", () => {
    const ticks = former("orig_message_ts", 0);
    ticks.add(line(0, 10, 500));
    ticks.reset();
    expect(ticks.add(line(0, 20, 510))).toBeNull();
    expect(ticks.add(line(0, 25, 515))).toEqual(tick(0, 20, 25, 510, 515));
  });
});

describe("the global watermark", () => {
  it("releases ticks only once every partition has one, lowest upper time first, ties together", () => {
    const buffer = new GlobalTickBuffer(3);
    expect(buffer.push(tick(0, 0, 5, 0, 10))).toEqual([]);
    expect(buffer.push(tick(0, 5, 9, 10, 20))).toEqual([]);
    expect(buffer.push(tick(1, 0, 3, 0, 10))).toEqual([]);
    expect(buffer.held()).toEqual([2, 1, 0]);
    // Partition 2 reaches 15: the ticks up to 10 of partitions 0 and 1 go, then partition 2's.
    expect(buffer.push(tick(2, 0, 4, 0, 15))).toEqual([tick(0, 0, 5, 0, 10), tick(1, 0, 3, 0, 10)]);
    expect(buffer.held()).toEqual([1, 0, 1]);
    // Partition 1 reaches 30: partition 2's tick to 15 goes; partition 0's to 20 waits for partition 2 again.
    expect(buffer.push(tick(1, 3, 8, 10, 30))).toEqual([tick(2, 0, 4, 0, 15)]);
    expect(buffer.held()).toEqual([1, 1, 0]);
    expect(buffer.push(tick(2, 4, 6, 15, 25))).toEqual([tick(0, 5, 9, 10, 20)]);
  });

  it("lets a partition over its bound release its oldest tick without the others (a stalled partition holds them back only so far)", () => {
    const buffer = new GlobalTickBuffer(2, 2);
    expect(buffer.push(tick(0, 0, 1, 0, 1))).toEqual([]);
    expect(buffer.push(tick(0, 1, 2, 1, 2))).toEqual([]);
    expect(buffer.push(tick(0, 2, 3, 2, 3))).toEqual([tick(0, 0, 1, 0, 1)]);
    expect(buffer.held()).toEqual([2, 0]);
  });

  it("releases at once with one partition or no buffering, and refuses a partition it does not follow", () => {
    expect(new GlobalTickBuffer(1).push(tick(0, 0, 1, 0, 1))).toEqual([tick(0, 0, 1, 0, 1)]);
    expect(new GlobalTickBuffer(4, 0).push(tick(3, 0, 1, 0, 1))).toEqual([tick(3, 0, 1, 0, 1)]);
    expect(() => new GlobalTickBuffer(2).push(tick(2, 0, 1, 0, 1))).toThrow(/partition 2, but the buffer follows partitions 0-1/);
    expect(() => new GlobalTickBuffer(0)).toThrow(/at least one partition/);
  });
});
