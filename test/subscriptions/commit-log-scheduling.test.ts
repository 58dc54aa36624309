/**
 * The scheduler on a commit-log clock (issue 65's first step): with `horizonFor` taken from a
 * CommitLogClock that follows a real commit-log topic, an events subscription's windows run only
 * up to what the ingesting consumer has committed, moved back by the delay — not up to the wall
 * clock. While the commit log is silent nothing runs; each commit moves the windows on.
 */
import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { encodeCommitLogMessage } from "../../src/ingestion/commit-log-message.js";
import { CommitLogClock } from "../../src/subscriptions/scheduling/commit-log-clock.js";
import { jitterSeconds } from "../../src/subscriptions/scheduling/schedule.js";
import { ManualClock } from "../support/manual-clock.js";
import { startFixtureServer, type FixtureServer } from "../server/fixture-server.js";
import { drivenScheduler, publishedResults } from "./driven-scheduler.js";

const START = Date.parse("2024-01-01T00:00:00Z");
const DELAY_SECONDS = 30;
const RUN = randomUUID().slice(0, 8);
const SOURCE = `events-${RUN}`;
const COMMIT_LOG = `snuba-commit-log-${RUN}`;

describe("scheduling on the commit-log clock", () => {
  const brokers = inject("kafkaBrokers");
  const kafka = new Kafka({ clientId: "commit-log-scheduling-test", brokers, logLevel: logLevel.NOTHING });
  const clock = new ManualClock(START);
  let server: FixtureServer;
  let commitLog: CommitLogClock;
  let subscriptionId = "";

  async function commit(offset: number, seconds: number): Promise<void> {
    const encoded = encodeCommitLogMessage({ topic: SOURCE, partition: 0, group: "snuba-consumers", offset: BigInt(offset), origMessageTsMs: seconds * 1000, originTimestamps: [] });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: COMMIT_LOG, messages: [{ key: encoded.key, value: encoded.value }] });
    await producer.disconnect();
  }

  async function horizonReaches(expected: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (commitLog.horizon("events", 0) !== expected) {
      if (Date.now() > deadline) throw new Error(`the commit-log horizon is ${commitLog.horizon("events", 0)}, not ${expected}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    server = await startFixtureServer({}, { subscriptions: { scheduler: false, clock } });
    const response = await fetch(`${server.baseUrl}/events/events/subscriptions`, {
      method: "POST",
      body: JSON.stringify({ project_id: 1, time_window: 600, resolution: 60, query: "MATCH (events) SELECT count() AS count", tenant_ids: { organization_id: 1, referrer: "commit-log-test" } }),
    });
    subscriptionId = ((await response.json()) as { subscription_id: string }).subscription_id;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: COMMIT_LOG, numPartitions: 1 }] });
    await admin.disconnect();
    // One source partition, followed globally: every tick is released at once.
    commitLog = new CommitLogClock(brokers, [
      { entity: "events", commitLogTopic: COMMIT_LOG, sourceTopic: SOURCE, group: "snuba-consumers", mode: "global", synchronization: "orig_message_ts", delaySeconds: DELAY_SECONDS, sourcePartitions: 1 },
    ]);
    await commitLog.start();
  }, 120_000);

  afterAll(async () => {
    await commitLog?.stop();
    await server?.close();
  });

  it("runs a window only once the commit log has passed its firing time plus the delay", async () => {
    const driven = drivenScheduler(server, clock, {
      delayFor: () => DELAY_SECONDS,
      horizonFor: (entity, partition) => (entity === "events" ? commitLog.horizon(entity, partition) : undefined),
    });
    await driven.scheduler.start({ loop: false });
    const [, uuid] = subscriptionId.split("/");
    const jitter = jitterSeconds({ uuid: uuid!, resolution: 60 });
    const startSecond = START / 1000;
    const firings = (before: number) => {
      const list: number[] = [];
      for (let t = Math.ceil((startSecond - jitter) / 60) * 60; t + jitter < before; t += 60) if (t + jitter >= startSecond) list.push(t);
      return list;
    };
    const published = async () => (await publishedResults(server)).filter((row) => row.id === subscriptionId).map((row) => row.windowEnd);

    // Ten minutes of wall time, and the commit log is silent: on the wall clock about ten windows
    // would have run; here none has.
    for (let i = 0; i < 10; i++) {
      await clock.advance(60_000);
      await driven.scheduler.tick();
      await driven.scheduler.idle();
    }
    expect(await published()).toEqual([]);

    // The consumer commits: data up to START + 300 s has landed, so windows firing before
    // START + 300 − 30 run, and no later one.
    await commit(100, startSecond + 5);
    await commit(200, startSecond + 300);
    await horizonReaches(startSecond + 300 - DELAY_SECONDS + 1);
    await driven.scheduler.tick();
    await driven.scheduler.idle();
    const upTo270 = firings(startSecond + 271);
    expect(upTo270.length).toBeGreaterThanOrEqual(4);
    expect(await published()).toEqual(upTo270);

    // The next commit moves them on to START + 480.
    await commit(300, startSecond + 510);
    await horizonReaches(startSecond + 510 - DELAY_SECONDS + 1);
    await driven.scheduler.tick();
    await driven.scheduler.idle();
    expect(await published()).toEqual(firings(startSecond + 481));

    // Ingestion stalls for half an hour of wall time, then catches up commit by commit: windows
    // that waited longer than the stale threshold (900 s) by the wall clock still run, because
    // staleness counts from the data's clock.
    for (let i = 0; i < 30; i++) {
      await clock.advance(60_000);
      await driven.scheduler.tick();
      await driven.scheduler.idle();
    }
    expect(await published()).toEqual(firings(startSecond + 481));
    let offset = 400;
    for (const landed of [810, 1110, 1410, 1710]) {
      await commit((offset += 100), startSecond + landed);
      await horizonReaches(startSecond + landed - DELAY_SECONDS + 1);
      await driven.scheduler.tick();
      await driven.scheduler.idle();
    }
    expect(await published()).toEqual(firings(startSecond + 1681));
    expect(await driven.metrics.skippedStale.value({ entity: "events" })).toBe(0);
    await driven.scheduler.stop();
  });
});
