/**
 * The `value` of a set or distribution message on `snuba-generic-metrics`, in any of the forms
 * Sentry sends it:
 * - a plain JSON array of numbers (the legacy form);
 * - `{"format": "array", "data": [...]}`;
 * - `{"format": "base64", "data": "..."}`: unpadded standard base64 of the values as little-endian
 *   u32 (sets) or f64 (distributions);
 * - `{"format": "zstd", "data": "..."}`: the same bytes zstd-compressed, then base64.
 * As in Snuba, the base64 must be canonical (no padding, no stray bits) and the decoded bytes a
 * whole number of values; anything else makes the message invalid.
 */
import { Decompress } from "fzstd";
import type { ExactJsonValue } from "../exact-integer-json.js";
import { InvalidMessage } from "../message-processor.js";
import { asArray, asF64, asObject, asString, asUnsigned } from "./message-fields.js";

/** How the values of one metric type are read: from JSON numbers, and from little-endian bytes. */
export interface SeriesElement {
  /** `u32` or `f64`, for reasons. */
  readonly name: string;
  readonly bytes: 4 | 8;
  fromJson(value: ExactJsonValue, what: string): number;
  fromBytes(view: DataView, offset: number): number;
}

export const U32_ELEMENT: SeriesElement = {
  name: "u32",
  bytes: 4,
  fromJson: (value, what) => asUnsigned(value, 32, what),
  fromBytes: (view, offset) => view.getUint32(offset, true),
};

export const F64_ELEMENT: SeriesElement = {
  name: "f64",
  bytes: 8,
  fromJson: asF64,
  fromBytes: (view, offset) => view.getFloat64(offset, true),
};

/**
 * Decompressed data beyond this is refused: a zstd frame of a few bytes can claim gigabytes, and
 * a message of at most 10 MB (the topic's limit) holds far fewer values than this many bytes.
 */
export const MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024;

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_TEXT = /^[A-Za-z0-9+/]*$/;

/** Unpadded standard base64, strictly: what Rust's `data_encoding::BASE64_NOPAD` accepts. */
export function decodeBase64NoPad(text: string): Buffer {
  if (!BASE64_TEXT.test(text)) throw new InvalidMessage("the base64 data has a character outside the unpadded base64 alphabet (padding '=' included)");
  const tail = text.length % 4;
  if (tail === 1) throw new InvalidMessage(`the base64 data has an impossible length (${text.length})`);
  if (tail !== 0) {
    // The last character carries 4 (two-character tail) or 2 (three-character tail) unused bits, which must be zero.
    const last = BASE64_ALPHABET.indexOf(text[text.length - 1]!);
    if ((last & (tail === 2 ? 0b1111 : 0b11)) !== 0) throw new InvalidMessage("the base64 data is not canonical (its last character has stray bits)");
  }
  return Buffer.from(text, "base64");
}

/** zstd frames, decompressed with a bound on the output. */
export function decompressZstd(compressed: Uint8Array, maxBytes = MAX_DECOMPRESSED_BYTES): Buffer {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > maxBytes) throw new InvalidMessage(`the zstd data decompresses to more than ${maxBytes} bytes`);
    chunks.push(chunk);
  });
  try {
    stream.push(compressed, true);
  } catch (error) {
    if (error instanceof InvalidMessage) throw error;
    throw new InvalidMessage(`the zstd data does not decompress: ${error instanceof Error ? error.message : String(error)}`);
  }
  return Buffer.concat(chunks);
}

function fromBytes(bytes: Buffer, element: SeriesElement): number[] {
  if (bytes.length % element.bytes !== 0) {
    throw new InvalidMessage(`the decoded data (${bytes.length} bytes) is not a whole number of ${element.bytes}-byte ${element.name} values`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Array<number>(bytes.length / element.bytes);
  for (let i = 0; i < values.length; i += 1) values[i] = element.fromBytes(view, i * element.bytes);
  return values;
}

function fromJsonArray(value: ExactJsonValue | undefined, element: SeriesElement, what: string): number[] {
  return asArray(value, what).map((item, index) => element.fromJson(item, `${what}[${index}]`));
}

/** The values of a set (U32_ELEMENT) or distribution (F64_ELEMENT) message's `value`. */
export function decodeSeries(value: ExactJsonValue, element: SeriesElement): number[] {
  if (Array.isArray(value)) return fromJsonArray(value, element, "field 'value'");
  const encoded = asObject(value, "field 'value'");
  const format = asString(encoded.format, "field 'value.format'");
  switch (format) {
    case "array":
      return fromJsonArray(encoded.data, element, "field 'value.data'");
    case "base64":
      return fromBytes(decodeBase64NoPad(asString(encoded.data, "field 'value.data'")), element);
    case "zstd":
      return fromBytes(decompressZstd(decodeBase64NoPad(asString(encoded.data, "field 'value.data'"))), element);
    default:
      throw new InvalidMessage(`field 'value.format' is '${format.slice(0, 40)}'; it must be array, base64 or zstd`);
  }
}
