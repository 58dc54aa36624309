/**
 * Trace items (`eap_items_1_local`): spans (item_type 1) and logs (item_type 3).
 *
 * Attributes live where Snuba's EAP consumer puts them: a string attribute `k` in
 * `attributes_string_{fnv1a_32(k) % 40}`, a float in `attributes_float_{...}`, an integer in the
 * float bucket too (and in `attributes_int`), a boolean in `attributes_bool`. Every item is
 * unsampled: sampling_factor 1, sampling_weight 1, client/server sample rates 1.
 */
import { fnv1a32 } from "../clickhouse/fnv1a.js";
import {
  DEMO_ENVIRONMENTS,
  DEMO_ENVIRONMENT_WEIGHTS,
  DEMO_ORGANIZATION_ID,
  DEMO_PROJECTS,
  LOG_TEMPLATES,
  SPAN_TEMPLATES,
} from "./demo-vocabulary.js";
import { releaseIndexSql, timeOfRowBeforeSql, type DemoTimeWindow } from "./demo-time-window.js";
import type { GeneratorPlan } from "./generator-plan.js";
import { clientSql, projectString, releaseSql, serverNameSql, userVariables } from "./project-sql.js";
import {
  hash,
  hex16,
  normal,
  numberArray,
  numberArrayArray,
  pickWeightedString,
  skewedIndex,
  stringArray,
  uuidFrom,
  weightedIndex,
} from "./random-sql.js";
import { isTaskSql, transactionField, transactionNumber, transactionTemplateSql } from "./transaction-template-sql.js";

const EAP_ATTRIBUTE_BUCKETS = 40;

/** TraceItemType values (sentry_protos.snuba.v1.TraceItemType). */
const TRACE_ITEM_TYPE_SPAN = 1;
const TRACE_ITEM_TYPE_LOG = 3;

/** The bucket of an attribute name. */
function eapAttributeBucket(name: string): number {
  return fnv1a32(name) % EAP_ATTRIBUTE_BUCKETS;
}

export interface EapAttribute {
  readonly name: string;
  readonly type: "string" | "float" | "int" | "bool";
  /** SQL value. */
  readonly value: string;
  /** SQL condition for the attribute to be present; absent means always. */
  readonly present?: string;
}

/** A Map expression of some attributes (keys only where present), value cast by `cast`. */
function mapSql(attributes: readonly EapAttribute[], cast: (value: string) => string): string {
  const keys = stringArray(attributes.map((a) => a.name));
  const values = `[${attributes.map((a) => cast(a.value)).join(", ")}]`;
  if (attributes.every((a) => a.present === undefined)) return `mapFromArrays(${keys}, ${values})`;
  const conditions = `[${attributes.map((a) => (a.present === undefined ? "true" : `(${a.present})`)).join(", ")}]`;
  return `mapFromArrays(arrayFilter((k, c) -> c, ${keys}, ${conditions}), arrayFilter((v, c) -> c, ${values}, ${conditions}))`;
}

/** Columns holding the attributes: bucketed string / float maps, the int and bool maps. */
function attributeColumns(attributes: readonly EapAttribute[]): Record<string, string> {
  const columns: Record<string, string> = {};
  for (let bucket = 0; bucket < EAP_ATTRIBUTE_BUCKETS; bucket += 1) {
    const strings = attributes.filter((a) => a.type === "string" && eapAttributeBucket(a.name) === bucket);
    if (strings.length > 0) columns[`attributes_string_${bucket}`] = mapSql(strings, (v) => `toString(${v})`);
    const floats = attributes.filter((a) => (a.type === "float" || a.type === "int") && eapAttributeBucket(a.name) === bucket);
    if (floats.length > 0) columns[`attributes_float_${bucket}`] = mapSql(floats, (v) => `toFloat64(${v})`);
  }
  const ints = attributes.filter((a) => a.type === "int");
  if (ints.length > 0) columns.attributes_int = mapSql(ints, (v) => `toInt64(${v})`);
  const bools = attributes.filter((a) => a.type === "bool");
  if (bools.length > 0) columns.attributes_bool = mapSql(bools, (v) => `toBool(${v})`);
  return columns;
}

