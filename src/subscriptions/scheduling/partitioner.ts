/**
 * Snuba's partition choice (facts B5.4): crc32 (IEEE, unsigned) of the project id's decimal
 * text, modulo the entity's partition count. All of one project's subscriptions share a
 * partition, so one scheduler owns them.
 */
import { crc32 } from "node:zlib";

export function partitionFor(projectId: number, partitions: number): number {
  return crc32(String(projectId)) % partitions;
}
