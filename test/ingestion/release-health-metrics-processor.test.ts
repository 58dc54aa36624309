/**
 * The snuba-metrics (release-health) processor as a pure function: one row per message of any
 * type, tags as indexer ids in key-text order, timeseries_id over the ids' bytes, the partition
 * and offset kept, retention clamped, and the reasons of invalid messages.
 */
import { describe, expect, it } from "vitest";
import { invalidReason as reason, rowOf as onlyRow } from "./message-text.js";
import type { ProcessedMessage } from "../../src/ingestion/message-processor.js";
import { releaseHealthTimeseriesId } from "../../src/ingestion/processors/metric-timeseries-id.js";
import { releaseHealthMetricsProcessor } from "../../src/ingestion/processors/release-health-metrics-processor.js";

function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    use_case_id: "sessions",
    org_id: 1,
    project_id: 3,
    metric_id: 65561,
    timestamp: 1704614940,
    sentry_received_timestamp: 1704614940,
    tags: { "9223372036854776010": 1, "9223372036854776017": 2, "65689": 3 },
    retention_days: 90,
    type: "c",
    value: 1,
    ...overrides,
  };
}

function process(message: Record<string, unknown> | string, offset = "41"): ProcessedMessage {
  const text = typeof message === "string" ? message : JSON.stringify(message);
  return releaseHealthMetricsProcessor().process({
    topic: "snuba-metrics",
    partition: 5,
    offset,
    timestampMs: 0,
    key: null,
    value: Buffer.from(text),
    headers: {},
  });
}


describe("timeseries_id", () => {
  it("hashes each tag's key text and its indexed value as 8 little-endian bytes", () => {
    expect(releaseHealthTimeseriesId(1n, 2n, 3n, [["1", 1n], ["2", 2n], ["3", 3n]])).toBe(200474787);
  });
});

describe("a release-health row", () => {
  it("has every column Snuba writes, whatever the type", () => {
    expect(onlyRow(process(body()))).toEqual({
      use_case_id: "sessions",
      org_id: 1,
      project_id: 3,
      metric_id: 65561,
      timestamp: 1704614940,
      retention_days: 90,
      "tags.key": [65689, "9223372036854776010", "9223372036854776017"],
      "tags.value": [3, 1, 2],
      metric_type: "counter",
      count_value: 1,
      set_values: [],
      distribution_values: [],
      materialization_version: 4,
      timeseries_id: releaseHealthTimeseriesId(1n, 3n, 65561n, [["65689", 3n], ["9223372036854776010", 1n], ["9223372036854776017", 2n]]),
      partition: 5,
      offset: 41,
    });
  });

  it("holds set members and distribution values in their own columns", () => {
    const set = onlyRow(process(body({ type: "s", value: [324234] })));
    expect(set).toMatchObject({ metric_type: "set", set_values: [324234], count_value: 0, distribution_values: [] });
    const bigMember = JSON.stringify(body({ type: "s", value: [1] })).replace('"value":[1]', '"value":[18446744073709551615]');
    expect(onlyRow(process(bigMember)).set_values).toEqual(["18446744073709551615"]);
    expect(onlyRow(process(body({ type: "d", value: [0.5, 2] })))).toMatchObject({ metric_type: "distribution", distribution_values: [0.5, 2], set_values: [] });
  });

  it("defaults the use case to sessions, clamps retention and ignores a sampling weight", () => {
    const { use_case_id: _useCase, ...withoutUseCase } = body();
    const row = onlyRow(process({ ...withoutUseCase, retention_days: 22, sampling_weight: 100.1 }));
    expect(row.use_case_id).toBe("sessions");
    expect(row.retention_days).toBe(30);
    expect(row).not.toHaveProperty("sampling_weight");
  });

  it("keeps 64-bit offsets and indexed values exact", () => {
    const text = JSON.stringify(body()).replace('"65689":3', '"65689":9223372036854775909');
    const row = onlyRow(process(text, "9007199254740993"));
    expect(row["tags.value"]).toEqual(["9223372036854775909", 1, 2]);
    expect(row.offset).toBe("9007199254740993");
  });
});

describe("invalid release-health messages", () => {
  it("say why", () => {
    expect(reason(() => process(body({ type: "g", value: { min: 1 } })))).toBe('field \'type\' is "g"; release-health metrics are c, s or d');
    expect(reason(() => process(body({ tags: { "1": "production" } })))).toBe('the value of tag \'1\' must be an unsigned 64-bit integer, got "production"');
    expect(reason(() => process(body({ tags: { x: 1 } })))).toMatch(/tag key 'x'/);
    expect(reason(() => process(body({ type: "s", value: [1.5] })))).toBe("field 'value'[0] must be an unsigned 64-bit integer, got 1.5");
    expect(reason(() => process(body({ type: "d", value: 3 })))).toBe("field 'value' must be an array, got 3");
    expect(reason(() => process(body({ value: null })))).toBe("field 'value' is missing");
    expect(reason(() => process(body({ timestamp: "now" })))).toBe('field \'timestamp\' must be a number, got "now"');
    expect(reason(() => process("{"))).toMatch(/^the payload is not valid JSON/);
  });
});
