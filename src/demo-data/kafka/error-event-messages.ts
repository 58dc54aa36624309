/**
 * Demo messages for the `events` topic, as Sentry's event stream writes them:
 * `[2, "insert", event, state]`, keyed by `str(project_id)`. The event is one of the demo's
 * issues (ISSUE_TEMPLATES, hot ones first), with the group id the table generator gives it, an
 * exception with its app frame under the project's framework frames, the demo's tags, contexts,
 * user and SDK. The fourth element is Sentry's post-processing state, which Snuba ignores.
 */
import { DEMO_ORGANIZATION_ID, FRAMEWORK_FRAMES, ISSUE_TEMPLATES, issueGroupId, SERVER_OS } from "../demo-vocabulary.js";
import { payloadDatetime, epochSeconds, type DemoKafkaMessage, type DemoMessageSlot, type DemoTopicSource } from "./demo-message-source.js";
import { pickBrowser, pickEnvironment, pickProject, pickRelease, pickServer, pickUser } from "./demo-message-picks.js";
import type { DemoRandom } from "./demo-message-random.js";

const RETENTION_DAYS = 90;

/** The issue of an event of `project`: hot issues (earlier templates) far more often. */
function pickIssue(random: DemoRandom, project: number): number {
  const indices = ISSUE_TEMPLATES.flatMap((template, index) => (template.project === project ? [index] : []));
  return random.weighted(indices, indices.map((_, rank) => 1 / (rank + 1) ** 1.2));
}

function errorEvent(slot: DemoMessageSlot, windowFraction: number): Record<string, unknown> {
  const { random, timestampMs } = slot;
  const project = pickProject(random, (p) => p.eventShare);
  const issueIndex = pickIssue(random, project.id);
  const issue = ISSUE_TEMPLATES[issueIndex]!;
  const environment = pickEnvironment(random);
  const release = pickRelease(random, project, windowFraction);
  const user = pickUser(random, project);
  const server = pickServer(random, project, issue.transaction === null && random.int(3) === 0);
  const transaction = issue.transaction ?? `${project.slug}-task`;
  const eventId = random.hex(32);
  const title = issue.type === null ? issue.value : `${issue.type}: ${issue.value}`;

  const tags: [string, string][] = [
    ["environment", environment],
    ["level", issue.level],
    ["release", release],
    ["transaction", transaction],
    ["handled", issue.handled ? "yes" : "no"],
    ["mechanism", issue.mechanism],
    ["sentry:user", `id:${user.id}`],
  ];
  if (server !== null) tags.push(["server_name", server]);
  if (project.dist !== null) tags.push(["sentry:dist", project.dist]);

  const contexts: Record<string, unknown> = {
    trace: { trace_id: random.hex(32), span_id: random.hex(16), op: "http.server", type: "trace" },
  };
  if (project.runtime !== null) {
    contexts.runtime = { name: project.runtime.name, version: project.runtime.version, type: "runtime" };
    contexts.os = { name: SERVER_OS.name, version: SERVER_OS.version, type: "os" };
  } else {
    const { browser, os } = pickBrowser(random);
    contexts.browser = { name: browser.name, version: browser.version, type: "browser" };
    contexts.os = { name: os.name, version: os.version, type: "os" };
    contexts.device = { model: os.device, family: os.device, type: "device" };
    tags.push(["browser", `${browser.name} ${browser.version}`], ["browser.name", browser.name]);
  }

  const frames = [
    ...(FRAMEWORK_FRAMES[project.id] ?? []).map((frame) => ({ ...frame, abs_path: frame.filename, in_app: false })),
    { module: issue.module, function: issue.function, filename: issue.filename, abs_path: issue.filename, lineno: issue.lineno, in_app: true },
  ];
  const data: Record<string, unknown> = {
    event_id: eventId,
    level: issue.level,
    platform: project.platform,
    received: epochSeconds(timestampMs + 150 + random.int(400)),
    timestamp: epochSeconds(timestampMs),
    type: issue.type === null ? "default" : "error",
    title,
    culprit: issue.culprit,
    location: issue.filename,
    environment,
    release,
    dist: project.dist,
    tags,
    contexts,
    user: { id: user.id, email: user.email, username: user.username, ip_address: user.ipAddress },
    sdk: { name: project.sdkName, version: project.sdkVersion, integrations: project.sdkIntegrations },
    modules: Object.fromEntries(project.modules),
    version: "7",
  };
  if (issue.type === null) {
    data.logentry = { formatted: issue.value };
  } else {
    data.exception = {
      values: [{ type: issue.type, value: issue.value, module: issue.module, mechanism: { type: issue.mechanism, handled: issue.handled }, stacktrace: { frames } }],
    };
  }
  return {
    event_id: eventId,
    group_id: issueGroupId(issueIndex),
    message: title,
    primary_hash: random.hex(32),
    project_id: project.id,
    organization_id: DEMO_ORGANIZATION_ID,
    platform: project.platform,
    datetime: payloadDatetime(timestampMs),
    retention_days: RETENTION_DAYS,
    data,
  };
}

/** Sentry's post-processing state: what Sentry's eventstream puts as the envelope's fourth element. */
function postProcessState(random: DemoRandom): Record<string, unknown> {
  return { is_new: random.int(50) === 0, is_regression: false, is_new_group_environment: random.int(20) === 0, queue: "post_process_errors", skip_consume: false, group_states: null };
}

export function errorEventMessages(windowStartMs: number, windowEndMs: number): DemoTopicSource {
  return {
    topic: "events",
    salt: 1,
    message(slot: DemoMessageSlot): DemoKafkaMessage {
      const fraction = (slot.timestampMs - windowStartMs) / Math.max(1, windowEndMs - windowStartMs);
      const event = errorEvent(slot, fraction);
      const envelope = [2, "insert", event, postProcessState(slot.random)];
      return { key: String(event.project_id), value: JSON.stringify(envelope) };
    },
  };
}

