/**
 * Error events (`errors_local`): one row per event, issues picked per project and level with a
 * skew (a few noisy issues, a long tail), users and browsers stable per user, releases rolling
 * out over the window. Tag values always agree with the promoted columns
 * (tags[environment] = environment, tags[sentry:release] = release, tags[level] = level, ...).
 */
import {
  DEMO_ENVIRONMENTS,
  DEMO_ENVIRONMENT_WEIGHTS,
  DEMO_LEVELS,
  DEMO_LEVEL_WEIGHTS,
  DEMO_PROJECTS,
  FEATURE_FLAGS,
  FRAMEWORK_FRAMES,
  ISSUE_TEMPLATES,
  issueGroupId,
} from "./demo-vocabulary.js";
import { releaseIndexSql, timeOfRowSql, type DemoTimeWindow } from "./demo-time-window.js";
import type { GeneratorPlan } from "./generator-plan.js";
import {
  clientSql,
  nullIfEmpty,
  projectNumber,
  projectString,
  projectStrings,
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
  numberArray,
  numberArrayArray,
  pickWeightedString,
  skewedIndex,
  stringArray,
  stringArrayArray,
  uuidFrom,
  weightedIndex,
} from "./random-sql.js";
import { isTaskSql, issueTransactionSql, transactionField, transactionUrlSql } from "./transaction-template-sql.js";

/** Template indices (1-based) per (project, level), flattened as (project - 1) * 4 + level. */
function templatesByProjectAndLevel(): number[][] {
  const lists: number[][] = [];
  for (const project of DEMO_PROJECTS) {
    for (const level of DEMO_LEVELS) {
      const list = ISSUE_TEMPLATES.flatMap((t, i) => (t.project === project.id && t.level === level ? [i + 1] : []));
      if (list.length === 0) throw new Error(`no issue template for project ${project.id}, level ${level}`);
      lists.push(list);
    }
  }
  return lists;
}

function templateString(field: (t: (typeof ISSUE_TEMPLATES)[number]) => string): string {
  return `arrayElement(${stringArray(ISSUE_TEMPLATES.map(field))}, tpl)`;
}

function frameworkStrings(field: "module" | "function" | "filename"): string {
  return `arrayElement(${stringArrayArray(DEMO_PROJECTS.map((p) => (FRAMEWORK_FRAMES[p.id] ?? []).map((f) => f[field])))}, p)`;
}

/** Where the project's code lives, for `abs_path`. */
const ABS_PATH_PREFIX = ["/usr/src/app/", "https://static.example.com/", "/srv/worker/"];

