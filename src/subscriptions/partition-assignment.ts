/**
 * Which partitions this scheduler runs. One node owns them all; in a cluster, leases decide, and
 * `epoch` is the lease's fencing token (0 when there is no lease).
 */
import type { DefinitionLookup } from "../datasets/definition-lookup.js";

export interface OwnedPartition {
  readonly entity: string;
  readonly partition: number;
  readonly epoch: number;
}

export interface PartitionAssignment {
  owned(): readonly OwnedPartition[];
}

/** Every partition of every entity that supports subscriptions: the single-node assignment. */
export function allPartitions(definitions: DefinitionLookup): PartitionAssignment {
  const owned: OwnedPartition[] = [];
  for (const entity of definitions.entities()) {
    const support = entity.subscriptions;
    if (!support) continue;
    for (let partition = 0; partition < support.partitions; partition++) owned.push({ entity: entity.name, partition, epoch: 0 });
  }
  return { owned: () => owned };
}
