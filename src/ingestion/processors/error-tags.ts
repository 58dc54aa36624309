/**
 * An error event's tags as the errors processor stores them: `data.tags` pairs sorted by key,
 * then value (code-point order); pairs whose key or value is null dropped (an empty string is
 * kept); every other pair in `tags.key`/`tags.value`, and the promoted ones also in their columns.
 * A tag given twice keeps both pairs, and the promoted column takes the one sorted last.
 */
import { InvalidMessage } from "../message-processor.js";
import { compareCodePoints } from "./code-point-order.js";
import type { JsonValue } from "./lossless-json.js";
import { unicodify } from "./rust-value-text.js";
import { optionalArray } from "./serde-fields.js";
import { rustUuid } from "./uuid-text.js";

export interface ErrorTags {
  readonly keys: string[];
  readonly values: string[];
  readonly environment: string | null;
  readonly level: string | null;
  /** The `transaction` tag: the row's transaction_name. */
  readonly transaction: string | null;
  /** `sentry:release`. */
  readonly release: string | null;
  /** `sentry:dist`. */
  readonly dist: string | null;
  /** `sentry:user`. */
  readonly user: string | null;
  /** `replayId` when it is a UUID (hyphenated); a later `replayId` that is not clears it. */
  readonly replayId: string | null;
}

export function errorTags(value: JsonValue | undefined): ErrorTags {
  const pairs: [string, string][] = [];
  const items = optionalArray(value, "data.tags") ?? [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === null) continue;
    if (!Array.isArray(item) || item.length !== 2) throw new InvalidMessage(`data.tags[${i}] must be a [key, value] pair or null`);
    const key = unicodify(item[0]);
    const tagValue = unicodify(item[1]);
    if (key !== null && tagValue !== null) pairs.push([key, tagValue]);
  }
  pairs.sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]));

  const tags = {
    keys: [] as string[],
    values: [] as string[],
    environment: null as string | null,
    level: null as string | null,
    transaction: null as string | null,
    release: null as string | null,
    dist: null as string | null,
    user: null as string | null,
    replayId: null as string | null,
  };
  for (const [key, tagValue] of pairs) {
    tags.keys.push(key);
    tags.values.push(tagValue);
    switch (key) {
      case "environment":
        tags.environment = tagValue;
        break;
      case "level":
        tags.level = tagValue;
        break;
      case "transaction":
        tags.transaction = tagValue;
        break;
      case "sentry:release":
        tags.release = tagValue;
        break;
      case "sentry:dist":
        tags.dist = tagValue;
        break;
      case "sentry:user":
        tags.user = tagValue;
        break;
      case "replayId":
        tags.replayId = rustUuid(tagValue);
        break;
    }
  }
  return tags;
}
