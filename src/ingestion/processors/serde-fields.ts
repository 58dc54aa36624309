/**
 * Field readers with serde's rules, for the errors processor (Snuba deserializes the message
 * into typed Rust structs): an absent or null optional field is null, a field of the wrong type
 * fails the whole message. Each failure is an InvalidMessage naming the field's path.
 */
import { InvalidMessage } from "../message-processor.js";
import { jsonKind } from "./json-kind.js";
import { isJsonObject, JsonNumber, type JsonObject, type JsonValue } from "./lossless-json.js";

function wrongType(path: string, expected: string, value: JsonValue | undefined): InvalidMessage {
  return new InvalidMessage(`${path} must be ${expected}, got ${jsonKind(value)}`);
}

export function requiredField(object: JsonObject, key: string, path: string): JsonValue {
  const value = object.get(key);
  if (value === undefined) throw new InvalidMessage(`${path} is missing`);
  return value;
}

export function optionalObject(value: JsonValue | undefined, path: string): JsonObject | null {
  if (value === undefined || value === null) return null;
  if (isJsonObject(value)) return value;
  throw wrongType(path, "an object", value);
}

export function optionalArray(value: JsonValue | undefined, path: string): JsonValue[] | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value;
  throw wrongType(path, "an array", value);
}

export function optionalString(value: JsonValue | undefined, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  throw wrongType(path, "a string", value);
}

export function optionalBoolean(value: JsonValue | undefined, path: string): boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value;
  throw wrongType(path, "a boolean", value);
}

/** f64: any JSON number. */
export function optionalFloat(value: JsonValue | undefined, path: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return value;
  if (value instanceof JsonNumber) return value.value;
  throw wrongType(path, "a number", value);
}

/**
 * An unsigned integer of `bits` bits, written as an integer (serde refuses `1.0` for u64): a
 * number while JS holds it exactly, else its decimal text. Null when it does not fit.
 */
export function unsignedOrNull(value: JsonValue | undefined, bits: 16 | 32 | 64): number | string | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 && !Object.is(value, -0) && value < 2 ** bits ? value : null;
  if (value instanceof JsonNumber && value.integer) {
    const exact = BigInt(value.text);
    return exact >= 0n && exact < 2n ** BigInt(bits) ? exact.toString() : null;
  }
  return null;
}

export function optionalUnsigned(value: JsonValue | undefined, bits: 16 | 32 | 64, path: string): number | string | null {
  if (value === undefined || value === null) return null;
  const unsigned = unsignedOrNull(value, bits);
  if (unsigned === null) throw wrongType(path, `an unsigned ${bits}-bit integer`, value);
  return unsigned;
}

export function requiredUnsigned(object: JsonObject, key: string, bits: 16 | 32 | 64, path: string): number | string {
  const value = requiredField(object, key, path);
  const unsigned = unsignedOrNull(value, bits);
  if (unsigned === null) throw wrongType(path, `an unsigned ${bits}-bit integer`, value);
  return unsigned;
}

export function requiredString(object: JsonObject, key: string, path: string): string {
  const value = requiredField(object, key, path);
  if (typeof value === "string") return value;
  throw wrongType(path, "a string", value);
}

/**
 * A field serde accepts under either of two names (`exception` or `sentry.interfaces.Exception`);
 * both present is serde's "duplicate field".
 */
export function aliasedField(object: JsonObject, name: string, alias: string, path: string): JsonValue | undefined {
  const value = object.get(name);
  const aliased = object.get(alias);
  if (value !== undefined && aliased !== undefined) throw new InvalidMessage(`${path}.${name} is given twice (also as ${alias})`);
  return value ?? aliased;
}
