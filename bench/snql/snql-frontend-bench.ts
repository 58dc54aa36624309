/**
 * Throughput of the SnQL front end — parse, validate against the entity, print SQL — on one
 * core, over a corpus of realistic queries. No ClickHouse involved.
 */
import { buildSql } from "../../src/clickhouse/sql-builder.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { validateEntityQuery } from "../../src/pipeline/entity-validation.js";
import { parseSnql } from "../../src/snql/parse-snql.js";
import type { BenchSection } from "../bench-row.js";
import { describeThroughput, measureThroughput } from "../measure-throughput.js";
import { SNQL_CORPUS } from "./snql-corpus.js";

export const snqlFrontendBench: BenchSection = async ({ quick }) => {
  const registry = defaultRegistry();
  const frontEnd = (text: string) => {
    const query = parseSnql(text);
    const validated = validateEntityQuery(query, registry);
    const storage = registry.storage(validated.entity.readableStorage)!;
    return buildSql(query, validated.entity, storage, new Set(validated.aliases.keys())).sql;
  };
  const result = measureThroughput(SNQL_CORPUS, frontEnd, quick ? 300 : 5000);
  return [
    {
      bench: `SnQL front end (parse + validate + SQL), ${SNQL_CORPUS.length} queries, one core`,
      figure: describeThroughput(result),
      target: "≥ 20,000 queries/s",
    },
  ];
};
