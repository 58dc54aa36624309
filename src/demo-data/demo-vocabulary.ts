/**
 * The words the demo data is made of: one organization with three projects (a Python/Django
 * backend, a React frontend, a Node worker), their releases, users, issues and transactions.
 * The generators index these lists with hashes, so changing a list changes the data.
 */

export const DEMO_ORGANIZATION_ID = 1;

export interface DemoProject {
  readonly id: number;
  readonly slug: string;
  readonly platform: string;
  readonly sdkName: string;
  readonly sdkVersion: string;
  readonly sdkIntegrations: readonly string[];
  readonly releasePackage: string;
  /** Oldest first; later ones roll out over the 14 days. */
  readonly releases: readonly string[];
  readonly dist: string | null;
  /** Hosts serving HTTP requests, and hosts running background tasks (none for the frontend). */
  readonly serverNames: { readonly http: readonly string[]; readonly task: readonly string[] };
  readonly runtime: { readonly name: string; readonly version: string } | null;
  readonly modules: readonly (readonly [string, string])[];
  /** Share of the events / transactions that belong to this project. */
  readonly eventShare: number;
  readonly transactionShare: number;
}

export const DEMO_PROJECTS: readonly DemoProject[] = [
  {
    id: 1,
    slug: "backend",
    platform: "python",
    sdkName: "sentry.python.django",
    sdkVersion: "2.19.2",
    sdkIntegrations: ["django", "celery", "redis", "logging", "stdlib", "threading"],
    releasePackage: "backend",
    releases: ["backend@1.2.0", "backend@1.2.1", "backend@1.2.2", "backend@1.2.3", "backend@1.3.0"],
    dist: null,
    serverNames: { http: ["web-1", "web-2", "web-3", "web-4"], task: ["worker-1", "worker-2"] },
    runtime: { name: "CPython", version: "3.12.4" },
    modules: [
      ["django", "5.0.6"],
      ["celery", "5.4.0"],
      ["redis", "5.0.7"],
      ["psycopg2-binary", "2.9.9"],
    ],
    eventShare: 45,
    transactionShare: 50,
  },
  {
    id: 2,
    slug: "frontend",
    platform: "javascript",
    sdkName: "sentry.javascript.react",
    sdkVersion: "8.33.1",
    sdkIntegrations: ["BrowserTracing", "Replay", "BrowserApiErrors", "Breadcrumbs", "GlobalHandlers"],
    releasePackage: "frontend",
    releases: ["frontend@2.4.0", "frontend@2.4.1", "frontend@2.5.0", "frontend@2.5.1", "frontend@2.6.0"],
    dist: "web",
    serverNames: { http: [], task: [] },
    runtime: null,
    modules: [],
    eventShare: 35,
    transactionShare: 25,
  },
  {
    id: 3,
    slug: "worker",
    platform: "node",
    sdkName: "sentry.javascript.node",
    sdkVersion: "8.33.1",
    sdkIntegrations: ["Http", "Express", "Postgres", "OnUncaughtException", "OnUnhandledRejection"],
    releasePackage: "worker",
    releases: ["worker@0.9.0", "worker@0.9.1", "worker@0.9.2", "worker@0.10.0", "worker@0.10.1"],
    dist: null,
    serverNames: { http: ["node-api-a", "node-api-b"], task: ["node-worker-a", "node-worker-b", "node-worker-c"] },
    runtime: { name: "node", version: "v20.17.0" },
    modules: [
      ["express", "4.21.0"],
      ["pg", "8.13.0"],
      ["bullmq", "5.13.2"],
    ],
    eventShare: 20,
    transactionShare: 25,
  },
];

export const DEMO_ENVIRONMENTS = ["production", "staging", "development"] as const;
export const DEMO_ENVIRONMENT_WEIGHTS = [80, 15, 5] as const;

export const DEMO_LEVELS = ["error", "warning", "info", "fatal"] as const;
export type DemoLevel = (typeof DEMO_LEVELS)[number];
/** error ~70%, warning ~17%, info ~8%, fatal ~5% of events. */
export const DEMO_LEVEL_WEIGHTS = [70, 17, 8, 5] as const;

