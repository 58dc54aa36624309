/** Golden SQL per construct: what each MQL shape becomes on the metrics storages. */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/datasets/registry.js";
import { DEMO_INDEXER_MAPPINGS } from "../../src/demo-data/demo-indexer-mappings.js";
import { QueryServiceError } from "../../src/errors/query-service-error.js";
import { readMqlContext } from "../../src/mql/mql-context.js";
import { prepareMqlQuery } from "../../src/mql/run-mql-query.js";

const registry = defaultRegistry();
const BASE = {
  start: "2024-01-01T00:00:00+00:00",
  end: "2024-01-01T06:00:00+00:00",
  scope: { org_ids: [1], project_ids: [1], use_case_id: "custom" },
  limit: null,
  offset: null,
};

function sql(dataset: string, mql: string, context: object): string {
  return prepareMqlQuery(registry, dataset, mql, readMqlContext({ ...BASE, ...context }), DEMO_INDEXER_MAPPINGS).sql;
}

/** The scope, rollup and window conditions every timeseries gets. */
function scope(metricId: number, granularity: number, time = "timestamp", projects = "1", useCase = "custom"): string {
  return [
    `equals(metric_id, ${metricId})`,
    `equals(granularity, ${granularity})`,
    "in(org_id, tuple(1))",
    `in(project_id, tuple(${projects}))`,
    `equals(use_case_id, '${useCase}')`,
    `greaterOrEquals(${time}, toDateTime('2024-01-01T00:00:00', 'Universal'))`,
    `less(${time}, toDateTime('2024-01-01T06:00:00', 'Universal'))`,
  ].join(", ");
}

const tag = (id: number, column = "tags.raw_value") => `arrayElement(${column}, indexOf(tags.key, ${id}))`;

