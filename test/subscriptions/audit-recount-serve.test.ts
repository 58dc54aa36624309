/**
 * `quarry subscriptions audit --recount` against a real `quarry serve` (NATS store, Kafka result
 * topic, the errors consumer ingesting Sentry's events from Kafka, the wall clock): a
 * subscription publishes three windows, two of them with data that landed on time; then an event
 * arrives late, inside the second, already published window. The audit still finds nothing
 * missing, but its recount reports exactly that window as differing (every copy of it: a
 * duplicate is published by hand, as a fenced owner would), the others as equal, and exits 1.
 * The result cache holds entries for an hour here, so a recount that did not bypass it would
 * read the window's cached result and call it equal. Takes about four minutes of wall clock.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel, type Consumer, type KafkaMessage } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/test-services/free-port.js";
import { ensureJava, ensureKafkaJars, startKafka, type RunningKafka } from "../../scripts/test-services/kafka-broker.js";
import { ensureNatsServer, startNats, type RunningNats } from "../../scripts/test-services/nats-server.js";
import { parseResultMessage } from "../../src/subscriptions/audit/audit-sources.js";
import type { PublishedResult } from "../../src/subscriptions/audit/audit.js";
import { LEASE_EPOCH_HEADER } from "../../src/subscriptions/publishing/kafka-publisher.js";
import { startQuarry, waitFor, type QuarryProcess } from "../support/quarry-process.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the audit's JSON report is read field by field
type Json = any;

const RUN = randomUUID().slice(0, 8);
const PROJECT = 515_151;
const RESULT_TOPIC = `events-subscription-results-${RUN}`;
/** Snuba's topics of the errors consumer, renamed for this run. */
const TOPICS = Object.fromEntries(["events", "snuba-commit-log", "snuba-dead-letter-events", "event-replacements"].map((name) => [name, `${name}-${RUN}`]));

const iso = (second: number) => new Date(second * 1000).toISOString();