export const FIRST_NAMES = [
  "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger",
  "Radia", "Guido", "Hedy", "Tim", "Katherine", "Bjarne", "Anita", "James", "Sophie", "Yukihiro",
];
export const LAST_NAMES = [
  "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen",
  "Dijkstra", "Perlman", "van Rossum", "Lamarr", "Berners-Lee", "Johnson", "Stroustrup", "Borg",
  "Gosling", "Wilson", "Matsumoto",
];
/** Users per project; user indices are skewed so a few users are very active. */
export const USERS_PER_PROJECT = 2_000;

export const BROWSERS = [
  { name: "Chrome", version: "129.0.0", weight: 64 },
  { name: "Safari", version: "17.6", weight: 18 },
  { name: "Firefox", version: "131.0", weight: 10 },
  { name: "Edge", version: "129.0.0", weight: 8 },
] as const;

export const CLIENT_OSES = [
  { name: "Windows", version: "10", device: "Other", weight: 45 },
  { name: "Mac OS X", version: "14.6", device: "Mac", weight: 30 },
  { name: "iOS", version: "17.6.1", device: "iPhone", weight: 12 },
  { name: "Android", version: "14", device: "Pixel 8", weight: 8 },
  { name: "Linux", version: "", device: "Other", weight: 5 },
] as const;

export const SERVER_OS = { name: "Linux", version: "6.1.0" } as const;

/** An issue: one group (fingerprint) of events. */
export interface IssueTemplate {
  readonly project: number;
  readonly level: DemoLevel;
  /** Exception type; null for a captured message (event type `default`). */
  readonly type: string | null;
  readonly value: string;
  readonly culprit: string;
  readonly handled: boolean;
  readonly mechanism: string;
  readonly module: string;
  readonly function: string;
  readonly filename: string;
  readonly lineno: number;
  /** The transaction the issue happens in (a TRANSACTION_TEMPLATES name); null: any of the project's. */
  readonly transaction: string | null;
}

function issue(
  project: number,
  level: DemoLevel,
  type: string | null,
  value: string,
  culprit: string,
  handled: boolean,
  mechanism: string,
  frame: [module: string, fn: string, filename: string, lineno: number],
  transaction: string | null = null,
): IssueTemplate {
  const [module, fn, filename, lineno] = frame;
  return { project, level, type, value, culprit, handled, mechanism, module, function: fn, filename, lineno, transaction };
}

