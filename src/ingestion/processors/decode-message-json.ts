/**
 * A Kafka message's value as a JSON document (lossless-json.ts), or InvalidMessage saying why not:
 * no value, bytes that are not UTF-8 (serde_json and rapidjson both refuse them), or text that is
 * not JSON.
 */
import { InvalidMessage } from "../message-processor.js";
import { JsonSyntaxError, parseLosslessJson, type JsonValue } from "./lossless-json.js";

// fatal: a byte sequence that is not UTF-8 is an error, not a U+FFFD; ignoreBOM: a BOM is kept
// and then refused by the parser, as Snuba's parsers refuse it.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function decodeMessageJson(value: Buffer | null): JsonValue {
  if (value === null || value.length === 0) throw new InvalidMessage("the message has no payload");
  let text: string;
  try {
    text = utf8.decode(value);
  } catch {
    throw new InvalidMessage("the payload is not UTF-8 text");
  }
  try {
    return parseLosslessJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new InvalidMessage(`the payload is not JSON: ${error.message}`);
    throw error;
  }
}
