/**
 * The value encodings of snuba-generic-metrics on their own: Sentry's own zstd and base64 examples
 * (read from the installed sentry-kafka-schemas package), a decompression bound, and the exact
 * JSON parse that keeps 64-bit integers.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { parseExactIntegerJson } from "../../src/ingestion/exact-integer-json.js";
import { parseJsonMessage } from "../../src/ingestion/json-message.js";
import { InvalidMessage } from "../../src/ingestion/message-processor.js";
import { decodeBase64NoPad, decodeSeries, decompressZstd, F64_ELEMENT, U32_ELEMENT } from "../../src/ingestion/processors/encoded-series.js";
import { rawZstdFrame, rleZstdFrame } from "./zstd-frames.js";

function example(name: string): { value: unknown } {
  const dir = join(inject("sentryKafkaSchemasDir"), "examples", "snuba-generic-metrics", "1");
  return JSON.parse(readFileSync(join(dir, name), "utf8")) as { value: unknown };
}

describe("Sentry's encoded examples", () => {
  it("decode to the values Snuba's decoder finds in them", () => {
    expect(decodeSeries(example("snuba-generic-metrics-sets-zstd.json").value as never, U32_ELEMENT)).toEqual([1, 7]);
    expect(decodeSeries(example("snuba-generic-metrics-sets-base64.json").value as never, U32_ELEMENT)).toEqual([1, 7]);
    // A compressed (not raw) zstd block: the real decompressor at work.
    expect(decodeSeries(example("snuba-generic-metrics-dist-zstd.json").value as never, F64_ELEMENT)).toEqual([1, 2, 3]);
    expect(decodeSeries(example("snuba-generic-metrics-dist-base64.json").value as never, F64_ELEMENT)).toEqual([3, 1, 2]);
  });
});

describe("zstd", () => {
  it("decompresses frames of several blocks", () => {
    const content = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    expect(decompressZstd(rawZstdFrame(content)).equals(content)).toBe(true);
    expect(decompressZstd(rleZstdFrame(7, 1000, 3)).equals(Buffer.alloc(3000, 7))).toBe(true);
  });

  it("refuses a frame that decompresses beyond the bound, before producing it all", () => {
    const bomb = rleZstdFrame(0, 128 * 1024, 1024); // 4 KB that would become 128 MiB
    expect(bomb.length).toBeLessThan(5000);
    expect(() => decompressZstd(bomb)).toThrow(new InvalidMessage("the zstd data decompresses to more than 67108864 bytes"));
    expect(() => decompressZstd(rleZstdFrame(0, 600, 2), 1000)).toThrow(/more than 1000 bytes/);
  });

  it("refuses what is not a whole frame", () => {
    const frame = rawZstdFrame(Buffer.from("abcdefgh"));
    expect(() => decompressZstd(frame.subarray(0, frame.length - 3))).toThrow(InvalidMessage);
    expect(() => decompressZstd(Buffer.from("plain text"))).toThrow(/^the zstd data does not decompress/);
  });
});

describe("base64 without padding", () => {
  it("decodes canonical text of every length", () => {
    for (const length of [0, 1, 2, 3, 4, 5]) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => 200 + i));
      expect(decodeBase64NoPad(bytes.toString("base64").replace(/=+$/, "")).equals(bytes)).toBe(true);
    }
  });

  it("refuses padding, other alphabets and stray bits", () => {
    expect(() => decodeBase64NoPad("AQ==")).toThrow(/padding/);
    expect(() => decodeBase64NoPad("AQ-_")).toThrow(/alphabet/);
    expect(() => decodeBase64NoPad("AQ B")).toThrow(/alphabet/);
    expect(() => decodeBase64NoPad("AR")).toThrow(/not canonical/);
    expect(() => decodeBase64NoPad("AAB")).toThrow(/not canonical/);
    expect(() => decodeBase64NoPad("AAAAA")).toThrow(/impossible length \(5\)/);
  });
});

describe("JSON with 64-bit integers", () => {
  it("keeps integers beyond 2^53 exact and everything else as JSON.parse reads it", () => {
    const text = '{"a": 18446744073709551615, "b": [-9007199254740993, 9007199254740991, 1.5e3, -0, "x\\"\\\\y"], "c": {"__proto__": true}, "d": null}';
    const parsed = parseExactIntegerJson(text) as Record<string, unknown>;
    expect(parsed.a).toBe(18446744073709551615n);
    expect(parsed.b).toEqual([-9007199254740993n, 9007199254740991, 1500, -0, 'x"\\y']);
    expect(Object.keys(parsed.c as object)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(parsed.c)).toBe(Object.prototype);
    expect(parsed.d).toBeNull();
    expect(() => parseExactIntegerJson("[1,]")).toThrow(SyntaxError);
    expect(() => parseExactIntegerJson('{"a":1} x')).toThrow(SyntaxError);
  });

  it("is used only when JSON.parse may have rounded an integer", () => {
    expect(parseJsonMessage(Buffer.from('{"id": 9223372036854775909}'))).toEqual({ id: 9223372036854775909n });
    expect(parseJsonMessage(Buffer.from('{"id": 65561, "big": "9223372036854775909"}'))).toEqual({ id: 65561, big: "9223372036854775909" });
  });
});
