/**
 * The ingestion consumers one process runs: one StorageConsumer per storage named in
 * `quarry consumer --storage` or QUARRY_CONSUMERS, each built from its storage's `stream_loader`.
 * They start and stop together, share one metrics registry, and report to /health: a consumer is
 * unhealthy when it has crashed, or when it lags and has written nothing for `stuckAfterMs`.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import type { Registry } from "prom-client";
import type { StorageDefinition } from "../datasets/definition-types.js";
import type { BatchingOptions, TopicCreation } from "./consumer-options.js";
import { ConsumerMetrics } from "./consumer-metrics.js";
import { ConsumerSetupError } from "./consumer-setup-error.js";
import { createProcessor, processorNames } from "./processor-registry.js";
import { StorageConsumer, type ConsumerStatus } from "./storage-consumer.js";
import type { RowWriter } from "./range-insert.js";
import { physicalGroup, physicalTopic } from "./topic-names.js";

/** `all`: every storage with a stream_loader. */
export type ConsumerSelection = "all" | readonly string[];

export interface IngestionConsumersOptions {
  /** Every storage definition (the selection is resolved against them). */
  readonly storages: readonly StorageDefinition[];
  readonly selection: ConsumerSelection;
  readonly brokers: readonly string[];
  readonly client: ClickHouseClient;
  /** How rows are written (ColumnstoreClient.insertRows); default: in the statement text through `client`. */
  readonly writeRows?: RowWriter;
  /** Snuba's topic name -> the physical one (QUARRY_KAFKA_TOPICS). */
  readonly topicMap?: Readonly<Record<string, string>>;
  /** Snuba's consumer group name -> the physical one (QUARRY_CONSUMER_GROUPS). */
  readonly groupMap?: Readonly<Record<string, string>>;
  readonly batching?: Partial<BatchingOptions>;
  readonly topicCreation?: Partial<TopicCreation>;
  /** The Kafka group's session timeout (StorageConsumerConfig.sessionTimeoutMs). */
  readonly sessionTimeoutMs?: number;
  /** A consumer that lags and has written nothing for this long is reported stuck (default 60 s). */
  readonly stuckAfterMs?: number;
  readonly log?: (line: string) => void;
  /** Defaults to Date.now (tests move it). */
  readonly now?: () => number;
}

export const DEFAULT_STUCK_AFTER_MS = 60_000;

/** The storages a selection names, each with a stream_loader; ConsumerSetupError names what is wrong. */
export function selectConsumerStorages(storages: readonly StorageDefinition[], selection: ConsumerSelection): StorageDefinition[] {
  const consumable = storages.filter((storage) => storage.streamLoader !== undefined);
  if (selection === "all") return consumable;
  if (selection.length === 0) throw new ConsumerSetupError("no storage named: give one or more storage names, or 'all'");
  const known = new Map(storages.map((storage) => [storage.name, storage]));
  const chosen: StorageDefinition[] = [];
  for (const name of new Set(selection)) {
    const storage = known.get(name);
    if (!storage || storage.streamLoader === undefined) {
      const why = storage ? `storage '${name}' has no stream_loader: nothing consumes into it` : `unknown storage '${name}'`;
      throw new ConsumerSetupError(`${why}; storages with consumers: ${consumable.map((s) => s.name).join(", ")} (or 'all')`);
    }
    chosen.push(storage);
  }
  return chosen;
}

export class IngestionConsumers {
  readonly consumers: readonly StorageConsumer[];
  private readonly stuckAfterMs: number;
  private readonly now: () => number;
  private startedAt: number | null = null;
  private readonly client: ClickHouseClient;
  /** Storage -> table, for the start's check. */
  private readonly tables = new Map<string, string>();

