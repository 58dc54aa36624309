/**
 * The errors processor's mapping, rule by rule (Snuba's rust_snuba/src/processors/errors.rs),
 * and the envelopes it refuses with a reason.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ErrorsProcessor } from "../../src/ingestion/processors/errors-processor.js";
import { jsonText, kafkaMessage, onlyRow, raw, refusal } from "./message-text.js";

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const processor = new ErrorsProcessor({ now: () => NOW });

const EVENT_ID = "9cdc4c32dff14fbbb012b0aa9e908126";
const TRACE_ID = "1da660e88c01430b85fe68537ed5838b";

function event(data: Record<string, unknown> = {}, top: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: EVENT_ID,
    group_id: 124,
    message: "hello world",
    primary_hash: "061cf02b26374d108694d6643a7a2f4e",
    project_id: 6036610,
    datetime: "2024-01-01T00:00:05.250000Z",
    platform: "python",
    data: { received: raw("1704067206.75"), type: "error", ...data },
    ...top,
  };
}

const insert = (data: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => jsonText([2, "insert", event(data, top), { is_new: false }]);
const row = (data: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => onlyRow(processor, insert(data, top));

describe("identity, time and Kafka columns", () => {
  it("writes the event's ids, times and the message's partition, offset and broker time", () => {
    const processed = processor.process(kafkaMessage(insert()));
    expect(processed).toMatchObject({ kind: "rows", originTimestamp: 1704067206 });
    expect(row()).toMatchObject({
      event_id: "9cdc4c32-dff1-4fbb-b012-b0aa9e908126",
      project_id: 6036610,
      group_id: 124,
      primary_hash: "061cf02b-2637-4d10-8694-d6643a7a2f4e",
      timestamp: "2024-01-01 00:00:05",
      timestamp_ms: "2024-01-01 00:00:05.250",
      received: "2024-01-01 00:00:06",
      group_first_seen: "1970-01-01 00:00:00",
      platform: "python",
      message: "hello world",
      type: "error",
      title: "",
      culprit: "",
      deleted: 0,
      partition: 5,
      offset: 1234,
      message_timestamp: "2024-01-01 00:00:07",
    });
  });

  it("keeps a 64-bit group id and offset exactly, as decimal text", () => {
    const big = onlyRow(processor, insert({}, { group_id: raw("18446744073709551615") }), { offset: "9007199254740993" });
    expect(big.group_id).toBe("18446744073709551615");
    expect(big.offset).toBe("9007199254740993");
  });

  it("takes the current time for a datetime that does not parse, and 1970 for none", () => {
    expect(row({}, { datetime: "yesterday" }).timestamp).toBe("2024-06-01 12:00:00");
    expect(row({}, { datetime: undefined }).timestamp).toBe("1970-01-01 00:00:00");
    expect(row({}, { group_first_seen: "2023-12-24T10:00:00Z" }).group_first_seen).toBe("2023-12-24 10:00:00");
  });

  it("stores a primary hash that is not a UUID as the md5 of its text", () => {
    const md5 = createHash("md5").update("not-a-uuid").digest("hex");
    expect(row({}, { primary_hash: "not-a-uuid" }).primary_hash).toBe(`${md5.slice(0, 8)}-${md5.slice(8, 12)}-${md5.slice(12, 16)}-${md5.slice(16, 20)}-${md5.slice(20)}`);
    expect(row({}, { primary_hash: "{061cf02b-2637-4d10-8694-d6643a7a2f4e}" }).primary_hash).toBe("061cf02b-2637-4d10-8694-d6643a7a2f4e");
  });

  it("counts processing errors and turns the sample rate into a weight (none for 0)", () => {
    expect(row({ errors: [{ type: "a" }, { type: "b" }] }).num_processing_errors).toBe(2);
    expect(row().num_processing_errors).toBe(0);
    expect(row({ sample_rate: 0.25 }).sample_weight).toBe(4);
    expect(row({ sample_rate: 0 }).sample_weight).toBeNull();
    expect(row().sample_weight).toBeNull();
  });
});

describe("retention", () => {
  it("keeps 30 and 90, clamps the rest like Snuba, and defaults to 90", () => {
    const retention = (days: unknown) => row({}, { retention_days: days }).retention_days;
    expect([30, 90, 0, 7, 60, 365, null, undefined].map(retention)).toEqual([30, 90, 30, 30, 90, 90, 90, 90]);
  });

  it("follows a configured policy", () => {
    const selfHosted = new ErrorsProcessor({ retention: { defaultDays: 90, lowerDays: 30, validDays: new Set([30, 60, 90]) } });
    expect(onlyRow(selfHosted, insert({}, { retention_days: 60 })).retention_days).toBe(60);
  });

  it("refuses a retention that is not a UInt16", () => {
    expect(refusal(processor, insert({}, { retention_days: 70000 }))).toMatch(/retention_days must be an unsigned 16-bit integer, got the number 70000/);
    expect(refusal(processor, insert({}, { retention_days: raw("90.0") }))).toMatch(/retention_days must be an unsigned 16-bit integer/);
  });
});

describe("tags", () => {
  it("sorts pairs by key then value in code-point order, drops pairs with a null, keeps empty values and repeated keys", () => {
    const tagged = row({
      tags: [["zeta", "1"], null, ["😀", "x"], ["\uff5e", "y"], ["beta", "2"], [null, "dropped"], ["gamma", null], ["beta", "1"], ["empty", ""], ["num", raw("1.0")]],
    });
    expect(tagged["tags.key"]).toEqual(["beta", "beta", "empty", "num", "zeta", "\uff5e", "😀"]);
    expect(tagged["tags.value"]).toEqual(["1", "2", "", "1.0", "1", "y", "x"]);
  });

  it("promotes environment, level, transaction, sentry:release, sentry:dist and sentry:user, the last sorted one winning", () => {
    const promoted = row({
      tags: [
        ["environment", "prod"],
        ["level", "error"],
        ["transaction", "/api/x"],
        ["sentry:release", "1.0"],
        ["sentry:dist", "7"],
        ["sentry:user", "id:1"],
        ["environment", "staging"],
        ["release", "not promoted"],
      ],
    });
    expect(promoted).toMatchObject({ environment: "staging", level: "error", transaction_name: "/api/x", release: "1.0", dist: "7", user: "id:1" });
    expect(row()).toMatchObject({ environment: null, level: null, transaction_name: "", release: null, dist: null, user: "" });
  });

  it("takes a replayId tag that is a UUID, and the replay context over it", () => {
    const replay = "a1f6d1d2c9a24669bd3b530806c12094";
    expect(row({ tags: [["replayId", replay]] }).replay_id).toBe("a1f6d1d2-c9a2-4669-bd3b-530806c12094");
    expect(row({ tags: [["replayId", "not-a-uuid"]] }).replay_id).toBeNull();
    expect(row({ tags: [["replayId", replay]], contexts: { replay: { replay_id: TRACE_ID } } }).replay_id).toBe("1da660e8-8c01-430b-85fe-68537ed5838b");
  });
});

describe("contexts", () => {
  it("flattens every context in code-point order, skipping type, containers and nulls; numbers as serde prints them", () => {
    const flattened = row({
      contexts: {
        os: { type: "os", name: "Android", rooted: false, build: null, extra: { nested: 1 } },
        device: { battery_level: raw("100.0"), memory_size: raw("2057527296"), big: raw("1e16"), tiny: raw("0.00001"), archs: ["arm64"], charging: true },
        empty: null,
      },
    });
    expect(flattened["contexts.key"]).toEqual(["device.battery_level", "device.big", "device.charging", "device.memory_size", "device.tiny", "os.name", "os.rooted"]);
    expect(flattened["contexts.value"]).toEqual(["100.0", "1e16", "True", "2057527296", "0.00001", "Android", "False"]);
  });

  it("adds the user's geo as the geo context, replacing one sent under that name", () => {
    const withGeo = row({ user: { geo: { city: "Vienna", country_code: "AT" } }, contexts: { geo: { city: "Graz", region: "Styria" } } });
    expect(withGeo["contexts.key"]).toEqual(["geo.city", "geo.country_code"]);
    expect(withGeo["contexts.value"]).toEqual(["Vienna", "AT"]);
  });

  it("keeps six trace fields, after the others, and fills the trace columns", () => {
    const traced = row({
      contexts: {
        trace: { trace_id: TRACE_ID, span_id: "d95788e2076d497a", parent_span_id: "b7a85c83b3077daa", op: "ui.action", status: "ok", client_sample_rate: raw("1.0"), sampled: true, description: "dropped", type: "trace" },
        app: { name: "x" },
      },
    });
    expect(traced["contexts.key"]).toEqual(["app.name", "trace.client_sample_rate", "trace.op", "trace.span_id", "trace.status", "trace.trace_id", "trace.parent_span_id"]);
    expect(traced["contexts.value"]).toEqual(["x", "1.0", "ui.action", "d95788e2076d497a", "ok", TRACE_ID, "b7a85c83b3077daa"]);
    expect(traced).toMatchObject({ trace_id: "1da660e8-8c01-430b-85fe-68537ed5838b", span_id: "15661136733572778362", trace_sampled: 1 });
  });

  it("leaves span_id empty when the span id is not hex, but keeps its text in the contexts", () => {
    const odd = row({ contexts: { trace: { span_id: "not-hex" } } });
    expect(odd.span_id).toBeNull();
    expect(odd["contexts.value"]).toEqual(["not-hex"]);
    expect(row({ contexts: { trace: { span_id: "ff" } } }).span_id).toBe(255);
  });

  it("stores feature flags as flags.key/flags.value, skipping entries without both", () => {
    const flagged = row({ contexts: { flags: { values: [{ flag: "new-ui", result: true }, null, { flag: "beta" }, { flag: "limit", result: 5 }] } } });
    expect(flagged["flags.key"]).toEqual(["new-ui", "limit"]);
    expect(flagged["flags.value"]).toEqual(["true", "5"]);
    expect(flagged["contexts.key"]).toEqual([]);
  });
});

describe("user, request, sdk and modules", () => {
  it("splits the IP address by version and drops one that does not parse", () => {
    expect(row({ user: { ip_address: "84.115.213.8" } })).toMatchObject({ ip_address_v4: "84.115.213.8", ip_address_v6: null });
    expect(row({ user: { ip_address: "2001:db8::1" } })).toMatchObject({ ip_address_v4: null, ip_address_v6: "2001:db8::1" });
    expect(row({ user: { ip_address: "{{auto}}" } })).toMatchObject({ ip_address_v4: null, ip_address_v6: null });
    expect(row({ user: { id: 42, username: "ann", email: "a@example.com" } })).toMatchObject({ user_id: "42", user_name: "ann", user_email: "a@example.com" });
    expect(row({ "sentry.interfaces.User": { id: "7" } }).user_id).toBe("7");
  });

  it("takes the method and the first Referer or Referrer header", () => {
    const request = { method: "POST", headers: [["Accept", "*/*"], null, ["Referrer", "https://a.example"], ["Referer", "https://b.example"]] };
    expect(row({ request })).toMatchObject({ http_method: "POST", http_referer: "https://a.example" });
  });

  it("writes the sdk's name, version and integrations, and modules sorted by name", () => {
    const written = row({ sdk: { name: "sentry.python", version: "1.0", integrations: ["django", null, "redis"] }, modules: { requests: "2.0", django: null, "aaa.b": "1" } });
    expect(written).toMatchObject({ sdk_name: "sentry.python", sdk_version: "1.0", sdk_integrations: ["django", "redis"] });
    expect(written["modules.name"]).toEqual(["aaa.b", "django", "requests"]);
    expect(written["modules.version"]).toEqual(["1", "", "2.0"]);
    expect(row()).toMatchObject({ sdk_name: "", sdk_version: "", sdk_integrations: [] });
  });
});

