import { describe, expect, it } from "vitest";
import { buildSql } from "../../src/clickhouse/sql-builder.js";
import { quoteIdentifier, quoteString } from "../../src/clickhouse/escaping.js";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { validateEntityQuery } from "../../src/snql/entity-validation.js";
import { applyGranularityCondition } from "../../src/snql/granularity-condition.js";
import { parseSnql } from "../../src/snql/parse-snql.js";

const registry = defaultRegistry();
const RANGE = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";
const SQL_RANGE = "greaterOrEquals(timestamp, toDateTime('2024-01-01T00:00:00', 'Universal')), less(timestamp, toDateTime('2024-01-02T00:00:00', 'Universal'))";

function sqlOf(text: string, defaultSample: number | null = null): string {
  const query = parseSnql(text);
  const validated = validateEntityQuery(query, registry);
  const storage = registry.storage(validated.entity.readableStorage)!;
  const processed = applyGranularityCondition(query, validated.entity);
  return buildSql(processed, validated.entity, storage, new Set(validated.aliases.keys()), { defaultSample }).sql;
}

describe("golden SQL", () => {
  it("count BY a column, with the mandatory deleted condition and default limit", () => {
    expect(sqlOf(`MATCH (events) SELECT count() AS c BY project_id WHERE ${RANGE} AND project_id = 1`)).toBe(
      `SELECT project_id AS _snuba_project_id, count() AS _snuba_c FROM errors_local WHERE and(equals(deleted, 0), and(and(${SQL_RANGE}), equals(project_id, 1))) GROUP BY project_id LIMIT 1000 OFFSET 0`,
    );
  });

  it("tags, aliases referenced in ORDER BY and HAVING, IN tuples", () => {
    expect(
      sqlOf(`MATCH (events) SELECT uniq(user) AS users BY tags[browser] WHERE ${RANGE} AND project_id IN tuple(1, 2) HAVING users > 1 ORDER BY users DESC LIMIT 5 OFFSET 10`),
    ).toBe(
      "SELECT arrayElement(tags.value, indexOf(tags.key, 'browser')) AS `_snuba_tags[browser]`, uniq(user) AS _snuba_users FROM errors_local" +
        ` WHERE and(equals(deleted, 0), and(and(${SQL_RANGE}), in(project_id, tuple(1, 2))))` +
        " GROUP BY arrayElement(tags.value, indexOf(tags.key, 'browser')) HAVING greater(_snuba_users, 1) ORDER BY _snuba_users DESC LIMIT 5 OFFSET 10",
    );
  });

  it("curried functions, column mappers and time buckets by granularity", () => {
    const sql = sqlOf(
      "MATCH (transactions) SELECT quantile(0.95)(duration) AS p95 BY time, transaction WHERE finish_ts >= toDateTime('2024-01-01T00:00:00') AND finish_ts < toDateTime('2024-01-02T00:00:00') AND project_id = 1 GRANULARITY 60",
    );
    expect(sql).toContain("toStartOfMinute(finish_ts, 'Universal') AS _snuba_time");
    expect(sql).toContain("transaction_name AS _snuba_transaction");
    expect(sql).toContain("quantile(0.95)(duration) AS _snuba_p95");
    expect(sql).toContain("FROM transactions_local");
  });

  it.each([
    [3600, "toStartOfHour(timestamp, 'Universal')"],
    [86400, "toDate(timestamp, 'Universal')"],
    [300, "toDateTime(multiply(intDiv(toUInt32(timestamp), 300), 300), 'Universal')"],
  ])("GRANULARITY %i buckets time as %s", (granularity, bucket) => {
    expect(sqlOf(`MATCH (events) SELECT count() BY time WHERE ${RANGE} AND project_id = 1 GRANULARITY ${granularity}`)).toContain(`${bucket} AS _snuba_time`);
  });

  it("turbo samples storages that have a sampling key", () => {
    expect(sqlOf(`MATCH (events) SELECT count() WHERE ${RANGE} AND project_id = 1`, 0.1)).toContain("FROM errors_local SAMPLE 0.1 WHERE");
    expect(sqlOf(`MATCH (events SAMPLE 0.5) SELECT count() WHERE ${RANGE} AND project_id = 1`)).toContain("SAMPLE 0.5");
  });
});

describe("escaping", () => {
  it.each([
    ["plain", "'plain'"],
    ["it's", "'it\\'s'"],
    ["back\\slash", "'back\\\\slash'"],
    ["line\nbreak\ttab\0nul", "'line\\nbreak\\ttab\\0nul'"],
    ["' OR 1=1 --", "'\\' OR 1=1 --'"],
  ])("quotes %j as %s", (value, quoted) => {
    expect(quoteString(value)).toBe(quoted);
  });

  it("back-quotes identifiers that are not plain", () => {
    expect(quoteIdentifier("tags.key")).toBe("tags.key");
    expect(quoteIdentifier("count()")).toBe("`count()`");
    expect(quoteIdentifier("a`b")).toBe("`a\\`b`");
  });
});

describe("pre-aggregated (metrics) entities", () => {
  const SCOPE = `${RANGE} AND org_id = 1 AND project_id = 1`;

  it.each([
    ["generic_metrics_counters", "", "equals(granularity, 1)"],
    ["generic_metrics_counters", " GRANULARITY 3600", "equals(granularity, 2)"],
    ["generic_metrics_counters", " GRANULARITY 7200", "equals(granularity, 2)"],
    ["generic_metrics_counters", " GRANULARITY 86400", "equals(granularity, 3)"],
    ["metrics_counters", "", "equals(granularity, 60)"],
    ["metrics_counters", " GRANULARITY 120", "equals(granularity, 60)"],
  ])("%s%s reads one rollup: %s", (entity, clause, condition) => {
    expect(sqlOf(`MATCH (${entity}) SELECT sum(value) WHERE ${SCOPE}${clause}`)).toContain(condition);
  });

  it("refuses a granularity no rollup divides, or one given twice", () => {
    expect(() => sqlOf(`MATCH (metrics_counters) SELECT sum(value) WHERE ${SCOPE} GRANULARITY 15`)).toThrow(
      "Granularity must be multiple of one of (10, 60, 3600, 86400)",
    );
    expect(() => sqlOf(`MATCH (metrics_counters) SELECT sum(value) WHERE ${SCOPE} AND granularity = 60 GRANULARITY 60`)).toThrow(
      "Granularities cannot be specified in both",
    );
  });

  const METRICS_RANGE = `${RANGE} AND org_id = 1 AND project_id = 1 AND granularity = 1`;

  it("reads aggregates through the entity's -Merge function mappers", () => {
    expect(sqlOf(`MATCH (generic_metrics_counters) SELECT sum(value) AS total BY metric_id WHERE ${METRICS_RANGE}`)).toContain(
      "sumMerge(value) AS _snuba_total",
    );
    const distributions = sqlOf(
      `MATCH (generic_metrics_distributions) SELECT quantiles(0.5, 0.95)(value) AS q, max(value) AS top WHERE ${METRICS_RANGE} AND metric_id = 101`,
    );
    expect(distributions).toContain("quantilesMerge(0.5, 0.95)(percentiles) AS _snuba_q");
    expect(distributions).toContain("maxMerge(max) AS _snuba_top");
  });
});
