/**
 * Columns an entity names that its storage does not hold whole (src/pipeline/columns-read-whole.ts):
 * refused where the SQL would name a column the table lacks, taken where a mapped aggregate or
 * a subscript reads them, and never confused with an alias of the same name.
 */
import { describe, expect, it } from "vitest";
import { snqlRefusal } from "../support/snql-refusal.js";

const RANGE = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')";

function refusal(query: string): string | null {
  const error = snqlRefusal(query);
  if (error !== null && error.type !== "invalid_query") throw error;
  return error?.message ?? null;
}

describe("columns the storage does not hold whole", () => {
  const metrics = (select: string, rest = "") => `MATCH (metrics_distributions) SELECT ${select} WHERE project_id = 1 AND org_id = 1 AND ${RANGE}${rest}`;

  it("refuses a metrics value outside the aggregates that read it, naming them", () => {
    for (const query of [metrics("value"), metrics("count() AS c", " ORDER BY value DESC"), metrics("max(value) + value AS m"), metrics("count() AS c BY value")]) {
      expect(refusal(query), query).toMatch(/column value at line 1, column \d+ is not stored on entity 'metrics_distributions': only its aggregates read it, each from a stored state \(min\(value\), .*quantiles\(…\)\(value\)/);
    }
  });

  it("takes the mapped aggregates, their -If forms, and an alias named value", () => {
    expect(refusal(metrics("quantiles(0.5, 0.9)(value) AS q, maxIf(value, metric_id = 2) AS m, avg(value) AS a"))).toBeNull();
    expect(refusal(metrics("sum(value) AS value BY metric_id", " ORDER BY value DESC"))).toBeNull();
  });

  it("takes value where the storage stores it (a state on generic_metrics_counters)", () => {
    expect(refusal(`MATCH (generic_metrics_counters) SELECT value WHERE project_id = 1 AND org_id = 1 AND ${RANGE}`)).toBeNull();
  });

  it("refuses a map split by key read whole, and takes it read by key", () => {
    expect(refusal(`MATCH (eap_items) SELECT attributes_float AS f WHERE ${RANGE}`)).toMatch(/column attributes_float at line 1, column 26 is a map that entity 'eap_items' stores split by key: read one key as attributes_float\[key\]/);
    expect(refusal(`MATCH (eap_items) SELECT attributes_float[duration] AS f WHERE ${RANGE} AND attributes_string[browser] = 'x'`)).toBeNull();
  });
});
