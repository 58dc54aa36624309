/**
 * The transactions processor's mapping, rule by rule (Snuba's Python
 * snuba/datasets/processors/transactions_processor.py), the messages it skips as Snuba does, and
 * the ones it refuses with a reason.
 */
import { describe, expect, it } from "vitest";
import { TransactionsProcessor } from "../../src/ingestion/processors/transactions-processor.js";
import { jsonText, kafkaMessage, onlyRow, raw, refusal } from "./message-text.js";

const FINISH = 1704067205.5;
const NOW = Date.UTC(2024, 0, 2);
const processor = new TransactionsProcessor({ now: () => NOW });

const TRACE_ID = "a1f6d1d2c9a24669bd3b530806c12094";

function event(data: Record<string, unknown> = {}, top: Record<string, unknown> = {}, trace: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: "dcc403b73ef548648188bbfa6012e9dc",
    project_id: 1,
    platform: "python",
    retention_days: 90,
    data: {
      type: "transaction",
      transaction: "GET /api",
      timestamp: raw(String(FINISH)),
      start_timestamp: raw("1704067205.25"),
      received: raw("1704067206.9"),
      contexts: { trace: { trace_id: TRACE_ID, span_id: "a887fb1496e1057f", op: "http.server", status: "ok", ...trace } },
      ...data,
    },
    ...top,
  };
}

const insert = (data?: Record<string, unknown>, top?: Record<string, unknown>, trace?: Record<string, unknown>) => jsonText([2, "insert", event(data, top, trace), {}]);
const row = (data?: Record<string, unknown>, top?: Record<string, unknown>, trace?: Record<string, unknown>) => onlyRow(processor, insert(data, top, trace));
const skipped = (value: string, by = processor) => expect(by.process(kafkaMessage(value)), value.slice(0, 80)).toEqual({ kind: "skip" });

describe("the base columns", () => {
  it("writes ids, times, duration, status and the Kafka position; no message_timestamp", () => {
    const processed = processor.process(kafkaMessage(insert()));
    expect(processed).toMatchObject({ kind: "rows", originTimestamp: 1704067206 });
    const written = row();
    expect(written).toMatchObject({
      event_id: "dcc403b7-3ef5-4864-8188-bbfa6012e9dc",
      project_id: 1,
      trace_id: "a1f6d1d2-c9a2-4669-bd3b-530806c12094",
      span_id: "12143950986077078911",
      transaction_name: "GET /api",
      transaction_op: "http.server",
      transaction_source: "",
      transaction_status: 0,
      start_ts: "2024-01-01 00:00:05",
      start_ms: 250,
      finish_ts: "2024-01-01 00:00:05",
      finish_ms: 500,
      duration: 250,
      platform: "python",
      retention_days: 90,
      deleted: 0,
      partition: 5,
      offset: 1234,
      group_ids: [],
    });
    expect(written).not.toHaveProperty("message_timestamp");
  });

  it("rounds timestamps to the microsecond half to even, as Python's datetime does, and never writes a negative duration", () => {
    // 0.0000005 s past a second is exactly half a microsecond only in decimal; the double is just below it.
    const precise = row({ start_timestamp: raw("1704067205.0004995"), timestamp: raw("1704067205.0015005") });
    expect(precise).toMatchObject({ start_ms: 0, finish_ms: 1, duration: 1 });
    expect(row({ start_timestamp: raw(String(FINISH + 1)) }).duration).toBe(0);
  });

  it("maps the trace status to its code: unknown names, none and unknown_error are 2", () => {
    const status = (value: unknown) => row({}, {}, { status: value }).transaction_status;
    expect(["ok", "cancelled", "deadline_exceeded", "internal_error", "unauthenticated", "unknown_error", "no_such_status", null, ""].map(status)).toEqual([0, 1, 4, 13, 16, 2, 2, 2, 2]);
  });

  it("keeps the first 10 group ids and the transaction source", () => {
    const written = row({ transaction_info: { source: "route" } }, { group_ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] });
    expect(written.group_ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(written.transaction_source).toBe("route");
  });

  it("gives no origin timestamp without a received time", () => {
    const processed = processor.process(kafkaMessage(insert({ received: undefined })));
    expect(processed.kind).toBe("rows");
    expect(processed).not.toHaveProperty("originTimestamp");
  });
});

