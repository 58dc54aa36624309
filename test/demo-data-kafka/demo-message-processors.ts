/**
 * Runs a demo message through the processors of its topic, as the consumers would: the rows it
 * gives, or an error saying why it gave none (InvalidMessage, skipped by every processor, or
 * taken by more than one generic-metrics type).
 */
import { defaultRegistry } from "../../src/datasets/registry.js";
import type { IngestMessage, IngestRow, MessageProcessor } from "../../src/ingestion/message-processor.js";
import { createProcessor } from "../../src/ingestion/processor-registry.js";

/** Each source topic's processors, as the storages' stream_loaders declare them. */
const PROCESSORS: Readonly<Record<string, readonly MessageProcessor[]>> = (() => {
  const byTopic: Record<string, MessageProcessor[]> = {};
  for (const storage of defaultRegistry().storages()) {
    const loader = storage.streamLoader;
    if (loader) (byTopic[loader.sourceTopic] ??= []).push(createProcessor(loader.processor)!);
  }
  return byTopic;
})();

export interface ProcessedDemoMessage {
  /** The processor that took it. */
  readonly processor: string;
  readonly rows: readonly IngestRow[];
}

export function processDemoMessage(topic: string, message: IngestMessage): ProcessedDemoMessage {
  const processors = PROCESSORS[topic];
  if (!processors) throw new Error(`no processor for topic ${topic}`);
  const taken: ProcessedDemoMessage[] = [];
  for (const processor of processors) {
    // An InvalidMessage propagates: the test fails with its reason.
    const processed = processor.process(message);
    if (processed.kind === "rows") taken.push({ processor: processor.name, rows: processed.rows });
    else if (processed.kind !== "skip") throw new Error(`${processor.name} took a demo message as ${processed.kind}`);
  }
  if (taken.length !== 1) throw new Error(`${taken.length} processors of ${topic} took the message ${message.value?.toString().slice(0, 200)}`);
  const [only] = taken;
  if (only!.rows.length === 0) throw new Error(`${only!.processor} gave no row`);
  return only!;
}

export function ingestMessage(topic: string, fields: { partition?: number; offset?: string; key: Buffer | string | null; value: Buffer | string | null; headers?: Readonly<Record<string, string | undefined>> }): IngestMessage {
  const bytes = (v: Buffer | string | null) => (v === null ? null : Buffer.isBuffer(v) ? v : Buffer.from(v));
  return {
    topic,
    partition: fields.partition ?? 0,
    offset: fields.offset ?? "0",
    timestampMs: Date.now(),
    key: bytes(fields.key),
    value: bytes(fields.value),
    headers: fields.headers ?? {},
  };
}