describe("golden SQL", () => {
  it("a single-level quantile of a distribution, ordered by value, escaping the filter value", () => {
    expect(
      sql("generic_metrics", 'quantiles(0.95)(d:transactions/duration@millisecond){transaction:"a\'b"}', {
        rollup: { granularity: 3600, interval: null, with_totals: "False", orderby: "DESC" },
      }),
    ).toBe(
      "SELECT arrayElement(quantilesMerge(0.95)(percentiles), 1) AS _snuba_aggregate_value FROM generic_metric_distributions_aggregated_local " +
        `WHERE and(${scope(101, 2)}, equals(${tag(212)}, 'a\\'b')) ORDER BY _snuba_aggregate_value DESC LIMIT 1000`,
    );
  });

  it("a gauge average with NOT IN, a prefix OR, a group and limit/offset on rows", () => {
    expect(
      sql("generic_metrics", "avg(g:custom/queue.depth@none){!queue:[emails, sync] OR queue:inv*} by queue", {
        rollup: { granularity: 60 },
        limit: 5,
        offset: 10,
      }),
    ).toBe(
      `SELECT divide(sumMerge(sum), sumMerge(count)) AS _snuba_aggregate_value, ${tag(65602)} AS _snuba_queue FROM generic_metric_gauges_aggregated_local ` +
        `WHERE and(${scope(65539, 1, "rounded_timestamp")}, or(notIn(${tag(65602)}, tuple('emails', 'sync')), like(${tag(65602)}, 'inv%'))) ` +
        "GROUP BY _snuba_queue ORDER BY _snuba_queue ASC LIMIT 5 OFFSET 10",
    );
  });

  it("legacy metrics: indexed tag values, seconds granularity, interval buckets and the group page", () => {
    const where = `${scope(1, 86400, "timestamp", "1, 2", "sessions")}, equals(${tag(209, "tags.value")}, 206)`;
    expect(
      sql("metrics", "sum(c:sessions/session@none){session.status:init} by release", {
        rollup: { granularity: 86400, interval: 86400 },
        scope: { org_ids: [1], project_ids: [1, 2], use_case_id: "sessions" },
      }),
    ).toBe(
      `SELECT sumMerge(value) AS _snuba_aggregate_value, ${tag(208, "tags.value")} AS _snuba_release, ` +
        "toStartOfInterval(timestamp, toIntervalSecond(86400), 'Universal') AS _snuba_time FROM metrics_counters_v2_local " +
        `WHERE and(${where}, in(tuple(${tag(208, "tags.value")}), (SELECT tuple(${tag(208, "tags.value")}) AS g FROM metrics_counters_v2_local ` +
        `WHERE and(${where}) GROUP BY g ORDER BY g ASC LIMIT 1000 OFFSET 0))) ` +
        "GROUP BY _snuba_release, _snuba_time ORDER BY _snuba_time ASC, _snuba_release ASC LIMIT 1000",
    );
  });

  it("a formula over two entities: state subqueries, a cross join without groups, merges outside", () => {
    expect(
      sql("generic_metrics", "sum(c:custom/page_views@none) / uniq(s:custom/active_organizations@none) * 100", {
        rollup: { granularity: 60, with_totals: "True" },
      }),
    ).toBe(
      "SELECT multiply(divide(sumMerge(d0.p0), uniqCombined64Merge(d1.p0)), 100) AS _snuba_aggregate_value " +
        `FROM (SELECT sumMergeState(value) AS p0 FROM generic_metric_counters_aggregated_local WHERE and(${scope(65536, 1)})) AS d0 ` +
        `CROSS JOIN (SELECT uniqCombined64MergeState(value) AS p0 FROM generic_metric_sets_local WHERE and(${scope(65538, 1)})) AS d1 LIMIT 1000`,
    );
  });

  it("a grouped formula per bucket joins on the bucket and every group key", () => {
    const text = sql("generic_metrics", "sum(c:custom/page_views@none) by page / count(d:custom/checkout.cart_value@none) by page", {
      rollup: { granularity: 60, interval: 3600, with_totals: "True" },
    });
    expect(text).toContain("divide(sumMerge(d0.p0), countMerge(d1.p0)) AS _snuba_aggregate_value, d0.g0 AS _snuba_page, d0.bucket AS _snuba_time");
    expect(text).toContain(`countMergeState(count) AS p0, ${tag(65600)} AS g0, toStartOfInterval(timestamp, toIntervalSecond(3600), 'Universal') AS bucket`);
    expect(text).toContain("AS d1 ON d0.bucket = d1.bucket AND d0.g0 = d1.g0");
    expect(text).toContain("GROUP BY _snuba_page, _snuba_time ORDER BY _snuba_time ASC, _snuba_page ASC LIMIT 6000) UNION ALL (");
    // The totals branch: each timeseries as one row of states over the whole window, cross joined.
    expect(text).toContain(
      "(SELECT divide(sumMerge(d0.p0), countMerge(d1.p0)) AS _snuba_aggregate_value, any(d0.g0), any(d0.bucket), 1 AS _snuba___totals FROM (SELECT sumMergeState(value) AS p0, " +
        `defaultValueOfArgumentType(any(${tag(65600)})) AS g0, defaultValueOfArgumentType(any(toStartOfInterval(timestamp, toIntervalSecond(3600), 'Universal'))) AS bucket ` +
        `FROM generic_metric_counters_aggregated_local WHERE and(${scope(65536, 1)})) AS d0 CROSS JOIN (SELECT countMergeState(count) AS p0,`,
    );
    expect(text).toMatch(/\) ORDER BY _snuba___totals ASC, _snuba_time ASC, _snuba_page ASC$/);
  });

  it("reads the sample-weighted states with extrapolate", () => {
    const text = sql("generic_metrics", "sum(d:transactions/duration@millisecond)", { rollup: { granularity: 60 }, extrapolate: true });
    expect(text).toContain("SELECT sumMerge(sum_weighted) AS _snuba_aggregate_value");
  });
});

