/**
 * The demo producer's TraceItems for `snuba-items`, read back through the EAP items processor:
 * deterministic from their index, inside the window, and rows with the attributes they promise.
 */
import { describe, expect, it } from "vitest";
import { fnv1a32 } from "../../src/clickhouse/fnv1a.js";
import { eapItemMessage, eapItemMessages } from "../../src/demo-data/kafka/eap-item-messages.js";
import type { IngestRow } from "../../src/ingestion/message-processor.js";
import { EapItemsProcessor } from "../../src/ingestion/processors/eap-items-processor.js";

const WINDOW = { start: Date.UTC(2026, 10, 1) / 1000, end: Date.UTC(2026, 10, 1, 6) / 1000 };
const processor = new EapItemsProcessor({ now: () => 0, randomUuid: () => "99999999-9999-4999-8999-999999999999" });

function row(bytes: Buffer): IngestRow {
  const processed = processor.process({ topic: "snuba-items", partition: 0, offset: "0", timestampMs: 0, key: null, value: bytes, headers: {} });
  if (processed.kind !== "rows" || processed.rows.length !== 1) throw new Error(`expected one row, got ${JSON.stringify(processed)}`);
  return processed.rows[0]!;
}

function attribute(r: IngestRow, kind: "string" | "float", key: string): unknown {
  return (r[`attributes_${kind}_${fnv1a32(key) % 40}`] as Record<string, unknown> | undefined)?.[key];
}

describe("eapItemMessages", () => {
  const messages = eapItemMessages(200, WINDOW);
  const rows = messages.map(row);

  it("is a function of the index and the window", () => {
    expect(eapItemMessages(200, WINDOW)).toEqual(messages);
    expect(eapItemMessages(5, WINDOW, 100)).toEqual(messages.slice(100, 105));
    expect(eapItemMessage(7, WINDOW)).toEqual(messages[7]);
    expect(eapItemMessage(7, { start: WINDOW.start + 3600, end: WINDOW.end })).not.toEqual(messages[7]);
  });

  it("gives spans of organization 1 in projects 1 to 3, inside the window, each with its own item_id", () => {
    for (const r of rows) {
      expect(r).toMatchObject({ organization_id: 1, item_type: 1, sampling_weight: 1, retention_days: 90 });
      expect([1, 2, 3]).toContain(r.project_id);
      expect(r.timestamp).toBeGreaterThanOrEqual(WINDOW.start);
      expect(r.timestamp).toBeLessThan(WINDOW.end);
    }
    expect(new Set(rows.map((r) => r.project_id)).size).toBe(3);
    expect(new Set(rows.map((r) => r.item_id)).size).toBe(rows.length);
  });

  it("groups four spans per trace, the first being its segment", () => {
    const traces = new Map<unknown, IngestRow[]>();
    for (const r of rows) traces.set(r.trace_id, [...(traces.get(r.trace_id) ?? []), r]);
    expect(traces.size).toBe(50);
    for (const spans of traces.values()) {
      expect(spans.map((r) => (r.attributes_bool as Record<string, boolean>)["sentry.is_segment"])).toEqual([true, false, false, false]);
      expect(new Set(spans.map((r) => r.project_id)).size).toBe(1);
    }
  });

  it("carries sentry.op (also as indexed_name), a double sentry.duration_ms and an environment", () => {
    for (const r of rows) {
      expect(attribute(r, "string", "sentry.op")).toBe(r.indexed_name);
      expect(["http.server", "db", "http.client", "cache.get", "ui.render"]).toContain(r.indexed_name);
      expect(["production", "staging"]).toContain(attribute(r, "string", "environment"));
      const duration = attribute(r, "float", "sentry.duration_ms") as number;
      expect(duration).toBeGreaterThanOrEqual(1);
      expect(duration).toBeLessThanOrEqual(256);
      expect(r.attributes_int).not.toHaveProperty("sentry.duration_ms");
    }
    expect(new Set(rows.map((r) => r.indexed_name)).size).toBe(5);
  });

  it("refuses a count or a window it cannot make messages for", () => {
    expect(() => eapItemMessages(-1, WINDOW)).toThrow(/count must be a non-negative integer, got -1/);
    expect(() => eapItemMessages(1.5, WINDOW)).toThrow(/count must be a non-negative integer/);
    expect(() => eapItemMessages(1, { start: 10, end: 10 })).toThrow(/the window must end after it starts/);
  });
});
