/**
 * JSON.parse that keeps integers beyond 2^53 exact, as BigInt. A published result carries 64-bit
 * integers as bare JSON numbers (as Snuba writes them); plain JSON.parse would round them, and the
 * recount could then neither prove them equal nor different. Node 20's JSON.parse does not show a
 * reviver the source text of a number, so such literals are first rewritten as marked strings.
 */

/** A marker no parsed string carries: JSON text can only hold U+0000 escaped, and the rewrite is skipped when it does. */
const BIG_INTEGER_MARK = "\u0000bigint:";

/** Rewrites each integer literal outside strings that a double cannot hold as `"<mark><digits>"`. */
function markBigIntegers(text: string): { text: string; marked: boolean } {
  let out = "";
  let copiedUpTo = 0;
  let marked = false;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      // Skip the string, escapes included.
      index += 1;
      while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
      index += 1;
      continue;
    }
    if (char === "-" || (char >= "0" && char <= "9")) {
      let end = index + 1;
      while (end < text.length && /[0-9.eE+-]/.test(text[end]!)) end += 1;
      const literal = text.slice(index, end);
      if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        // The mark written escaped: JSON text cannot hold a raw U+0000.
        out += `${text.slice(copiedUpTo, index)}"\\u0000bigint:${literal}"`;
        copiedUpTo = end;
        marked = true;
      }
      index = end;
      continue;
    }
    index += 1;
  }
  return { text: marked ? out + text.slice(copiedUpTo) : text, marked };
}

/** Parses JSON text; integers outside ±(2^53 − 1) come back as BigInt. Throws SyntaxError as JSON.parse does. */
export function parseJsonLosslessly(text: string): unknown {
  // A string holding an escaped U+0000 could look like a marker once parsed: such text keeps JSON.parse's numbers.
  if (/\\u0000/i.test(text)) return JSON.parse(text);
  const rewritten = markBigIntegers(text);
  if (!rewritten.marked) return JSON.parse(text);
  return JSON.parse(rewritten.text, (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(BIG_INTEGER_MARK) ? BigInt(value.slice(BIG_INTEGER_MARK.length)) : value,
  );
}