describe("translation errors", () => {
  const context = { rollup: { granularity: 60 } };
  const cases: [string, string, string][] = [
    ["generic_metrics", "sum(x:custom/a@none)", "unknown metric 'x:custom/a@none'"],
    ["generic_metrics", "sum(transaction.duration)", "unknown metric 'transaction.duration'"],
    ["generic_metrics", "uniq(c:custom/page_views@none)", "aggregate uniq(…) is not available on generic_metrics_counters; available: sum, sum_weighted"],
    ["generic_metrics", "sum(c:custom/page_views@none){browser:chrome}", "Tag keys (browser) not resolved"],
    ["generic_metrics", "sum(c:custom/page_views@none) by aggregate_value", "'aggregate_value' cannot be a group key: it names an output column"],
    ["generic_metrics", "quantiles(2)(d:transactions/duration@millisecond)", "takes quantile levels between 0 and 1"],
    ["generic_metrics", "apdex(sum(c:custom/page_views@none), 300)", "function 'apdex' is not supported in MQL formulas"],
    ["generic_metrics", "1 + 2", "the MQL query has no timeseries"],
    ["generic_metrics", "histogram(0)(d:transactions/duration@millisecond)", "histogram(n)(…) takes one bucket count n, a whole number from 1, e.g. histogram(250)(…)"],
    ["generic_metrics", "histogram(2.5)(d:transactions/duration@millisecond)", "histogram(n)(…) takes one bucket count n, a whole number from 1"],
    ["generic_metrics", 'histogram("5")(d:transactions/duration@millisecond)', "histogram(n)(…) takes one bucket count n, a whole number from 1"],
    ["generic_metrics", "histogram(5, 6)(d:transactions/duration@millisecond)", "histogram(n)(…) takes one bucket count n, a whole number from 1"],
    ["metrics", "sum(c:sessions/session@none){session.status:bogus}", "tag value 'bogus' of 'session.status' is not in mql_context.indexer_mappings"],
    ["metrics", "sum(c:sessions/session@none){release:backend*}", "prefix match 'release:backend*' is not possible on metrics_counters"],
    ["events", "sum(c:custom/page_views@none)", "MQL queries run on the metrics datasets"],
    // Scope columns are integers: ClickHouse could not convert these (code 53) or match a prefix (43).
    ["generic_metrics", 'sum(c:custom/page_views@none){project_id:"OR"}', "'OR' at line 1, column 31 is not a value of project_id, an integer column (UInt64): write an integer from 0 to 18446744073709551615"],
    ["generic_metrics", "sum(c:custom/page_views@none){!org_id:[1, x]}", "'x' at line 1, column 31 is not a value of org_id"],
    ["generic_metrics", "sum(c:custom/page_views@none){project_id:-1}", "'-1' at line 1, column 31 is not a value of project_id"],
    ["generic_metrics", "sum(c:custom/page_views@none){project_id:18446744073709551616}", "is not a value of project_id"],
    ["generic_metrics", "sum(c:custom/page_views@none){project_id:1*}", "prefix match 'project_id:1*' at line 1, column 31 is not possible: project_id is an integer column (UInt64)"],
    ["generic_metrics", Array.from({ length: 17 }, () => "sum(c:custom/page_views@none)").join(" + "), "at most 16 are allowed"],
  ];
  it.each(cases)("%s: %s", (dataset, mql, message) => {
    const attempt = () => sql(dataset, mql, context);
    expect(attempt).toThrow(QueryServiceError);
    expect(attempt).toThrow(message);
  });

  it("names an entity that does not hold the metric's type", () => {
    expect(() => sql("generic_metrics", "sum(c:custom/page_views@none)", { ...context, entity: "generic_metrics_sets" })).toThrow(
      "mql_context.entity 'generic_metrics_sets' holds sets, but 'c:custom/page_views@none' is a counter metric",
    );
  });

  it("a distribution's histogram, bare or with any bucket count, merges the histogram(250) states, as Snuba rewrites the count", () => {
    for (const mql of ["histogram(d:transactions/duration@millisecond)", "histogram(250)(d:transactions/duration@millisecond)", "histogram(5)(d:transactions/duration@millisecond)"]) {
      expect(sql("generic_metrics", mql, context)).toMatch(/^SELECT histogramMerge\(250\)\(histogram_buckets\) AS _snuba_aggregate_value/);
    }
  });

  it("follows public name -> MRI -> id chains", () => {
    const text = sql("generic_metrics", "sum(page.views)", {
      ...context,
      indexer_mappings: { "page.views": "c:custom/page_views@none", "c:custom/page_views@none": 65536 },
    });
    expect(text).toContain("FROM generic_metric_counters_aggregated_local WHERE and(equals(metric_id, 65536)");
    expect(() => sql("generic_metrics", "sum(c:a/b@c)", { ...context, indexer_mappings: { "c:a/b@c": "c:a/b@c" } })).toThrow("a cycle?");
  });
});