/** Per project and level, hot issues first (issues are picked with a skew towards the head). */
export const ISSUE_TEMPLATES: readonly IssueTemplate[] = [
  // backend (Python)
  issue(1, "error", "KeyError", "'organization_id'", "api.endpoints.project_details in get", false, "django",
    ["api.endpoints.project_details", "get", "api/endpoints/project_details.py", 88], "GET /api/0/projects/{organization_slug}/{project_slug}/"),
  issue(1, "error", "OperationalError", "could not connect to server: Connection refused", "db.utils in __exit__", false, "django",
    ["django.db.utils", "__exit__", "django/db/utils.py", 91]),
  issue(1, "error", "ValueError", "invalid literal for int() with base 10: 'latest'", "api.endpoints.release_details in get", true, "generic",
    ["api.endpoints.release_details", "get", "api/endpoints/release_details.py", 42]),
  issue(1, "error", "IntegrityError", "duplicate key value violates unique constraint \"sentry_team_slug\"", "api.endpoints.teams in post", true, "generic",
    ["api.endpoints.teams", "post", "api/endpoints/teams.py", 120]),
  issue(1, "error", "TimeoutError", "Redis command timed out after 5.0s", "tasks.process_event in run", false, "celery",
    ["tasks.process_event", "run", "tasks/process_event.py", 57], "sentry.tasks.process_event"),
  issue(1, "error", "PermissionDenied", "You do not have permission to perform this action.", "api.permissions in has_object_permission", true, "generic",
    ["api.permissions", "has_object_permission", "api/permissions.py", 33], "PUT /api/0/issues/{issue_id}/"),
  issue(1, "warning", null, "Slow query detected: SELECT ... FROM sentry_groupedmessage took 2.4s", "db.monitor in log_slow_query", true, "logging",
    ["db.monitor", "log_slow_query", "db/monitor.py", 19], "GET /api/0/organizations/{organization_slug}/issues/"),
  issue(1, "warning", null, "Deprecated API version v0 used by client", "api.base in dispatch", true, "logging",
    ["api.base", "dispatch", "api/base.py", 210]),
  issue(1, "info", null, "Cache stampede on project config, rebuilding", "relay.config in get_project_config", true, "logging",
    ["relay.config", "get_project_config", "relay/config.py", 74], "POST /api/0/projects/{organization_slug}/{project_slug}/events/"),
  issue(1, "fatal", "MemoryError", "", "tasks.digests in build_digest", false, "celery",
    ["tasks.digests", "build_digest", "tasks/digests.py", 130], "sentry.tasks.send_digest_email"),
  issue(1, "fatal", "WorkerLostError", "Worker exited prematurely: signal 9 (SIGKILL).", "celery.worker in on_exit", false, "celery",
    ["celery.worker", "on_exit", "celery/worker/request.py", 551], "sentry.tasks.process_event"),
  // frontend (JavaScript)
  issue(2, "error", "TypeError", "Cannot read properties of undefined (reading 'map')", "app/views/issueList/overview", false, "onerror",
    ["app/views/issueList/overview", "renderGroups", "app/views/issueList/overview.tsx", 412], "/issues/"),
  issue(2, "error", "ChunkLoadError", "Loading chunk 1234 failed.", "app/utils/retryableImport", false, "onunhandledrejection",
    ["app/utils/retryableImport", "retryableImport", "app/utils/retryableImport.tsx", 21]),
  issue(2, "error", "TypeError", "Failed to fetch", "app/api in Client.request", true, "generic",
    ["app/api", "request", "app/api.tsx", 318]),
  issue(2, "error", "ReferenceError", "ResizeObserver is not defined", "app/components/charts/baseChart", false, "onerror",
    ["app/components/charts/baseChart", "useChartSize", "app/components/charts/baseChart.tsx", 97], "/dashboards/"),
  issue(2, "error", "SyntaxError", "Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON", "app/api in parseResponse", true, "generic",
    ["app/api", "parseResponse", "app/api.tsx", 402]),
  issue(2, "warning", null, "ResizeObserver loop completed with undelivered notifications.", "app/bootstrap", true, "console",
    ["app/bootstrap", "onWindowError", "app/bootstrap/index.tsx", 55]),
  issue(2, "warning", null, "Slow render: IssueList took 480ms", "app/views/issueList/overview", true, "console",
    ["app/views/issueList/overview", "render", "app/views/issueList/overview.tsx", 388], "/issues/"),
  issue(2, "info", null, "User switched organization", "app/actionCreators/organization", true, "console",
    ["app/actionCreators/organization", "switchOrganization", "app/actionCreators/organization.tsx", 64], "/settings/:orgId/projects/"),
  issue(2, "fatal", "RangeError", "Maximum call stack size exceeded", "app/utils/tree in walk", false, "onerror",
    ["app/utils/tree", "walk", "app/utils/tree.tsx", 12], "/performance/"),
  // worker (Node)
  issue(3, "error", "Error", "connect ECONNREFUSED 10.0.3.17:5432", "pg-pool in Pool.connect", false, "onunhandledrejection",
    ["pg-pool", "connect", "node_modules/pg-pool/index.js", 45]),
  issue(3, "error", "GitHubWebhookError", "signature mismatch for delivery", "src/webhooks/github in verifySignature", true, "generic",
    ["src/webhooks/github", "verifySignature", "src/webhooks/github.ts", 38], "POST /webhooks/github"),
  issue(3, "error", "TypeError", "Cannot destructure property 'id' of 'job.data' as it is undefined.", "src/jobs/processInvoice", false, "onunhandledrejection",
    ["src/jobs/processInvoice", "processInvoice", "src/jobs/processInvoice.ts", 17], "process-invoices"),
  issue(3, "error", "AbortError", "The operation was aborted due to timeout", "src/clients/billing in charge", true, "generic",
    ["src/clients/billing", "charge", "src/clients/billing.ts", 73], "process-invoices"),
  issue(3, "warning", null, "Job sync-users retried 3 times", "src/queue in onFailed", true, "console",
    ["src/queue", "onFailed", "src/queue.ts", 88], "sync-users"),
  issue(3, "info", null, "Queue drained", "src/queue in onDrained", true, "console",
    ["src/queue", "onDrained", "src/queue.ts", 102]),
  issue(3, "fatal", "Error", "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", "src/jobs/syncUsers in buildBatch", false, "onuncaughtexception",
    ["src/jobs/syncUsers", "buildBatch", "src/jobs/syncUsers.ts", 140], "sync-users"),
];

