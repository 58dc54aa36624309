import { describe, expect, it } from "vitest";
import { PrometheusRegistry } from "../../src/metrics/prometheus-registry.js";
import { defaultMemoryReleaseActions, IdleMemoryRelease, type MemoryReleaseActions } from "../../src/server/idle-memory-release.js";

/** A server seen from outside: a request count, requests in progress, a clock, and the releases it got. */
function quietServer(idleMs = 10_000) {
  const state = { started: 0, active: 0, now: 1_000_000, rss: 500, gcs: 0, trims: 0 };
  const actions: MemoryReleaseActions = {
    collectGarbage: () => {
      state.gcs += 1;
      state.rss -= 100;
    },
    trimMalloc: async () => {
      state.trims += 1;
      state.rss -= 50;
    },
    residentBytes: () => state.rss,
  };
  const registry = new PrometheusRegistry();
  const release = new IdleMemoryRelease({
    idleMs,
    requestsStarted: () => state.started,
    activeRequests: () => state.active,
    registry,
    actions,
    now: () => state.now,
  });
  return { state, release, registry };
}

describe("idle memory release", () => {
  it("releases once the server has been quiet for idleMs after requests, and once per quiet period", async () => {
    const { state, release, registry } = quietServer();
    await release.check();
    expect(state.gcs).toBe(0); // nothing happened since the start: nothing to give back

    state.started = 40;
    await release.check(); // sees the burst
    state.now += 9_000;
    await release.check();
    expect(state.gcs).toBe(0); // quiet for 9 s of 10

    state.now += 1_000;
    await release.check();
    expect(state).toMatchObject({ gcs: 1, trims: 1, rss: 350 });
    expect(registry.render()).toContain("quarry_idle_memory_releases_total 1");
    expect(registry.render()).toContain("quarry_idle_memory_released_bytes_total 150");

    state.now += 60_000;
    await release.check();
    expect(state.gcs).toBe(1); // still the same quiet period

    state.started = 41;
    await release.check();
    state.now += 10_000;
    await release.check();
    expect(state.gcs).toBe(2); // a new request, a new quiet period
  });

  it("never releases while a request is in progress, however long it runs", async () => {
    const { state, release } = quietServer();
    state.started = 1;
    state.active = 1;
    await release.check();
    state.now += 120_000;
    await release.check();
    expect(state.gcs).toBe(0);
    state.active = 0;
    await release.check();
    expect(state.gcs).toBe(1);
  });

  it("a request during the quiet period starts the wait again", async () => {
    const { state, release } = quietServer();
    state.started = 5;
    await release.check();
    state.now += 8_000;
    state.started = 6;
    await release.check();
    state.now += 8_000;
    await release.check();
    expect(state.gcs).toBe(0);
    state.now += 2_000;
    await release.check();
    expect(state.gcs).toBe(1);
  });

  it("is off at 0 and says so on /metrics", async () => {
    const { release, registry } = quietServer(0);
    release.start();
    await release.stop();
    expect(registry.render()).toContain("quarry_idle_memory_release_enabled 0");
  });

  it("the real actions exist on this machine and give back what a dropped burst of garbage held", async () => {
    const actions = defaultMemoryReleaseActions();
    expect(actions.collectGarbage).toBeTypeOf("function");
    expect(actions.trimMalloc).toBeTypeOf("function");
    // 200 MB of garbage in the JS heap: after the collection, the heap in use is back near where it was.
    const before = process.memoryUsage().heapUsed;
    let garbage: string[] | null = Array.from({ length: 200_000 }, (_, i) => `${i}`.padEnd(1000, "x"));
    expect(garbage.length).toBe(200_000);
    garbage = null;
    actions.collectGarbage!();
    await actions.trimMalloc!();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before + 50 * 1024 * 1024);
    expect(actions.residentBytes()).toBeGreaterThan(0);
  });
});