function commonColumns(itemType: number, label: string): Record<string, string> {
  return {
    organization_id: `toUInt64(${DEMO_ORGANIZATION_ID})`,
    project_id: "toUInt64(p)",
    item_type: `toUInt8(${itemType})`,
    timestamp: "toDateTime(ts)",
    trace_id: "trace",
    item_id: `reinterpretAsUInt128(MD5(concat('${label}:', toString(number))))`,
    sampling_weight: "toUInt64(1)",
    sampling_factor: "toFloat64(1)",
    client_sample_rate: "toFloat64(1)",
    server_sample_rate: "toFloat64(1)",
    retention_days: "toUInt16(90)",
    downsampled_retention_days: "toUInt16(90)",
  };
}

/**
 * Variables shared by spans and logs. Items come in traces of `perTrace` consecutive row
 * numbers: the trace (key `intDiv(number, perTrace)`) fixes the project, transaction,
 * environment, release and host, and its items are a second apart.
 */
function commonVariables(window: DemoTimeWindow, salt: number, perTrace: number): [string, string][] {
  const key = `intDiv(number, ${perTrace})`;
  return [
    ["trace_key", key],
    ["ts", `toUInt32(${timeOfRowBeforeSql(window, perTrace, salt, key)} + number % ${perTrace})`],
    ["p", weightedIndex(DEMO_PROJECTS.map((x) => x.transactionShare), hash(salt + 10, key))],
    ["env", pickWeightedString(DEMO_ENVIRONMENTS, DEMO_ENVIRONMENT_WEIGHTS, hash(salt + 11, key))],
    ["rel", releaseSql("p", releaseIndexSql(window, 5, "ts", salt + 12, key))],
    ["tx", transactionTemplateSql("p", salt + 13, key)],
    ["server", serverNameSql("p", isTaskSql("tx"), salt + 14, key)],
  ];
}

const SPAN_INDICES_BY_PROJECT = DEMO_PROJECTS.map((x) =>
  SPAN_TEMPLATES.flatMap((t, i) => (t.project === x.id ? [i + 1] : [])),
);

const SPANS_PER_TRACE = 6;
const LOGS_PER_TRACE = 4;

