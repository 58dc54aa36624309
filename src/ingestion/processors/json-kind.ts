/** A JSON value's kind in words, for InvalidMessage reasons ("got a string"). */
import { JsonNumber, type JsonValue } from "./lossless-json.js";

export function jsonKind(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "boolean") return `the boolean ${value}`;
  if (typeof value === "number") return `the number ${value}`;
  if (value instanceof JsonNumber) return `the number ${value.text}`;
  if (typeof value === "string") return value.length > 40 ? "a string" : `the string ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return "an array";
  return "an object";
}