describe("retention", () => {
  it("is not clamped by default (Snuba's ENFORCE_RETENTION is off), and a non-integer is the default", () => {
    expect(row({}, { retention_days: 60 }).retention_days).toBe(60);
    expect(row({}, { retention_days: raw("60.0") }).retention_days).toBe(90);
    expect(row({}, { retention_days: null }).retention_days).toBe(90);
  });

  it("is clamped when enforced", () => {
    const enforcing = new TransactionsProcessor({ now: () => NOW, enforceRetention: true });
    expect(onlyRow(enforcing, insert({}, { retention_days: 60 })).retention_days).toBe(90);
    expect(onlyRow(enforcing, insert({}, { retention_days: 7 })).retention_days).toBe(30);
  });

  it("skips an event older than its retention, unless told to keep old events", () => {
    const late = new TransactionsProcessor({ now: () => NOW + 31 * 86_400_000 });
    skipped(insert({}, { retention_days: 30 }), late);
    expect(late.process(kafkaMessage(insert({}, { retention_days: 90 }))).kind).toBe("rows");
    const keeping = new TransactionsProcessor({ now: () => NOW + 365 * 86_400_000, discardOldEvents: false });
    expect(keeping.process(kafkaMessage(insert())).kind).toBe("rows");
  });

  it("refuses a retention the UInt16 column cannot hold", () => {
    expect(refusal(processor, insert({}, { retention_days: 70000 }))).toMatch(/retention_days 70000 does not fit/);
  });
});

describe("tags", () => {
  it("sorts tags by key, drops empty and null values, and prints non-strings as Python does", () => {
    const written = row({ tags: [["zeta", "1"], ["alpha", ""], ["beta", null], null, [null, "x"], ["num", raw("1.0")], ["flag", false], ["gamma", "g"], ["zeta", "2"]] });
    expect(written["tags.key"]).toEqual(["flag", "gamma", "num", "zeta"]);
    expect(written["tags.value"]).toEqual(["False", "g", "1.0", "2"]);
    expect(row({ tags: { b: "2", a: "1" } })["tags.key"]).toEqual(["a", "b"]);
  });

  it("promotes environment, sentry:release (else the event's release), sentry:user, sentry:dist (else data.dist), but not level", () => {
    const tagged = row({ tags: [["environment", "prod"], ["sentry:release", "1.0"], ["sentry:user", "id:1"], ["sentry:dist", "7"], ["level", "info"]], dist: "other" }, { release: "top" });
    expect(tagged).toMatchObject({ environment: "prod", release: "1.0", user: "id:1", dist: "7" });
    expect(tagged).not.toHaveProperty("level");
    expect(row({ dist: "9" }, { release: "top" })).toMatchObject({ environment: null, release: "top", user: "", dist: "9" });
  });

  it("takes a replay id from the replayId tag when it is a UUID, and from the replay context, adding the tag", () => {
    const replay = "a1f6d1d2c9a24669bd3b530806c12094";
    expect(row({ tags: [["replayId", replay]] }).replay_id).toBe("a1f6d1d2-c9a2-4669-bd3b-530806c12094");
    expect(row({ tags: [["replayId", "nope"]] }).replay_id).toBeNull();
    const fromContext = row({ contexts: { trace: { trace_id: TRACE_ID, span_id: "01" }, replay: { replay_id: replay } } });
    expect(fromContext.replay_id).toBe("a1f6d1d2-c9a2-4669-bd3b-530806c12094");
    expect(fromContext["tags.key"]).toEqual(["replayId"]);
    expect(fromContext["tags.value"]).toEqual([replay]);
  });
});

