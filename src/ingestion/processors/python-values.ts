/**
 * Python's view of JSON values, for the transactions processor (Snuba's is Python code over
 * `rapidjson.loads`): truthiness (`x or {}`), `dict.get` on something that must be a dict, the
 * `_as_dict_safe` of pair lists, and `int()` of text. Where Python would raise (`.get` on a list,
 * a missing key), the message is an InvalidMessage, as Snuba's consumer makes any exception one.
 */
import { InvalidMessage } from "../message-processor.js";
import { jsonKind } from "./json-kind.js";
import { isJsonObject, JsonNumber, type JsonObject, type JsonValue } from "./lossless-json.js";

const EMPTY: JsonObject = new Map();

/** Python truthiness of a JSON value (absent counts as None). */
export function truthy(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === false || value === "") return false;
  if (typeof value === "number") return value !== 0;
  if (value instanceof JsonNumber) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  return true;
}

/** `x or {}` followed by `.get(...)`: a falsy value is an empty dict, a truthy non-dict is refused. */
export function dictOrEmpty(value: JsonValue | undefined, path: string): JsonObject {
  if (!truthy(value)) return EMPTY;
  return dictOrRefuse(value, path);
}

/** A value Python calls `.get` on: it must be a dict. */
export function dictOrRefuse(value: JsonValue | undefined, path: string): JsonObject {
  if (isJsonObject(value)) return value;
  throw new InvalidMessage(`${path} must be an object, got ${jsonKind(value)}`);
}

/** `d[key]`: a missing key is Python's KeyError. */
export function requiredKey(object: JsonObject, key: string, path: string): JsonValue {
  const value = object.get(key);
  if (value === undefined) throw new InvalidMessage(`${path} is missing`);
  return value;
}

/**
 * `_as_dict_safe`: None is an empty dict, a dict is itself, a list of [key, value, ...] items is a
 * dict of them (null items and null keys skipped, a repeated key taking the last value). Keys are
 * strings here; Python would also take numbers, but no Sentry message has them.
 */
export function asDictSafe(value: JsonValue | undefined, path: string): JsonObject {
  if (value === undefined || value === null) return EMPTY;
  if (isJsonObject(value)) return value;
  if (!Array.isArray(value)) throw new InvalidMessage(`${path} must be an object or a list of pairs, got ${jsonKind(value)}`);
  const result: JsonObject = new Map();
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (item === null || item === undefined) continue;
    if (!Array.isArray(item) || item.length < 2) throw new InvalidMessage(`${path}[${i}] must be a [key, value] pair or null`);
    const [key, member] = item;
    if (key === null || key === undefined) continue;
    if (typeof key !== "string") throw new InvalidMessage(`${path}[${i}] has a key that is not a string`);
    result.set(key, member ?? null);
  }
  return result;
}

/** Python's `int(text, 16)`: whitespace, a sign, a 0x prefix and single underscores between digits allowed. */
export function pythonHexInt(text: string): bigint | null {
  const match = /^\s*([+-]?)(?:0[xX]_?)?([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)\s*$/.exec(text);
  if (match === null) return null;
  const magnitude = BigInt(`0x${(match[2] ?? "").replaceAll("_", "")}`);
  return match[1] === "-" ? -magnitude : magnitude;
}

/** Python's `int(value)` of a JSON value: numbers toward zero, booleans 0/1, decimal text; null otherwise (a TypeError or ValueError). */
export function pythonInt(value: JsonValue | undefined): bigint | null {
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "number") return BigInt(Math.trunc(value));
  if (value instanceof JsonNumber) return value.integer ? BigInt(value.text) : BigInt(Math.trunc(value.value));
  if (typeof value === "string") {
    const match = /^\s*([+-]?)([0-9]+(?:_[0-9]+)*)\s*$/.exec(value);
    if (match === null) return null;
    const magnitude = BigInt((match[2] ?? "").replaceAll("_", ""));
    return match[1] === "-" ? -magnitude : magnitude;
  }
  return null;
}
