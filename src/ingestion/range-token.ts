/**
 * The names that make a consumer's writes exactly once (docs/ingestion.md):
 *
 * - A range's insert carries `insert_deduplication_token` = `<topic>:<partition>:<start>-<end>`,
 *   so writing the same range again is a no-op for ClickHouse.
 * - When ClickHouse refuses some of a range's rows, the range goes in halves; each half carries
 *   the range's token and the offsets of its first and last message,
 *   `<topic>:<partition>:<start>-<end>/<first>-<last>`. The halves follow from the messages and
 *   the engine's verdicts alone, so a replay sends the same halves with the same tokens.
 * - Before a range with rows is written, its start is committed with the offset metadata
 *   `pending:<end>`: whoever reads the partition next knows where the range ended and forms it
 *   again exactly, rather than a different range (a different token) over the same messages.
 */

export function rangeToken(topic: string, partition: number, start: bigint, end: bigint): string {
  return `${topic}:${partition}:${start}-${end}`;
}

export function partToken(range: string, first: bigint, last: bigint): string {
  return `${range}/${first}-${last}`;
}

const PENDING = /^pending:(\d+)$/;

/** The offset metadata committed with a range's start before its insert. */
export function pendingMetadata(end: bigint): string {
  return `pending:${end}`;
}

/** The end of the range a committed offset's metadata says is being written, or null. */
export function pendingEnd(metadata: string | null | undefined): bigint | null {
  const match = PENDING.exec(metadata ?? "");
  return match ? BigInt(match[1]!) : null;
}