  constructor(options: IngestionConsumersOptions, registry: Registry) {
    const metrics = new ConsumerMetrics(registry);
    const topicMap = options.topicMap ?? {};
    this.stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
    this.now = options.now ?? Date.now;
    this.client = options.client;
    this.consumers = selectConsumerStorages(options.storages, options.selection).map((storage) => {
      const loader = storage.streamLoader!;
      const processor = createProcessor(loader.processor);
      if (!processor) {
        throw new ConsumerSetupError(`storage '${storage.name}' names processor '${loader.processor}', which Quarry does not have; processors: ${processorNames().join(", ")}`);
      }
      this.tables.set(storage.name, storage.table);
      return new StorageConsumer({
        storage: storage.name,
        table: storage.table,
        processor,
        topics: {
          source: physicalTopic(loader.sourceTopic, topicMap),
          commitLog: physicalTopic(loader.commitLogTopic, topicMap),
          deadLetter: physicalTopic(loader.deadLetterTopic, topicMap),
          replacements: loader.replacementTopic === null ? null : physicalTopic(loader.replacementTopic, topicMap),
        },
        brokers: options.brokers,
        client: options.client,
        ...(options.writeRows ? { writeRows: options.writeRows } : {}),
        groupId: physicalGroup(loader.consumerGroup, options.groupMap ?? {}),
        ...(options.batching ? { batching: options.batching } : {}),
        ...(options.topicCreation ? { topicCreation: options.topicCreation } : {}),
        ...(options.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: options.sessionTimeoutMs } : {}),
        metrics,
        ...(options.log ? { log: options.log } : {}),
      });
    });
  }

  get storages(): string[] {
    return this.consumers.map((consumer) => consumer.storage);
  }

  /**
   * Starts every consumer; if one refuses to start, the ones started are stopped and its error is
   * thrown. A storage whose table does not exist is refused first: its consumer would retry its
   * first write forever.
   */
  async start(): Promise<void> {
    const missing: string[] = [];
    for (const [storage, table] of this.tables) {
      const result = await this.client.query({ query: "EXISTS TABLE {table:Identifier}", query_params: { table }, format: "JSONEachRow" });
      const [row] = await result.json<{ result: number | string }>();
      if (Number(row?.result) !== 1) missing.push(`${table} (storage ${storage})`);
    }
    if (missing.length > 0) throw new ConsumerSetupError(`table(s) ${missing.join(", ")} do not exist: run \`quarry migrate\` against this ClickHouse first`);
    try {
      await Promise.all(this.consumers.map((consumer) => consumer.start()));
    } catch (reason) {
      await Promise.allSettled(this.consumers.map((consumer) => consumer.stop(0)));
      throw reason;
    }
    this.startedAt = this.now();
  }

  /** Writes and commits what each holds within `deadlineMs`, then leaves the groups. */
  async stop(deadlineMs?: number): Promise<void> {
    await Promise.allSettled(this.consumers.map((consumer) => consumer.stop(deadlineMs)));
  }

  statuses(): ConsumerStatus[] {
    return this.consumers.map((consumer) => consumer.status());
  }

  /** `consumer:<storage>` -> "ok", or what is wrong, for /health. */
  health(): Record<string, string> {
    const now = this.now();
    return Object.fromEntries(this.statuses().map((status) => [`consumer:${status.storage}`, this.verdict(status, now)]));
  }

  private verdict(status: ConsumerStatus, now: number): string {
    if (status.state === "crashed") return `crashed: ${status.error ?? "unknown error"}`;
    if (status.state === "new" || status.state === "starting") return "starting";
    if (status.state !== "running") return status.state;
    const lag = status.partitions.reduce((sum, partition) => sum + partition.lagMessages, 0);
    if (lag === 0) return "ok";
    const since = Math.max(status.lastWriteAt ?? 0, this.startedAt ?? now);
    const quietMs = now - since;
    if (quietMs < this.stuckAfterMs) return "ok";
    const failing = status.partitions.filter((partition) => partition.failing).map((partition) => partition.partition);
    return (
      `stuck: ${lag} messages behind and nothing written for ${Math.round(quietMs / 1000)} s` +
      (failing.length > 0 ? `; writes failing on partition(s) ${failing.join(", ")}` : "") +
      (failing.length > 0 && status.lastWriteError ? `: ${status.lastWriteError}` : "")
    );
  }
}
