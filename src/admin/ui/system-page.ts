/**
 * System: the Prometheus figures that matter, the ingestion consumers with their partitions,
 * tables with rows and bytes, migrations applied and allocation policies in force.
 */
import { getJson, getText } from "./api.js";
import { el, formatBytes, table } from "./dom.js";

/** The samples of one metric from Prometheus text, by their label text. */
function samples(text: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_:]+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (match && match[1] === name) found.set(match[2] ?? "", Number(match[3]));
  }
  return found;
}

const sum = (values: Map<string, number>, label?: string) => [...values].filter(([labels]) => !label || labels.includes(label)).reduce((total, [, value]) => total + value, 0);

interface ConsumerPartition {
  partition: number;
  committed: string | null;
  highWatermark: string | null;
  lagMessages: number;
  lagSeconds: number;
  heldRows: number;
  paused: boolean;
  failing: boolean;
}

interface ConsumerStatus {
  storage: string;
  state: string;
  groupId: string;
  topic: string;
  partitions: ConsumerPartition[];
  lastWriteAt: number | null;
  error: string | null;
  lastWriteError: string | null;
}

/** One row per consumer partition (one per consumer that holds none yet), newest facts first. */
function consumerRows(consumers: ConsumerStatus[]): Record<string, unknown>[] {
  return consumers.flatMap((consumer): Record<string, unknown>[] => {
    const common = {
      storage: consumer.storage,
      state: consumer.error ? `${consumer.state}: ${consumer.error}` : consumer.state,
      topic: consumer.topic,
      group: consumer.groupId,
      "last write": consumer.lastWriteAt === null ? "never" : new Date(consumer.lastWriteAt).toISOString(),
    };
    if (consumer.partitions.length === 0) return [{ ...common, partition: "none assigned", committed: "", "lag (messages)": "", "lag (s)": "", held: "", note: "" }];
    return consumer.partitions.map((p) => ({
      ...common,
      partition: p.partition,
      committed: p.committed ?? "none",
      "lag (messages)": p.lagMessages,
      "lag (s)": p.lagSeconds.toFixed(1),
      held: p.heldRows,
      note: p.failing ? `writes failing: ${consumer.lastWriteError ?? ""}` : p.paused ? "paused" : "",
    }));
  });
}

export async function systemPage(root: HTMLElement): Promise<void> {
  const [system, metrics] = await Promise.all([getJson("/admin/system"), getText("/metrics")]);
  const hits = sum(samples(metrics, "quarry_cache_lookups_total"), 'result="hit"');
  const lookups = sum(samples(metrics, "quarry_cache_lookups_total"));
  const figures = [
    { figure: "resident memory", value: formatBytes(sum(samples(metrics, "process_resident_memory_bytes"))) },
    { figure: "JS heap used", value: formatBytes(sum(samples(metrics, "nodejs_heap_size_used_bytes"))) },
    { figure: "event-loop lag p99", value: `${(sum(samples(metrics, "nodejs_eventloop_lag_p99_seconds")) * 1000).toFixed(1)} ms` },
    { figure: "cache hit rate", value: lookups === 0 ? "no lookups yet" : `${((hits / lookups) * 100).toFixed(1)} % of ${lookups}` },
    { figure: "query log rows written", value: String(sum(samples(metrics, "quarry_querylog_rows_written_total"))) },
    { figure: "requests", value: String(sum(samples(metrics, "quarry_requests_total"))) },
  ];
  const tables = (system.json.tables as { table: string; rows: number; bytes: number }[]).map((t) => ({ table: t.table, rows: t.rows, bytes: formatBytes(t.bytes) }));
  root.replaceChildren(
    el("h2", {}, "System"),
    el("h3", {}, "Figures"),
    table(["figure", "value"], figures),
    el("h3", {}, "Ingestion consumers"),
    el(
      "div",
      { id: "consumers" },
      (system.json.consumers ?? []).length === 0
        ? el("p", { class: "muted" }, "This process runs no ingestion consumers (QUARRY_CONSUMERS; a `quarry consumer` process shows its own on /health).")
        : table(["storage", "state", "topic", "group", "partition", "committed", "lag (messages)", "lag (s)", "held", "note", "last write"], consumerRows(system.json.consumers)),
    ),
    el("h3", {}, "Tables"),
    el("div", { id: "tables" }, table(["table", "rows", "bytes"], tables)),
    el("h3", {}, "Migrations applied"),
    table(["id", "applied_at"], system.json.migrations),
    el("h3", {}, "Allocation policies in force"),
    table(["storage", "policy", "args"], system.json.policies),
    el("h3", {}, "Current usage by tenant"),
    el(
      "div",
      { id: "usage" },
      (system.json.usage ?? []).length === 0
        ? el("p", { class: "muted" }, "No tenant has anything counted right now (concurrent queries, queries in the last second, bytes in the window).")
        : table(["storage", "policy", "bucket", "used", "unit", "limit"], system.json.usage),
    ),
  );
}
