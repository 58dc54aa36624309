/** One row as a JSONEachRow line, in text ClickHouse accepts. */

/**
 * The row's JSON and a newline. A lone UTF-16 surrogate (from a client's bad input) becomes
 * U+FFFD; a bigint (a 64-bit id past 2^53) is written as its decimal text, which ClickHouse reads
 * into an integer column exactly.
 */
export function jsonEachRowLine(row: unknown): string {
  // V8 writes JSON fastest without a replacer; most rows need none. A bigint makes that throw,
  // and an escaped lone surrogate shows as `\ud…` in its output (a paired one is written as is):
  // those rows, and any whose text happens to hold `\ud`, take the replacer.
  let text: string;
  try {
    text = JSON.stringify(row);
  } catch {
    return `${JSON.stringify(row, wellFormed)}\n`;
  }
  return text.includes("\\ud") ? `${JSON.stringify(row, wellFormed)}\n` : `${text}\n`;
}

function wellFormed(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "string" || !SURROGATE.test(value)) return value;
  return value.replace(LONE_SURROGATE, "\uFFFD");
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
