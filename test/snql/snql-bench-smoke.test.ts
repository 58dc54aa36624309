/**
 * The SnQL front-end bench runs in CI as a smoke test: its corpus is large and varied enough,
 * every query goes through the whole front end, and the section reports a figure.
 */
import { describe, expect, it } from "vitest";
import { SNQL_CORPUS } from "../../bench/snql/snql-corpus.js";
import { snqlFrontendBench } from "../../bench/snql/snql-frontend-bench.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";

describe("SnQL front-end bench", () => {
  it("has at least 50 queries covering filters, BY, tags, time series, joins and subqueries", () => {
    expect(SNQL_CORPUS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(SNQL_CORPUS).size).toBe(SNQL_CORPUS.length);
    const count = (pattern: RegExp) => SNQL_CORPUS.filter((query) => pattern.test(query)).length;
    expect(count(/ BY /)).toBeGreaterThanOrEqual(20);
    expect(count(/tags\[/)).toBeGreaterThanOrEqual(5);
    expect(count(/GRANULARITY/)).toBeGreaterThanOrEqual(5);
    expect(count(/-\[\w+\]->/)).toBeGreaterThanOrEqual(5);
    expect(count(/^MATCH \{/)).toBeGreaterThanOrEqual(4);
  });

  it("prepares every corpus query and reports a throughput figure", async () => {
    const registry = defaultRegistry();
    for (const query of SNQL_CORPUS) expect(prepareSnqlQuery(registry, query, false).sql).toMatch(/^SELECT /);
    const [row] = await snqlFrontendBench({ quick: true });
    expect(row?.figure).toMatch(/^[\d,]+ queries\/s; median \d+ µs, p99 \d+ µs; heap \d+ MB$/);
  });
});
