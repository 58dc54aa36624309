/**
 * How Snuba's Python transactions processor turns a JSON value into the text it stores
 * (snuba/processor.py `_unicodify`): `str()` of a scalar, `simplejson.dumps` of a container,
 * numbers as Python prints its ints and floats.
 */
import { JsonNumber, type JsonValue } from "./lossless-json.js";
import { shortestDecimal } from "./shortest-decimal.js";

/** Python's `repr(float)`: shortest digits, always a point or an exponent, exponent form below 1e-4 and from 1e16. */
export function pythonFloatText(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  const { negative, digits, pointAt } = shortestDecimal(value);
  const sign = negative ? "-" : "";
  if (digits === "0") return `${sign}0.0`;
  const length = digits.length;
  if (pointAt > -4 && pointAt <= 16) {
    if (pointAt <= 0) return `${sign}0.${"0".repeat(-pointAt)}${digits}`;
    if (pointAt >= length) return `${sign}${digits}${"0".repeat(pointAt - length)}.0`;
    return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  }
  const exponent = pointAt - 1;
  const mantissa = length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** A JSON number as the Python value json.loads makes of it prints: ints exactly, floats by repr. */
export function pythonNumberText(value: number | JsonNumber): string {
  if (typeof value === "number") return Object.is(value, -0) ? "0" : String(value);
  return value.integer ? BigInt(value.text).toString() : pythonFloatText(value.value);
}

/** `str(value)` in Python, for the JSON values (containers print as their repr). */
export function pythonStr(value: JsonValue): string {
  if (typeof value === "string") return value;
  return pythonRepr(value);
}

/** `repr(value)`: what `str()` prints for a container and its members. */
function pythonRepr(value: JsonValue): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number" || value instanceof JsonNumber) return pythonNumberText(value);
  if (typeof value === "string") return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  return `{${[...value].map(([key, member]) => `${pythonStringRepr(key)}: ${pythonRepr(member)}`).join(", ")}}`;
}

function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === "\\" || char === quote) out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0)) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return out + quote;
}

/** `simplejson.dumps(value)` with its defaults: `", "` and `": "` separators, non-ASCII escaped. */
export function simplejsonText(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return asciiJsonString(value);
  if (typeof value === "number" || value instanceof JsonNumber) {
    const text = pythonNumberText(value);
    return text === "nan" ? "NaN" : text === "inf" ? "Infinity" : text === "-inf" ? "-Infinity" : text;
  }
  if (Array.isArray(value)) return `[${value.map(simplejsonText).join(", ")}]`;
  return `{${[...value].map(([key, member]) => `${asciiJsonString(key)}: ${simplejsonText(member)}`).join(", ")}}`;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function asciiJsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? "";
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES[char];
    if (short !== undefined) out += short;
    // Everything outside space..tilde, one UTF-16 unit at a time (a pair for U+10000 and up).
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return out + '"';
}

/** `_unicodify`: null stays null, containers become simplejson text, everything else `str()`. */
export function pythonUnicodify(value: JsonValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value) || value instanceof Map) return simplejsonText(value);
  return pythonStr(value);
}
