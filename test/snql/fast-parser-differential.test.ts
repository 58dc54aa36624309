/**
 * The hand-written fast path (`parseSnqlFast`) must never disagree with the chevrotain grammar
 * (`parseWithChevrotain`), which is the reference: for every text, the fast path either gives up
 * (null) or builds exactly the tree chevrotain builds, positions included; and it gives up on
 * every text chevrotain refuses. Checked on random valid queries, on the bench corpus, and on
 * random mutations of both (deleted, duplicated and swapped characters, injected tokens).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SNQL_CORPUS } from "../../bench/snql/snql-corpus.js";
import { parseSnqlFast } from "../../src/snql/fast-parser.js";
import { parseWithChevrotain } from "../../src/snql/parse-snql.js";
import { printSnql } from "../../src/snql/print-snql.js";
import { anyQuery } from "./snql-query-arbitrary.js";

type Outcome = { accepted: true; tree: unknown } | { accepted: false };

function chevrotain(text: string): Outcome {
  try {
    return { accepted: true, tree: parseWithChevrotain(text) };
  } catch {
    return { accepted: false };
  }
}

/** The fast path agrees with chevrotain on `text`; returns whether it took the text itself. */
function expectAgreement(text: string): boolean {
  const fast = parseSnqlFast(text);
  const reference = chevrotain(text);
  if (!reference.accepted) {
    expect(fast, `fast path accepted a text chevrotain refuses: ${text}`).toBeNull();
    return false;
  }
  if (fast === null) return false;
  expect(fast, text).toEqual(reference.tree);
  return true;
}

const INJECTED = ["(", ")", "{", "}", "[", "]", ",", "'", "\\", "AND", " OR ", "->", "`", "\n", "--", "1e5", "-", ".", ":", "AS x"];

/** A text with one random edit: a character removed, repeated or swapped, or a token inserted. */
const mutation = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(base, fc.nat(), fc.constantFrom("delete", "repeat", "swap", "insert"), fc.constantFrom(...INJECTED))
    .map(([text, at, edit, token]) => {
      const i = text.length === 0 ? 0 : at % text.length;
      switch (edit) {
        case "delete":
          return text.slice(0, i) + text.slice(i + 1);
        case "repeat":
          return text.slice(0, i + 1) + text.slice(i);
        case "swap":
          return text.slice(0, i) + text.charAt(i + 1) + text.charAt(i) + text.slice(i + 2);
        default:
          return text.slice(0, i) + token + text.slice(i);
      }
    });

describe("the fast SnQL parser against the chevrotain grammar", () => {
  it("builds chevrotain's tree for every bench corpus query, and takes them itself", () => {
    for (const text of SNQL_CORPUS) expect(expectAgreement(text), text).toBe(true);
  });

  it("agrees on random valid queries", () => {
    let taken = 0;
    fc.assert(
      fc.property(anyQuery, (query) => {
        if (expectAgreement(printSnql(query))) taken++;
      }),
      { numRuns: 400 },
    );
    // The property is only worth something if the fast path reads most of these itself.
    expect(taken).toBeGreaterThan(200);
  });

  it("agrees on mutated corpus queries (gives up wherever chevrotain refuses)", () => {
    fc.assert(fc.property(mutation(fc.constantFrom(...SNQL_CORPUS)), (text) => void expectAgreement(text)), { numRuns: 2000 });
  });

  it("agrees on mutated random queries", () => {
    fc.assert(fc.property(mutation(anyQuery.map((query) => printSnql(query))), (text) => void expectAgreement(text)), { numRuns: 600 });
  });
});
