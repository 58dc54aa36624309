/** What one storage consumer reads, writes and how it batches. */
import type { ClickHouseClient } from "@clickhouse/client";
import type { MessageProcessor } from "./message-processor.js";
import type { OffsetRange } from "./offset-range.js";
import type { RowWriter } from "./range-insert.js";
import type { ConsumerMetrics } from "./consumer-metrics.js";

/** Snuba's consumer group for its storage consumers. */
export const DEFAULT_CONSUMER_GROUP = "snuba-consumers";

export interface ConsumerTopics {
  /** The topic the processor's messages come from (physical name). */
  readonly source: string;
  /** Where a line per written range goes for the subscription schedulers (one partition); null: none. */
  readonly commitLog: string | null;
  /** Where messages that cannot be written go, unchanged. */
  readonly deadLetter: string;
  /** Where `replacement` messages are forwarded (errors: `event-replacements`); null: a replacement is a dead letter. */
  readonly replacements?: string | null;
}

export interface BatchingOptions {
  /** A storage's rows waiting to be written that close every partition's range (Snuba: 50,000). */
  readonly maxBatchRows: number;
  /** The same in bytes of encoded rows and kept messages. */
  readonly maxBatchBytes: number;
  /** A partition's range is closed once its first message is this old (Snuba: 2 s). */
  readonly maxBatchTimeMs: number;
  /** Rows held (open, closed and being written) past which every partition is paused. */
  readonly maxBufferedRows: number;
  readonly maxBufferedBytes: number;
  /** First wait after a failed write; doubles up to `retryMaxMs`. */
  readonly retryInitialMs: number;
  readonly retryMaxMs: number;
}

export const DEFAULT_BATCHING: BatchingOptions = {
  maxBatchRows: 50_000,
  maxBatchBytes: 64 * 1024 * 1024,
  maxBatchTimeMs: 2000,
  maxBufferedRows: 100_000,
  maxBufferedBytes: 128 * 1024 * 1024,
  retryInitialMs: 500,
  retryMaxMs: 30_000,
};

/** Topics the consumer creates when they are missing. */
export interface TopicCreation {
  /** Partitions of a source topic created here (an existing one is left as it is). */
  readonly sourcePartitions: number;
  readonly deadLetterPartitions: number;
}

export const DEFAULT_TOPIC_CREATION: TopicCreation = { sourcePartitions: 1, deadLetterPartitions: 1 };

/**
 * Points where tests inject faults. A hook that throws SimulatedCrash stops the consumer at once,
 * writing and committing nothing more, as a killed process would; any other error fails the step
 * as the engine failing would (the range is retried with backoff, its partition paused).
 */
export interface ConsumerHooks {
  /** Before each INSERT of a range (or of a part of it). */
  beforeInsert?(partition: number, range: OffsetRange): Promise<void> | void;
  /** After a range's rows are written, before its dead letters, commit-log line and offsets. */
  afterInsert?(partition: number, range: OffsetRange): Promise<void> | void;
}

/** Thrown by a hook: the consumer stops as if its process had been killed there. */
export class SimulatedCrash extends Error {
  constructor(where: string) {
    super(`simulated crash ${where}`);
    this.name = "SimulatedCrash";
  }
}

export interface StorageConsumerConfig {
  /** The storage's name (metrics, logs). */
  readonly storage: string;
  /** The ClickHouse table the rows go to. */
  readonly table: string;
  readonly processor: MessageProcessor;
  readonly topics: ConsumerTopics;
  readonly brokers: readonly string[];
  readonly client: ClickHouseClient;
  /** How the rows are written (ColumnstoreClient.insertRows); default: in the INSERT statement's text through `client`. */
  readonly writeRows?: RowWriter;
  /** Default `snuba-consumers`; must not contain `:` (the commit log's key separates with it). */
  readonly groupId?: string;
  readonly clientId?: string;
  readonly batching?: Partial<BatchingOptions>;
  readonly topicCreation?: Partial<TopicCreation>;
  /**
   * How long the group waits for a member that stopped heartbeating before it moves its
   * partitions (default 10 s; Kafka's brokers allow 6 s to 30 min). A killed consumer's partitions
   * stay unread this long: librdkafka's 45 s default would keep them so after every crash.
   */
  readonly sessionTimeoutMs?: number;
  /** Where a partition without a committed offset starts: the earliest message (default) or the next one produced. */
  readonly fromBeginning?: boolean;
  readonly metrics?: ConsumerMetrics;
  readonly hooks?: ConsumerHooks;
  readonly log?: (line: string) => void;
}
