/**
 * A TraceItem's `item_id` bytes as the row's UInt128 `item_id`: the first 16 bytes, little-endian,
 * written as decimal text (JSON numbers cannot hold 128 bits; ClickHouse reads the text exactly).
 * Like Snuba, fewer than 16 bytes are refused and bytes past the 16th are ignored.
 */
import { InvalidMessage } from "../message-processor.js";

const ITEM_ID_BYTES = 16;

export function eapItemId(bytes: Uint8Array): string {
  if (bytes.length < ITEM_ID_BYTES) {
    throw new InvalidMessage(`item_id has ${bytes.length} bytes, expected ${ITEM_ID_BYTES} (a little-endian 128-bit id)`);
  }
  let value = 0n;
  for (let i = ITEM_ID_BYTES - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]!);
  return value.toString();
}
