/**
 * The soak's messages: Sentry's formats on the five topics, built so that what a query must read
 * back is known by construction (every counter adds a known value, every set member and event id
 * is counted), plus poison messages that no processor accepts. Message `i` of a run is a pure
 * function of (i, the run's time window), so a producer resumed at any index sends the same bytes.
 */
import { eapItemMessage } from "../../src/demo-data/kafka/eap-item-messages.js";

export const SOAK_TOPICS = ["events", "transactions", "snuba-generic-metrics", "snuba-metrics", "snuba-items"] as const;
export type SoakTopic = (typeof SOAK_TOPICS)[number];

export const SOAK_ORG = 1;
export const SOAK_PROJECTS = [11, 12, 13] as const;
export const GENERIC_METRIC_ID = 7_000_001;
export const RELEASE_HEALTH_METRIC_ID = 7_000_002;
const GAUGE_SAMPLES = 3;
/** Set members are drawn from this many ids: the read-back's uniq stays exact below ClickHouse's HyperLogLog threshold. */
const SET_MEMBER_POOL = 5000;

export interface SoakMessage {
  readonly topic: SoakTopic;
  readonly key: string | null;
  readonly value: Buffer;
  readonly headers?: Record<string, string>;
  readonly poison: boolean;
}

/** What the valid messages add up to; each query of the read-back must equal one of these. */
export interface SoakExpectation {
  events: number;
  eventIds: number;
  transactions: number;
  counterSum: number;
  setMembers: Set<number>;
  distributionValues: number;
  gauges: number;
  releaseHealthSum: number;
  items: number;
  poison: Record<SoakTopic, number>;
}

export function emptyExpectation(): SoakExpectation {
  return {
    events: 0,
    eventIds: 0,
    transactions: 0,
    counterSum: 0,
    setMembers: new Set(),
    distributionValues: 0,
    gauges: 0,
    releaseHealthSum: 0,
    items: 0,
    poison: { events: 0, transactions: 0, "snuba-generic-metrics": 0, "snuba-metrics": 0, "snuba-items": 0 },
  };
}

export interface SoakWindow {
  /** Epoch seconds: the messages' times lie in [start, end). */
  readonly start: number;
  readonly end: number;
}

function hex32(index: number, salt: number): string {
  // A 128-bit id unique per (index, salt): the index in the low half, the salt in the high.
  return (salt.toString(16).padStart(8, "0") + "0".repeat(8) + index.toString(16).padStart(16, "0")).slice(0, 32);
}

function timeOf(index: number, window: SoakWindow): number {
  return window.start + (index % Math.max(1, window.end - window.start - 1));
}

const project = (index: number) => SOAK_PROJECTS[index % SOAK_PROJECTS.length]!;

function errorEvent(index: number, window: SoakWindow): string {
  const at = timeOf(index, window);
  return JSON.stringify([
    2,
    "insert",
    {
      event_id: hex32(index, 1),
      group_id: 1 + (index % 50),
      message: `soak error ${index}`,
      primary_hash: hex32(index % 50, 2),
      project_id: project(index),
      datetime: new Date(at * 1000).toISOString(),
      platform: "python",
      data: { received: at + 1, type: "error", tags: [["environment", index % 2 === 0 ? "prod" : "dev"]] },
    },
    { is_new: false },
  ]);
}

function transaction(index: number, window: SoakWindow): string {
  const finish = timeOf(index, window) + 0.5;
  return JSON.stringify([
    2,
    "insert",
    {
      event_id: hex32(index, 3),
      project_id: project(index),
      platform: "python",
      retention_days: 90,
      data: {
        type: "transaction",
        transaction: `GET /soak/${index % 20}`,
        timestamp: finish,
        start_timestamp: finish - 0.25,
        received: finish + 1,
        contexts: { trace: { trace_id: hex32(index, 4), span_id: (index + 1).toString(16).padStart(16, "0"), op: "http.server", status: "ok" } },
      },
    },
    {},
  ]);
}

type GenericKind = "c" | "s" | "d" | "g";
const GENERIC_KINDS: readonly GenericKind[] = ["c", "s", "d", "g"];