describe("quarry subscriptions audit --recount", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "quarry-audit-recount-"));
  // Servers of its own: the file runs in the real-clock lane, beside the engine-only files, where no shared ones are started.
  let nats: RunningNats | undefined;
  let broker: RunningKafka | undefined;
  let kafka: Kafka;
  let serve: QuarryProcess | undefined;
  let baseUrl = "";
  let clusterEnv: NodeJS.ProcessEnv = {};
  let collector: Consumer | undefined;
  /** Every message on the result topic, as the broker returned it. */
  const messages: KafkaMessage[] = [];

  const published = (): (PublishedResult & { message: KafkaMessage })[] =>
    messages.flatMap((message) => {
      const result = parseResultMessage(RESULT_TOPIC, message.value, message.timestamp, message.headers);
      return result ? [{ ...result, message }] : [];
    });
  const publishedCount = (windowEnd: number) => {
    const copy = published().find((r) => r.windowEnd === windowEnd);
    return copy ? (copy.result!.data as { count: number }[])[0]!.count : undefined;
  };

  function errorEvent(datetimeSecond: number, index: number): string {
    return JSON.stringify([
      2,
      "insert",
      {
        event_id: randomUUID().replaceAll("-", ""),
        group_id: 7,
        message: `audit recount ${index}`,
        primary_hash: "061cf02b26374d108694d6643a7a2f4e",
        project_id: PROJECT,
        datetime: iso(datetimeSecond),
        platform: "python",
        data: { received: datetimeSecond, type: "error", tags: [["environment", "prod"]] },
      },
      { is_new: false },
    ]);
  }

  /** Writes events through the errors consumer and waits until the window [from, from + 60) counts `total`. */
  async function writeEvents(datetimeSecond: number, count: number, windowStart: number, total: number): Promise<void> {
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: TOPICS.events!, messages: Array.from({ length: count }, (_, i) => ({ key: String(PROJECT), value: errorEvent(datetimeSecond, i) })) });
    await producer.disconnect();
    await waitFor(
      `${total} event(s) in [${iso(windowStart)}, +60 s)`,
      async () => {
        const response = await fetch(`${baseUrl}/events/snql`, {
          method: "POST",
          body: JSON.stringify({
            query: `MATCH (events) SELECT count() AS count WHERE project_id = ${PROJECT} AND timestamp >= toDateTime('${iso(windowStart).slice(0, 19)}') AND timestamp < toDateTime('${iso(windowStart + 60).slice(0, 19)}')`,
            tenant_ids: { organization_id: 1, referrer: "test.audit-recount" },
            // Past the cache: it keeps entries for an hour in this test.
            consistent: true,
          }),
        });
        const body = (await response.json()) as Json;
        return body.data?.[0]?.count === total ? true : undefined;
      },
      30_000,
    );
  }

  function audit(args: string[]): Promise<{ code: number | null; output: string }> {
    const process = startQuarry(["subscriptions", "audit", ...args], clusterEnv);
    return process.exited.then((code) => ({ code, output: process.output }));
  }

  beforeAll(async () => {
    const [natsBinary, java, libs] = [await ensureNatsServer(), await ensureJava(), await ensureKafkaJars()];
    [nats, broker] = await Promise.all([startNats(natsBinary), startKafka(java, libs)]);
    kafka = new Kafka({ clientId: "audit-recount-test", brokers: broker.brokers, logLevel: logLevel.NOTHING });
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    clusterEnv = {
      NATS_URL: nats.url,
      KAFKA_BROKERS: broker.brokers.join(","),
      QUARRY_NATS_BUCKET_PREFIX: `recount${RUN}`,
      QUARRY_SUBSCRIPTION_TOPICS: JSON.stringify({ events: RESULT_TOPIC }),
      QUARRY_SUBSCRIPTION_DELAY_SECONDS: "0",
      QUARRY_QUERY_URL: baseUrl,
    };
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: RESULT_TOPIC, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    collector = kafka.consumer({ groupId: `audit-recount-test-${RUN}` });
    await collector.connect();
    await collector.subscribe({ topics: [RESULT_TOPIC], fromBeginning: true });
    await collector.run({ eachMessage: async ({ message }) => void messages.push(message) });

    serve = startQuarry(["serve", "--bootstrap"], {
      ...clusterEnv,
      QUARRY_DATA_DIR: dataDir,
      PORT: String(port),
      QUARRY_DEMO_ROWS: "2000",
      QUARRY_CONSUMERS: "errors",
      QUARRY_KAFKA_TOPICS: JSON.stringify(TOPICS),
      QUARRY_CONSUMER_MAX_BATCH_TIME_MS: "200",
      // Windows run on the wall clock, whether their data has landed or not: the late event below arrives after its window ran.
      QUARRY_SUBSCRIPTION_CLOCK: "wall",
      QUARRY_CACHE_TTL_MS: "3600000",
    });
    await waitFor(
      "serve to report ok on /health",
      async () => {
        const body = (await (await fetch(`${baseUrl}/health`)).json()) as Json;
        return body.status === "ok" ? true : undefined;
      },
      180_000,
    ).catch((reason: unknown) => {
      throw new Error(`${String(reason)}\n--- serve output ---\n${serve?.output ?? ""}`);
    });
  }, 240_000);

  afterAll(async () => {
    await collector?.disconnect();
    if (serve && serve.child.exitCode === null) {
      serve.signal("SIGKILL");
      await serve.exited;
    }
    await broker?.stop();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("reports exactly the window that received data after it ran as differing, every copy of it, and the others as equal", async () => {
    const created = await fetch(`${baseUrl}/events/events/subscriptions`, {
      method: "POST",
      body: JSON.stringify({ project_id: PROJECT, time_window: 60, resolution: 60, query: "MATCH (events) SELECT count() AS count", tenant_ids: { organization_id: 1, referrer: "test.audit-recount" } }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
    const { subscription_id: id } = (await created.json()) as { subscription_id: string };

    // W1 = [T1 − 60, T1) is published first; the wall clock is then inside W2 = [T1, T1 + 60).
    const t1 = await waitFor("the first window's result", async () => published().find((r) => r.subscriptionId === id)?.windowEnd, 150_000);
    const [t2, t3] = [t1 + 60, t1 + 120];
    // On time: two events in W2 now (it runs at T2 + jitter), one in W3 once W2 has run.
    await writeEvents(t1, 2, t1, 2);
    await waitFor("W2's result", async () => publishedCount(t2), 150_000);
    await writeEvents(t2, 1, t2, 1);
    await waitFor("W3's result", async () => publishedCount(t3), 150_000);
    expect([publishedCount(t1), publishedCount(t2), publishedCount(t3)]).toEqual([0, 2, 1]);

    // Late: one more event in W2, which has already run and published 2.
    await writeEvents(t1 + 30, 1, t1, 3);
    // A second copy of W1's and of W2's results, under another lease epoch (a fenced owner's duplicate).
    const producer = kafka.producer();
    await producer.connect();
    for (const windowEnd of [t1, t2]) {
      const copy = published().find((r) => r.subscriptionId === id && r.windowEnd === windowEnd)!;
      await producer.send({ topic: RESULT_TOPIC, messages: [{ key: copy.message.key, value: copy.message.value, headers: { [LEASE_EPOCH_HEADER]: "99" } }] });
    }
    await producer.disconnect();

    const range = ["--from", iso(t1), "--to", iso(t3 + 1)];
    const plain = await audit(range);
    expect(plain.output).toContain("windows expected 3  published 3  missing 0  duplicate copies 2");
    expect(plain.output).toContain("OK: no window missing");
    expect(plain.code).toBe(0);

    const recounted = await audit([...range, "--recount", "--recount-concurrency", "2", "--json"]);
    expect(recounted.code, recounted.output).toBe(1);
    const report = JSON.parse(recounted.output.split("\n").find((line) => line.startsWith("{"))!) as Json;
    expect(report.totals).toMatchObject({ expected: 3, published: 3, missing: 0, duplicates: 2 });
    expect(report.recount).toMatchObject({ windows: 3, copies: 5, equal: 3, differing: 2, errors: 0, notInStore: 0, failures: [] });
    expect(report.recount.differences).toEqual([
      { subscriptionId: id, windowEnd: t2, epoch: expect.any(Number), published: [{ count: 2 }], recounted: [{ count: 3 }] },
      { subscriptionId: id, windowEnd: t2, epoch: 99, published: [{ count: 2 }], recounted: [{ count: 3 }] },
    ]);

    const text = await audit([...range, "--recount"]);
    expect(text.code).toBe(1);
    expect(text.output).toContain("recount: windows 3  copies compared 5  equal 3  differing 2  recount errors 0  not in the store 0");
    expect(text.output).toContain(`DIFFERS ${id} ${iso(t2).replace(".000Z", "Z")} (lease epoch 99): published [{"count":2}]  recounted [{"count":3}]`);
    expect(text.output).toContain("FAILED: 2 published result(s) differ from their recount");
  }, 600_000);
});
