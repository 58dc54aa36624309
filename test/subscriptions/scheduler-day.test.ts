/**
 * A simulated day on the driven clock, with real ClickHouse for the store, checkpoints, queries
 * and results: every window of every subscription is published exactly once, across a clean
 * restart of the scheduler in the middle of the day, and each result equals the same SnQL run by
 * hand over [T − W, T).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../support/manual-clock.js";
import { jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { drivenScheduler, publishedResults, type DrivenScheduler } from "./driven-scheduler.js";

const DAY = Date.parse("2024-01-01T00:00:00Z");
const STEP_MS = 300_000;
const DELAY_SECONDS = 30;

interface Spec {
  entity: string;
  dataset: string;
  project: number;
  window: number;
  resolution: number;
  query: string;
}

const SPECS: Record<string, Spec> = {
  errorsPerHour: { dataset: "events", entity: "events", project: 1, window: 3600, resolution: 60, query: "MATCH (events) SELECT count() AS count" },
  levelsOfTwoHours: {
    dataset: "events",
    entity: "events",
    project: 2,
    window: 7200,
    resolution: 300,
    query: "MATCH (events) SELECT count() AS count, uniq(user) AS users BY level WHERE level != 'debug'",
  },
  transactionsPerDay: { dataset: "transactions", entity: "transactions", project: 1, window: 86400, resolution: 3600, query: "MATCH (transactions) SELECT count() AS count" },
  deletedAtSix: { dataset: "events", entity: "events", project: 1, window: 600, resolution: 60, query: "MATCH (events) SELECT max(timestamp) AS latest" },
};

const DELETE_AT = DAY + 6 * 3600_000;
const RESTART_AT = DAY + 12 * 3600_000 + 7_000;
const END = DAY + 24 * 3600_000 + 120_000;

describe("a day of subscriptions on the driven clock", () => {
  let server: FixtureServer;
  const clock = new ManualClock(DAY);
  const ids: Record<string, string> = {};
  const created: Record<string, number> = {};
  let horizonBeforeDelete = 0;
  let finalHorizon = 0;
  let first: DrivenScheduler;
  let second: DrivenScheduler;

  async function create(spec: Spec): Promise<string> {
    const response = await fetch(`${server.baseUrl}/${spec.dataset}/${spec.entity}/subscriptions`, {
      method: "POST",
      body: JSON.stringify({
        project_id: spec.project,
        time_window: spec.window,
        resolution: spec.resolution,
        query: spec.query,
        tenant_ids: { organization_id: 1, referrer: "day-test" },
      }),
    });
    const body = (await response.json()) as { subscription_id: string };
    expect(response.status, JSON.stringify(body)).toBe(202);
    return body.subscription_id;
  }

  beforeAll(async () => {
    server = await startFixtureServer({}, { subscriptions: { scheduler: false, clock } });
    for (const [name, spec] of Object.entries(SPECS)) {
      ids[name] = await create(spec);
      created[name] = clock.now();
      await clock.advance(1_500);
    }
    first = drivenScheduler(server, clock, { delayFor: () => DELAY_SECONDS });
    await first.scheduler.start({ loop: false });
    let active = first;
    while (clock.now() < END) {
      await clock.advance(STEP_MS);
      if (clock.now() >= DELETE_AT && !horizonBeforeDelete) {
        horizonBeforeDelete = Math.floor((clock.now() - STEP_MS) / 1000) - DELAY_SECONDS + 1;
        const [partition, key] = ids.deletedAtSix!.split("/");
        const response = await fetch(`${server.baseUrl}/events/events/subscriptions/${partition}/${key}`, { method: "DELETE" });
        expect(response.status).toBe(202);
        // The API process would tell its scheduler; this scheduler lives beside it.
        active.scheduler.subscriptionsChanged();
      }
      await active.scheduler.tick();
      if (clock.now() >= RESTART_AT && active === first) {
        // A clean restart without waiting for idle: runs in flight drain in stop().
        await first.scheduler.stop();
        second = drivenScheduler(server, clock, { delayFor: () => DELAY_SECONDS });
        await second.scheduler.start({ loop: false });
        active = second;
        continue;
      }
      await active.scheduler.idle();
    }
    finalHorizon = Math.floor(clock.now() / 1000) - DELAY_SECONDS + 1;
    await second.scheduler.stop();
  }, 600_000);

  afterAll(async () => {
    await server?.close();
  });

  function expectedWindows(name: string, until: number): number[] {
    const spec = SPECS[name]!;
    const [, uuid] = ids[name]!.split("/");
    const jitter = jitterSeconds({ uuid: uuid!, resolution: spec.resolution });
    const firstFiring = Math.ceil(created[name]! / 1000);
    const windows: number[] = [];
    for (let t = Math.ceil((firstFiring - jitter) / spec.resolution) * spec.resolution; t + jitter < until; t += spec.resolution) windows.push(t);
    return windows;
  }

  it("publishes every window of every subscription exactly once, across the restart", async () => {
    const published = await publishedResults(server);
    for (const name of ["errorsPerHour", "levelsOfTwoHours", "transactionsPerDay"]) {
      const windows = published.filter((row) => row.id === ids[name]).map((row) => row.windowEnd);
      const expected = expectedWindows(name, finalHorizon);
      expect(expected.length).toBeGreaterThan(20);
      expect(windows, name).toEqual(expected);
    }
    const deleted = published.filter((row) => row.id === ids.deletedAtSix).map((row) => row.windowEnd);
    expect(deleted).toEqual(expectedWindows("deletedAtSix", horizonBeforeDelete));
    expect(published.every((row) => Object.values(ids).includes(row.id))).toBe(true);
  });

  it("counts what it did: scheduled = published, nothing failed or skipped", async () => {
    const scheduled = (await first.metrics.scheduled.value({ entity: "events" })) + (await second.metrics.scheduled.value({ entity: "events" }));
    const published = (await first.metrics.published.value({ entity: "events" })) + (await second.metrics.published.value({ entity: "events" }));
    expect(published).toBe(scheduled);
    expect(published).toBe(expectedWindows("errorsPerHour", finalHorizon).length + expectedWindows("levelsOfTwoHours", finalHorizon).length + expectedWindows("deletedAtSix", horizonBeforeDelete).length);
    expect((await first.metrics.skippedStale.value({ entity: "events" })) + (await second.metrics.skippedStale.value({ entity: "events" }))).toBe(0);
    expect(await second.registry.metrics()).toMatch(/quarry_subscription_lag_seconds_count\{entity="transactions"\} \d+/);
  });

  it("carries Snuba's version-3 message: key, naive timestamp, request and entity", async () => {
    const [row] = (await publishedResults(server)).filter((r) => r.id === ids.errorsPerHour);
    expect(row!.message).toEqual({
      version: 3,
      payload: {
        subscription_id: ids.errorsPerHour,
        request: { query: SPECS.errorsPerHour!.query, tenant_ids: { referrer: "subscriptions_executor", organization_id: 1 } },
        result: { data: [{ count: expect.any(Number) }], meta: [{ name: "count", type: "UInt64" }] },
        timestamp: new Date(row!.windowEnd * 1000).toISOString().slice(0, 19),
        entity: "events",
      },
    });
  });

  it("each result equals the same SnQL run by hand over [T − W, T)", async () => {
    const published = await publishedResults(server);
    const iso = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);
    const check = async (name: string, windowEnds: (windows: number[]) => number[], timeColumn = "timestamp") => {
      const spec = SPECS[name]!;
      const rows = new Map(published.filter((r) => r.id === ids[name]).map((r) => [r.windowEnd, r.message]));
      const chosen = windowEnds([...rows.keys()]);
      expect(chosen.length).toBeGreaterThan(3);
      let nonEmpty = 0;
      for (const windowEnd of chosen) {
        const where = `project_id = ${spec.project} AND ${timeColumn} >= toDateTime('${iso(windowEnd - spec.window)}') AND ${timeColumn} < toDateTime('${iso(windowEnd)}')`;
        const query = spec.query.includes(" WHERE ") ? spec.query.replace(" WHERE ", ` WHERE ${where} AND `) : `${spec.query} WHERE ${where}`;
        const response = await fetch(`${server.baseUrl}/${spec.dataset}/snql`, {
          method: "POST",
          body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "by-hand" } }),
        });
        const byHand = (await response.json()) as { data: unknown[]; meta: unknown[] };
        expect(response.status).toBe(200);
        const payload = (rows.get(windowEnd) as { payload: { result: { data: unknown[]; meta: unknown[] } } }).payload;
        expect(payload.result.data, `${name} at ${iso(windowEnd)}`).toEqual(byHand.data);
        expect(payload.result.meta).toEqual(byHand.meta);
        if (JSON.stringify(byHand.data).match(/"count":[1-9]/)) nonEmpty++;
      }
      return nonEmpty;
    };
    // Around the fixture's events (01:00 .. 04:00), and a spread over the day.
    const nearEvents = (windows: number[]) => windows.filter((t) => t >= DAY / 1000 + 3300 && t <= DAY / 1000 + 5 * 3600 && t % 600 === 0);
    expect(await check("errorsPerHour", nearEvents)).toBeGreaterThan(3);
    expect(await check("levelsOfTwoHours", (windows) => windows.filter((t) => t <= DAY / 1000 + 7 * 3600))).toBeGreaterThan(3);
    expect(await check("transactionsPerDay", (windows) => windows, "finish_ts")).toBeGreaterThan(3);
  });

  it("records each subscription's last run and result for the list API", async () => {
    const response = await fetch(`${server.baseUrl}/events/events/subscriptions`);
    const { data } = (await response.json()) as { data: { subscription_id: string; status: { last_window: string; published: number; failed: number } }[] };
    const hourly = data.find((s) => s.subscription_id === ids.errorsPerHour)!;
    // This server's API reads its own status book, loaded at start; the driven scheduler wrote the table.
    expect(data.map((s) => s.subscription_id)).not.toContain(ids.deletedAtSix);
    expect(hourly).toBeDefined();
    const stored = await server.columnstore.client.query({
      query: `SELECT published, failed, toUnixTimestamp(last_window) AS last_window FROM subscription_status_local FINAL WHERE uuid = '${ids.errorsPerHour!.split("/")[1]}'`,
      format: "JSONEachRow",
    });
    const [status] = await stored.json<{ published: string | number; failed: string | number; last_window: string | number }>();
    const expected = expectedWindows("errorsPerHour", finalHorizon);
    expect(Number(status!.published)).toBe(expected.length);
    expect(Number(status!.failed)).toBe(0);
    expect(Number(status!.last_window)).toBe(expected.at(-1));
  });
});
