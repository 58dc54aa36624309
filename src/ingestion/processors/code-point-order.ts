/**
 * Orders strings by Unicode code point: Rust's `String` ordering (UTF-8 bytes) and Python's `str`
 * ordering agree on it. JS's `<` compares UTF-16 code units, which differs once a character
 * above U+FFFF meets one in U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Both surrogates, or neither: code-unit order is code-point order.
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    if (xSurrogate === ySurrogate) return x - y;
    // A surrogate stands for a code point above U+FFFF, greater than any other unit.
    return xSurrogate ? 1 : -1;
  }
  return a.length - b.length;
}
