/**
 * How Snuba's Rust errors processor turns a JSON value into the text it stores
 * (rust_snuba/src/processors/errors.rs): `Unicodify` for most string fields, `ContextStringify`
 * for context values, both printing numbers as serde_json does.
 */
import { compareCodePoints } from "./code-point-order.js";
import { JsonNumber, type JsonValue } from "./lossless-json.js";
import { shortestDecimal } from "./shortest-decimal.js";

const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

/**
 * serde_json's Display of a number: an integer that fits i64/u64 as written, anything else (a
 * fraction, an exponent, `-0`, an integer too large) as the f64 ryu prints (`100.0`, `1e16`).
 */
export function serdeNumberText(value: number | JsonNumber): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0.0" : String(value);
  if (value.integer) {
    const exact = BigInt(value.text);
    if (exact >= I64_MIN && exact <= U64_MAX) return exact.toString();
  }
  return ryuText(value.value);
}

/** ryu's `format64`: shortest digits; exponent form below 1e-5 and from 1e16. */
export function ryuText(value: number): string {
  const { negative, digits, pointAt } = shortestDecimal(value);
  const sign = negative ? "-" : "";
  const length = digits.length;
  if (digits === "0") return `${sign}0.0`;
  if (length <= pointAt && pointAt <= 16) return `${sign}${digits}${"0".repeat(pointAt - length)}.0`;
  if (0 < pointAt && pointAt <= 16) return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  if (-5 < pointAt && pointAt <= 0) return `${sign}0.${"0".repeat(-pointAt)}${digits}`;
  const mantissa = length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${mantissa}e${pointAt - 1}`;
}

/** `serde_json::to_string` of a Value: compact, object keys sorted (serde_json's Map is a BTreeMap). */
export function serdeJsonText(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || value instanceof JsonNumber) return serdeNumberText(value);
  if (Array.isArray(value)) return `[${value.map(serdeJsonText).join(",")}]`;
  const keys = [...value.keys()].sort(compareCodePoints);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${serdeJsonText(value.get(key) ?? null)}`).join(",")}}`;
}

/** `Unicodify`: any value as text (containers as compact JSON), null and absent as null. */
export function unicodify(value: JsonValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" || value instanceof JsonNumber) return serdeNumberText(value);
  return serdeJsonText(value);
}

/** `ContextStringify`: strings, numbers, and booleans as Python spells them; containers and null are dropped. */
export function contextText(value: JsonValue | undefined): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number" || value instanceof JsonNumber) return serdeNumberText(value);
  return null;
}

