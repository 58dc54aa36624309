/**
 * The generic-metrics processors as pure functions: header and body selection, the row's columns
 * as Snuba writes them (tag order, timeseries_id, granularities, versions, retention), the value
 * encodings, and the reasons of invalid messages. Known timeseries ids are the ones Snuba's own
 * processor tests assert for the same inputs.
 */
import { describe, expect, it } from "vitest";
import { invalidReason as reason, rowOf as onlyRow } from "./message-text.js";
import type { IngestMessage, ProcessedMessage } from "../../src/ingestion/message-processor.js";
import { Adler32 } from "../../src/ingestion/processors/adler32.js";
import { genericMetricsProcessor, type GenericMetricType } from "../../src/ingestion/processors/generic-metrics-processor.js";
import { genericTimeseriesId } from "../../src/ingestion/processors/metric-timeseries-id.js";
import { enforceRetention } from "../../src/ingestion/processors/retention.js";
import { rawZstdFrame } from "./zstd-frames.js";

const SPANS_TAGS = {
  "9223372036854776010": "production",
  "9223372036854776017": "init",
  "65689": "metric_e2e_spans_counter_v_VUW93LMS",
};

/** A valid counter message; tests change one thing in it. */
function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 2,
    use_case_id: "spans",
    org_id: 1,
    project_id: 3,
    metric_id: 65561,
    timestamp: 1704614940,
    sentry_received_timestamp: 1704614940,
    tags: SPANS_TAGS,
    retention_days: 90,
    mapping_meta: { d: { "65561": "c:spans/spans@none" } },
    type: "c",
    value: 1,
    ...overrides,
  };
}

function kafka(value: string | Buffer | null, headers: Record<string, string> = {}): IngestMessage {
  return {
    topic: "snuba-generic-metrics",
    partition: 0,
    offset: "12",
    timestampMs: 1_704_614_941_000,
    key: null,
    value: typeof value === "string" ? Buffer.from(value) : value,
    headers,
  };
}

function process(type: GenericMetricType, message: Record<string, unknown> | string, headers: Record<string, string> = {}): ProcessedMessage {
  const text = typeof message === "string" ? message : JSON.stringify(message);
  return genericMetricsProcessor(type).process(kafka(text, headers));
}


const LE_U32 = (values: number[]) => Buffer.concat(values.map((v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; }));
const LE_F64 = (values: number[]) => Buffer.concat(values.map((v) => { const b = Buffer.alloc(8); b.writeDoubleLE(v); return b; }));
const unpadded = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

describe("timeseries_id", () => {
  it("is Adler-32 (the standard check value)", () => {
    expect(new Adler32().update(Buffer.from("Wikipedia")).digest()).toBe(0x11e60398);
    // Fed in pieces, the same as at once, and beyond the reduction block.
    const long = Buffer.alloc(20_000, 0xff);
    expect(new Adler32().update(long.subarray(0, 7_000)).update(long.subarray(7_000)).digest()).toBe(new Adler32().update(long).digest());
  });

  it("hashes the ids little-endian, then each tag's key and raw value in key-text order", () => {
    expect(genericTimeseriesId(1n, 2n, 3n, [["1", "value1"], ["2", "value2"], ["3", "value3"]])).toBe(1403651978);
    expect(onlyRow(process("counter", body())).timeseries_id).toBe(1979522105);
  });

  it("hashes text as UTF-8 and ids as 8 little-endian bytes, whatever their size", () => {
    const id = (value: bigint) => { const bytes = Buffer.alloc(8); bytes.writeBigUInt64LE(value); return bytes; };
    const tags: [string, string][] = [["10", "prodüction 😀"], ["9", "x".repeat(6000)]];
    const expected = new Adler32().update(Buffer.concat([id(18446744073709551615n), id(2n ** 53n + 1n), id(0n), ...tags.flatMap(([k, v]) => [Buffer.from(k), Buffer.from(v)])])).digest();
    expect(genericTimeseriesId(18446744073709551615n, 2n ** 53n + 1n, 0n, tags)).toBe(expected);
  });

  it("does not depend on the order tags arrive in", () => {
    const reversed = Object.fromEntries(Object.entries(SPANS_TAGS).reverse());
    expect(onlyRow(process("counter", body({ tags: reversed }))).timeseries_id).toBe(1979522105);
  });
});