describe("exceptions", () => {
  const exception = {
    values: [
      {
        type: "ValueError",
        value: "bad",
        mechanism: { type: "generic", handled: false },
        thread_id: 1,
        stacktrace: { frames: [{ function: "main", filename: "a.py", abs_path: "/a.py", module: "a", lineno: 3, colno: 7, in_app: true }, null, { function: "f", lineno: "12" }] },
      },
      null,
      { type: "KeyError", mechanism: { type: "x", handled: "yes" }, stacktrace: { frames: [{ package: "lib", in_app: false, lineno: -1 }] } },
    ],
  };

  it("writes one stack per exception and one frame per frame, with the exception's index as stack level", () => {
    const stacked = row({ exception });
    expect(stacked).toMatchObject({
      "exception_stacks.type": ["ValueError", "KeyError"],
      "exception_stacks.value": ["bad", null],
      "exception_stacks.mechanism_type": ["generic", "x"],
      // Only a JSON boolean counts as handled: Snuba's text branch never matches.
      "exception_stacks.mechanism_handled": [0, null],
      "exception_frames.function": ["main", "f", null],
      "exception_frames.filename": ["a.py", null, null],
      "exception_frames.abs_path": ["/a.py", null, null],
      "exception_frames.module": ["a", null, null],
      "exception_frames.package": [null, null, "lib"],
      // A line number that is not a u32 reads as none.
      "exception_frames.lineno": [3, null, null],
      "exception_frames.colno": [7, null, null],
      "exception_frames.in_app": [1, null, 0],
      "exception_frames.stack_level": [0, 0, 1],
    });
    expect(row({ "sentry.interfaces.Exception": exception })["exception_stacks.type"]).toEqual(["ValueError", "KeyError"]);
  });

  it("says whether the exception happened on the main thread", () => {
    expect(row({ exception, threads: { values: [{ id: 2, main: false }, { id: 1, main: true }] } }).exception_main_thread).toBe(1);
    expect(row({ exception, threads: { values: [{ id: 1, main: false }] } }).exception_main_thread).toBe(0);
    // A string id is not the number with the same digits.
    expect(row({ exception, threads: { values: [{ id: "1", main: true }] } }).exception_main_thread).toBe(0);
    expect(row({ exception, threads: { values: [{ id: 1 }] } }).exception_main_thread).toBeNull();
    expect(row({ exception }).exception_main_thread).toBeNull();
  });

  it("stores no stacks for a project in the stack-trace block list, but still checks them", () => {
    const blocked = new ErrorsProcessor({ projectsWithoutStacks: [6036610] });
    const written = onlyRow(blocked, insert({ exception }));
    expect(written["exception_stacks.type"]).toEqual([]);
    expect(written["exception_frames.function"]).toEqual([]);
    expect(refusal(blocked, insert({ exception: { values: [{ stacktrace: { frames: [{ colno: -1 }] } }] } }))).toMatch(/colno must be an unsigned 32-bit integer/);
  });
});