/** group_id of the i-th template (0-based). */
export function issueGroupId(templateIndex: number): number {
  return 1001 + templateIndex;
}

/** Framework frames under the app frame, per project (outermost first). */
export const FRAMEWORK_FRAMES: Readonly<Record<number, readonly { module: string; function: string; filename: string; lineno: number }[]>> = {
  1: [
    { module: "django.core.handlers.exception", function: "inner", filename: "django/core/handlers/exception.py", lineno: 55 },
    { module: "django.core.handlers.base", function: "_get_response", filename: "django/core/handlers/base.py", lineno: 197 },
  ],
  2: [
    { module: "react-dom", function: "renderWithHooks", filename: "node_modules/react-dom/cjs/react-dom.production.min.js", lineno: 1 },
    { module: "react-dom", function: "performUnitOfWork", filename: "node_modules/react-dom/cjs/react-dom.production.min.js", lineno: 1 },
  ],
  3: [
    { module: "node:internal/process/task_queues", function: "processTicksAndRejections", filename: "node:internal/process/task_queues", lineno: 95 },
    { module: "bullmq", function: "Worker.processJob", filename: "node_modules/bullmq/dist/cjs/classes/worker.js", lineno: 412 },
  ],
};

/** A kind of transaction (an endpoint, a page, a task). */
export interface TransactionTemplate {
  readonly project: number;
  readonly name: string;
  readonly op: string;
  readonly source: string;
  readonly method: string | null;
  /** Median duration in milliseconds. */
  readonly medianMs: number;
  /** Relative traffic within the project. */
  readonly weight: number;
  /** Browser URL (frontend) or request URL path (backend); `{id}` becomes a number. */
  readonly url: string | null;
}

function tx(
  project: number,
  name: string,
  op: string,
  source: string,
  method: string | null,
  medianMs: number,
  weight: number,
  url: string | null,
): TransactionTemplate {
  return { project, name, op, source, method, medianMs, weight, url };
}

export const TRANSACTION_TEMPLATES: readonly TransactionTemplate[] = [
  tx(1, "GET /api/0/projects/{organization_slug}/{project_slug}/", "http.server", "route", "GET", 85, 30, "/api/0/projects/acme/backend/"),
  tx(1, "GET /api/0/organizations/{organization_slug}/issues/", "http.server", "route", "GET", 210, 22, "/api/0/organizations/acme/issues/"),
  tx(1, "POST /api/0/projects/{organization_slug}/{project_slug}/events/", "http.server", "route", "POST", 45, 18, "/api/0/projects/acme/backend/events/"),
  tx(1, "PUT /api/0/issues/{issue_id}/", "http.server", "route", "PUT", 95, 8, "/api/0/issues/{id}/"),
  tx(1, "DELETE /api/0/teams/{organization_slug}/{team_slug}/", "http.server", "route", "DELETE", 120, 2, "/api/0/teams/acme/platform/"),
  tx(1, "GET /api/0/users/me/", "http.server", "route", "GET", 35, 12, "/api/0/users/me/"),
  tx(1, "sentry.tasks.process_event", "task", "task", null, 140, 6, null),
  tx(1, "sentry.tasks.send_digest_email", "task", "task", null, 450, 2, null),
  tx(2, "/issues/", "pageload", "route", null, 650, 20, "https://app.example.com/issues/"),
  tx(2, "/issues/:groupId/", "navigation", "route", null, 210, 30, "https://app.example.com/issues/{id}/"),
  tx(2, "/dashboards/", "pageload", "route", null, 850, 8, "https://app.example.com/dashboards/"),
  tx(2, "/performance/", "navigation", "route", null, 280, 12, "https://app.example.com/performance/"),
  tx(2, "/settings/:orgId/projects/", "navigation", "route", null, 170, 6, "https://app.example.com/settings/acme/projects/"),
  tx(3, "POST /webhooks/github", "http.server", "route", "POST", 60, 30, "/webhooks/github"),
  tx(3, "GET /health", "http.server", "route", "GET", 6, 35, "/health"),
  tx(3, "process-invoices", "queue.process", "task", null, 260, 15, null),
  tx(3, "sync-users", "queue.process", "task", null, 520, 10, null),
  tx(3, "cleanup-stale-sessions", "db", "task", null, 900, 3, null),
];

