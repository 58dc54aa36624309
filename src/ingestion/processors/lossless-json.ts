/**
 * A JSON parser that keeps what JSON.parse throws away and Snuba's processors print: whether a
 * number was written as an integer or a float (`100.0` becomes the context value "100.0" in
 * Snuba, not "100"), the exact digits of an integer beyond 2^53 (group ids, span ids), and the
 * document order of every object's keys, integer-like keys included (Python dicts keep it; a
 * JS object moves "0" first).
 *
 * Objects are Maps: a repeated key keeps its first position and takes the last value, as a
 * Python dict built from the document does.
 */

/** A number written with a fraction or exponent, or an integer JS cannot hold exactly. */
export class JsonNumber {
  constructor(
    /** The number as written in the document. */
    readonly text: string,
    /** The nearest double. */
    readonly value: number,
    /** Written as an integer (no `.`, `e`, `E`). */
    readonly integer: boolean,
  ) {}
}

export type JsonObject = Map<string, JsonValue>;
/**
 * A parsed value. An integer written in the document whose value is a safe integer is a plain
 * `number` (`-0` included); every other number is a JsonNumber.
 */
export type JsonValue = null | boolean | string | number | JsonNumber | JsonValue[] | JsonObject;

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} at position ${position}`);
    this.name = "JsonSyntaxError";
  }
}

/** Deeper documents are refused rather than risking the stack. */
const MAX_DEPTH = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function parseLosslessJson(text: string): JsonValue {
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.at < text.length) throw new JsonSyntaxError("unexpected text after the JSON value", parser.at);
  return value;
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return value instanceof Map;
}

/** The number's double value, or undefined for anything that is not a number. */
export function numberOf(value: JsonValue | undefined): number | undefined {
  if (typeof value === "number") return value;
  if (value instanceof JsonNumber) return value.value;
  return undefined;
}

class Parser {
  at = 0;
  constructor(private readonly text: string) {}

  skipWhitespace(): void {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
      else break;
    }
    this.at = at;
  }

  value(depth: number): JsonValue {
    const c = this.text.charCodeAt(this.at);
    switch (c) {
      case QUOTE:
        return this.string();
      case 0x7b: // {
        return this.object(depth + 1);
      case 0x5b: // [
        return this.array(depth + 1);
      case 0x74: // t
        return this.literal("true", true);
      case 0x66: // f
        return this.literal("false", false);
      case 0x6e: // n
        return this.literal("null", null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        if (Number.isNaN(c)) throw new JsonSyntaxError("unexpected end of JSON", this.at);
        throw new JsonSyntaxError(`unexpected character ${JSON.stringify(this.text[this.at])}`, this.at);
    }
  }

  private literal<T>(word: string, result: T): T {
    if (!this.text.startsWith(word, this.at)) throw new JsonSyntaxError(`expected ${word}`, this.at);
    this.at += word.length;
    return result;
  }

  private object(depth: number): JsonObject {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(`nested deeper than ${MAX_DEPTH} levels`, this.at);
    const result: JsonObject = new Map();
    this.at++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === 0x7d) {
      this.at++;
      return result;
    }
    for (;;) {
      if (this.text.charCodeAt(this.at) !== QUOTE) throw new JsonSyntaxError("expected an object key", this.at);
      const key = this.string();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.at) !== 0x3a) throw new JsonSyntaxError("expected ':'", this.at);
      this.at++;
      this.skipWhitespace();
      result.set(key, this.value(depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.at);
      this.at++;
      if (c === 0x7d) return result;
      if (c !== 0x2c) throw new JsonSyntaxError("expected ',' or '}'", this.at - 1);
      this.skipWhitespace();
    }
  }

  private array(depth: number): JsonValue[] {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(`nested deeper than ${MAX_DEPTH} levels`, this.at);
    const result: JsonValue[] = [];
    this.at++;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === 0x5d) {
      this.at++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.at);
      this.at++;
      if (c === 0x5d) return result;
      if (c !== 0x2c) throw new JsonSyntaxError("expected ',' or ']'", this.at - 1);
      this.skipWhitespace();
    }
  }

  private string(): string {
    const text = this.text;
    const start = ++this.at;
    // Fast path: no escape before the closing quote.
    let at = start;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === QUOTE) {
        this.at = at + 1;
        return text.slice(start, at);
      }
      if (c === BACKSLASH) break;
      if (c < 0x20 || Number.isNaN(c)) throw this.stringError(at);
      at++;
    }
    let result = text.slice(start, at);
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === QUOTE) {
        this.at = at + 1;
        return result;
      }
      if (c === BACKSLASH) {
        const escape = text.charCodeAt(at + 1);
        switch (escape) {
          case QUOTE:
            result += '"';
            break;
          case BACKSLASH:
            result += "\\";
            break;
          case 0x2f:
            result += "/";
            break;
          case 0x62:
            result += "\b";
            break;
          case 0x66:
            result += "\f";
            break;
          case 0x6e:
            result += "\n";
            break;
          case 0x72:
            result += "\r";
            break;
          case 0x74:
            result += "\t";
            break;
          case 0x75: {
            const hex = text.slice(at + 2, at + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError("invalid \\u escape", at);
            result += String.fromCharCode(parseInt(hex, 16));
            at += 4;
            break;
          }
          default:
            throw new JsonSyntaxError("invalid escape", at);
        }
        at += 2;
        continue;
      }
      if (c < 0x20 || Number.isNaN(c)) throw this.stringError(at);
      // Copy the run up to the next quote or backslash in one slice.
      let end = at + 1;
      for (;;) {
        const d = text.charCodeAt(end);
        if (d === QUOTE || d === BACKSLASH || d < 0x20 || Number.isNaN(d)) break;
        end++;
      }
      result += text.slice(at, end);
      at = end;
    }
  }

  private stringError(at: number): JsonSyntaxError {
    return at >= this.text.length ? new JsonSyntaxError("unterminated string", at) : new JsonSyntaxError("control character in a string", at);
  }

  private number(): number | JsonNumber {
    const text = this.text;
    const start = this.at;
    let at = start;
    if (text.charCodeAt(at) === 0x2d) at++;
    const first = text.charCodeAt(at);
    if (first === 0x30) at++;
    else if (first >= 0x31 && first <= 0x39) at = this.digits(at);
    else throw new JsonSyntaxError("invalid number", start);
    let integer = true;
    if (text.charCodeAt(at) === 0x2e) {
      integer = false;
      const after = this.digits(at + 1);
      if (after === at + 1) throw new JsonSyntaxError("invalid number: no digit after '.'", start);
      at = after;
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45) {
      integer = false;
      at++;
      const sign = text.charCodeAt(at);
      if (sign === 0x2b || sign === 0x2d) at++;
      const after = this.digits(at);
      if (after === at) throw new JsonSyntaxError("invalid number: no digit in the exponent", start);
      at = after;
    }
    this.at = at;
    const written = text.slice(start, at);
    const value = Number(written);
    if (!Number.isFinite(value)) throw new JsonSyntaxError("number too large for a double", start);
    if (integer && Number.isSafeInteger(value)) return value;
    return new JsonNumber(written, value, integer);
  }

  private digits(at: number): number {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c >= 0x30 && c <= 0x39) at++;
      else return at;
    }
  }
}
