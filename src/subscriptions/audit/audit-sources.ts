/**
 * What the audit reads: every subscription record (tombstones included) from the cluster's NATS
 * store, and the results on the result topics from `from` up to each partition's end at the
 * start of the read.
 */
import { randomBytes } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import type { PublishedResult } from "./audit.js";
import { LEASE_EPOCH_HEADER } from "../publishing/kafka-publisher.js";
import { parseJsonLosslessly } from "./lossless-json.js";
import type { WindowRows } from "./recount-comparison.js";

interface ResultMessage {
  payload?: { subscription_id?: unknown; timestamp?: unknown; result?: { data?: unknown; meta?: unknown } };
}

/** `payload.result` when it has rows and well-formed columns, else undefined. */
function publishedRows(result: { data?: unknown; meta?: unknown } | undefined): WindowRows | undefined {
  if (!result || !Array.isArray(result.data)) return undefined;
  const meta = Array.isArray(result.meta) ? result.meta : [];
  const columns = meta.filter((c): c is { name: string; type: string } => typeof c === "object" && c !== null && typeof c.name === "string" && typeof c.type === "string");
  return { data: result.data as unknown[], meta: columns.map((c) => ({ name: c.name, type: c.type })) };
}

/** One result message as the audit counts it, or null when it is not a subscription result. */
export function parseResultMessage(topic: string, value: Buffer | null, timestampMs: string, headers: Record<string, unknown> | undefined): PublishedResult | null {
  if (!value) return null;
  let message: ResultMessage;
  try {
    // Lossless: a 64-bit integer in the result must stay exact for the recount to compare it.
    message = parseJsonLosslessly(value.toString("utf8")) as ResultMessage;
  } catch {
    return null;
  }
  if (typeof message !== "object" || message === null) return null;
  const id = message.payload?.subscription_id;
  const timestamp = message.payload?.timestamp;
  if (typeof id !== "string" || typeof timestamp !== "string") return null;
  const windowEndMs = Date.parse(`${timestamp}Z`);
  if (Number.isNaN(windowEndMs)) return null;
  const header = headers?.[LEASE_EPOCH_HEADER];
  const epoch = header === undefined ? 0 : Number(String(header));
  const result = publishedRows(message.payload?.result);
  return {
    subscriptionId: id,
    windowEnd: Math.floor(windowEndMs / 1000),
    publishedAtMs: Number(timestampMs),
    epoch: Number.isFinite(epoch) ? epoch : 0,
    topic,
    ...(result ? { result } : {}),
  };
}

export async function readResultTopics(brokers: readonly string[], topics: readonly string[], fromMs: number, timeoutMs = 120_000): Promise<PublishedResult[]> {
  const kafka = new Kafka({ clientId: "quarry-audit", brokers: [...brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const ranges: { topic: string; partition: number; start: number; end: number }[] = [];
  try {
    const existing = new Set(await admin.listTopics());
    for (const topic of topics) {
      if (!existing.has(topic)) continue;
      const ends = await admin.fetchTopicOffsets(topic);
      const starts = await admin.fetchTopicOffsetsByTimestamp(topic, fromMs);
      for (const end of ends) {
        const start = starts.find((s) => s.partition === end.partition);
        const startOffset = start && Number(start.offset) >= 0 ? Number(start.offset) : Number(end.high);
        if (Number(end.high) > startOffset) ranges.push({ topic, partition: end.partition, start: startOffset, end: Number(end.high) });
      }
    }
  } finally {
    await admin.disconnect();
  }
  if (ranges.length === 0) return [];

  const results: PublishedResult[] = [];
  const left = new Map(ranges.map((r) => [`${r.topic}/${r.partition}`, r]));
  const consumer = kafka.consumer({ groupId: `quarry-audit-${randomBytes(6).toString("hex")}`, allowAutoTopicCreation: false });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...new Set(ranges.map((r) => r.topic))], fromBeginning: true });
    // Skipping ahead to each range's start only saves reading: messages outside a range are
    // ignored below. kafkajs refuses a seek until the consumer has joined its group, so it waits
    // for the join, and a refused seek just means reading from the beginning.
    consumer.on(consumer.events.GROUP_JOIN, () => {
      for (const range of ranges) {
        try {
          consumer.seek({ topic: range.topic, partition: range.partition, offset: String(range.start) });
        } catch {
          // read from the beginning instead
        }
      }
    });
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const key = `${topic}/${partition}`;
        const range = left.get(key);
        if (!range) return;
        const offset = Number(message.offset);
        if (offset >= range.start && offset < range.end) {
          const result = parseResultMessage(topic, message.value, message.timestamp, message.headers);
          if (result) results.push(result);
        }
        if (offset + 1 >= range.end) {
          left.delete(key);
          if (left.size === 0) finish();
        }
      },
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      finished,
      new Promise<void>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`reading the result topics did not finish within ${timeoutMs} ms (${left.size} partition(s) left)`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  } finally {
    await consumer.disconnect();
  }
  return results;
}