/** Sentry's span status names and codes (transaction_status). */
export const TRANSACTION_STATUSES = [
  { name: "ok", code: 0, httpStatus: "200", weight: 925 },
  { name: "not_found", code: 5, httpStatus: "404", weight: 30 },
  { name: "internal_error", code: 13, httpStatus: "500", weight: 18 },
  { name: "permission_denied", code: 7, httpStatus: "403", weight: 10 },
  { name: "unauthenticated", code: 16, httpStatus: "401", weight: 7 },
  { name: "deadline_exceeded", code: 4, httpStatus: "504", weight: 6 },
  { name: "cancelled", code: 1, httpStatus: "499", weight: 4 },
] as const;

/** Spans inside transactions and EAP spans: op and description per project. */
export const SPAN_TEMPLATES: readonly { project: number; op: string; description: string; system: string | null }[] = [
  { project: 1, op: "db", description: "SELECT * FROM sentry_project WHERE id = %s", system: "postgresql" },
  { project: 1, op: "db", description: "SELECT * FROM sentry_groupedmessage WHERE project_id = %s LIMIT %s", system: "postgresql" },
  { project: 1, op: "db", description: "INSERT INTO sentry_eventattachment (...) VALUES (...)", system: "postgresql" },
  { project: 1, op: "cache.get", description: "project-config:{id}", system: "redis" },
  { project: 1, op: "http.client", description: "POST http://snuba:1218/query", system: null },
  { project: 2, op: "resource.script", description: "https://static.example.com/app.[hash].js", system: null },
  { project: 2, op: "http.client", description: "GET /api/0/organizations/acme/issues/", system: null },
  { project: 2, op: "ui.react.render", description: "IssueList", system: null },
  { project: 2, op: "browser", description: "domContentLoadedEvent", system: null },
  { project: 3, op: "db", description: "UPDATE invoices SET status = $1 WHERE id = $2", system: "postgresql" },
  { project: 3, op: "db", description: "SELECT * FROM users WHERE updated_at > $1", system: "postgresql" },
  { project: 3, op: "http.client", description: "POST https://api.stripe.com/v1/charges", system: null },
  { project: 3, op: "queue.publish", description: "bullmq:emails", system: null },
];

/** Log lines (EAP logs, item_type 3) per project. */
export const LOG_TEMPLATES: readonly { project: number; severity: string; severityNumber: number; body: string; logger: string }[] = [
  { project: 1, severity: "info", severityNumber: 9, body: "Processed event for project backend", logger: "sentry.tasks.process_event" },
  { project: 1, severity: "info", severityNumber: 9, body: "GET /api/0/users/me/ 200", logger: "django.request" },
  { project: 1, severity: "warn", severityNumber: 13, body: "Rate limit reached for organization acme", logger: "sentry.ratelimits" },
  { project: 1, severity: "error", severityNumber: 17, body: "Failed to send digest email: SMTP timeout", logger: "sentry.mail" },
  { project: 1, severity: "debug", severityNumber: 5, body: "Cache hit for project-config", logger: "sentry.relay.config" },
  { project: 2, severity: "info", severityNumber: 9, body: "Route changed to /issues/", logger: "app.router" },
  { project: 2, severity: "warn", severityNumber: 13, body: "Feature flag organizations:new-ui evaluated without context", logger: "app.features" },
  { project: 2, severity: "error", severityNumber: 17, body: "API request failed with status 500", logger: "app.api" },
  { project: 3, severity: "info", severityNumber: 9, body: "Job process-invoices completed", logger: "worker.queue" },
  { project: 3, severity: "info", severityNumber: 9, body: "Received GitHub webhook push", logger: "worker.webhooks" },
  { project: 3, severity: "warn", severityNumber: 13, body: "Job sync-users retrying after failure", logger: "worker.queue" },
  { project: 3, severity: "error", severityNumber: 17, body: "Database connection lost, reconnecting", logger: "worker.db" },
];

/** Feature flags evaluated by the frontend (errors' `flags` column). */
export const FEATURE_FLAGS = ["organizations:new-ui", "organizations:issue-stream-v2", "projects:replay-canvas"] as const;
