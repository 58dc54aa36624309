/**
 * The JSON body of a Kafka message, read as Snuba's processors read it: UTF-8 (invalid bytes
 * refuse the message, as Rust's `str::from_utf8` does), JSON, 64-bit integers exact. Anything
 * else is an InvalidMessage, which the consumer dead-letters.
 */
import { InvalidMessage } from "./message-processor.js";
import { parseExactIntegerJson, type ExactJsonValue } from "./exact-integer-json.js";

// ignoreBOM keeps a byte-order mark in the text, where JSON refuses it, as serde_json does.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const BIG_NUMBER_DIGITS = /\d{16}/;

/** Whether `JSON.parse` may have rounded an integer of the text: one of its numbers lies beyond ±2^53. */
function mayHaveRoundedIntegers(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (Array.isArray(value)) return value.some(mayHaveRoundedIntegers);
  if (value !== null && typeof value === "object") return Object.values(value).some(mayHaveRoundedIntegers);
  return false;
}

export function parseJsonMessage(payload: Buffer | null): ExactJsonValue {
  if (payload === null || payload.length === 0) throw new InvalidMessage("the message has no payload");
  let text: string;
  try {
    text = UTF8.decode(payload);
  } catch {
    throw new InvalidMessage("the payload is not valid UTF-8");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidMessage(`the payload is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The fast path covers nearly every message; only a big integer costs a second, exact parse.
  // Without 16 digits in a row anywhere, no number in the text reaches 2^53.
  return BIG_NUMBER_DIGITS.test(text) && mayHaveRoundedIntegers(parsed) ? parseExactIntegerJson(text) : (parsed as ExactJsonValue);
}