describe("a counter row", () => {
  it("has every column Snuba writes, tags sorted as text", () => {
    expect(onlyRow(process("counter", body()))).toEqual({
      use_case_id: "spans",
      org_id: 1,
      project_id: 3,
      metric_id: 65561,
      timestamp: 1704614940,
      retention_days: 90,
      // "65689" < "9223…" as text, although not as numbers; keys beyond 2^53 are exact decimal text.
      "tags.key": [65689, "9223372036854776010", "9223372036854776017"],
      "tags.indexed_value": [0, 0, 0],
      "tags.raw_value": ["metric_e2e_spans_counter_v_VUW93LMS", "production", "init"],
      metric_type: "counter",
      materialization_version: 3,
      timeseries_id: 1979522105,
      granularities: [1, 2, 3],
      min_retention_days: 90,
      record_meta: 1,
      count_value: 1,
    });
  });

  it("truncates the timestamp to whole seconds and takes the weight's integer part", () => {
    const row = onlyRow(process("counter", body({ timestamp: 1704614940.9, sampling_weight: 100.1, value: 2.5 })));
    expect(row.timestamp).toBe(1704614940);
    expect(row.sampling_weight).toBe(100);
    expect(row.count_value).toBe(2.5);
  });

  it("adds the 10-second granularity for aggregation_option ten_second, and no other", () => {
    expect(onlyRow(process("counter", body({ aggregation_option: "ten_second" }))).granularities).toEqual([1, 2, 3, 0]);
    expect(onlyRow(process("counter", body({ aggregation_option: "hist" }))).granularities).toEqual([1, 2, 3]);
  });

  it("records no meta for escalating issues", () => {
    expect(onlyRow(process("counter", body({ use_case_id: "escalating_issues" }))).record_meta).toBe(0);
  });

  it("keeps 64-bit ids exact", () => {
    const text = JSON.stringify(body()).replace('"metric_id":65561', '"metric_id":9223372036854775909');
    const row = onlyRow(process("counter", text));
    expect(row.metric_id).toBe("9223372036854775909");
    expect(row.timeseries_id).toBe(genericTimeseriesId(1n, 3n, 9223372036854775909n, Object.entries(SPANS_TAGS).sort(([a], [b]) => (a < b ? -1 : 1))));
  });
});

describe("retention", () => {
  it("keeps 30 and 90 days, raises what is at most 30 to 30, and makes anything else 90", () => {
    expect([0, 7, 30, 31, 60, 90, 91, 365].map((days) => enforceRetention(days))).toEqual([30, 30, 30, 90, 90, 90, 90, 90]);
    const row = onlyRow(process("counter", body({ retention_days: 22 })));
    expect(row.retention_days).toBe(30);
    expect(row.min_retention_days).toBe(30);
  });

  it("refuses a retention that is not an unsigned 16-bit integer", () => {
    expect(reason(() => process("counter", body({ retention_days: 70_000 })))).toBe("field 'retention_days' must be an unsigned 16-bit integer, got 70000");
    expect(reason(() => process("counter", body({ retention_days: -1 })))).toMatch(/retention_days/);
  });
});

