/**
 * Turns ClickHouse JSON values into what the response carries, per column type (facts §3.2):
 * 64-bit integers as exact numbers (BigInt beyond 2^53), DateTime as ISO 8601 with `+00:00`,
 * Date as midnight UTC.
 */
import type { ResultValue } from "../query/query-result.js";

type Converter = (value: unknown) => ResultValue;

function unwrap(type: string): string {
  let current = type;
  for (;;) {
    const match = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(current);
    if (!match) return current;
    current = match[1]!;
  }
}

const identity: Converter = (value) => value as ResultValue;

function bigIntegerConverter(value: unknown): ResultValue {
  if (typeof value !== "string") return value as ResultValue;
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : BigInt(value);
}

function dateTimeConverter(value: unknown): ResultValue {
  if (typeof value !== "string") return value as ResultValue;
  // date_time_output_format=iso prints `2024-01-01T00:00:00Z` (or with fractional seconds).
  return value.endsWith("Z") ? `${value.slice(0, -1)}+00:00` : value;
}

function dateConverter(value: unknown): ResultValue {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00+00:00` : (value as ResultValue);
}

/** Builds a converter for one column type once, then applies it to every row. */
export function converterFor(type: string): Converter {
  const base = unwrap(type);
  if (/^U?Int(64|128|256)$/.test(base)) return bigIntegerConverter;
  if (/^DateTime(64)?(\(|$)/.test(base)) return dateTimeConverter;
  if (/^Date(32)?$/.test(base)) return dateConverter;
  const array = /^Array\((.*)\)$/.exec(base);
  if (array) {
    const inner = converterFor(array[1]!);
    if (inner === identity) return identity;
    return (value) => (Array.isArray(value) ? value.map(inner) : (value as ResultValue));
  }
  return identity;
}

/** JSON text of one value; BigInts become bare integers (as Snuba writes them). */
function jsonText(value: unknown): string {
  // Without a replacer JSON.stringify runs several times faster; it throws on the first BigInt.
  try {
    return JSON.stringify(value);
  } catch (reason) {
    if (!(reason instanceof TypeError)) throw reason;
  }
  let sawBigInt = false;
  const text = JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner === "bigint") {
      sawBigInt = true;
      return `\u0000bigint:${inner.toString()}`;
    }
    return inner;
  });
  return sawBigInt ? text.replace(/"\\u0000bigint:(-?\d+)"/g, "$1") : text;
}

/**
 * Values that are never modified once built (a cached result's rows and columns, the policy
 * details of a cache hit): their JSON is computed once and reused by every response that
 * carries them. `null` until first serialised.
 */
const immutableJson = new WeakMap<object, string | null>();

export function markImmutable(value: object): void {
  if (!immutableJson.has(value)) immutableJson.set(value, null);
}

/** Serialises the top two levels of a response by hand so immutable parts splice in as text. */
function responseJson(value: unknown, depth: number): string {
  if (value === null || typeof value !== "object") return jsonText(value);
  const known = immutableJson.get(value);
  if (known !== undefined) {
    if (known !== null) return known;
    const text = jsonText(value);
    immutableJson.set(value, text);
    return text;
  }
  if (depth >= 2 || Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === "function") return jsonText(value);
  const parts: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (inner === undefined || typeof inner === "function") continue;
    parts.push(`${JSON.stringify(key)}:${responseJson(inner, depth + 1)}`);
  }
  return `{${parts.join(",")}}`;
}

/** JSON text for a response (a result or an error body). */
export function stringifyResponse(body: unknown): string {
  return responseJson(body, 0);
}