describe("contexts", () => {
  const trace = { trace_id: TRACE_ID, span_id: "a887fb1496e1057f", parent_span_id: "b7a85c83b3077daa", op: "db", hash: "fe0f374c5e6d2b97", exclusive_time: 5, type: "trace", data: { "thread.id": 77, other: 1 }, client_sample_rate: raw("1.0") };

  it("flattens contexts in the event's order, numbers as Python prints them, without the promoted trace fields", () => {
    // A context named "0" after the others (a JS object would list it first; the text keeps it last).
    const text = insert({
      contexts: {
        trace,
        zeta: { b: raw("100.0"), a: raw("1e16"), c: raw("0.00001"), flag: true, empty: "", none: null, list: [1], type: "zeta" },
        ZERO: { name: "first?" },
      },
    }).replace('"ZERO"', '"0"');
    const written = onlyRow(processor, text);
    expect(written["contexts.key"]).toEqual(["trace.parent_span_id", "trace.op", "trace.client_sample_rate", "trace.thread_id", "zeta.b", "zeta.a", "zeta.c", "zeta.flag", "0.name"]);
    expect(written["contexts.value"]).toEqual(["b7a85c83b3077daa", "db", "1.0", "77", "100.0", "1e+16", "1e-05", "True", "first?"]);
  });

  it("adds the user's geo last unless a geo context is sent", () => {
    expect(row({ user: { geo: { city: "Vienna" } }, contexts: { trace, os: { name: "Linux" } } })["contexts.key"]).toEqual(["trace.parent_span_id", "trace.op", "trace.client_sample_rate", "trace.thread_id", "os.name", "geo.city"]);
    expect(row({ user: { geo: { city: "Vienna" } }, contexts: { geo: { city: "Graz" }, trace } })["contexts.value"]).toContain("Graz");
  });

  it("moves app.start_type and the profile ids to their columns", () => {
    const profile = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    const written = row({ contexts: { trace, app: { start_type: "cold", name: "x" }, profile: { profile_id: profile, profiler_id: profile } } });
    expect(written).toMatchObject({ app_start_type: "cold", profile_id: "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb", profiler_id: "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb" });
    expect(written["contexts.key"]).toContain("app.name");
    expect(written["contexts.key"]).not.toContain("app.start_type");
    expect(written["contexts.key"]).not.toContain("profile.profile_id");
  });

  it("writes the user and the IP by version", () => {
    expect(row({ user: { id: 5, username: "ann", email: "a@example.com", ip_address: "10.0.0.1" } })).toMatchObject({
      user_id: "5",
      user_name: "ann",
      user_email: "a@example.com",
      ip_address_v4: "10.0.0.1",
      ip_address_v6: null,
    });
    expect(row({ user: { ip_address: "::1" } })).toMatchObject({ ip_address_v4: null, ip_address_v6: "::1" });
  });

  it("takes the request method and only a header named Referer", () => {
    expect(row({ request: { method: "GET", headers: [["Referer", "https://a.example"]] } })).toMatchObject({ http_method: "GET", http_referer: "https://a.example" });
    expect(row({ request: { headers: [["Referrer", "https://a.example"]] } }).http_referer).toBeNull();
    expect(row({ sdk: { name: "sentry.python", version: "1.17.0" } })).toMatchObject({ sdk_name: "sentry.python", sdk_version: "1.17.0" });
  });
});