/** Spans: traces of six spans, a segment (the transaction) and five child spans of its project. */
export function eapSpansPlan(window: DemoTimeWindow, rows: number): GeneratorPlan {
  const client = clientSql("p");
  const spanField = (field: "op" | "description" | "system") =>
    `arrayElement(${stringArray(SPAN_TEMPLATES.map((t) => t[field] ?? ""))}, sp)`;
  const spanMedian = SPAN_TEMPLATES.map((t) =>
    t.op === "db" ? 12 : t.op.startsWith("http") ? 85 : t.op.startsWith("cache") ? 1.5 : t.op.startsWith("resource") ? 140 : 30,
  );
  const attributes: EapAttribute[] = [
    { name: "sentry.op", type: "string", value: "op" },
    { name: "sentry.description", type: "string", value: "description" },
    { name: "sentry.transaction", type: "string", value: transactionField((t) => t.name, "tx") },
    { name: "sentry.segment_name", type: "string", value: transactionField((t) => t.name, "tx") },
    { name: "sentry.environment", type: "string", value: "env" },
    { name: "sentry.release", type: "string", value: "rel" },
    { name: "sentry.platform", type: "string", value: projectString((x) => x.platform, "p") },
    { name: "sentry.sdk.name", type: "string", value: projectString((x) => x.sdkName, "p") },
    { name: "sentry.status", type: "string", value: "status" },
    { name: "sentry.segment_id", type: "string", value: hex16("segment") },
    { name: "sentry.parent_span_id", type: "string", value: hex16("segment"), present: "NOT is_segment" },
    { name: "db.system", type: "string", value: spanField("system"), present: `NOT is_segment AND ${spanField("system")} != ''` },
    { name: "browser.name", type: "string", value: client.browserName, present: "p = 2" },
    { name: "server.address", type: "string", value: "server", present: "server != ''" },
    { name: "user.id", type: "string", value: "toString(u_num)", present: "u_has" },
    { name: "sentry.duration_ms", type: "float", value: "duration_ms" },
    { name: "sentry.exclusive_time_ms", type: "float", value: "if(is_segment, duration_ms * 0.35, duration_ms)" },
    { name: "http.response.status_code", type: "int", value: "if(status = 'ok', 200, 500)", present: "startsWith(op, 'http')" },
    { name: "sentry.is_segment", type: "bool", value: "is_segment" },
  ];
  return {
    label: "eap spans",
    table: "eap_items_1_local",
    rows,
    variables: [
      ...commonVariables(window, 400, SPANS_PER_TRACE),
      ...userVariables("p", `${hash(420, "trace_key")} % 100 < 60`, 421, "trace_key"),
      ["is_segment", `number % ${SPANS_PER_TRACE} = 0`],
      [
        "sp",
        `arrayElement(arrayElement(${numberArrayArray(SPAN_INDICES_BY_PROJECT)}, p), 1 + ${skewedIndex(`length(arrayElement(${numberArrayArray(SPAN_INDICES_BY_PROJECT)}, p))`, 1.5, 423)})`,
      ],
      ["op", `if(is_segment, ${transactionField((t) => t.op, "tx")}, ${spanField("op")})`],
      ["description", `if(is_segment, ${transactionField((t) => t.name, "tx")}, ${spanField("description")})`],
      [
        "duration_ms",
        `round(least(59999, if(is_segment, ${transactionNumber((t) => t.medianMs, "tx")}, arrayElement(${numberArray(spanMedian)}, sp)) * exp(0.8 * ${normal(424)})), 3)`,
      ],
      ["status", `if(${hash(426)} % 100 < 3, 'internal_error', 'ok')`],
      ["trace", uuidFrom("trace-eap", "trace_key")],
      ["segment", hash(427, "trace_key")],
    ],
    columns: { ...commonColumns(TRACE_ITEM_TYPE_SPAN, "eap-span"), ...attributeColumns(attributes) },
  };
}

const LOG_INDICES_BY_PROJECT = DEMO_PROJECTS.map((x) => LOG_TEMPLATES.flatMap((t, i) => (t.project === x.id ? [i + 1] : [])));

/** Logs: a few hot lines per project, with severities. */
export function eapLogsPlan(window: DemoTimeWindow, rows: number): GeneratorPlan {
  const logField = (field: "severity" | "body" | "logger") => `arrayElement(${stringArray(LOG_TEMPLATES.map((t) => t[field]))}, lg)`;
  const attributes: EapAttribute[] = [
    { name: "sentry.body", type: "string", value: logField("body") },
    { name: "sentry.severity_text", type: "string", value: logField("severity") },
    { name: "sentry.severity_number", type: "int", value: `arrayElement(${numberArray(LOG_TEMPLATES.map((t) => t.severityNumber))}, lg)` },
    { name: "sentry.environment", type: "string", value: "env" },
    { name: "sentry.release", type: "string", value: "rel" },
    { name: "sentry.platform", type: "string", value: projectString((x) => x.platform, "p") },
    { name: "sentry.sdk.name", type: "string", value: projectString((x) => x.sdkName, "p") },
    { name: "sentry.transaction", type: "string", value: transactionField((t) => t.name, "tx") },
    { name: "logger.name", type: "string", value: logField("logger") },
    { name: "server.address", type: "string", value: "server", present: "server != ''" },
  ];
  return {
    label: "eap logs",
    table: "eap_items_1_local",
    rows,
    variables: [
      ...commonVariables(window, 450, LOGS_PER_TRACE),
      [
        "lg",
        `arrayElement(arrayElement(${numberArrayArray(LOG_INDICES_BY_PROJECT)}, p), 1 + ${skewedIndex(`length(arrayElement(${numberArrayArray(LOG_INDICES_BY_PROJECT)}, p))`, 1.6, 470)})`,
      ],
      ["trace", uuidFrom("trace-eap-log", "trace_key")],
    ],
    columns: { ...commonColumns(TRACE_ITEM_TYPE_LOG, "eap-log"), ...attributeColumns(attributes) },
  };
}
