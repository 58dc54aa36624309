/**
 * Demo messages for the `transactions` topic, as Sentry's event stream writes them:
 * `[2, "insert", event, state]`, keyed by `str(project_id)` like `events`. The event is one of
 * the demo's transactions (TRANSACTION_TEMPLATES): a log-normal duration around the template's
 * median, a status with the demo's odds, a trace context (the root span), a few of the project's
 * spans (SPAN_TEMPLATES) with hashes and exclusive times, and web vitals on page loads.
 */
import { DEMO_ORGANIZATION_ID, SPAN_TEMPLATES, TRANSACTION_STATUSES, TRANSACTION_TEMPLATES } from "../demo-vocabulary.js";
import { epochSeconds, payloadDatetime, type DemoKafkaMessage, type DemoMessageSlot, type DemoTopicSource } from "./demo-message-source.js";
import { pickBrowser, pickEnvironment, pickProject, pickRelease, pickServer, pickUser } from "./demo-message-picks.js";

const RETENTION_DAYS = 90;

function transactionEvent(slot: DemoMessageSlot, windowFraction: number): Record<string, unknown> {
  const { random, timestampMs } = slot;
  const project = pickProject(random, (p) => p.transactionShare);
  const templates = TRANSACTION_TEMPLATES.filter((t) => t.project === project.id);
  const template = random.weighted(templates, templates.map((t) => t.weight));
  const status = random.weighted(TRANSACTION_STATUSES, TRANSACTION_STATUSES.map((s) => s.weight));
  const durationMs = Math.max(1, random.logNormal(template.medianMs * (status.name === "ok" ? 1 : 1.6), 0.8));
  const startMs = timestampMs - durationMs;
  const environment = pickEnvironment(random);
  const release = pickRelease(random, project, windowFraction);
  const user = pickUser(random, project);
  const server = pickServer(random, project, template.source === "task");
  const eventId = random.hex(32);
  const traceId = random.hex(32);
  const rootSpanId = random.hex(16);

  const spanTemplates = SPAN_TEMPLATES.filter((s) => s.project === project.id);
  const spans = Array.from({ length: 1 + random.int(4) }, () => {
    const span = random.pick(spanTemplates);
    const exclusive = Math.round(Math.min(durationMs * 0.8, random.logNormal(durationMs / 6, 0.7)) * 1000) / 1000;
    const offset = random.next() * Math.max(0, durationMs - exclusive);
    return {
      op: span.op,
      description: span.description,
      span_id: random.hex(16),
      parent_span_id: rootSpanId,
      trace_id: traceId,
      start_timestamp: epochSeconds(startMs + offset),
      timestamp: epochSeconds(startMs + offset + exclusive),
      exclusive_time: exclusive,
      hash: random.hex(16),
      same_process_as_parent: true,
      ...(span.system === null ? {} : { data: { "db.system": span.system } }),
    };
  });
  const spansTime = spans.reduce((sum, span) => sum + span.exclusive_time, 0);

  const tags: [string, string][] = [
    ["environment", environment],
    ["release", release],
    ["transaction", template.name],
    ["level", "info"],
    ["sentry:user", `id:${user.id}`],
  ];
  if (server !== null) tags.push(["server_name", server]);
  if (template.method !== null) tags.push(["http.method", template.method]);
  if (template.source !== "task") tags.push(["http.status_code", status.httpStatus]);

  const contexts: Record<string, unknown> = {
    trace: {
      trace_id: traceId,
      span_id: rootSpanId,
      op: template.op,
      status: status.name,
      type: "trace",
      hash: random.hex(16),
      exclusive_time: Math.max(0, Math.round((durationMs - spansTime) * 1000) / 1000),
    },
  };
  const measurements: Record<string, { value: number; unit: string }> = {};
  if (project.runtime === null) {
    const { browser, os } = pickBrowser(random);
    contexts.browser = { name: browser.name, version: browser.version, type: "browser" };
    contexts.os = { name: os.name, version: os.version, type: "os" };
    tags.push(["browser.name", browser.name]);
    if (template.op === "pageload") {
      measurements.lcp = { value: random.logNormal(template.medianMs * 0.8, 0.6), unit: "millisecond" };
      measurements.fcp = { value: random.logNormal(template.medianMs * 0.4, 0.5), unit: "millisecond" };
    }
  } else {
    contexts.runtime = { name: project.runtime.name, version: project.runtime.version, type: "runtime" };
  }

  const data: Record<string, unknown> = {
    event_id: eventId,
    type: "transaction",
    platform: project.platform,
    transaction: template.name,
    transaction_info: { source: template.source },
    start_timestamp: epochSeconds(startMs),
    timestamp: epochSeconds(timestampMs),
    received: epochSeconds(timestampMs + 100 + random.int(400)),
    environment,
    release,
    dist: project.dist,
    tags,
    contexts,
    spans,
    measurements,
    breakdowns: { span_ops: { [`ops.${spans[0]?.op.split(".")[0] ?? "other"}`]: { value: spansTime, unit: "millisecond" } } },
    user: { id: user.id, email: user.email, username: user.username, ip_address: user.ipAddress },
    sdk: { name: project.sdkName, version: project.sdkVersion, integrations: project.sdkIntegrations },
    ...(template.url === null ? {} : { request: { url: template.url.replace("{id}", String(1000 + random.int(9000))), method: template.method ?? "GET" } }),
  };
  return {
    event_id: eventId,
    project_id: project.id,
    organization_id: DEMO_ORGANIZATION_ID,
    platform: project.platform,
    datetime: payloadDatetime(timestampMs),
    retention_days: RETENTION_DAYS,
    group_ids: [],
    data,
  };
}

export function transactionMessages(windowStartMs: number, windowEndMs: number): DemoTopicSource {
  return {
    topic: "transactions",
    salt: 2,
    message(slot: DemoMessageSlot): DemoKafkaMessage {
      const fraction = (slot.timestampMs - windowStartMs) / Math.max(1, windowEndMs - windowStartMs);
      const event = transactionEvent(slot, fraction);
      const state = { is_new: false, is_regression: false, is_new_group_environment: false, queue: "post_process_transactions", skip_consume: false, group_states: [] };
      return { key: String(event.project_id), value: JSON.stringify([2, "insert", event, state]) };
    },
  };
}
