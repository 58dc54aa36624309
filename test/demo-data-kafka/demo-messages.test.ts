/**
 * The demo messages without a broker: every one is taken by its topic's processor and gives rows
 * (never an InvalidMessage, never skipped), with the demo's organization, projects and window;
 * a message is a function of its topic, index and window; keys partition as librdkafka does.
 */
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { demoMessageAt, demoWindow } from "../../src/demo-data/kafka/demo-kafka-producer.js";
import { demoTopicSources } from "../../src/demo-data/kafka/demo-topic-sources.js";
import { librdkafkaPartition } from "../../src/demo-data/kafka/librdkafka-partitioner.js";
import { runDemoKafka } from "../../src/demo-data/kafka/demo-kafka-command.js";
import { readSettings } from "../../src/config/settings.js";
import { partitionFor } from "../../src/subscriptions/scheduling/partitioner.js";
import { ingestMessage, processDemoMessage } from "./demo-message-processors.js";

const MESSAGES = 3_000;
const NOW = new Date();
const WINDOW = demoWindow(NOW, 24 * 3_600_000);

function headersOf(message: { headers?: unknown }): Record<string, string> {
  return Object.fromEntries(Object.entries((message.headers ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

describe("demo messages through the processors", () => {
  for (const source of demoTopicSources(WINDOW)) {
    it(`${source.topic}: every message gives rows of org 1, projects 1-3, inside the window`, () => {
      const byProcessor = new Map<string, number>();
      const projects = new Set<number>();
      for (let index = 0; index < MESSAGES; index++) {
        const message = demoMessageAt(source, WINDOW, index, MESSAGES);
        const processed = processDemoMessage(
          source.topic,
          ingestMessage(source.topic, { key: (message.key as string | null) ?? null, value: message.value as string, headers: headersOf(message) }),
        );
        byProcessor.set(processed.processor, (byProcessor.get(processed.processor) ?? 0) + 1);
        for (const row of processed.rows) {
          projects.add(Number(row.project_id));
          if ("org_id" in row) expect(Number(row.org_id)).toBe(1);
          const seconds = Number(row.timestamp ?? row.finish_ts ?? Number.NaN);
          const time = Number.isNaN(seconds) ? Date.parse(`${String(row.timestamp ?? row.finish_ts)}Z`) / 1000 : seconds;
          if (!Number.isNaN(time)) {
            expect(time).toBeGreaterThanOrEqual(Math.floor(WINDOW.startMs / 1000) - 10);
            expect(time).toBeLessThanOrEqual(WINDOW.endMs / 1000);
          }
        }
        if (source.topic === "events" || source.topic === "transactions") {
          const envelope = JSON.parse(message.value as string) as [number, string, { project_id: number }, unknown];
          expect(envelope.slice(0, 2)).toEqual([2, "insert"]);
          expect(message.key).toBe(String(envelope[2].project_id));
        } else {
          expect(message.key).toBeNull();
        }
      }
      expect([...projects].sort()).toEqual([1, 2, 3]);
      if (source.topic === "snuba-generic-metrics") {
        // Every type's consumer gets its share.
        expect([...byProcessor.keys()].sort()).toEqual([
          "GenericCountersMetricsProcessor",
          "GenericDistributionsMetricsProcessor",
          "GenericGaugesMetricsProcessor",
          "GenericSetsMetricsProcessor",
        ]);
      }
    });
  }

  it("names the metric type in the metric_type header of every generic-metrics message", () => {
    const source = demoTopicSources(WINDOW).find((s) => s.topic === "snuba-generic-metrics")!;
    for (let index = 0; index < 500; index++) {
      const message = demoMessageAt(source, WINDOW, index, 500);
      expect(headersOf(message).metric_type).toBe((JSON.parse(message.value as string) as { type: string }).type);
    }
  });

  it("spreads each topic's times over the window in order, and rebuilds a message from its index", () => {
    for (const source of demoTopicSources(WINDOW)) {
      const first = demoMessageAt(source, WINDOW, 0, MESSAGES);
      expect(demoMessageAt(source, WINDOW, 0, MESSAGES)).toEqual(first);
      expect(demoMessageAt(source, WINDOW, 1, MESSAGES)).not.toEqual(first);
    }
    const events = demoTopicSources(WINDOW)[0]!;
    const times = [0, MESSAGES / 2, MESSAGES - 1].map((i) => Date.parse(`${(JSON.parse(demoMessageAt(events, WINDOW, i, MESSAGES).value as string) as [0, 0, { datetime: string }])[2].datetime}`));
    expect(times[0]).toBeLessThan(WINDOW.startMs + 60_000);
    expect(Math.abs(times[1]! - (WINDOW.startMs + WINDOW.endMs) / 2)).toBeLessThan(60_000);
    expect(times[2]).toBeGreaterThan(WINDOW.endMs - 60_000);
    expect(times[2]).toBeLessThan(WINDOW.endMs);
  });
});

describe("the librdkafka partitioner", () => {
  it("takes CRC32 (IEEE) of the key modulo the partition count, as the scheduler's partitionFor does for project ids", () => {
    // The CRC-32/ISO-HDLC check value.
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(librdkafkaPartition("123456789", 1000)).toBe(0xcbf43926 % 1000);
    for (const partitions of [1, 2, 3, 7, 64]) {
      for (let project = 0; project < 200; project++) {
        expect(librdkafkaPartition(String(project), partitions)).toBe(partitionFor(project, partitions));
        expect(librdkafkaPartition(Buffer.from(String(project)), partitions)).toBe(partitionFor(project, partitions));
      }
    }
    // Not a project id: the key's bytes all the same.
    expect(librdkafkaPartition("007", 7)).toBe(crc32("007") % 7);
    expect(librdkafkaPartition("projet-é", 5)).toBe(crc32(Buffer.from("projet-é")) % 5);
    expect(() => librdkafkaPartition("1", 0)).toThrow(/at least one partition/);
  });
});

describe("runDemoKafka's options", () => {
  const settings = { ...readSettings({}), kafkaBrokers: ["127.0.0.1:1"] };

  it("refuses bad values with a message and exit code 2, before connecting anywhere", async () => {
    for (const args of [["--messages", "0"], ["--messages", "ten"], ["--rate", "-1"], ["--partitions", "1.5"], ["--topics", "events,nope"], ["--messages"]]) {
      const lines: string[] = [];
      expect(await runDemoKafka(settings, ["--kafka", ...args], (line) => lines.push(line)), args.join(" ")).toBe(2);
      expect(lines.join("\n")).toMatch(/must be|needs a value|takes Snuba's names/);
    }
  });

  it("needs KAFKA_BROKERS", async () => {
    const lines: string[] = [];
    expect(await runDemoKafka({ ...settings, kafkaBrokers: [] }, ["--kafka"], (line) => lines.push(line))).toBe(2);
    expect(lines.join("\n")).toContain("KAFKA_BROKERS");
  });
});
