/** The byte-bounded TTL LRU and the single-flight readthrough on their own, with a fake clock. */
import { describe, expect, it } from "vitest";
import { ByteBoundedLru } from "../../src/cache/byte-bounded-lru.js";
import { cacheKey } from "../../src/cache/cache-key.js";
import { ReadthroughCache } from "../../src/cache/readthrough-cache.js";

describe("ByteBoundedLru", () => {
  it("expires entries after the TTL", () => {
    let now = 0;
    const lru = new ByteBoundedLru<string>({ ttlMs: 100, maxBytes: 1000, now: () => now });
    lru.set("a", "A", 10);
    now = 99;
    expect(lru.get("a")).toBe("A");
    now = 100;
    expect(lru.get("a")).toBeUndefined();
    expect(lru.bytes).toBe(0);
  });

  it("sweeps expired entries without being asked for them, so an idle cache holds nothing", () => {
    let now = 0;
    const lru = new ByteBoundedLru<string>({ ttlMs: 100, maxBytes: 1000, now: () => now });
    lru.set("a", "A", 10);
    now = 50;
    lru.set("b", "B", 20);
    now = 120;
    expect(lru.sweepExpired()).toBe(1);
    expect([lru.size, lru.bytes]).toEqual([1, 20]);
    now = 200;
    expect(lru.sweepExpired()).toBe(1);
    expect([lru.size, lru.bytes]).toEqual([0, 0]);
  });

  it("evicts the least recently used entries to stay under the byte budget", () => {
    const lru = new ByteBoundedLru<string>({ ttlMs: 10_000, maxBytes: 100 });
    lru.set("a", "A", 40);
    lru.set("b", "B", 40);
    expect(lru.get("a")).toBe("A"); // a is now the most recently used
    lru.set("c", "C", 40);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("A");
    expect(lru.get("c")).toBe("C");
    expect(lru.bytes).toBe(80);
    // A value larger than the whole budget is never stored and evicts nothing.
    expect(lru.set("huge", "H", 101)).toBe(false);
    expect(lru.size).toBe(2);
  });
});

describe("ReadthroughCache", () => {
  it("runs identical concurrent work once: one miss, the rest wait, later calls hit", async () => {
    const cache = new ReadthroughCache<number>({ ttlMs: 10_000, maxBytes: 1000 }, () => 8);
    let runs = 0;
    let release!: (value: number) => void;
    const work = () => {
      runs++;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const answers = Array.from({ length: 10 }, () => cache.get("k", work));
    expect(answers.map((a) => a.status)).toEqual(["miss", ...Array(9).fill("waited")]);
    release(42);
    expect(await Promise.all(answers.map((a) => a.value))).toEqual(Array(10).fill(42));
    expect(runs).toBe(1);
    const later = cache.get("k", work);
    expect(later.status).toBe("hit");
    expect(await later.value).toBe(42);
    expect(runs).toBe(1);
  });

  it("shares a failure with the waiters but does not store it", async () => {
    const cache = new ReadthroughCache<number>({ ttlMs: 10_000, maxBytes: 1000 }, () => 8);
    let runs = 0;
    const failing = () => {
      runs++;
      return Promise.reject(new Error("engine down"));
    };
    const first = cache.get("k", failing);
    const second = cache.get("k", failing);
    expect(second.status).toBe("waited");
    await expect(first.value).rejects.toThrow("engine down");
    await expect(second.value).rejects.toThrow("engine down");
    const retry = cache.get("k", () => Promise.resolve(7));
    expect(retry.status).toBe("miss");
    expect(await retry.value).toBe(7);
    expect(runs).toBe(1);
  });
});

describe("cacheKey", () => {
  it("depends on the SQL and result-changing settings, not on threads or routing", () => {
    const base = cacheKey("SELECT 1", { max_execution_time: 30, max_threads: 10 });
    expect(cacheKey("SELECT 1", { max_threads: 1, max_execution_time: 30, load_balancing: "in_order" })).toBe(base);
    expect(cacheKey("SELECT 2", { max_execution_time: 30, max_threads: 10 })).not.toBe(base);
    expect(cacheKey("SELECT 1", { max_execution_time: 5, max_threads: 10 })).not.toBe(base);
  });
});