export function eventsPlan(window: DemoTimeWindow, rows: number): GeneratorPlan {
  const client = clientSql("p");
  const tags = nonEmptyPairs(
    "tag_values",
    [
      "browser",
      "browser.name",
      "device",
      "environment",
      "handled",
      "level",
      "mechanism",
      "os",
      "os.name",
      "runtime",
      "runtime.name",
      "sentry:dist",
      "sentry:release",
      "sentry:user",
      "server_name",
      "transaction",
      "url",
    ],
    [
      client.browser,
      client.browserName,
      client.deviceFamily,
      "env",
      "if(is_exc, if(handled, 'yes', 'no'), '')",
      "lvl",
      "if(is_exc, mechanism, '')",
      client.os,
      client.osName,
      client.runtime,
      client.runtimeName,
      "dist",
      "rel",
      USER_SQL.user,
      "server",
      "tx_name",
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
      transactionField((t) => t.op, "tx"),
      hex16("span"),
      hex32("trace"),
    ],
  );
  const frames = (app: string, framework: string) => `if(is_exc, arrayConcat(${framework}, [${app}]), [])`;
  const flagKeys = stringArray(FEATURE_FLAGS);

  return {
    label: "events",
    table: "errors_local",
    rows,
    variables: [
      ["ts", timeOfRowSql(window, 100)],
      ["ms", `${hash(103)} % 1000`],
      ["p", weightedIndex(DEMO_PROJECTS.map((x) => x.eventShare), hash(110))],
      ["lvl_i", weightedIndex(DEMO_LEVEL_WEIGHTS, hash(111))],
      ["tpl_list", `arrayElement(${numberArrayArray(templatesByProjectAndLevel())}, (p - 1) * 4 + lvl_i)`],
      ["tpl", `arrayElement(tpl_list, 1 + ${skewedIndex("length(tpl_list)", 1.8, 112)})`],
      ["lvl", `arrayElement(${stringArray(DEMO_LEVELS)}, lvl_i)`],
      ["gid", `toUInt64(${issueGroupId(0) - 1} + tpl)`],
      ["exc_type", templateString((t) => t.type ?? "")],
      ["is_exc", "exc_type != ''"],
      ["exc_value", templateString((t) => t.value)],
      ["handled", `arrayElement(${numberArray(ISSUE_TEMPLATES.map((t) => (t.handled ? 1 : 0)))}, tpl)`],
      ["mechanism", templateString((t) => t.mechanism)],
      ["title", "if(is_exc, if(exc_value = '', exc_type, concat(exc_type, ': ', exc_value)), exc_value)"],
      ["env", pickWeightedString(DEMO_ENVIRONMENTS, DEMO_ENVIRONMENT_WEIGHTS, hash(114))],
      ["rel", releaseSql("p", releaseIndexSql(window, 5, "ts", 115))],
      ["dist", projectString((x) => x.dist, "p")],
      ...userVariables("p", `${hash(116)} % 100 < ${projectNumber((x) => [92, 85, 40][x.id - 1] ?? 50, "p")}`, 117),
      ["tx", issueTransactionSql("tpl", "p", 118)],
      ["tx_name", transactionField((t) => t.name, "tx")],
      ["server", serverNameSql("p", isTaskSql("tx"), 121)],
      ["span", hash(122)],
      ["trace", uuidFrom("trace-error")],
      ["url_id", `1000 + ${hash(123)} % 90000`],
      ["recv", `toUInt32(least(ts + ${hash(124)} % 6, ${window.end - 1}))`],
      ["url", transactionUrlSql("tx", "url_id")],
      tags.variable,
      contexts.variable,
    ],
    columns: {
      project_id: "toUInt64(p)",
      timestamp: "toDateTime(ts)",
      event_id: uuidFrom("event"),
      platform: projectString((x) => x.platform, "p"),
      environment: "env",
      release: "rel",
      dist: nullIfEmpty("dist"),
      ip_address_v4: `if(u_has OR p = 2, if(u_has, u_ip, toIPv4(toUInt32(${hash(125)} % 4294967296))), NULL)`,
      user: USER_SQL.user,
      user_id: USER_SQL.userId,
      user_name: USER_SQL.userName,
      user_email: USER_SQL.userEmail,
      sdk_name: projectString((x) => x.sdkName, "p"),
      sdk_version: projectString((x) => x.sdkVersion, "p"),
      http_method: nullIfEmpty(transactionField((t) => t.method, "tx")),
      http_referer: "if(p = 2, 'https://app.example.com/', NULL)",
      "tags.key": tags.keys,
      "tags.value": tags.values,
      "flags.key": `if(p = 2, ${flagKeys}, [])`,
      "flags.value": `if(p = 2, arrayMap(i -> if(cityHash64(u_num, i) % 3 = 0, 'false', 'true'), range(${FEATURE_FLAGS.length})), [])`,
      "contexts.key": contexts.keys,
      "contexts.value": contexts.values,
      transaction_name: "tx_name",
      span_id: "span",
      trace_id: "trace",
      partition: "toUInt16(0)",
      offset: "number",
      message_timestamp: "toDateTime(recv)",
      retention_days: "toUInt16(90)",
      deleted: "toUInt8(0)",
      group_id: "gid",
      primary_hash: uuidFrom("group", "gid"),
      received: "toDateTime(recv)",
      message: "title",
      title: "title",
      culprit: templateString((t) => t.culprit),
      level: "lvl",
      location: `if(is_exc, ${templateString((t) => t.filename)}, NULL)`,
      version: "'7'",
      type: "if(is_exc, 'error', 'default')",
      "exception_stacks.type": "if(is_exc, [exc_type], [])",
      "exception_stacks.value": "if(is_exc, [exc_value], [])",
      "exception_stacks.mechanism_type": "if(is_exc, [mechanism], [])",
      "exception_stacks.mechanism_handled": "if(is_exc, [toUInt8(handled)], [])",
      "exception_frames.abs_path": `if(is_exc, arrayMap(f -> concat(arrayElement(${stringArray(ABS_PATH_PREFIX)}, p), f), arrayConcat(${frameworkStrings("filename")}, [${templateString((t) => t.filename)}])), [])`,
      "exception_frames.colno": `if(is_exc, arrayMap(i -> if(p = 1, NULL, toUInt32(1 + cityHash64(number, i) % 120)), range(3)), [])`,
      "exception_frames.filename": frames(templateString((t) => t.filename), frameworkStrings("filename")),
      "exception_frames.function": frames(templateString((t) => t.function), frameworkStrings("function")),
      "exception_frames.lineno": `if(is_exc, arrayConcat(arrayElement(${numberArrayArray(DEMO_PROJECTS.map((x) => (FRAMEWORK_FRAMES[x.id] ?? []).map((f) => f.lineno)))}, p), [arrayElement(${numberArray(ISSUE_TEMPLATES.map((t) => t.lineno))}, tpl)]), [])`,
      "exception_frames.in_app": "if(is_exc, [toUInt8(0), toUInt8(0), toUInt8(1)], [])",
      "exception_frames.package": "if(is_exc, [NULL, NULL, NULL], [])",
      "exception_frames.module": frames(templateString((t) => t.module), frameworkStrings("module")),
      "exception_frames.stack_level": "if(is_exc, [toUInt16(0), toUInt16(1), toUInt16(2)], [])",
      exception_main_thread: "NULL",
      sdk_integrations: projectStrings((x) => x.sdkIntegrations, "p"),
      "modules.name": projectStrings((x) => x.modules.map(([name]) => name), "p"),
      "modules.version": projectStrings((x) => x.modules.map(([, version]) => version), "p"),
      trace_sampled: "toUInt8(1)",
      num_processing_errors: "toUInt64(0)",
      replay_id: `if(p = 2 AND ${hash(126)} % 5 = 0, ${uuidFrom("replay", "intDiv(number, 3)")}, NULL)`,
      symbolicated_in_app: "if(p = 2 AND is_exc, toUInt8(1), NULL)",
      timestamp_ms: "toDateTime64(ts + ms / 1000, 3)",
      group_first_seen: `toDateTime(${window.start} - cityHash64(gid, 7) % ${60 * 86_400})`,
    },
  };
}
