/**
 * UUIDs as Snuba's processors read them, written in the hyphenated lower-case form ClickHouse's
 * UUID columns take. Rust's `Uuid::parse_str` and Python's `uuid.UUID` accept different spellings.
 */
import { createHash } from "node:crypto";

const HEX32 = /^[0-9a-fA-F]{32}$/;
const HYPHENATED = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function hyphenate(hex: string): string {
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Rust's `Uuid::parse_str`: 32 hex digits, or the hyphenated form bare, in braces or after `urn:uuid:`. */
export function rustUuid(text: string): string | null {
  if (text.length === 32) return HEX32.test(text) ? hyphenate(text) : null;
  let hyphenated = text;
  if (text.length === 38 && text.startsWith("{") && text.endsWith("}")) hyphenated = text.slice(1, -1);
  else if (text.length === 45 && text.startsWith("urn:uuid:")) hyphenated = text.slice(9);
  return HYPHENATED.test(hyphenated) ? hyphenate(hyphenated.replaceAll("-", "")) : null;
}

/** Python's `uuid.UUID(text)`: `urn:`/`uuid:` prefixes, braces and every hyphen removed, then 32 hex digits. */
export function pythonUuid(text: string): string | null {
  const hex = text.replaceAll("urn:", "").replaceAll("uuid:", "").replace(/^[{}]+|[{}]+$/g, "").replaceAll("-", "");
  return HEX32.test(hex) ? hyphenate(hex) : null;
}

/** The 16 bytes of md5(text) as a UUID: how the errors processor stores a primary_hash that is not a UUID. */
export function md5Uuid(text: string): string {
  return hyphenate(createHash("md5").update(text, "utf8").digest("hex"));
}

/** The 32 hex digits of a hyphenated UUID. */
export function uuidHex(hyphenated: string): string {
  return hyphenated.replaceAll("-", "");
}
