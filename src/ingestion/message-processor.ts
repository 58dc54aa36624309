/**
 * A processor turns one Kafka message of a storage's source topic into the rows Snuba's processor
 * for that storage writes (facts: snuba-ingestion.md §1), or says why it takes none. Processors
 * are pure: the consumer around them batches, inserts, dead-letters and commits.
 */

/** One Kafka message as a consumer hands it over. */
export interface IngestMessage {
  readonly topic: string;
  readonly partition: number;
  /** Kafka offsets are 64-bit: kept as the decimal text the client gives. */
  readonly offset: string;
  /** The broker's timestamp (LogAppendTime on Sentry's topics), milliseconds since the epoch. */
  readonly timestampMs: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** A row for JSONEachRow, keyed by the storage table's column names (a Nested column's parts as `tags.key`, `tags.value`). */
export type IngestRow = Record<string, unknown>;

export type ProcessedMessage =
  /** Rows to insert; `originTimestamp` (seconds) feeds the commit log's received_p99 where Snuba has one. */
  | { readonly kind: "rows"; readonly rows: readonly IngestRow[]; readonly originTimestamp?: number }
  /** A message this storage does not take (another metric type's): committed, no row. */
  | { readonly kind: "skip" }
  /** An event replacement (merge, unmerge, delete…): forwarded unchanged to `event-replacements`, keyed by project. */
  | { readonly kind: "replacement"; readonly projectId: number };

/** A message that does not parse or validate: the consumer sends it to the storage's dead-letter topic with this reason. */
export class InvalidMessage extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "InvalidMessage";
  }
}

export interface MessageProcessor {
  /** Snuba's name for it, as the storage YAML's stream_loader names it (`ErrorsProcessor`). */
  readonly name: string;
  /** Throws InvalidMessage for a message that does not parse or validate; nothing else. */
  process(message: IngestMessage): ProcessedMessage;
}
