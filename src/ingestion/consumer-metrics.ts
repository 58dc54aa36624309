/**
 * The ingestion consumers' metrics, labelled by storage (and partition for lag). One instance per
 * process registry; every consumer of the process records into it.
 */
import type { Registry } from "prom-client";
import { CappedCounter } from "../metrics/capped-counter.js";
import { CappedHistogram } from "../metrics/capped-histogram.js";
import { registerLabelledScrapeTimeGauge } from "../metrics/scrape-time-gauge.js";
import type { LabelSet } from "../metrics/series-cap.js";

const ROWS_BUCKETS = [1, 10, 100, 1000, 5000, 10_000, 25_000, 50_000, 100_000];
const BYTES_BUCKETS = [1024, 16 * 1024, 256 * 1024, 1024 * 1024, 8 * 1024 * 1024, 32 * 1024 * 1024, 64 * 1024 * 1024, 128 * 1024 * 1024];
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface PartitionGauge {
  readonly partition: number;
  readonly lagMessages: number;
  readonly lagSeconds: number;
  readonly paused: boolean;
}

/** What a consumer reports at a scrape: lag and pauses per partition it holds. */
export interface ConsumerGaugeSource {
  partitionGauges(): Iterable<PartitionGauge>;
}

export class ConsumerMetrics {
  readonly rowsWritten: CappedCounter<"storage">;
  readonly messages: CappedCounter<"storage" | "kind">;
  readonly deadLetters: CappedCounter<"storage" | "reason">;
  readonly insertFailures: CappedCounter<"storage" | "kind">;
  readonly batchRows: CappedHistogram<"storage" | "reason">;
  readonly batchBytes: CappedHistogram<"storage" | "reason">;
  readonly insertSeconds: CappedHistogram<"storage">;
  private readonly sources = new Map<string, ConsumerGaugeSource>();

  constructor(registry: Registry) {
    this.rowsWritten = new CappedCounter(registry, { name: "quarry_consumer_rows_written_total", help: "Rows a consumer wrote to ClickHouse.", labelNames: ["storage"] });
    this.messages = new CappedCounter(registry, {
      name: "quarry_consumer_messages_total",
      help: "Messages consumed and committed, by what they became: rows, skip, replacement or dead_letter.",
      labelNames: ["storage", "kind"],
    });
    this.deadLetters = new CappedCounter(registry, {
      name: "quarry_consumer_dead_letters_total",
      help: "Messages sent to the dead-letter topic, by reason: invalid_message, processor_error, refused_by_engine, no_replacements_topic.",
      labelNames: ["storage", "reason"],
    });
    this.insertFailures = new CappedCounter(registry, {
      name: "quarry_consumer_write_failures_total",
      help: "Failed steps of writing a range (retried): insert, refused (an INSERT split to isolate a refused row), kafka.",
      labelNames: ["storage", "kind"],
    });
    this.batchRows = new CappedHistogram(registry, {
      name: "quarry_consumer_batch_rows",
      help: "Rows per written range, by why it was closed: rows, bytes, time, replay or stop.",
      labelNames: ["storage", "reason"],
      buckets: ROWS_BUCKETS,
    });
    this.batchBytes = new CappedHistogram(registry, {
      name: "quarry_consumer_batch_bytes",
      help: "Bytes (encoded rows and kept messages) per written range, by why it was closed.",
      labelNames: ["storage", "reason"],
      buckets: BYTES_BUCKETS,
    });
    this.insertSeconds = new CappedHistogram(registry, {
      name: "quarry_consumer_insert_duration_seconds",
      help: "Time of one acknowledged INSERT of a range (or of a part of it).",
      labelNames: ["storage"],
      buckets: SECONDS_BUCKETS,
    });
    registerLabelledScrapeTimeGauge(registry, "quarry_consumer_lag_messages", "Messages of a partition not yet committed: high watermark - committed offset.", ["storage", "partition"], () =>
      this.gauges((gauge) => gauge.lagMessages),
    );
    registerLabelledScrapeTimeGauge(
      registry,
      "quarry_consumer_lag_seconds",
      "How far a partition is behind in time: the age of its oldest message read and not yet written (or of its last written one, while it lags and holds none); 0 without lag.",
      ["storage", "partition"],
      () => this.gauges((gauge) => gauge.lagSeconds),
    );
    registerLabelledScrapeTimeGauge(registry, "quarry_consumer_partition_paused", "1 while a partition is paused (its writes failing, or the storage's buffer full).", ["storage", "partition"], () =>
      this.gauges((gauge) => (gauge.paused ? 1 : 0)),
    );
  }

  /** Adds a consumer's per-partition gauges; the returned function removes them. */
  attach(storage: string, source: ConsumerGaugeSource): () => void {
    this.sources.set(storage, source);
    return () => {
      if (this.sources.get(storage) === source) this.sources.delete(storage);
    };
  }

  private *gauges(read: (gauge: PartitionGauge) => number): Iterable<readonly [LabelSet<"storage" | "partition">, number]> {
    for (const [storage, source] of this.sources) {
      for (const gauge of source.partitionGauges()) yield [{ storage, partition: String(gauge.partition) }, read(gauge)] as const;
    }
  }
}
