/**
 * A published result read with integers beyond 2^53 exact, as BigInt. A result carries 64-bit
 * integers as bare JSON numbers (as Snuba writes them); JSON.parse would round them, and the
 * recount could then neither prove them equal nor different. The parsing is the ingestion
 * processors' lossless parser; this gives its tree back as plain values.
 */
import { JsonNumber, parseLosslessJson, type JsonValue } from "../../ingestion/processors/lossless-json.js";

/** Parses JSON text; integers outside ±(2^53 − 1) come back as BigInt. Throws JsonSyntaxError on bad text. */
export function parseJsonLosslessly(text: string): unknown {
  return plain(parseLosslessJson(text));
}

function plain(value: JsonValue): unknown {
  if (value instanceof JsonNumber) return value.integer && !Number.isSafeInteger(value.value) ? BigInt(value.text) : value.value;
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, item]) => [key, plain(item)]));
  return value;
}
