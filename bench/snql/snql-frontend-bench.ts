/**
 * Throughput of the SnQL front end — parse, validate against the definitions, translate to SQL —
 * on one core, over a corpus of realistic queries (filters, aggregations, tags, time series,
 * joins, subqueries, storages). No ClickHouse involved.
 */
import type { DefinitionLookup } from "../../src/datasets/definition-lookup.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { prepareSnqlQuery } from "../../src/snql/run-snql-query.js";
import type { BenchSection } from "../bench-row.js";
import { describeThroughput, measureThroughput } from "../measure-throughput.js";
import { SNQL_CORPUS } from "./snql-corpus.js";

/** The measured function: query text → SQL. */
export function snqlFrontEnd(registry: DefinitionLookup): (text: string) => string {
  return (text) => prepareSnqlQuery(registry, text, false).sql;
}

export const snqlFrontendBench: BenchSection = async ({ quick }) => {
  const registry = defaultRegistry();
  const frontEnd = snqlFrontEnd(registry);
  // A corpus query that fails would measure error handling, not the front end.
  for (const text of SNQL_CORPUS) frontEnd(text);
  const result = measureThroughput(SNQL_CORPUS, frontEnd, quick ? 300 : 5000);
  return [
    {
      bench: `SnQL front end (parse + validate + SQL), ${SNQL_CORPUS.length} queries incl. joins and subqueries, one core`,
      figure: describeThroughput(result),
      // One chevrotain grammar (issue 14) traded the hand-written fast path's speed for one
      // definition of the language: the bar is now the median (was ≥ 20,000 queries/s).
      target: "median ≤ 50 µs",
    },
  ];
};
