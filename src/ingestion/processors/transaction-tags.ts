/**
 * A transaction's tags as the transactions processor stores them: `data.tags` (pairs or an
 * object) sorted by key, values as Python's `str()`, empty and null values dropped; `environment`,
 * `sentry:release` (else the event's `release`), `sentry:user`, `sentry:dist` (else
 * `data.dist`) and `replayId` (when a UUID) also in their columns. Unlike the errors processor,
 * `level` and `transaction` are not promoted, and a repeated key keeps only its last value.
 */
import { InvalidMessage } from "../message-processor.js";
import { compareCodePoints } from "./code-point-order.js";
import type { JsonObject, JsonValue } from "./lossless-json.js";
import { pythonUnicodify } from "./python-value-text.js";
import { asDictSafe, truthy } from "./python-values.js";
import { pythonUuid } from "./uuid-text.js";

export interface TransactionTags {
  readonly keys: string[];
  readonly values: string[];
  readonly environment: string | null;
  readonly release: string | null;
  readonly user: string;
  readonly dist: string | null;
  /** The `replayId` tag as a UUID (hyphenated); null when absent or not a UUID. */
  readonly replayId: string | null;
}

/** A promoted tag goes into its column as it is; only a string survives that unchanged, so others print as Python would. */
function columnText(value: JsonValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : pythonUnicodify(value);
}

export function transactionTags(data: JsonObject, event: JsonObject): TransactionTags {
  const tags = asDictSafe(data.get("tags"), "data.tags");
  const keys: string[] = [];
  const values: string[] = [];
  for (const key of [...tags.keys()].sort(compareCodePoints)) {
    const text = pythonUnicodify(tags.get(key));
    if (text === null || text === "") continue;
    keys.push(key);
    values.push(text);
  }
  const replayTag = tags.get("replayId");
  let replayId: string | null = null;
  if (truthy(replayTag)) {
    // uuid.UUID() of a string that is not one is tolerated; of a non-string it raises.
    if (typeof replayTag !== "string") throw new InvalidMessage("data.tags replayId must be a string");
    replayId = pythonUuid(replayTag);
  }
  return {
    keys,
    values,
    environment: columnText(tags.get("environment")),
    release: columnText(tags.has("sentry:release") ? tags.get("sentry:release") : event.get("release")),
    user: columnText(tags.get("sentry:user")) ?? "",
    dist: pythonUnicodify(tags.has("sentry:dist") ? tags.get("sentry:dist") : data.get("dist")),
    replayId,
  };
}