function genericMetric(index: number, window: SoakWindow, kind: GenericKind): { text: string; counter: number; member: number; values: number } {
  const at = timeOf(index, window);
  const counter = 1 + (index % 3);
  const member = index % SET_MEMBER_POOL;
  const value = kind === "c" ? counter : kind === "s" ? [member] : kind === "d" ? [index % 100, (index % 7) + 0.5] : { min: 1, max: 3, sum: 6, count: GAUGE_SAMPLES, last: 2 };
  const text = JSON.stringify({
    version: 2,
    use_case_id: "custom",
    org_id: SOAK_ORG,
    project_id: project(index),
    metric_id: GENERIC_METRIC_ID,
    timestamp: at,
    sentry_received_timestamp: at + 1,
    tags: { "9223372036854776010": index % 2 === 0 ? "production" : "staging" },
    retention_days: 90,
    mapping_meta: {},
    type: kind,
    value,
  });
  return { text, counter, member, values: 2 };
}

function releaseHealth(index: number, window: SoakWindow): { text: string; value: number } {
  const at = timeOf(index, window);
  const value = 1 + (index % 5);
  const text = JSON.stringify({
    use_case_id: "sessions",
    org_id: SOAK_ORG,
    project_id: project(index),
    metric_id: RELEASE_HEALTH_METRIC_ID,
    timestamp: at,
    sentry_received_timestamp: at + 1,
    tags: { "9223372036854776010": 1 },
    retention_days: 90,
    type: "c",
    value,
  });
  return { text, value };
}

/** Message `index` of a run: topics in turn, one in `poisonEvery` of each topic's a poison message. */
export function soakMessage(index: number, window: SoakWindow, poisonEvery: number): SoakMessage {
  const topic = SOAK_TOPICS[index % SOAK_TOPICS.length]!;
  const nth = Math.floor(index / SOAK_TOPICS.length);
  // Every topic's `poisonEvery`-th message is poison.
  if (poisonEvery > 0 && nth % poisonEvery === poisonEvery - 1) {
    // Bytes that parse as neither JSON nor a TraceItem: every processor refuses them.
    const value = topic === "snuba-items" ? Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]) : Buffer.from(`poison ${index}`);
    return { topic, key: topic === "events" ? String(project(nth)) : null, value, poison: true };
  }
  switch (topic) {
    case "events":
      return { topic, key: String(project(nth)), value: Buffer.from(errorEvent(nth, window)), poison: false };
    case "transactions":
      return { topic, key: null, value: Buffer.from(transaction(nth, window)), poison: false };
    case "snuba-generic-metrics": {
      const kind = GENERIC_KINDS[nth % GENERIC_KINDS.length]!;
      return { topic, key: null, value: Buffer.from(genericMetric(nth, window, kind).text), headers: { metric_type: kind }, poison: false };
    }
    case "snuba-metrics":
      return { topic, key: null, value: Buffer.from(releaseHealth(nth, window).text), poison: false };
    case "snuba-items":
      return { topic, key: null, value: eapItemMessage(nth, window), poison: false };
  }
}

/** Adds message `index` to what the read-back must find. */
export function expect(expectation: SoakExpectation, index: number, window: SoakWindow, poisonEvery: number): void {
  const message = soakMessage(index, window, poisonEvery);
  if (message.poison) {
    expectation.poison[message.topic] += 1;
    return;
  }
  const nth = Math.floor(index / SOAK_TOPICS.length);
  switch (message.topic) {
    case "events":
      expectation.events += 1;
      expectation.eventIds += 1;
      return;
    case "transactions":
      expectation.transactions += 1;
      return;
    case "snuba-generic-metrics": {
      const kind = GENERIC_KINDS[nth % GENERIC_KINDS.length]!;
      const built = genericMetric(nth, window, kind);
      if (kind === "c") expectation.counterSum += built.counter;
      if (kind === "s") expectation.setMembers.add(built.member);
      if (kind === "d") expectation.distributionValues += built.values;
      // A gauge message summarises `count` samples (3 here); count(value) adds those up.
      if (kind === "g") expectation.gauges += GAUGE_SAMPLES;
      return;
    }
    case "snuba-metrics":
      expectation.releaseHealthSum += releaseHealth(nth, window).value;
      return;
    case "snuba-items":
      expectation.items += 1;
      return;
  }
}
