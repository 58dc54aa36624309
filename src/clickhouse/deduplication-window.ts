/**
 * Insert deduplication on the tables the ingestion consumers write. ClickHouse remembers the
 * block ids (or `insert_deduplication_token`s) of the last N inserts of a MergeTree table and
 * drops an insert whose id it has seen: that is what makes a consumer's replay of an offset range
 * a no-op (docs/ingestion.md). Replicated tables remember `replicated_deduplication_window`
 * blocks by default; a plain MergeTree remembers none (`non_replicated_deduplication_window` = 0)
 * until told to.
 *
 * N bounds how late a replay may come: more inserts into the table than N between a range's
 * first write and its replay, and the replay writes it again. A consumer replays a range right
 * after a crash or a rebalance, and writes about one insert per partition per flush, so 10,000
 * inserts leave hours of margin; the ids are a few dozen bytes each, in a file beside the table.
 *
 * With the window on, an identical block inserted again *without* a token is dropped too (its id
 * is a hash of its rows). Quarry's other writers never repeat a block: demo data is INSERT ...
 * SELECT (not deduplicated), and the query log's and subscriptions' rows carry ids and versions.
 */
import type { StorageDefinition } from "../datasets/definition-types.js";

/** Inserts a table remembers; see above for why this many. */
export const DEDUPLICATION_WINDOW = 10_000;

/** The window setting of a writable storage's plain MergeTree table (table-settings-ddl.ts applies it); none for other storages. */
export function deduplicationWindowSettings(storage: StorageDefinition): Readonly<Record<string, number>> {
  if (!storage.writable || storage.view || !/MergeTree/.test(storage.engine) || /^Replicated/.test(storage.engine)) return {};
  return { non_replicated_deduplication_window: DEDUPLICATION_WINDOW };
}
