/**
 * A transaction's contexts and user as the transactions processor stores them:
 * - the user's `geo` becomes the `geo` context unless the event sends one;
 * - app.start_type, profile.profile_id/profiler_id and replay.replay_id get columns (the replay
 *   id also the `replayId` tag when there is none) and leave the contexts;
 * - the trace context loses trace_id, span_id, hash, exclusive_time and data (data's
 *   `thread.id` stays as `thread_id`);
 * - every context object is flattened, in the order the event lists contexts and fields, to
 *   "<context>.<field>" for string, number and boolean values that are not empty (`type` skipped,
 *   numbers and booleans as Python prints them).
 */
import { InvalidMessage } from "../message-processor.js";
import { ipColumns, type IpColumns } from "./ip-address.js";
import { isJsonObject, JsonNumber, type JsonObject, type JsonValue } from "./lossless-json.js";
import { pythonStr, pythonUnicodify } from "./python-value-text.js";
import { dictOrEmpty, dictOrRefuse, truthy } from "./python-values.js";
import { pythonUuid } from "./uuid-text.js";

export interface TransactionContexts extends IpColumns {
  readonly keys: string[];
  readonly values: string[];
  readonly app_start_type: string | null;
  readonly profile_id: string | null;
  readonly profiler_id: string | null;
  /** From the replay context (hyphenated); null when it has none. */
  readonly replayId: string | null;
  readonly user_id: string | null;
  readonly user_name: string | null;
  readonly user_email: string | null;
}

function uuidOrRefuse(value: JsonValue, path: string): string {
  const uuid = typeof value === "string" ? pythonUuid(value) : null;
  if (uuid === null) throw new InvalidMessage(`${path} must be a UUID`);
  return uuid;
}

/** `context.get(key)` for a context Python reads with `.get` when it is not None. */
function member(contexts: JsonObject, name: string, key: string): JsonValue | undefined {
  const context = contexts.get(name);
  if (context === undefined || context === null) return undefined;
  return dictOrRefuse(context, `data.contexts.${name}`).get(key);
}

/** The contexts without the fields that went to columns (a copy: the event is not changed). */
function sanitized(contexts: JsonObject): JsonObject {
  const copy: JsonObject = new Map(contexts);
  const without = (name: string, fields: string[], edit?: (context: JsonObject) => void) => {
    const context = copy.get(name);
    if (!isJsonObject(context)) return;
    const trimmed: JsonObject = new Map(context);
    for (const field of fields) trimmed.delete(field);
    edit?.(trimmed);
    copy.set(name, trimmed);
  };
  without("trace", ["trace_id", "span_id", "data", "hash", "exclusive_time"], (trace) => {
    const data = (contexts.get("trace") as JsonObject).get("data");
    if (isJsonObject(data) && data.has("thread.id")) trace.set("thread_id", pythonStr(data.get("thread.id") ?? null));
  });
  without("app", ["start_type"]);
  without("profile", ["profile_id", "profiler_id"]);
  without("replay", ["replay_id"]);
  return copy;
}

function flattened(contexts: JsonObject): { keys: string[]; values: string[] } {
  const keys: string[] = [];
  const values: string[] = [];
  for (const [name, context] of contexts) {
    if (!isJsonObject(context)) continue;
    for (const [field, value] of context) {
      if (field === "type") continue;
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean" && !(value instanceof JsonNumber)) continue;
      const text = pythonUnicodify(value);
      if (text === null || text === "") continue;
      keys.push(`${name}.${field}`);
      values.push(text);
    }
  }
  return { keys, values };
}

/** `contexts` is data.contexts (an object: the processor has read its trace context already). */
export function transactionContexts(contexts: JsonObject, data: JsonObject): TransactionContexts {
  // data.get("user", data.get("sentry.interfaces.User")) or {}
  const user = dictOrEmpty(data.has("user") ? data.get("user") : data.get("sentry.interfaces.User"), "data.user");
  // (user.get("geo") or {}) joins the contexts only when it is a dict and no `geo` context is sent.
  const geo = truthy(user.get("geo")) ? user.get("geo") : new Map<string, JsonValue>();
  const withGeo: JsonObject = contexts.has("geo") || !isJsonObject(geo) ? contexts : new Map([...contexts, ["geo", geo]]);

  const startType = member(withGeo, "app", "start_type");
  const profileId = member(withGeo, "profile", "profile_id");
  const profilerId = member(withGeo, "profile", "profiler_id");
  const replayId = member(withGeo, "replay", "replay_id");

  const { keys, values } = withGeo.size === 0 ? { keys: [], values: [] } : flattened(sanitized(withGeo));
  return {
    keys,
    values,
    app_start_type: startType === undefined || startType === null ? null : pythonUnicodify(startType),
    profile_id: profileId === undefined || profileId === null ? null : uuidOrRefuse(profileId, "data.contexts.profile.profile_id"),
    profiler_id: profilerId === undefined || profilerId === null ? null : uuidOrRefuse(profilerId, "data.contexts.profile.profiler_id"),
    replayId: replayId === undefined || replayId === null ? null : uuidOrRefuse(replayId, "data.contexts.replay.replay_id"),
    user_id: pythonUnicodify(user.get("id")),
    user_name: pythonUnicodify(user.get("username")),
    user_email: pythonUnicodify(user.get("email")),
    ...ipColumns(pythonUnicodify(user.get("ip_address"))),
  };
}
