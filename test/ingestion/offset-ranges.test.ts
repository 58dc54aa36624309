/**
 * How a partition's messages form ranges, without a broker: ranges start where reading resumed,
 * a `pending:<end>` commit fixes the first range's end whatever the batching says, and the
 * names that make a replay a no-op (the INSERT token, the pending metadata) are stable.
 */
import type { KafkaMessage } from "kafkajs";
import { describe, expect, it } from "vitest";
import { deadLetterMessage } from "../../src/ingestion/dead-letter-message.js";
import { processMessage } from "../../src/ingestion/message-outcome.js";
import { PartitionState } from "../../src/ingestion/partition-state.js";
import { partToken, pendingEnd, pendingMetadata, rangeToken } from "../../src/ingestion/range-token.js";
import { testProcessor } from "./consumer-fixture.js";

function raw(offset: number, value = JSON.stringify({ id: offset, n: 1 }), headers: KafkaMessage["headers"] = {}): KafkaMessage {
  return { key: Buffer.from(`k${offset}`), value: Buffer.from(value), timestamp: String(1_700_000_000_000 + offset), attributes: 0, offset: String(offset), headers };
}

function take(state: PartitionState, offsets: readonly number[]): void {
  for (const offset of offsets) state.take(processMessage(testProcessor, "t", 0, raw(offset), false), 1_700_000_000_000 + offset, 0);
}

const bounds = (state: PartitionState) => state.closed.map((range) => [range.start, range.end, range.sealedBy]);

describe("offset ranges", () => {
  it("start at the committed offset and run on from each other's end, across gaps in the offsets", () => {
    const state = new PartitionState(0, 1);
    state.resumeFrom(10n, null);
    take(state, [12, 13]);
    expect(state.closeOpen("time")).toBe(true);
    take(state, [17]);
    state.closeOpen("rows");
    expect(bounds(state)).toEqual([
      [10n, 13n, "time"],
      [14n, 17n, "rows"],
    ]);
    // Nothing committed: the first message read starts the first range.
    const fresh = new PartitionState(1, 1);
    fresh.resumeFrom(null, null);
    take(fresh, [5, 6]);
    fresh.closeOpen("time");
    expect(bounds(fresh)).toEqual([[5n, 6n, "time"]]);
  });

  it("form the pending range again exactly: not closed early by the batching, closed at its end, or past it when its last messages are gone", () => {
    const state = new PartitionState(0, 1);
    state.resumeFrom(100n, pendingEnd(pendingMetadata(104n)));
    take(state, [100, 101, 102]);
    expect(state.closeOpen("rows")).toBe(false);
    take(state, [103, 104, 105]);
    state.closeOpen("time");
    expect(bounds(state)).toEqual([
      [100n, 104n, "replay"],
      [105n, 105n, "time"],
    ]);

    const compacted = new PartitionState(0, 1);
    compacted.resumeFrom(100n, 104n);
    take(compacted, [100, 102, 107]);
    compacted.closeOpen("time");
    expect(bounds(compacted)).toEqual([
      [100n, 104n, "replay"],
      [105n, 107n, "time"],
    ]);
  });

  it("skip messages before where the partition resumed, and count rows, skips and dead letters in the range", () => {
    const state = new PartitionState(0, 1);
    state.resumeFrom(50n, null);
    take(state, [48, 49]);
    expect(state.open).toBeNull();
    state.take(processMessage(testProcessor, "t", 0, raw(50), false), 0, 0);
    state.take(processMessage(testProcessor, "t", 0, raw(51, JSON.stringify({ skip: true })), false), 0, 0);
    state.take(processMessage(testProcessor, "t", 0, raw(52, "{broken"), false), 0, 0);
    expect(state.open?.entries.map((entry) => entry.outcome.kind)).toEqual(["rows", "skip", "dead-letter"]);
    expect(state.heldRows()).toBe(1);
  });

  it("are named by tokens and metadata that a replay can form again", () => {
    const token = rangeToken("events", 3, 100n, 104n);
    expect(token).toBe("events:3:100-104");
    expect(partToken(token, 100n, 101n)).toBe("events:3:100-104/100-101");
    expect(pendingMetadata(104n)).toBe("pending:104");
    expect(pendingEnd("pending:104")).toBe(104n);
    for (const other of [null, "", "pending:", "pending:x", "done:4"]) expect(pendingEnd(other)).toBeNull();
  });
});

describe("dead-letter messages", () => {
  it("carry the message unchanged, its partition, offset and the reason; a header of the same name is kept before Quarry's", () => {
    const message = deadLetterMessage(raw(42, "not json", { trace: Buffer.from("t1"), reason: "upstream" }), 7, "not JSON");
    expect(message.key).toEqual(Buffer.from("k42"));
    expect(message.value).toEqual(Buffer.from("not json"));
    expect(message.headers).toEqual({ trace: Buffer.from("t1"), reason: ["upstream", "not JSON"], original_partition: "7", original_offset: "42" });
  });
});
