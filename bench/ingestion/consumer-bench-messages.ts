/**
 * The ingestion consumer bench's messages, in Sentry's formats: generic-metrics counters (as on
 * `snuba-generic-metrics`) and error events (as on `events`). Message `i` is a pure function of
 * `i` and the run's clock, so the bench can build the same messages twice (once to produce, once
 * for the bare insert) without holding them. The variety is what a real topic has: several
 * organizations, projects, metrics, use cases and tags, times spread over the last hour.
 */

export interface BenchMessage {
  readonly key: string | null;
  readonly value: Buffer;
  readonly headers?: Record<string, string>;
}

const USE_CASES = ["transactions", "spans", "custom", "escalating_issues"] as const;
const ENVIRONMENTS = ["production", "staging", "development"] as const;
const TRANSACTIONS = ["GET /api/0/issues/", "POST /api/0/events/", "GET /organizations/:org/", "celery.tasks.process", "GET /api/0/projects/"] as const;
const PLATFORMS = ["python", "javascript", "java", "go", "ruby"] as const;
const LEVELS = ["error", "warning", "fatal", "info"] as const;
const EXCEPTIONS = [
  ["ValueError", "invalid literal for int() with base 10: 'abc'"],
  ["KeyError", "'organization_id'"],
  ["TypeError", "Cannot read properties of undefined (reading 'map')"],
  ["OperationalError", "could not connect to server: Connection refused"],
] as const;

/** Cheap, well-spread integer hash: the variety must not line up with the partition (index % 4). */
function spread(index: number, salt: number): number {
  let x = (index ^ (salt * 0x9e3779b9)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const pick = <T>(values: readonly T[], index: number, salt: number): T => values[spread(index, salt) % values.length]!;

/** A 32-hex-digit id unique per (index, salt). */
function hex32(index: number, salt: number): string {
  return spread(index, salt).toString(16).padStart(8, "0") + salt.toString(16).padStart(8, "0") + index.toString(16).padStart(16, "0");
}

/**
 * Counter `index`, its time within the hour before `nowSeconds`. Tag keys are indexer ids (as the
 * Sentry producer sends them), values their resolved strings.
 */
export function counterMessage(index: number, nowSeconds: number): BenchMessage {
  const timestamp = nowSeconds - (spread(index, 1) % 3600);
  const metricId = 65_000 + (spread(index, 2) % 40);
  const useCase = pick(USE_CASES, index, 3);
  const tags: Record<string, string> = {
    "9223372036854776010": pick(ENVIRONMENTS, index, 4),
    "9223372036854776017": pick(TRANSACTIONS, index, 5),
    "9223372036854776020": `backend@24.${spread(index, 6) % 12}.${spread(index, 7) % 5}`,
  };
  // Some series carry more tags than others, as real ones do.
  if (spread(index, 8) % 2 === 0) tags["9223372036854776030"] = String(200 + (spread(index, 9) % 5) * 100);
  if (spread(index, 10) % 3 === 0) tags["65689"] = `region-${spread(index, 11) % 6}`;
  const body = {
    version: 2,
    use_case_id: useCase,
    org_id: 1 + (spread(index, 12) % 20),
    project_id: 100 + (spread(index, 13) % 50),
    metric_id: metricId,
    timestamp,
    sentry_received_timestamp: timestamp + 0.25,
    tags,
    retention_days: 90,
    mapping_meta: { c: { [String(metricId)]: `c:${useCase}/count_${metricId}@none` } },
    type: "c",
    value: 1 + (spread(index, 14) % 5),
  };
  return { key: null, value: Buffer.from(JSON.stringify(body)), headers: { metric_type: "c" } };
}

/**
 * Error event `index`, an insert envelope with tags, user, SDK, contexts and a three-frame
 * exception; `datetimeMs` is the event's time (the bench's freshness phase gives the produce time).
 */
export function errorMessage(index: number, datetimeMs: number): BenchMessage {
  const projectId = 100 + (spread(index, 21) % 50);
  const [exceptionType, exceptionValue] = pick(EXCEPTIONS, index, 22);
  const platform = pick(PLATFORMS, index, 23);
  const environment = pick(ENVIRONMENTS, index, 24);
  const release = `backend@24.${spread(index, 25) % 12}.0`;
  const transaction = pick(TRANSACTIONS, index, 26);
  const level = pick(LEVELS, index, 27);
  const userId = String(spread(index, 28) % 5000);
  const group = spread(index, 29) % 500;
  const body = {
    event_id: hex32(index, 30),
    group_id: 1 + group,
    message: `${exceptionType}: ${exceptionValue}`,
    primary_hash: hex32(group, 31),
    project_id: projectId,
    datetime: new Date(datetimeMs).toISOString(),
    platform,
    retention_days: 90,
    data: {
      received: datetimeMs / 1000 + 0.5,
      type: "error",
      title: `${exceptionType}: ${exceptionValue}`,
      culprit: `app.handlers in ${transaction}`,
      level,
      tags: [
        ["environment", environment],
        ["release", release],
        ["level", level],
        ["transaction", transaction],
        ["server_name", `web-${spread(index, 32) % 8}`],
        ["browser.name", pick(["Chrome", "Firefox", "Safari"], index, 33)],
        ["sentry:user", `id:${userId}`],
      ],
      user: { id: userId, email: `user${userId}@example.com`, ip_address: `10.0.${spread(index, 34) % 256}.${spread(index, 35) % 256}` },
      sdk: { name: `sentry.${platform}`, version: "2.14.0", integrations: ["logging", "threading"] },
      contexts: {
        trace: { trace_id: hex32(index, 36), span_id: hex32(index, 37).slice(0, 16), sampled: true },
        runtime: { name: "CPython", version: "3.12.4" },
        os: { name: "Linux", version: "6.1" },
      },
      exception: {
        values: [
          {
            type: exceptionType,
            value: exceptionValue,
            mechanism: { type: "generic", handled: spread(index, 38) % 4 !== 0 },
            stacktrace: {
              frames: [
                { abs_path: "/app/server/wsgi.py", filename: "server/wsgi.py", module: "server.wsgi", function: "handle", lineno: 41, in_app: false },
                { abs_path: "/app/app/handlers.py", filename: "app/handlers.py", module: "app.handlers", function: "dispatch", lineno: 120 + (spread(index, 39) % 40), in_app: true },
                { abs_path: "/app/app/models.py", filename: "app/models.py", module: "app.models", function: "load", lineno: 88, colno: 12, in_app: true },
              ],
            },
          },
        ],
      },
    },
  };
  // Sentry's producer keys `events` by project: a project's events stay in order on one partition.
  return { key: String(projectId), value: Buffer.from(JSON.stringify([2, "insert", body, { is_new: false, is_regression: false }])) };
}
