/**
 * What the scheduler does when things go wrong, with real faults on the real engine: a query
 * ClickHouse fails is retried with backoff and published once the engine answers; a results
 * table that refuses writes holds the checkpoint back until the write succeeds; a window that
 * stays failed until stale is counted as failed; windows missed during an outage longer than the
 * stale threshold are skipped, counted and logged, never run late and never silently lost.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../support/manual-clock.js";
import { jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { drivenScheduler, publishedResults, type DrivenScheduler } from "./driven-scheduler.js";

const START = Date.parse("2024-01-01T00:00:00Z");
const STALE_SECONDS = 900;

let server: FixtureServer;
const clock = new ManualClock(START);

beforeAll(async () => {
  server = await startFixtureServer({}, { subscriptions: { scheduler: false, clock } });
});
afterAll(async () => {
  await server?.close();
});

async function createMinutely(project: number): Promise<{ id: string; jitter: number }> {
  const response = await fetch(`${server.baseUrl}/events/events/subscriptions`, {
    method: "POST",
    body: JSON.stringify({ project_id: project, time_window: 600, resolution: 60, query: "MATCH (events) SELECT count() AS count", tenant_ids: { organization_id: 1 } }),
  });
  expect(response.status).toBe(202);
  const { subscription_id: id } = (await response.json()) as { subscription_id: string };
  return { id, jitter: jitterSeconds({ uuid: id.split("/")[1]!, resolution: 60 }) };
}

async function rename(from: string, to: string): Promise<void> {
  await server.columnstore.client.command({ query: `RENAME TABLE ${from} TO ${to}` });
}

/** Until every run in progress has either ended or is waiting out a backoff on the clock. */
async function settled({ scheduler }: DrivenScheduler): Promise<void> {
  while (scheduler.inProgress > scheduler.waitingToRetry) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Moves the clock in 1 s steps, ticking, for `seconds`. */
async function run(driven: DrivenScheduler, seconds: number): Promise<void> {
  for (let i = 0; i < seconds; i++) {
    await clock.advance(1000);
    await driven.scheduler.tick();
    await settled(driven);
  }
}

async function windowsOf(id: string): Promise<number[]> {
  return (await publishedResults(server)).filter((row) => row.id === id).map((row) => row.windowEnd);
}

describe("scheduler failures", () => {
  let driven: DrivenScheduler;

  beforeEach(async () => {
    await driven?.scheduler.stop(0);
    await server.columnstore.client.command({ query: "TRUNCATE TABLE subscriptions_local" });
    await server.columnstore.client.command({ query: "TRUNCATE TABLE subscription_checkpoints_local" });
  });

  it("retries a window the engine fails, with growing backoff, and publishes it once when the engine is back", async () => {
    await clock.advanceTo(Date.parse("2024-01-01T01:00:00Z"));
    const { id, jitter } = await createMinutely(1);
    const firstWindow = Date.parse("2024-01-01T01:00:00Z") / 1000;
    driven = drivenScheduler(server, clock, { delayFor: () => 0, staleThresholdSeconds: STALE_SECONDS });
    // Away before the first tick, so the first window's run cannot race the rename.
    await rename("errors_local", "errors_local_away");
    try {
      await driven.scheduler.start({ loop: false });
      await run(driven, 75);
      expect(await driven.metrics.retried.value({ entity: "events", error_type: "columnstore" })).toBeGreaterThanOrEqual(3);
      // Backoff doubles (1, 2, 4, 8, 16, 30 s): in 75 s each of the two windows due is retried at
      // most 7 times, not once a second.
      expect(await driven.metrics.retried.value({ entity: "events", error_type: "columnstore" })).toBeLessThanOrEqual(14);
      expect(await windowsOf(id)).toEqual([]);
      expect(driven.status.get("events", Number(id.split("/")[0]), id.split("/")[1]!).lastError).toMatch(/^columnstore: .*errors_local/);
      const checkpoints = driven.scheduler.checkpoints().find((c) => c.entity === "events" && c.partition === Number(id.split("/")[0]));
      expect(checkpoints!.nextSecond).toBe(firstWindow + jitter);
    } finally {
      await rename("errors_local_away", "errors_local");
    }
    await run(driven, 120);
    await driven.scheduler.idle();
    const windows = await windowsOf(id);
    expect(new Set(windows).size).toBe(windows.length);
    expect(windows[0]).toBe(firstWindow);
    expect(await driven.metrics.failed.value({ entity: "events", error_type: "columnstore" })).toBe(0);
  });

  it("keeps the checkpoint before a result the results table refused, and publishes it when the table is back", async () => {
    await clock.advanceTo(Date.parse("2024-01-01T02:00:00Z"));
    const { id, jitter } = await createMinutely(2);
    driven = drivenScheduler(server, clock, { delayFor: () => 0, staleThresholdSeconds: STALE_SECONDS });
    // Away before the first tick: with a jitter of 0 the first window is due at start, and its
    // run would race the rename.
    await rename("subscription_results_local", "subscription_results_away");
    await driven.scheduler.start({ loop: false });
    const partition = Number(id.split("/")[0]);
    try {
      await run(driven, 130);
      expect(await driven.metrics.executed.value({ entity: "events" })).toBeGreaterThanOrEqual(2);
      expect(await driven.metrics.published.value({ entity: "events" })).toBe(0);
      const firstWindow = Date.parse("2024-01-01T02:00:00Z") / 1000;
      expect(driven.scheduler.checkpoints().find((c) => c.entity === "events" && c.partition === partition)!.nextSecond).toBe(firstWindow + jitter);
    } finally {
      await rename("subscription_results_away", "subscription_results_local");
    }
    await run(driven, 60);
    await driven.scheduler.idle();
    const windows = await windowsOf(id);
    expect(windows.slice(0, 3)).toEqual([0, 60, 120].map((offset) => Date.parse("2024-01-01T02:00:00Z") / 1000 + offset));
    expect(new Set(windows).size).toBe(windows.length);
  });

  it("gives up on a window still failing when it turns stale: counted as failed, logged, recorded", async () => {
    await clock.advanceTo(Date.parse("2024-01-01T03:00:00Z"));
    const { id } = await createMinutely(3);
    driven = drivenScheduler(server, clock, { delayFor: () => 0, staleThresholdSeconds: 120, retryMaxMs: 10_000 });
    // Away before the first tick, so the first window's run cannot race the rename.
    await rename("errors_local", "errors_local_away");
    try {
      await driven.scheduler.start({ loop: false });
      await run(driven, 200);
    } finally {
      await rename("errors_local_away", "errors_local");
    }
    expect(await driven.metrics.failed.value({ entity: "events", error_type: "columnstore" })).toBeGreaterThanOrEqual(1);
    const status = driven.status.get("events", Number(id.split("/")[0]), id.split("/")[1]!);
    expect(status.failed).toBeGreaterThanOrEqual(1);
    expect(status.lastError).toMatch(/^columnstore: /);
    expect(driven.log.some((line) => line.includes(id) && line.includes("retried until stale"))).toBe(true);
    expect(await windowsOf(id)).toEqual([]);
  });

  it("skips windows an outage made stale, counts and logs them, and runs the fresh ones", async () => {
    await clock.advanceTo(Date.parse("2024-01-01T04:00:00Z"));
    const { id, jitter } = await createMinutely(5);
    driven = drivenScheduler(server, clock, { delayFor: () => 0, staleThresholdSeconds: STALE_SECONDS });
    await driven.scheduler.start({ loop: false });
    await run(driven, 180);
    await driven.scheduler.stop();
    const before = await windowsOf(id);
    expect(before.length).toBeGreaterThanOrEqual(2);

    // Down for two hours; on restart the checkpoint is two hours old.
    await clock.advance(2 * 3600_000);
    driven = drivenScheduler(server, clock, { delayFor: () => 0, staleThresholdSeconds: STALE_SECONDS });
    await driven.scheduler.start({ loop: false });
    await driven.scheduler.idle();
    const now = Math.floor(clock.now() / 1000);
    const after = (await windowsOf(id)).filter((t) => !before.includes(t));
    // Only windows no older than the threshold ran, each once, and they are contiguous up to now.
    expect(after.every((t) => now - t <= STALE_SECONDS)).toBe(true);
    expect(after.at(-1)).toBe(Math.floor((now - jitter) / 60) * 60);
    const skipped = await driven.metrics.skippedStale.value({ entity: "events" });
    const missed = (after[0]! - before.at(-1)!) / 60 - 1;
    expect(skipped).toBe(missed);
    expect(driven.status.get("events", Number(id.split("/")[0]), id.split("/")[1]!).skippedStale).toBe(missed);
    expect(driven.log.filter((line) => line.includes(id) && line.includes(`skipped ${missed} stale window(s)`))).toHaveLength(1);
  });
});
