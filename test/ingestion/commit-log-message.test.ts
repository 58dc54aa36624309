/**
 * Commit-log messages byte for byte as Snuba's Rust consumer writes them, read back by the
 * CommitCodec of Sentry's arroyo (installed from PyPI at test time) as Snuba's and Sentry's
 * subscription schedulers read them.
 */
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { decodeCommitLogMessage, encodeCommitLogMessage, receivedP99, type CommitLogEntry } from "../../src/ingestion/commit-log-message.js";
import { ensureSentryArroyo } from "../../scripts/test-services/sentry-arroyo.js";

const base: CommitLogEntry = { topic: "events", partition: 0, group: "snuba-consumers", offset: 5n, origMessageTsMs: 1_696_381_946_000, originTimestamps: [] };

describe("commit-log messages", () => {
  it("are Snuba's bytes: key topic:partition:group, fields in order, seconds with ms precision, .0 on whole seconds", () => {
    // The value of Snuba's own test (rust_snuba/src/strategies/commit_log.rs).
    expect(encodeCommitLogMessage({ ...base, group: "group1", topic: "topic" })).toEqual({
      key: "topic:0:group1",
      value: '{"offset":5,"orig_message_ts":1696381946.0,"received_p99":null}',
    });
    expect(encodeCommitLogMessage({ ...base, origMessageTsMs: 1_696_381_946_123, originTimestamps: [1_696_381_900.5] }).value).toBe(
      '{"offset":5,"orig_message_ts":1696381946.123,"received_p99":1696381900.5}',
    );
    // Offsets are 64-bit: past 2^53 they are written exactly.
    expect(encodeCommitLogMessage({ ...base, offset: 9_007_199_254_740_993n }).value).toContain('"offset":9007199254740993,');
  });

  it("take the 99th percentile of the origin timestamps as Snuba does: sorted, element ⌊n·0.99⌋, truncated to ms", () => {
    expect(receivedP99([])).toBeNull();
    expect(receivedP99([3, 1, 2])).toBe(3);
    const hundredTwenty = Array.from({ length: 120 }, (_, i) => 1_700_000_000 + i);
    expect(receivedP99(hundredTwenty)).toBe(1_700_000_000 + 118);
    expect(receivedP99([1_700_000_000.0009])).toBe(1_700_000_000);
    expect(receivedP99([1_700_000_000.123])).toBe(1_700_000_000.123);
  });

  it("decode as arroyo's CommitCodec reads them", () => {
    const decoded = decodeCommitLogMessage("events:3:snuba-consumers", '{"offset":12,"orig_message_ts":1696381946.5,"received_p99":0}');
    expect(decoded).toEqual({ topic: "events", partition: 3, group: "snuba-consumers", offset: 12n, origMessageTs: 1_696_381_946.5, receivedP99: null });
    expect(() => decodeCommitLogMessage("events:3", "{}")).toThrow(/not <topic>:<partition>:<group>/);
  });
});

describe("arroyo's CommitCodec", () => {
  let python: string;
  beforeAll(async () => {
    python = await ensureSentryArroyo();
  }, 600_000);

  it("decodes Quarry's commit-log messages to the partition, group, next offset and times Quarry wrote", () => {
    const entries: CommitLogEntry[] = [
      base,
      { topic: "snuba-generic-metrics", partition: 11, group: "snuba-gen-metrics", offset: 123_456_789_012n, origMessageTsMs: 1_700_000_000_999, originTimestamps: [] },
      { topic: "transactions", partition: 2, group: "snuba-consumers", offset: 42n, origMessageTsMs: 1_700_000_001_001, originTimestamps: [1_700_000_000.25, 1_699_999_999.75] },
    ];
    const messages = entries.map(encodeCommitLogMessage);
    const script = [
      "import json, sys",
      "from arroyo.backends.kafka import KafkaPayload",
      "from arroyo.backends.kafka.commit import CommitCodec",
      "codec = CommitCodec()",
      "out = []",
      "for m in json.load(sys.stdin):",
      "    c = codec.decode(KafkaPayload(m['key'].encode(), m['value'].encode(), []))",
      "    out.append({'topic': c.partition.topic.name, 'partition': c.partition.index, 'group': c.group, 'offset': str(c.offset), 'orig_message_ts': c.orig_message_ts, 'received_p99': c.received_p99})",
      "print(json.dumps(out))",
    ].join("\n");
    const output = execFileSync(python, ["-I", "-c", script], { input: JSON.stringify(messages), encoding: "utf8", timeout: 60_000 });
    const decoded = JSON.parse(output.trim().split("\n").at(-1)!) as Record<string, unknown>[];
    expect(decoded).toEqual([
      { topic: "events", partition: 0, group: "snuba-consumers", offset: "5", orig_message_ts: 1_696_381_946, received_p99: null },
      { topic: "snuba-generic-metrics", partition: 11, group: "snuba-gen-metrics", offset: "123456789012", orig_message_ts: 1_700_000_000.999, received_p99: null },
      { topic: "transactions", partition: 2, group: "snuba-consumers", offset: "42", orig_message_ts: 1_700_000_001.001, received_p99: 1_700_000_000.25 },
    ]);
  });
});
