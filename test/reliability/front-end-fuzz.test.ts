/**
 * The SnQL front end (parsing, validation, translation) over the fuzz's query texts, in process
 * and without a server: each text is prepared or refused with a typed error. Anything else is a
 * 500 on the wire. The front end alone goes through many more inputs than a run against a server
 * in the same time. Seed 2, which the long runs (seed 1) do not use, so CI looks at other inputs
 * than they do.
 */
import { describe, expect, it } from "vitest";
import { fuzzInput } from "../../bench/reliability/fuzz-inputs.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";

const INPUTS = 100_000;
const SEED = 2;
const NOW = Date.UTC(2026, 10, 28, 12);

/** The query text of a fuzz input sent to a SnQL route, or null. */
function snqlText(index: number): string | null {
  const input = fuzzInput(SEED, index, NOW);
  if (!input.path.endsWith("/snql") || typeof input.body !== "string") return null;
  try {
    const query: unknown = (JSON.parse(input.body) as { query?: unknown }).query;
    return typeof query === "string" ? query : null;
  } catch {
    return null;
  }
}

describe("the SnQL front end over the fuzz's inputs", () => {
  it("prepares each query text or refuses it with a typed error, never throws anything else", () => {
    const registry = defaultRegistry();
    const untyped: string[] = [];
    let texts = 0;
    let prepared = 0;
    for (let index = 0; index < INPUTS; index++) {
      const text = snqlText(index);
      if (text === null) continue;
      texts++;
      try {
        prepareSnqlQuery(registry, text, false);
        prepared++;
      } catch (error) {
        if (error instanceof QueryServiceError && error.type !== "internal_server_error") continue;
        untyped.push(`${SEED}:${index}: ${String(error).slice(0, 200)}\n  ${text.slice(0, 400)}`);
      }
    }
    expect(texts).toBeGreaterThan(INPUTS / 4);
    // Many are taken (the corpus and the grammar's sentences), so the later stages are reached too.
    expect(prepared).toBeGreaterThan(texts / 10);
    expect(untyped).toEqual([]);
  }, 600_000);
});
