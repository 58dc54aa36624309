/**
 * A JSON parser that keeps integers exact: an integer literal beyond ±2^53 becomes a bigint
 * instead of the nearest double. Sentry's indexer ids are 64-bit (shared strings start at 2^63),
 * and `JSON.parse` would turn `9223372036854775909` into `9223372036854775808`.
 *
 * Only used on text `JSON.parse` has already accepted (json-message.ts), so it can assume valid
 * JSON; it still refuses what it does not understand rather than guess.
 */

/** What this parser produces: JSON values, with big integers as bigint. */
export type ExactJsonValue = null | boolean | number | bigint | string | ExactJsonValue[] | { [key: string]: ExactJsonValue };

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  parseDocument(): ExactJsonValue {
    const value = this.value();
    this.skipWhitespace();
    if (this.at !== this.text.length) this.fail("unexpected text after the value");
    return value;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at position ${this.at}`);
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private value(): ExactJsonValue {
    this.skipWhitespace();
    const char = this.text[this.at];
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"') return this.string();
    if (this.text.startsWith("true", this.at)) return this.literal(4, true);
    if (this.text.startsWith("false", this.at)) return this.literal(5, false);
    if (this.text.startsWith("null", this.at)) return this.literal(4, null);
    return this.number();
  }

  private literal<T>(length: number, value: T): T {
    this.at += length;
    return value;
  }

  private number(): number | bigint {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail("expected a value");
    this.at = NUMBER.lastIndex;
    const literal = match[0];
    const isInteger = match[1] === undefined && match[2] === undefined;
    if (isInteger) {
      const exact = BigInt(literal);
      if (exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < BigInt(Number.MIN_SAFE_INTEGER)) return exact;
    }
    return Number(literal);
  }

  private string(): string {
    // Find the closing quote (a quote preceded by an even run of backslashes), then let
    // JSON.parse decode the escapes of that one token.
    let end = this.at + 1;
    for (;;) {
      const quote = this.text.indexOf('"', end);
      if (quote < 0) this.fail("unterminated string");
      let backslashes = 0;
      for (let i = quote - 1; this.text[i] === "\\"; i -= 1) backslashes += 1;
      end = quote + 1;
      if (backslashes % 2 === 0) break;
    }
    const token = this.text.slice(this.at, end);
    this.at = end;
    return JSON.parse(token) as string;
  }

  private array(): ExactJsonValue[] {
    this.at += 1;
    const items: ExactJsonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.at] === "]") {
      this.at += 1;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipWhitespace();
      const char = this.text[this.at];
      this.at += 1;
      if (char === "]") return items;
      if (char !== ",") this.fail("expected ',' or ']'");
    }
  }

  private object(): { [key: string]: ExactJsonValue } {
    this.at += 1;
    const members: { [key: string]: ExactJsonValue } = {};
    this.skipWhitespace();
    if (this.text[this.at] === "}") {
      this.at += 1;
      return members;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') this.fail("expected a member name");
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.at] !== ":") this.fail("expected ':'");
      this.at += 1;
      // defineProperty, so a member named `__proto__` is a member (as with JSON.parse), not a prototype.
      Object.defineProperty(members, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const char = this.text[this.at];
      this.at += 1;
      if (char === "}") return members;
      if (char !== ",") this.fail("expected ',' or '}'");
    }
  }
}

/** Parses JSON text, integers beyond ±2^53 as bigint; throws SyntaxError on text that is not JSON. */
export function parseExactIntegerJson(text: string): ExactJsonValue {
  return new Parser(text).parseDocument();
}
