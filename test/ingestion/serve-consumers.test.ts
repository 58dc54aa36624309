/**
 * `quarry serve` with QUARRY_CONSUMERS, as a real process on the real broker: the consumers of the
 * named storages start with the server, what Sentry produces becomes queryable, a poison message
 * lands in the dead-letter topic, /health and the admin System page name each consumer, and
 * SIGTERM writes and commits what they hold before the process exits 0.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts } from "../../scripts/test-services/free-port.js";
import { startQuarry, waitFor, type QuarryProcess } from "../support/quarry-process.js";
import { brokers } from "./consumer-fixture.js";
import { jsonText, raw } from "./message-text.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field
type Json = any;

const RUN = randomUUID().slice(0, 8);
const PROJECT = 424_242;
const METRIC_ID = 918_273;
/** Each Snuba topic of the two storages, renamed for this run through QUARRY_KAFKA_TOPICS. */
const TOPICS = Object.fromEntries(
  ["events", "snuba-commit-log", "snuba-dead-letter-events", "event-replacements", "snuba-generic-metrics", "snuba-generic-metrics-counters-commit-log", "snuba-generic-metrics-sets-commit-log", "snuba-dead-letter-generic-metrics"].map(
    (name) => [name, `${name}-${RUN}`],
  ),
);

let dataDir: string;
let serve: QuarryProcess;
let baseUrl: string;
let adminUrl: string;
const kafka = new Kafka({ clientId: "serve-consumers-test", brokers: brokers(), logLevel: logLevel.NOTHING });

function errorEvent(index: number, nowSeconds: number): string {
  const eventId = randomUUID().replaceAll("-", "");
  return jsonText([
    2,
    "insert",
    {
      event_id: eventId,
      group_id: 7,
      message: `serve consumer ${index}`,
      primary_hash: "061cf02b26374d108694d6643a7a2f4e",
      project_id: PROJECT,
      datetime: new Date((nowSeconds - 60) * 1000).toISOString(),
      platform: "python",
      data: { received: raw(String(nowSeconds - 59)), type: "error", tags: [["environment", "prod"]] },
    },
    { is_new: false },
  ]);
}

function counter(value: number, nowSeconds: number): string {
  return JSON.stringify({
    version: 2,
    use_case_id: "custom",
    org_id: 1,
    project_id: PROJECT,
    metric_id: METRIC_ID,
    timestamp: nowSeconds - 120,
    sentry_received_timestamp: nowSeconds - 120,
    tags: { "9223372036854776010": "production" },
    retention_days: 90,
    mapping_meta: {},
    type: "c",
    value,
  });
}

async function snql(dataset: string, query: string): Promise<Json[]> {
  const response = await fetch(`${baseUrl}/${dataset}/snql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, tenant_ids: { organization_id: 1, referrer: "test.serve-consumers" } }),
  });
  const body = (await response.json()) as Json;
  if (response.status !== 200) throw new Error(JSON.stringify(body));
  return body.data as Json[];
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "quarry-serve-consumers-"));
  const [port, adminPort] = await freePorts(2);
  baseUrl = `http://127.0.0.1:${port}`;
  adminUrl = `http://127.0.0.1:${adminPort}`;
  serve = startQuarry(["serve", "--bootstrap"], {
    QUARRY_DATA_DIR: dataDir,
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    QUARRY_DEMO_ROWS: "2000",
    KAFKA_BROKERS: brokers().join(","),
    // Two storages on one topic: their consumers create it at the same moment on this fresh broker.
    QUARRY_CONSUMERS: "errors,generic_metrics_counters_raw,generic_metrics_sets_raw",
    QUARRY_KAFKA_TOPICS: JSON.stringify(TOPICS),
    QUARRY_CONSUMER_GROUPS: JSON.stringify({ "snuba-consumers": `snuba-consumers-${RUN}` }),
    QUARRY_CONSUMER_MAX_BATCH_TIME_MS: "200",
  });
  await waitFor(
    "serve's consumers to report ok on /health",
    async () => {
      const body = (await (await fetch(`${baseUrl}/health`)).json()) as Json;
      return body.status === "ok" ? body : undefined;
    },
    180_000,
  ).catch((reason: unknown) => {
    throw new Error(`${String(reason)}\n--- serve output ---\n${serve.output}`);
  });
}, 240_000);

