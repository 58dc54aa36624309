/**
 * The `tags` of a metrics message as Snuba's processors order and check them: an object keyed by
 * indexer ids written as decimal text, iterated in the order of those texts (a BTreeMap of
 * strings: "65690" before "9223372036854776010"), each key then read as an unsigned 64-bit
 * integer. Generic metrics map a key to its raw text value, release-health metrics to an indexed
 * (integer) value.
 */
import type { ExactJsonValue } from "../exact-integer-json.js";
import { InvalidMessage } from "../message-processor.js";
import { asObject, asString, asU64, type JsonObject } from "./message-fields.js";

const U64_MAX = (1n << 64n) - 1n;

export interface OrderedTags<V> {
  /** [key text, value] in row order: what `timeseries_id` hashes. */
  readonly entries: readonly (readonly [string, V])[];
  /** The keys as integers, in row order (`tags.key`). */
  readonly keys: readonly bigint[];
}

/** Rust's `str::parse::<u64>`: optional '+', decimal digits, in range. */
function tagKey(text: string): bigint {
  const match = /^\+?(\d+)$/.exec(text);
  const digits = match?.[1];
  if (digits === undefined || BigInt(digits) > U64_MAX) throw new InvalidMessage(`tag key '${text.slice(0, 40)}' is not an unsigned 64-bit integer (tag keys are indexer ids)`);
  return BigInt(digits);
}

/** Code-unit order equals byte order for the digit texts keys must be; other keys are refused anyway. */
function byText(a: readonly [string, unknown], b: readonly [string, unknown]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

function orderedTags<V>(tags: JsonObject, readValue: (value: ExactJsonValue, what: string) => V): OrderedTags<V> {
  const entries = Object.entries(tags)
    .map(([key, value]) => [key, readValue(value, `the value of tag '${key.slice(0, 40)}'`)] as const)
    .sort(byText);
  return { entries, keys: entries.map(([key]) => tagKey(key)) };
}

export function genericMetricTags(value: ExactJsonValue, what = "field 'tags'"): OrderedTags<string> {
  return orderedTags(asObject(value, what), asString);
}

export function releaseHealthTags(value: ExactJsonValue, what = "field 'tags'"): OrderedTags<bigint> {
  return orderedTags(asObject(value, what), asU64);
}
