/**
 * Writing rows when one of them may be refused: an INSERT that ClickHouse refuses because of what
 * it carried (a value that does not parse for its column, too many partitions in one block) is
 * split in halves, and each half tried again, until every refused item is alone. The query log
 * drops such a row; the ingestion consumers dead-letter the message it came from. A failure that
 * is not the data's (the engine down, the table missing) is thrown as it is: splitting would not
 * help, and the caller retries the whole set later.
 */
import { clickHouseCodeOf } from "./clickhouse-error.js";

/**
 * ClickHouse codes of failures that may pass if tried again later: the connection, the table or
 * the server's state. Any other code blames what the INSERT carried.
 */
const TRANSIENT_CODES = new Set([-1, 3, 60, 81, 159, 160, 164, 202, 203, 209, 210, 236, 241, 242, 252, 394, 425, 999]);

/**
 * Code 252 also names a block spanning more table partitions than max_partitions_per_insert_block:
 * that one is the data's (a smaller block passes), unlike "too many parts", which merges cure.
 */
const TOO_MANY_PARTITIONS_IN_BLOCK = /Too many partitions for single INSERT block/i;

/** True when ClickHouse refused the INSERT because of what it contained. */
export function isRefusedData(reason: unknown): boolean {
  const code = clickHouseCodeOf(reason);
  if (code === 252) return TOO_MANY_PARTITIONS_IN_BLOCK.test(reason instanceof Error ? reason.message : String(reason));
  return !TRANSIENT_CODES.has(code);
}

/** The first line of an engine error, at most 500 characters: what a log line or a header carries. */
export function refusalText(reason: unknown): string {
  return reason instanceof Error ? reason.message.split("\n")[0]!.slice(0, 500) : String(reason).slice(0, 500);
}

export interface IsolatingInsert<T> {
  /** Sends one INSERT of these items: the whole set or a contiguous slice of it. */
  insert(part: readonly T[]): Promise<void>;
  onWritten?(part: readonly T[]): void;
  /** An item ClickHouse refuses when sent alone, with the engine's error. */
  onRefused(item: T, reason: unknown): void | Promise<void>;
  /** Every failed INSERT, refused or not. */
  onFailure?(reason: unknown): void;
}

/**
 * Writes `items`, isolating the ones ClickHouse refuses. Resolves once every item is written or
 * refused; rejects with the first failure that is not the data's (parts written before it stay
 * written). The halves depend only on the items and the engine's verdicts, so running it again on
 * the same items sends the same INSERTs.
 */
export async function insertIsolatingRefusals<T>(items: readonly T[], steps: IsolatingInsert<T>): Promise<void> {
  if (items.length === 0) return;
  try {
    await steps.insert(items);
    steps.onWritten?.(items);
    return;
  } catch (reason) {
    steps.onFailure?.(reason);
    if (!isRefusedData(reason)) throw reason;
    if (items.length === 1) {
      await steps.onRefused(items[0]!, reason);
      return;
    }
  }
  const middle = Math.ceil(items.length / 2);
  await insertIsolatingRefusals(items.slice(0, middle), steps);
  await insertIsolatingRefusals(items.slice(middle), steps);
}