describe("selecting the type", () => {
  const types: GenericMetricType[] = ["counter", "set", "distribution", "gauge"];

  it("by the metric_type header, without reading the body of another type's message", () => {
    // The body is not even JSON: a header naming another type skips it unread.
    for (const type of types) {
      const letter = type[0]!;
      for (const other of types.filter((t) => t !== type)) expect(process(other, "not json", { metric_type: letter })).toEqual({ kind: "skip" });
    }
    expect(process("counter", body(), { metric_type: "c" }).kind).toBe("rows");
  });

  it("by the body's type when there is no header, or one of no known type", () => {
    expect(process("counter", body()).kind).toBe("rows");
    expect(process("set", body())).toEqual({ kind: "skip" });
    expect(process("gauge", body(), { metric_type: "x" })).toEqual({ kind: "skip" });
    expect(process("counter", body(), { metric_type: "x" }).kind).toBe("rows");
  });

  it("checks the envelope of every message it reads, but the value only of its own type", () => {
    // Bad tags are every reader's problem; a bad set value only the set consumer's.
    expect(reason(() => process("gauge", body({ tags: { abc: "x" } })))).toMatch(/tag key 'abc'/);
    const badSet = body({ type: "s", value: { format: "base64", data: "!!" } });
    expect(process("counter", badSet)).toEqual({ kind: "skip" });
    expect(reason(() => process("set", badSet))).toMatch(/base64/);
  });

  it("refuses a body type that is no metric type", () => {
    expect(reason(() => process("counter", body({ type: "x" })))).toBe('field \'type\' is "x"; it must be one of c, s, d, g');
  });

  it("skips the use cases it is told to", () => {
    const processor = genericMetricsProcessor("counter", { disabledUseCases: new Set(["spans"]) });
    expect(processor.process(kafka(JSON.stringify(body())))).toEqual({ kind: "skip" });
    expect(processor.process(kafka(JSON.stringify(body({ use_case_id: "custom" })))).kind).toBe("rows");
  });

  it("names each processor as Snuba does", () => {
    expect(types.map((type) => genericMetricsProcessor(type).name)).toEqual([
      "GenericCountersMetricsProcessor",
      "GenericSetsMetricsProcessor",
      "GenericDistributionsMetricsProcessor",
      "GenericGaugesMetricsProcessor",
    ]);
  });
});

describe("set values", () => {
  const set = (value: unknown) => onlyRow(process("set", body({ type: "s", value, sampling_weight: 5 })));

  it("decode from a plain array, an array, base64 and zstd alike", () => {
    const members = [1, 7, 4_294_967_295];
    const bytes = LE_U32(members);
    for (const value of [members, { format: "array", data: members }, { format: "base64", data: unpadded(bytes) }, { format: "zstd", data: unpadded(rawZstdFrame(bytes)) }]) {
      expect(set(value).set_values).toEqual(members);
    }
  });

  it("are written with version 2 and no sampling weight", () => {
    const row = set([1]);
    expect(row.materialization_version).toBe(2);
    expect(row.metric_type).toBe("set");
    expect(row).not.toHaveProperty("sampling_weight");
  });

  it("refuse what is not a u32, bytes that are not whole u32s, and non-canonical base64", () => {
    expect(reason(() => set([1, -1]))).toBe("field 'value'[1] must be an unsigned 32-bit integer, got -1");
    expect(reason(() => set([4_294_967_296]))).toMatch(/unsigned 32-bit/);
    expect(reason(() => set({ format: "base64", data: unpadded(Buffer.from([1, 0, 0])) }))).toBe("the decoded data (3 bytes) is not a whole number of 4-byte u32 values");
    expect(reason(() => set({ format: "base64", data: `${unpadded(LE_U32([1, 7]))}=` }))).toMatch(/padding/);
    expect(reason(() => set({ format: "base64", data: "AQAAAAcAAA" }))).toMatch(/not a whole number|impossible length/);
    // "AB" carries bits beyond its one byte: Snuba's decoder refuses it, so does this one.
    expect(reason(() => set({ format: "base64", data: "AB" }))).toMatch(/not canonical/);
    expect(reason(() => set({ format: "zstd", data: unpadded(Buffer.from("not zstd")) }))).toMatch(/zstd/);
    expect(reason(() => set({ format: "gzip", data: "" }))).toBe("field 'value.format' is 'gzip'; it must be array, base64 or zstd");
    expect(reason(() => set({ format: "base64" }))).toBe("field 'value.data' must be a string, got nothing");
  });
});

