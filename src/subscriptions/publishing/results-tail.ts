/**
 * `quarry subscriptions tail`: prints subscription results as they arrive, one line each,
 * `<subscription id><TAB><message JSON>` (what a Kafka consumer printing keys would show).
 * Without Kafka the results are in the `subscription_results` storage of the node that owns the
 * embedded engine, so the tail asks that node's `/query` (the engine's directory is locked to
 * it); with KAFKA_BROKERS it reads the result topics.
 */
import { Kafka, logLevel } from "kafkajs";
import { formatDateTime } from "../../query/datetime-literal.js";

export interface TailOptions {
  /** Print results published at or after this instant (epoch ms). */
  readonly sinceMs: number;
  readonly write: (line: string) => void;
  readonly signal: AbortSignal;
  readonly pollIntervalMs?: number;
  readonly log?: (line: string) => void;
}

interface ResultRow {
  subscription_id: string;
  published_at: string;
  payload: string;
}

const DAY_SECONDS = 86_400;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** Follows the results storage through a query node's `/query`. */
export async function tailResultsTable(queryUrl: string, options: TailOptions): Promise<void> {
  let cursorMs = options.sinceMs;
  // Rows published in the cursor's millisecond that were already printed.
  let printedAtCursor = new Set<string>();
  let lastError = "";
  while (!options.signal.aborted) {
    const sinceSecond = Math.floor(cursorMs / 1000);
    const query =
      "MATCH STORAGE(subscription_results) SELECT subscription_id, published_at, payload " +
      `WHERE timestamp >= toDateTime('${formatDateTime(sinceSecond - 2 * DAY_SECONDS)}') AND timestamp < toDateTime('${formatDateTime(Math.floor(Date.now() / 1000) + DAY_SECONDS)}') ` +
      `AND published_at >= toDateTime('${formatDateTime(sinceSecond)}') ORDER BY published_at ASC LIMIT 10000`;
    try {
      const response = await fetch(`${queryUrl}/query`, {
        method: "POST",
        // /query wants a dataset even for a storage read; any one does.
        body: JSON.stringify({ dataset: "events", query, tenant_ids: { organization_id: 0, referrer: "quarry.subscriptions.tail" } }),
        signal: options.signal,
      });
      const body = (await response.json()) as { data?: ResultRow[]; error?: { message: string } };
      if (!response.ok || !body.data) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
      for (const row of body.data) {
        const publishedMs = Date.parse(row.published_at);
        const key = `${row.subscription_id} ${row.payload.length} ${row.payload.slice(-64)}`;
        if (publishedMs < cursorMs || (publishedMs === cursorMs && printedAtCursor.has(key))) continue;
        if (publishedMs > cursorMs) {
          cursorMs = publishedMs;
          printedAtCursor = new Set();
        }
        printedAtCursor.add(key);
        options.write(`${row.subscription_id}\t${row.payload}`);
      }
      lastError = "";
    } catch (reason) {
      if (options.signal.aborted) break;
      const message = reason instanceof Error ? reason.message : String(reason);
      if (message !== lastError) options.log?.(`tail: ${queryUrl}/query failed (retrying): ${message}`);
      lastError = message;
    }
    await sleep(options.pollIntervalMs ?? 1000, options.signal);
  }
}

/** Follows result topics on Kafka from now on (or from the beginning). */
export async function tailResultTopics(brokers: readonly string[], topics: readonly string[], fromBeginning: boolean, options: TailOptions): Promise<void> {
  const kafka = new Kafka({ clientId: "quarry-subscriptions-tail", brokers: [...brokers], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `quarry-tail-${process.pid}-${Date.now()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...topics], fromBeginning });
    await consumer.run({
      eachMessage: async ({ message }) => {
        options.write(`${message.key?.toString() ?? ""}\t${message.value?.toString() ?? ""}`);
      },
    });
    await new Promise<void>((resolve) => options.signal.addEventListener("abort", () => resolve(), { once: true }));
  } finally {
    await consumer.disconnect();
  }
}
