/**
 * Ticks from commit-log lines as Snuba's scheduler forms them
 * (src/subscriptions/scheduling/commit-log-ticks.ts). The lines are the commit log's own encoding,
 * decoded as a reader does.
 */
import { describe, expect, it } from "vitest";
import { decodeCommitLogMessage, encodeCommitLogMessage } from "../../src/ingestion/commit-log-message.js";
import { CommitLogTickFormer, type CommitLogTick } from "../../src/subscriptions/scheduling/commit-log-ticks.js";

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
    // The latest commit counted is still the first: how far partition 0 has landed.
    expect(ticks.latest(0)).toEqual({ offset: 10n, upper: 500 });
    expect(ticks.latest(1)).toBeUndefined();
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
