/**
 * Reading the fields of a parsed JSON message with the types Snuba's processors give them
 * (serde: `u64`, `u16`, `f64`, `String`, `Option<…>`). A field that is missing, null where it is
 * required, or of another type makes the message invalid, with a reason naming the field.
 */
import type { ExactJsonValue } from "../exact-integer-json.js";
import { InvalidMessage } from "../message-processor.js";

export type JsonObject = { readonly [key: string]: ExactJsonValue };

/**
 * An unsigned 64-bit integer in a row for JSONEachRow: a number up to 2^53 - 1, decimal text
 * above (JSON numbers beyond that lose digits; ClickHouse reads the text into its UInt64 column).
 */
export type JsonU64 = number | string;

const U64_MAX = (1n << 64n) - 1n;

export function jsonU64(value: bigint): JsonU64 {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

/** A short rendering of a JSON value for a reason. */
function shown(value: ExactJsonValue | undefined): string {
  if (value === undefined) return "nothing";
  const text = typeof value === "bigint" ? value.toString() : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

export function asObject(value: ExactJsonValue, what: string): JsonObject {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new InvalidMessage(`${what} must be a JSON object, got ${shown(value)}`);
  return value;
}

export function asU64(value: ExactJsonValue | undefined, what: string): bigint {
  if (typeof value === "bigint" && value >= 0n && value <= U64_MAX) return value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new InvalidMessage(`${what} must be an unsigned 64-bit integer, got ${shown(value)}`);
}

export function asUnsigned(value: ExactJsonValue | undefined, bits: 16 | 32, what: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 2 ** bits) return value;
  throw new InvalidMessage(`${what} must be an unsigned ${bits}-bit integer, got ${shown(value)}`);
}

export function asF64(value: ExactJsonValue | undefined, what: string): number {
  if (typeof value === "number") return value;
  // An integer beyond 2^53 is still a number to serde's f64, rounded.
  if (typeof value === "bigint") return Number(value);
  throw new InvalidMessage(`${what} must be a number, got ${shown(value)}`);
}

/** No lone UTF-16 surrogate (`"\ud800"` in JSON): Rust strings cannot hold one, so serde refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function asString(value: ExactJsonValue | undefined, what: string): string {
  if (typeof value !== "string") throw new InvalidMessage(`${what} must be a string, got ${shown(value)}`);
  if (LONE_SURROGATE.test(value)) throw new InvalidMessage(`${what} is not valid Unicode: it holds a lone surrogate`);
  return value;
}

export function asArray(value: ExactJsonValue | undefined, what: string): readonly ExactJsonValue[] {
  if (Array.isArray(value)) return value;
  throw new InvalidMessage(`${what} must be an array, got ${shown(value)}`);
}

/** `Option<T>`: absent or null is null, anything else must read as T. */
export function optional<T>(object: JsonObject, field: string, read: (value: ExactJsonValue, what: string) => T): T | null {
  const value = object[field];
  return value === undefined || value === null ? null : read(value, `field '${field}'`);
}

/** A required field: absent or null makes the message invalid. */
export function required<T>(object: JsonObject, field: string, read: (value: ExactJsonValue, what: string) => T): T {
  const value = object[field];
  if (value === undefined || value === null) throw new InvalidMessage(`field '${field}' is missing`);
  return read(value, `field '${field}'`);
}

/** Rust's saturating `f64 as u32`: the integer part, clamped to [0, 2^32 - 1]. */
export function saturatingU32(value: number): number {
  if (!(value > 0)) return 0;
  return Math.min(Math.trunc(value), 0xffff_ffff);
}

/** Rust's saturating `f64 as u64`: the integer part, clamped to [0, 2^64 - 1]. */
export function saturatingU64(value: number): bigint {
  if (!(value > 0)) return 0n;
  if (value >= 2 ** 64) return U64_MAX;
  return BigInt(Math.trunc(value));
}
