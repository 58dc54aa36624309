/**
 * A kafkajs partitioner that chooses as librdkafka's default (`consistent_random`) does, which is
 * how Sentry's producers (confluent-kafka) place messages: a keyed message goes to
 * CRC32 (IEEE, unsigned) of the key's bytes modulo the topic's partition count (all partitions,
 * available or not); an unkeyed one to a random partition. kafkajs' own default hashes keys with
 * murmur2, which would put a project's events elsewhere than Sentry does.
 *
 * Sentry keys `events` by `str(project_id)`: such keys go through the subscription scheduler's
 * partitionFor, the same choice Snuba's scheduler makes for the project's subscriptions.
 */
import { crc32 } from "node:zlib";
import type { ICustomPartitioner, PartitionerArgs } from "kafkajs";
import { partitionFor } from "../../subscriptions/scheduling/partitioner.js";

/** A decimal project id as Python's str() writes it: no sign, no leading zero, safe as a JS number. */
const PROJECT_ID_TEXT = /^(0|[1-9][0-9]{0,14})$/;

/** The partition librdkafka gives a key among `partitions` partitions. */
export function librdkafkaPartition(key: Buffer | string, partitions: number): number {
  if (!Number.isInteger(partitions) || partitions <= 0) throw new Error(`a topic has at least one partition, got ${partitions}`);
  const bytes = typeof key === "string" ? Buffer.from(key, "utf8") : key;
  // latin1 maps each byte to one character: only an all-ASCII key can match the digits.
  const text = bytes.toString("latin1");
  if (PROJECT_ID_TEXT.test(text)) return partitionFor(Number(text), partitions);
  return crc32(bytes) % partitions;
}

export const LibrdkafkaPartitioner: ICustomPartitioner = () => {
  return ({ partitionMetadata, message }: PartitionerArgs): number => {
    const partitions = partitionMetadata.length;
    const key = message.key;
    if (key === null || key === undefined) return Math.floor(Math.random() * partitions);
    return librdkafkaPartition(key, partitions);
  };
};