describe("distribution values", () => {
  const distribution = (overrides: Record<string, unknown>) => onlyRow(process("distribution", body({ type: "d", ...overrides })));

  it("decode from a plain array, an array, base64 and zstd alike", () => {
    const values = [0.5, -3, 1e300];
    const bytes = LE_F64(values);
    for (const value of [values, { format: "array", data: values }, { format: "base64", data: unpadded(bytes) }, { format: "zstd", data: unpadded(rawZstdFrame(bytes)) }]) {
      expect(distribution({ value }).distribution_values).toEqual(values);
    }
  });

  it("carry version 4, the weight, and the histogram and percentile options", () => {
    const row = distribution({ value: [1], sampling_weight: 3 });
    expect(row.materialization_version).toBe(4);
    expect(row.sampling_weight).toBe(3);
    expect(row).not.toHaveProperty("enable_histogram");
    expect(distribution({ value: [1], aggregation_option: "hist" }).enable_histogram).toBe(1);
    expect(distribution({ value: [1], aggregation_option: "disable_percentiles" }).disable_percentiles).toBe(1);
  });

  it("refuse values that are not finite numbers", () => {
    expect(reason(() => distribution({ value: { format: "base64", data: unpadded(LE_F64([1, Number.NaN])) } }))).toBe("the distribution's value[1] is NaN, not a finite number");
    expect(reason(() => distribution({ value: ["1"] }))).toBe('field \'value\'[0] must be a number, got "1"');
    expect(reason(() => distribution({ value: { format: "base64", data: unpadded(Buffer.alloc(12)) } }))).toMatch(/8-byte f64/);
  });
});

describe("gauge values", () => {
  const gauge = (value: unknown) => onlyRow(process("gauge", body({ type: "g", value, sampling_weight: 2 })));

  it("are one-element arrays of last, min, max, sum and count, with version 3", () => {
    const row = gauge({ min: 1, max: 10, sum: 20, count: 10, last: 10 });
    expect(row).toMatchObject({
      "gauges_values.last": [10],
      "gauges_values.min": [1],
      "gauges_values.max": [10],
      "gauges_values.sum": [20],
      "gauges_values.count": [10],
      materialization_version: 3,
      metric_type: "gauge",
      sampling_weight: 2,
    });
  });

  it("refuse a missing part or a count that is not an unsigned integer", () => {
    expect(reason(() => gauge({ min: 1, max: 10, sum: 20, count: 10 }))).toBe("field 'last' is missing");
    expect(reason(() => gauge({ min: 1, max: 10, sum: 20, count: 1.5, last: 1 }))).toMatch(/'count' must be an unsigned 64-bit integer/);
    expect(reason(() => gauge([1, 2]))).toMatch(/must be a JSON object/);
  });
});

describe("invalid messages", () => {
  it("say why", () => {
    expect(reason(() => genericMetricsProcessor("counter").process(kafka(null)))).toBe("the message has no payload");
    expect(reason(() => genericMetricsProcessor("counter").process(kafka(Buffer.from([0x7b, 0xff, 0x7d]))))).toBe("the payload is not valid UTF-8");
    expect(reason(() => process("counter", '{"org_id": 1,'))).toMatch(/^the payload is not valid JSON: /);
    expect(reason(() => process("counter", "[1, 2]"))).toBe("the message must be a JSON object, got [1,2]");
    const { org_id: _org, ...withoutOrg } = body();
    expect(reason(() => process("counter", withoutOrg))).toBe("field 'org_id' is missing");
    expect(reason(() => process("counter", body({ sentry_received_timestamp: null })))).toBe("field 'sentry_received_timestamp' is missing");
    expect(reason(() => process("counter", body({ org_id: "1" })))).toBe('field \'org_id\' must be an unsigned 64-bit integer, got "1"');
    expect(reason(() => process("counter", body({ project_id: -3 })))).toMatch(/'project_id' must be an unsigned 64-bit integer/);
    expect(reason(() => process("counter", body({ tags: { "12a": "x" } })))).toBe("tag key '12a' is not an unsigned 64-bit integer (tag keys are indexer ids)");
    expect(reason(() => process("counter", body({ tags: { "18446744073709551616": "x" } })))).toMatch(/not an unsigned 64-bit integer/);
    expect(reason(() => process("counter", body({ tags: { "1": 5 } })))).toBe("the value of tag '1' must be a string, got 5");
    expect(reason(() => process("counter", JSON.stringify(body({ tags: { "1": "x" } })).replace('"x"', '"\\ud800x"')))).toBe("the value of tag '1' is not valid Unicode: it holds a lone surrogate");
    expect(reason(() => process("counter", body({ value: "1" })))).toBe('field \'value\' must be a number, got "1"');
    const { value: _value, ...withoutValue } = body();
    expect(reason(() => process("counter", withoutValue))).toBe("field 'value' is missing");
  });
});
