import { describe, expect, it } from "vitest";
import { MicroBatcher } from "../../src/subscriptions/publishing/micro-batcher.js";

describe("MicroBatcher", () => {
  it("sends what arrives during a write as the next batch, one write at a time", async () => {
    const writes: number[][] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const batcher = new MicroBatcher<number>(async (items) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      writes.push(items);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
    }, 100);
    const first = batcher.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4].map((n) => batcher.add(n));
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
    expect(maxInFlight).toBe(1);
  });

  it("splits at maxBatch and rejects only the adds of the batch that failed", async () => {
    const writes: string[][] = [];
    const batcher = new MicroBatcher<string>(async (items) => {
      writes.push(items);
      if (items.includes("bad")) throw new Error("refused");
    }, 2);
    const outcomes = await Promise.allSettled(["a", "bad", "c"].map((item) => batcher.add(item)));
    expect(writes).toEqual([["a", "bad"], ["c"]]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "fulfilled"]);
  });
});