describe("spans, measurements and breakdowns", () => {
  it("stores the root span and every span with an op, a hash and a time, sorted by op then group", () => {
    const written = row(
      {
        spans: [
          { op: "http", hash: "0000000000000002", exclusive_time: 3.5 },
          { op: "db", hash: "00000000000000ff", exclusive_time: 1 },
          { op: "db", hash: "0000000000000001", exclusive_time: 2 },
          { op: "cache", exclusive_time: 1 },
        ],
      },
      {},
      { hash: "ffffffffffffffff", exclusive_time: 9 },
    );
    expect(written["spans.op"]).toEqual(["db", "db", "http", "http.server"]);
    expect(written["spans.group"]).toEqual([1, 255, 2, "18446744073709551615"]);
    expect(written["spans.exclusive_time_32"]).toEqual([2, 1, 3.5, 9]);
    expect(written["spans.exclusive_time"]).toEqual([0, 0, 0, 0]);
  });

  it("stores at most the configured number of spans, the root counted", () => {
    const capped = new TransactionsProcessor({ now: () => NOW, maxSpansPerTransaction: 2 });
    const spans = ["c", "b", "a"].map((op) => ({ op, hash: "01", exclusive_time: 1 }));
    expect(onlyRow(capped, insert({ spans }, {}, { hash: "02", exclusive_time: 1 }))["spans.op"]).toEqual(["c", "http.server"]);
  });

  it("stores measurements and span-op breakdowns sorted, each with a numeric value", () => {
    const written = row({ measurements: { lcp: { value: 2.5 }, fcp: { value: raw("1.0") }, cls: { value: "x" }, ttfb: null }, breakdowns: { span_ops: { "ops.http": { value: 3 }, "ops.db": { value: 4.5 } } } });
    expect(written["measurements.key"]).toEqual(["fcp", "lcp"]);
    expect(written["measurements.value"]).toEqual([1, 2.5]);
    expect(written["span_op_breakdowns.key"]).toEqual(["ops.db", "ops.http"]);
    expect(written["span_op_breakdowns.value"]).toEqual([4.5, 3]);
  });

  it("drops malformed measurements whole and keeps the event, as Snuba does", () => {
    expect(row({ measurements: { lcp: { value: 2 }, fcp: 5 } })["measurements.key"]).toEqual([]);
    expect(row({ measurements: [1, 2] })["measurements.key"]).toEqual([]);
  });
});

describe("messages it skips, as Snuba does", () => {
  it("skips what is not an insert of a transaction with a trace context", () => {
    skipped(jsonText({ type: "transaction" }));
    skipped(jsonText([2]));
    skipped(jsonText([3, "insert", event(), {}]));
    skipped(jsonText([2, "end_merge", { project_id: 1 }]));
    skipped(insert({ type: "error" }));
    skipped(insert({ contexts: {} }));
    skipped(insert({ contexts: { trace: {} } }));
  });

  it("takes versions 0, 1 and 2", () => {
    for (const version of [0, 1, 2, raw("2.0")]) expect(processor.process(kafkaMessage(jsonText([version, "insert", event(), {}]))).kind).toBe("rows");
  });
});

describe("messages it refuses, with the reason", () => {
  it("refuses what Python would raise on", () => {
    const withoutEventId = event();
    delete withoutEventId.event_id;
    const cases: [string | null, RegExp][] = [
      [null, /no payload/],
      ["[2, ", /not JSON/],
      [jsonText([2, "insert"]), /this one has 2 elements/],
      [jsonText([2, "insert", "event"]), /the event must be an object/],
      [jsonText([2, "insert", { project_id: 1 }]), /data is missing/],
      [jsonText([2, "insert", { data: [] }]), /data must be an object, got an array/],
      [insert({ contexts: null }), /data.contexts must be an object, got null/],
      [jsonText([2, "insert", withoutEventId, {}]), /event_id is missing/],
      [insert({}, { event_id: "x" }), /event_id must be a UUID/],
      [insert({}, {}, { trace_id: "nope" }), /trace.trace_id must be a UUID/],
      [insert({}, {}, { span_id: 12 }), /span_id must be a hex UInt64, got the number 12/],
      [insert({ timestamp: "late" }), /data.timestamp must be a number/],
      [insert({ start_timestamp: undefined }), /data.start_timestamp is missing/],
      [insert({ timestamp: raw("1e300") }), /outside the dates Python can represent/],
      [insert({ spans: null }), /data.spans must be a list/],
      [insert({ spans: [null] }), /data.spans\[0\] must be an object/],
      [insert({ spans: [{ op: "db", hash: "xyz", exclusive_time: 1 }] }), /data.spans\[0\].hash must be a hex UInt64/],
      [insert({ breakdowns: "x" }), /data.breakdowns must be an object/],
      [insert({ received: null }), /data.received must be a number/],
      [insert({ sdk: "python" }), /data.sdk must be an object/],
      [insert({ contexts: { trace: { trace_id: TRACE_ID, span_id: "01" }, profile: { profile_id: "nope" } } }), /profile_id must be a UUID/],
      [insert({}, { project_id: "1" }), /project_id must be an unsigned 64-bit integer/],
      [insert({}, { platform: undefined }), /platform is missing/],
    ];
    for (const [value, reason] of cases) expect(refusal(processor, value), reason.source).toMatch(reason);
  });
});
