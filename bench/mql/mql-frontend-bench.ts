/**
 * Throughput of the MQL front end — validate mql_context, parse, resolve names through the
 * indexer mappings, print SQL — on one core, over a corpus of SDK-printed queries. No ClickHouse.
 */
import type { DefinitionLookup } from "../../src/datasets/definition-lookup.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { DEMO_INDEXER_MAPPINGS } from "../../src/demo-data/demo-indexer-mappings.js";
import { readMqlContext } from "../../src/mql/mql-context.js";
import { prepareMqlQuery } from "../../src/mql/run-mql-query.js";
import type { BenchSection } from "../bench-row.js";
import { describeThroughput, measureThroughput } from "../measure-throughput.js";
import { MQL_CORPUS, type MqlCorpusEntry } from "./mql-corpus.js";

/** The measured function: an SDK-printed query and its context → SQL. */
export function mqlFrontEnd(registry: DefinitionLookup): (entry: MqlCorpusEntry) => string {
  return (entry) => {
    const context = readMqlContext({
      start: "2026-11-20T00:00:00+00:00",
      end: "2026-11-22T00:00:00+00:00",
      rollup: { granularity: 60, interval: entry.interval, with_totals: "True", orderby: null },
      scope: { org_ids: [1], project_ids: [1, 2, 3], use_case_id: entry.useCase },
      indexer_mappings: DEMO_INDEXER_MAPPINGS,
      limit: null,
      offset: null,
    });
    return prepareMqlQuery(registry, entry.dataset, entry.mql, context).sql;
  };
}

export const mqlFrontendBench: BenchSection = async ({ quick }) => {
  const result = measureThroughput(MQL_CORPUS, mqlFrontEnd(defaultRegistry()), quick ? 300 : 5000);
  return [
    {
      bench: `MQL front end (context + parse + resolve + SQL), ${MQL_CORPUS.length} queries, one core`,
      figure: describeThroughput(result),
      target: "≥ 20,000 queries/s",
    },
  ];
};
