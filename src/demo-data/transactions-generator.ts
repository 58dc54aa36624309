/**
 * Transactions (`transactions_local`): API requests, page loads / navigations and background
 * tasks. Durations are log-normal around each transaction's median (overall p50 ~ 120 ms,
 * p95 ~ 900 ms); failing statuses are rarer, timeouts slower. Frontend page loads carry web
 * vitals (lcp, fcp, fp, ttfb, cls) in `measurements`; every transaction has
 * `span_op_breakdowns` and a few `spans`.
 */
import {
  DEMO_ENVIRONMENTS,
  DEMO_ENVIRONMENT_WEIGHTS,
  DEMO_PROJECTS,
  SPAN_TEMPLATES,
  TRANSACTION_STATUSES,
} from "./demo-vocabulary.js";
import { releaseIndexSql, timeOfRowBeforeSql, type DemoTimeWindow } from "./demo-time-window.js";
import type { GeneratorPlan } from "./generator-plan.js";
import {
  clientSql,
  nullIfEmpty,
  projectNumber,
  projectString,
  releaseSql,
  serverNameSql,
  USER_SQL,
  userVariables,
} from "./project-sql.js";
import {
  hash,
  hex16,
  hex32,
  nonEmptyPairs,
  normal,
  numberArray,
  pickWeightedString,
  stringArray,
  stringArrayArray,
  uniform,
  uuidFrom,
  weightedIndex,
} from "./random-sql.js";
import {
  isTaskSql,
  transactionField,
  transactionNumber,
  transactionTemplateSql,
  transactionUrlSql,
} from "./transaction-template-sql.js";

/** Spread of durations around a transaction's median (log-normal sigma). */
const DURATION_SIGMA = 0.8;
/** Durations are capped just under a minute, so every transaction starts and ends in the window. */
const MAX_DURATION_MS = 59_999;

function statusField(field: "name" | "httpStatus"): string {
  return `arrayElement(${stringArray(TRANSACTION_STATUSES.map((s) => s[field]))}, st)`;
}

