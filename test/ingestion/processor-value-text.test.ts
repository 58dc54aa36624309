/**
 * The building blocks the processors print values with: the lossless JSON parser, numbers as
 * serde_json (ryu) and Python print them, code-point order, UUID spellings, Sentry's datetime
 * text and the retention rule. Python's own printing is asked of a real python3.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { compareCodePoints } from "../../src/ingestion/processors/code-point-order.js";
import { JsonNumber, JsonSyntaxError, parseLosslessJson, type JsonObject } from "../../src/ingestion/processors/lossless-json.js";
import { parsePayloadDatetime } from "../../src/ingestion/processors/payload-datetime.js";
import { pythonFloatText, pythonUnicodify, simplejsonText } from "../../src/ingestion/processors/python-value-text.js";
import { enforceRetention } from "../../src/ingestion/processors/retention.js";
import { contextText, ryuText, serdeNumberText, unicodify } from "../../src/ingestion/processors/rust-value-text.js";
import { md5Uuid, pythonUuid, rustUuid } from "../../src/ingestion/processors/uuid-text.js";

describe("the lossless JSON parser", () => {
  it("keeps how a number was written: integers stay numbers, floats and huge integers keep their text", () => {
    const parsed = parseLosslessJson('[1, -0, 100.0, 1e2, 18446744073709551615, 2.5]') as unknown[];
    expect(parsed[0]).toBe(1);
    expect(Object.is(parsed[1], -0)).toBe(true);
    expect(parsed[2]).toEqual(new JsonNumber("100.0", 100, false));
    expect(parsed[3]).toEqual(new JsonNumber("1e2", 100, false));
    expect(parsed[4]).toEqual(new JsonNumber("18446744073709551615", 18446744073709551615, true));
    expect(parsed[5]).toEqual(new JsonNumber("2.5", 2.5, false));
  });

  it("keeps object keys in document order, integer-like ones too, and a repeated key takes the last value in the first place", () => {
    const parsed = parseLosslessJson('{"b": 1, "0": 2, "a": {"x": null}, "b": 3}') as JsonObject;
    expect([...parsed.keys()]).toEqual(["b", "0", "a"]);
    expect(parsed.get("b")).toBe(3);
    expect((parsed.get("a") as JsonObject).get("x")).toBeNull();
  });

  it("decodes every escape, surrogate pairs included", () => {
    expect(parseLosslessJson(String.raw`"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"`)).toBe('a"b\\c/d\b\f\n\r\té😀');
  });

  it("refuses what is not JSON, saying where", () => {
    for (const [text, reason] of [
      ["", /unexpected end/],
      ["[1, 2", /expected ',' or '\]'/],
      ['{"a" 1}', /expected ':'/],
      ["01", /unexpected text after/],
      ["1.", /no digit after/],
      ["1e400", /too large/],
      ['"a\u0001"', /control character/],
      ['"abc', /unterminated/],
      [String.raw`"\x"`, /invalid escape/],
      ["[1] x", /unexpected text after/],
      ["NaN", /unexpected character/],
      ["[".repeat(1001), /nested deeper/],
    ] as const) {
      expect(() => parseLosslessJson(text), text.slice(0, 20)).toThrow(JsonSyntaxError);
      expect(() => parseLosslessJson(text), text.slice(0, 20)).toThrow(reason);
    }
  });
});

describe("numbers as serde_json prints them (ryu)", () => {
  it("writes floats with a point or ryu's exponent, integers as written", () => {
    const cases: [number, string][] = [
      [100, "100.0"],
      [2.625, "2.625"],
      [0.5, "0.5"],
      [1e15, "1000000000000000.0"],
      [1e16, "1e16"],
      [1.5e16, "1.5e16"],
      [0.0001, "0.0001"],
      [0.00001, "0.00001"],
      [0.000001, "1e-6"],
      [1.25e-7, "1.25e-7"],
      [-3.5, "-3.5"],
      [0, "0.0"],
      [-0, "-0.0"],
      [123456789.125, "123456789.125"],
    ];
    for (const [value, text] of cases) expect(ryuText(value), String(value)).toBe(text);
    expect(serdeNumberText(5)).toBe("5");
    expect(serdeNumberText(-0)).toBe("-0.0");
    expect(serdeNumberText(new JsonNumber("18446744073709551615", 2 ** 64, true))).toBe("18446744073709551615");
    // Past u64, serde_json reads an f64.
    expect(serdeNumberText(new JsonNumber("18446744073709551616", 2 ** 64, true))).toBe("1.8446744073709552e19");
    expect(serdeNumberText(new JsonNumber("1e2", 100, false))).toBe("100.0");
  });

  it("Unicodify prints containers as compact JSON with sorted keys; ContextStringify drops them and spells booleans True/False", () => {
    const value = parseLosslessJson('{"z": [1, 2.0, true], "a": "x"}');
    expect(unicodify(value)).toBe('{"a":"x","z":[1,2.0,true]}');
    expect(unicodify(true)).toBe("true");
    expect(unicodify(null)).toBeNull();
    expect(contextText(true)).toBe("True");
    expect(contextText(false)).toBe("False");
    expect(contextText(value)).toBeNull();
    expect(contextText([1])).toBeNull();
  });
});

describe("values as Python prints them", () => {
  it("matches python3's repr of floats and json.dumps of containers", () => {
    const floats = [100, 2.625, 0.5, 1e15, 1e16, 1.5e16, 0.0001, 0.00001, 1.25e-7, -3.5, 0, 123456789.125, 1e22, 5e-324];
    const containers = ['{"a": [1, 2.0, true, null], "é": "ü\\n😀", "0": {}}', '["x", {"k": 1e16}]'];
    const script = [
      "import json, sys",
      "floats = json.loads(sys.argv[1])",
      "print(json.dumps([repr(float(f)) for f in floats]))",
      "print(json.dumps([json.dumps(json.loads(c)) for c in json.loads(sys.argv[2])]))",
    ].join("\n");
    const [reprs, dumps] = execFileSync("python3", ["-c", script, JSON.stringify(floats), JSON.stringify(containers)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as string[]);
    expect(floats.map(pythonFloatText)).toEqual(reprs);
    expect(containers.map((text) => simplejsonText(parseLosslessJson(text)))).toEqual(dumps);
  });

  it("_unicodify: ints exactly, floats by repr, booleans True/False, null stays null", () => {
    expect(pythonUnicodify(parseLosslessJson("100.0"))).toBe("100.0");
    expect(pythonUnicodify(parseLosslessJson("123456789012345678901234"))).toBe("123456789012345678901234");
    expect(pythonUnicodify(parseLosslessJson("1e16"))).toBe("1e+16");
    expect(pythonUnicodify(true)).toBe("True");
    expect(pythonUnicodify(null)).toBeNull();
    expect(pythonUnicodify(undefined)).toBeNull();
  });
});

describe("code-point order", () => {
  it("puts a character above U+FFFF after one in U+E000–U+FFFF, where UTF-16 order does not", () => {
    const strings = ["😀", "\uff5e", "a", "ab", ""];
    expect([...strings].sort()).toEqual(["", "a", "ab", "😀", "\uff5e"]);
    expect([...strings].sort(compareCodePoints)).toEqual(["", "a", "ab", "\uff5e", "😀"]);
  });
});

describe("UUID spellings", () => {
  const uuid = "061cf02b-2637-4d10-8694-d6643a7a2f4e";
  it("Rust takes 32 hex digits or the hyphenated form, bare, braced or as a URN", () => {
    for (const text of ["061cf02b26374d108694d6643a7a2f4e", uuid, `{${uuid}}`, `urn:uuid:${uuid}`, uuid.toUpperCase()]) expect(rustUuid(text), text).toBe(uuid);
    for (const text of ["061cf02b-26374d108694d6643a7a2f4e", "{061cf02b26374d108694d6643a7a2f4e}", "xyz", ""]) expect(rustUuid(text), text).toBeNull();
  });

  it("Python drops prefixes, braces and any hyphen", () => {
    for (const text of ["061cf02b-26374d108694d6643a7a2f4e", "{061cf02b26374d108694d6643a7a2f4e}", `urn:uuid:${uuid}`]) expect(pythonUuid(text), text).toBe(uuid);
    expect(pythonUuid("not a uuid")).toBeNull();
  });

  it("md5 as a UUID is the digest's 16 bytes", () => {
    // md5("") = d41d8cd98f00b204e9800998ecf8427e
    expect(md5Uuid("")).toBe("d41d8cd9-8f00-b204-e980-0998ecf8427e");
  });
});

describe("Sentry's datetime text", () => {
  it("reads any number of fraction digits, cut to the millisecond", () => {
    expect(parsePayloadDatetime("2023-02-27T15:40:12.223000Z")).toBe(Date.UTC(2023, 1, 27, 15, 40, 12, 223));
    expect(parsePayloadDatetime("2023-02-27T15:40:12.2239999Z")).toBe(Date.UTC(2023, 1, 27, 15, 40, 12, 223));
    expect(parsePayloadDatetime("2023-02-27T15:40:12Z")).toBe(Date.UTC(2023, 1, 27, 15, 40, 12));
    expect(parsePayloadDatetime("2023-2-7T5:4:2Z")).toBe(Date.UTC(2023, 1, 7, 5, 4, 2));
    expect(parsePayloadDatetime("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
    // A leap second is the first second of the next minute.
    expect(parsePayloadDatetime("2016-12-31T23:59:60Z")).toBe(Date.UTC(2017, 0, 1));
  });

  it("is null for what names no time", () => {
    for (const text of ["2023-02-29T00:00:00Z", "2023-13-01T00:00:00Z", "2023-02-27T24:00:00Z", "2023-02-27 15:40:12Z", "2023-02-27T15:40:12", "2023-02-27T15:40:12.Z", "yesterday"]) {
      expect(parsePayloadDatetime(text), text).toBeNull();
    }
  });
});

describe("retention", () => {
  it("keeps a valid retention, makes a short one the lower and any other the default", () => {
    expect([30, 90, 0, 7, 29, 31, 60, 365, null].map((days) => enforceRetention(days))).toEqual([30, 90, 30, 30, 30, 90, 90, 90, 90]);
    expect(enforceRetention(60, { defaultDays: 90, lowerDays: 30, validDays: new Set([30, 60, 90]) })).toBe(60);
  });
});