afterAll(async () => {
  serve?.signal("SIGKILL");
  await serve?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

describe("serve with QUARRY_CONSUMERS", () => {
  it("writes what arrives on the topics, dead-letters the poison, shows the consumers, and commits all before exiting on SIGTERM", async () => {
    const producer = kafka.producer();
    await producer.connect();
    const now = Math.floor(Date.now() / 1000);
    await producer.send({ topic: TOPICS.events!, messages: [0, 1, 2, 3, 4].map((i) => ({ key: String(PROJECT), value: errorEvent(i, now) })) });
    await producer.send({ topic: TOPICS.events!, messages: [{ key: String(PROJECT), value: "[2, \"insert\", {\"not\": \"an event\"}, {}]" }] });
    await producer.send({ topic: TOPICS["snuba-generic-metrics"]!, messages: [1, 2, 4].map((value) => ({ value: counter(value, now), headers: { metric_type: "c" } })) });
    await producer.disconnect();

    const range = `timestamp >= toDateTime('${new Date((now - 3600) * 1000).toISOString().slice(0, 19)}') AND timestamp < toDateTime('${new Date((now + 60) * 1000).toISOString().slice(0, 19)}')`;
    const events = await waitFor(
      "the five events to be queryable",
      async () => {
        const [row] = await snql("events", `MATCH (events) SELECT count() AS n WHERE project_id = ${PROJECT} AND ${range}`);
        return row?.n === 5 ? row : undefined;
      },
      30_000,
    );
    expect(events).toEqual({ n: 5 });
    const total = await waitFor(
      "the counters to be queryable",
      async () => {
        const [row] = await snql(
          "generic_metrics",
          `MATCH (generic_metrics_counters) SELECT sum(value) AS total WHERE org_id = 1 AND project_id = ${PROJECT} AND metric_id = ${METRIC_ID} AND ${range} GRANULARITY 60`,
        );
        return row?.total === 7 ? row : undefined;
      },
      30_000,
    );
    expect(total).toEqual({ total: 7 });

    // The poison message, unchanged, with where it came from and why.
    const consumer = kafka.consumer({ groupId: `serve-consumers-dlq-${RUN}` });
    await consumer.connect();
    await consumer.subscribe({ topics: [TOPICS["snuba-dead-letter-events"]!], fromBeginning: true });
    const dead = await new Promise<{ value: string; headers: Record<string, string> }>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) =>
          resolve({ value: message.value!.toString(), headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])) }),
      });
    });
    await consumer.disconnect();
    expect(dead.value).toBe("[2, \"insert\", {\"not\": \"an event\"}, {}]");
    expect(dead.headers).toMatchObject({ original_partition: "0", original_offset: "5" });
    expect(dead.headers.reason).toBe("data is missing");

    const health = (await (await fetch(`${baseUrl}/health`)).json()) as Json;
    expect(health).toEqual({ status: "ok" });
    // The entities whose data these consumers ingest schedule on their commit logs (QUARRY_SUBSCRIPTION_CLOCK's
    // default); events' 16 subscription partitions do not match its one-partition topic, so it follows globally.
    expect(serve.output).toContain(`subscriptions: events has 16 subscription partitions but topic ${TOPICS.events} has 1: its windows follow the commit log in global mode`);
    expect(serve.output).toContain(`subscriptions: events follows the commit log ${TOPICS["snuba-commit-log"]} (global mode, received_p99, 30 s behind)`);
    expect(serve.output).toContain(`subscriptions: generic_metrics_counters follows the commit log ${TOPICS["snuba-generic-metrics-counters-commit-log"]} (global mode, orig_message_ts, 60 s behind)`);
    expect(serve.output).not.toMatch(/subscriptions: transactions follows/);
    // Polled: a group that rebalances (a slow heartbeat on this busy machine) shows no partition for a moment.
    const system = await waitFor(
      "the admin System page to show the errors consumer's partition",
      async () => {
        const body = (await (await fetch(`${adminUrl}/api/admin/system`)).json()) as Json;
        const errors = (body.consumers as Json[]).find((status) => status.storage === "errors");
        return errors?.partitions.length === 1 ? body : undefined;
      },
      30_000,
    );
    const byStorage = new Map((system.consumers as Json[]).map((status) => [status.storage, status]));
    expect([...byStorage.keys()].sort()).toEqual(["errors", "generic_metrics_counters_raw", "generic_metrics_sets_raw"]);
    expect(byStorage.get("errors")).toMatchObject({ state: "running", groupId: `snuba-consumers-${RUN}`, topic: TOPICS.events });
    expect(byStorage.get("errors").partitions).toEqual([expect.objectContaining({ partition: 0, committed: "6", lagMessages: 0, lagSeconds: 0 })]);

    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/quarry_consumer_rows_written_total\{storage="errors"\} 5/);
    expect(metrics).toMatch(/quarry_consumer_dead_letters_total\{storage="errors",reason="invalid_message"\} 1/);
    expect(metrics).toMatch(/quarry_consumer_lag_seconds\{storage="errors",partition="0"\} 0/);

    // One more event after the last write, then SIGTERM: it is written and committed before the exit.
    const late = kafka.producer();
    await late.connect();
    await late.send({ topic: TOPICS.events!, messages: [{ key: String(PROJECT), value: errorEvent(5, now) }] });
    await late.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 100));
    serve.signal("SIGTERM");
    expect(await serve.exited).toBe(0);
    const admin = kafka.admin();
    await admin.connect();
    const [offsets] = await admin.fetchOffsets({ groupId: `snuba-consumers-${RUN}`, topics: [TOPICS.events!] });
    await admin.disconnect();
    expect(offsets!.partitions).toEqual([expect.objectContaining({ partition: 0, offset: "7" })]);
  });

  it("refuses a selection that names no consumable storage, saying which exist", async () => {
    const refused = startQuarry(["serve"], { QUARRY_DATA_DIR: join(dataDir, "unused"), PORT: "0", KAFKA_BROKERS: brokers().join(","), QUARRY_CONSUMERS: "errors,querylog" });
    expect(await refused.exited).toBe(2);
    expect(refused.output).toMatch(/storage 'querylog' has no stream_loader: nothing consumes into it; storages with consumers: .*errors.*transactions/);
    const noBrokers = startQuarry(["consumer", "--storage", "errors"], { QUARRY_DATA_DIR: join(dataDir, "unused2"), KAFKA_BROKERS: "" });
    expect(await noBrokers.exited).toBe(2);
    expect(noBrokers.output).toMatch(/set KAFKA_BROKERS/);
    const noStorage = startQuarry(["consumer"], { KAFKA_BROKERS: brokers().join(",") });
    expect(await noStorage.exited).toBe(2);
    expect(noStorage.output).toMatch(/needs --storage NAME/);
  });
});