describe("replacements", () => {
  it("forwards every 3-element message but an insert, start_ types and unknown ones included, keyed by project", () => {
    for (const type of ["start_merge", "end_merge", "start_delete_groups", "end_delete_groups", "end_unmerge", "end_delete_tag", "tombstone_events", "replace_group", "exclude_groups", "start_something_new"]) {
      expect(processor.process(kafkaMessage(jsonText([2, type, { project_id: 17, group_ids: [1] }]))), type).toEqual({ kind: "replacement", projectId: 17 });
    }
  });

  it("needs the project id", () => {
    expect(refusal(processor, jsonText([2, "end_merge", { new_group_id: 3 }]))).toMatch(/project_id is missing/);
    expect(refusal(processor, jsonText([2, "end_merge", { project_id: "17" }]))).toMatch(/project_id must be an unsigned 64-bit integer/);
    expect(refusal(processor, jsonText([2, "end_merge", { project_id: raw("18446744073709551615") }]))).toMatch(/beyond what Quarry can key exactly/);
  });
});

describe("messages it refuses, with the reason", () => {
  it("refuses envelopes that are not Snuba's", () => {
    const cases: [string | Buffer | null, RegExp][] = [
      [null, /no payload/],
      ["", /no payload/],
      [Buffer.from([0x5b, 0xff, 0x5d]), /not UTF-8/],
      ["[2, \"insert\"", /not JSON/],
      ["{}", /an events message is an array/],
      [jsonText([2, "insert"]), /got an array of 2/],
      [jsonText([1, "insert", event(), {}]), /unsupported message version 1/],
      [jsonText(["2", "insert", event(), {}]), /version must be an integer, got the string "2"/],
      [jsonText([2, 5, event(), {}]), /type must be a string/],
      [jsonText([2, "insert", event()]), /an insert has 4 elements/],
      [jsonText([2, "end_merge", event(), {}]), /a 4-element events message is an insert/],
      [jsonText([2, "insert", [], {}]), /body must be an object/],
    ];
    for (const [value, reason] of cases) expect(refusal(processor, value), String(value).slice(0, 40)).toMatch(reason);
  });

  it("refuses a transaction and events whose fields have the wrong type or are missing", () => {
    const withoutEventId = event();
    delete withoutEventId.event_id;
    const cases: [string, RegExp][] = [
      [insert({ type: "transaction" }), /data.type is "transaction"/],
      [jsonText([2, "insert", withoutEventId, {}]), /event_id is missing/],
      [insert({}, { event_id: "not-a-uuid" }), /event_id must be a UUID/],
      [insert({}, { group_id: -1 }), /group_id must be an unsigned 64-bit integer, got the number -1/],
      [insert({}, { group_id: raw("1.0") }), /group_id must be an unsigned 64-bit integer, got the number 1.0/],
      [insert({}, { message: null }), /message must be a string, got null/],
      [insert({}, { datetime: null }), /datetime must be a string, got null/],
      [insert({}, { data: null }), /data must be an object, got null/],
      [insert({ tags: [["a", "b", "c"]] }), /data.tags\[0\] must be a \[key, value\] pair/],
      [insert({ tags: { a: "b" } }), /data.tags must be an array, got an object/],
      [insert({ contexts: { os: "Android" } }), /data.contexts.os must be an object/],
      [insert({ contexts: { trace: { trace_id: "xyz" } } }), /data.contexts.trace.trace_id must be a UUID/],
      [insert({ contexts: { trace: { sampled: "yes" } } }), /data.contexts.trace.sampled must be a boolean/],
      [insert({ contexts: { replay: { replay_id: "nope" } } }), /data.contexts.replay.replay_id must be a UUID/],
      [insert({ exception: { values: [{ stacktrace: { frames: [{ in_app: "yes" }] } }] } }), /frames\[0\].in_app must be a boolean/],
      [insert({ exception: { values: [{ thread_id: 1.5 }] } }), /thread_id must be an unsigned integer or a string/],
      [insert({ exception: { values: [] }, "sentry.interfaces.Exception": { values: [] } }), /data.exception is given twice/],
      [insert({ errors: {} }), /data.errors must be an array/],
      [insert({ received: "now" }), /data.received must be a number/],
      [insert({ modules: { a: 1 } }), /data.modules.a must be a string/],
      [insert({ user: { ip_address: 1 } }), /data.user.ip_address must be a string/],
      [insert({ request: { headers: [[1, "x"]] } }), /headers\[0\]\[0\] must be a string/],
    ];
    for (const [value, reason] of cases) expect(refusal(processor, value), reason.source).toMatch(reason);
  });
});