export function transactionsPlan(window: DemoTimeWindow, rows: number): GeneratorPlan {
  const client = clientSql("p");
  const spanOps = stringArrayArray(DEMO_PROJECTS.map((x) => SPAN_TEMPLATES.filter((t) => t.project === x.id).map((t) => t.op)));
  const spanDescriptions = stringArrayArray(
    DEMO_PROJECTS.map((x) => SPAN_TEMPLATES.filter((t) => t.project === x.id).map((t) => t.description)),
  );
  const tags = nonEmptyPairs(
    "tag_values",
    [
      "browser",
      "browser.name",
      "device",
      "environment",
      "http.method",
      "http.status_code",
      "os",
      "os.name",
      "runtime",
      "sentry:dist",
      "sentry:release",
      "sentry:user",
      "server_name",
      "transaction",
      "transaction.op",
      "transaction.status",
      "url",
    ],
    [
      client.browser,
      client.browserName,
      client.deviceFamily,
      "env",
      "method",
      "if(method = '', '', http_status)",
      client.os,
      client.osName,
      client.runtime,
      "dist",
      "rel",
      USER_SQL.user,
      "server",
      "tx_name",
      "op",
      "status_name",
      "url",
    ],
  );
  const contexts = nonEmptyPairs(
    "context_values",
    [
      "browser.name",
      "browser.version",
      "device.family",
      "os.name",
      "os.version",
      "runtime.name",
      "runtime.version",
      "trace.op",
      "trace.span_id",
      "trace.status",
      "trace.trace_id",
    ],
    [
      client.browserName,
      client.browserVersion,
      client.deviceFamily,
      client.osName,
      client.osVersion,
      client.runtimeName,
      client.runtimeVersion,
      "op",
      hex16("span"),
      "status_name",
      hex32("trace"),
    ],
  );

  return {
    label: "transactions",
    table: "transactions_local",
    rows,
    variables: [
      ["start_s", timeOfRowBeforeSql(window, 60, 200)],
      ["p", weightedIndex(DEMO_PROJECTS.map((x) => x.transactionShare), hash(210))],
      ["tx", transactionTemplateSql("p", 211)],
      ["tx_name", transactionField((t) => t.name, "tx")],
      ["op", transactionField((t) => t.op, "tx")],
      ["method", transactionField((t) => t.method, "tx")],
      ["is_task", isTaskSql("tx")],
      ["st", weightedIndex(TRANSACTION_STATUSES.map((s) => s.weight), hash(212))],
      ["status_name", statusField("name")],
      ["http_status", statusField("httpStatus")],
      [
        "dur_ms",
        `toUInt32(least(${MAX_DURATION_MS}, greatest(1, round(${transactionNumber((t) => t.medianMs, "tx")} * exp(${DURATION_SIGMA} * ${normal(213)}) * multiIf(status_name = 'deadline_exceeded', 8, status_name = 'internal_error', 1.6, status_name = 'not_found', 0.5, 1)))))`,
      ],
      ["start_total_ms", `toUInt64(start_s) * 1000 + ${hash(215)} % 1000`],
      ["finish_total_ms", "start_total_ms + dur_ms"],
      ["env", pickWeightedString(DEMO_ENVIRONMENTS, DEMO_ENVIRONMENT_WEIGHTS, hash(216))],
      ["rel", releaseSql("p", releaseIndexSql(window, 5, "start_s", 217))],
      ["dist", projectString((x) => x.dist, "p")],
      ...userVariables("p", `NOT is_task AND ${hash(218)} % 100 < ${projectNumber((x) => [85, 70, 10][x.id - 1] ?? 50, "p")}`, 219),
      ["server", serverNameSql("p", "is_task", 220)],
      ["span", hash(221)],
      ["trace", uuidFrom("trace-transaction")],
      ["url", transactionUrlSql("tx", `1000 + ${hash(222)} % 90000`)],
      ["is_pageload", "op = 'pageload'"],
      ["ttfb", `dur_ms * (0.08 + 0.12 * ${uniform(223)})`],
      ["fcp", `ttfb + dur_ms * (0.15 + 0.2 * ${uniform(224)})`],
      ["lcp", `fcp + dur_ms * (0.05 + 0.4 * ${uniform(225)})`],
      ["span_ops", `arrayElement(${spanOps}, p)`],
      ["span_fractions", `arrayMap(i -> 0.5 * (cityHash64(number, 226, i) % 1000) / 1000 / length(span_ops), range(length(span_ops)))`],
      tags.variable,
      contexts.variable,
    ],
    columns: {
      project_id: "toUInt64(p)",
      event_id: uuidFrom("transaction"),
      trace_id: "trace",
      span_id: "span",
      transaction_name: "tx_name",
      transaction_op: "op",
      transaction_status: `toUInt8(arrayElement(${numberArray(TRANSACTION_STATUSES.map((s) => s.code))}, st))`,
      start_ts: "toDateTime(intDiv(start_total_ms, 1000))",
      start_ms: "toUInt16(start_total_ms % 1000)",
      finish_ts: "toDateTime(intDiv(finish_total_ms, 1000))",
      finish_ms: "toUInt16(finish_total_ms % 1000)",
      duration: "dur_ms",
      platform: projectString((x) => x.platform, "p"),
      environment: "env",
      release: "rel",
      dist: nullIfEmpty("dist"),
      ip_address_v4: "if(u_has, u_ip, NULL)",
      user: USER_SQL.user,
      user_id: USER_SQL.userId,
      user_name: USER_SQL.userName,
      user_email: USER_SQL.userEmail,
      sdk_name: projectString((x) => x.sdkName, "p"),
      sdk_version: projectString((x) => x.sdkVersion, "p"),
      http_method: nullIfEmpty("method"),
      http_referer: "if(p = 2, 'https://app.example.com/', NULL)",
      "tags.key": tags.keys,
      "tags.value": tags.values,
      "contexts.key": contexts.keys,
      "contexts.value": contexts.values,
      "measurements.key": "if(is_pageload, ['cls', 'fcp', 'fp', 'lcp', 'ttfb'], [])",
      "measurements.value": `if(is_pageload, [round(0.4 * pow(${uniform(227)}, 3), 3), round(fcp, 1), round(fcp * 0.97, 1), round(lcp, 1), round(ttfb, 1)], [])`,
      "span_op_breakdowns.key": "if(p = 2, ['ops.browser', 'ops.http', 'ops.resource'], ['ops.db', 'ops.http'])",
      "span_op_breakdowns.value": `arrayMap(f -> round(dur_ms * f, 1), if(p = 2, [0.1 + 0.2 * ${uniform(228)}, 0.3 * ${uniform(229)}, 0.2 * ${uniform(230)}], [0.15 + 0.45 * ${uniform(228)}, 0.2 * ${uniform(229)}]))`,
      "spans.op": "span_ops",
      "spans.group": `arrayMap(d -> cityHash64(d), arrayElement(${spanDescriptions}, p))`,
      "spans.exclusive_time": "arrayMap(f -> round(dur_ms * f, 3), span_fractions)",
      "spans.exclusive_time_32": "arrayMap(f -> toFloat32(round(dur_ms * f, 3)), span_fractions)",
      partition: "toUInt16(0)",
      offset: "number",
      message_timestamp: `toDateTime(least(intDiv(finish_total_ms, 1000) + 2, ${window.end - 1}))`,
      retention_days: "toUInt16(90)",
      deleted: "toUInt8(0)",
      transaction_source: transactionField((t) => t.source, "tx"),
      group_ids: "[]",
      app_start_type: "''",
      profile_id: `if(p != 2 AND ${hash(231)} % 100 < 15, ${uuidFrom("profile")}, NULL)`,
      profiler_id: "NULL",
      replay_id: `if(p = 2 AND ${hash(232)} % 5 = 0, ${uuidFrom("replay", "intDiv(number, 4)")}, NULL)`,
    },
  };
}
