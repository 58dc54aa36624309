/**
 * Which partitions this scheduler runs. One node owns them all; in a cluster, leases decide, and
 * `epoch` is the lease's fencing token (0 when there is no lease).
 */
import type { DefinitionLookup } from "../../datasets/definition-lookup.js";

export interface OwnedPartition {
  readonly entity: string;
  readonly partition: number;
  /** The lease's fencing token: it grows with every change of owner (0: no lease). */
  readonly epoch: number;
  /**
   * Where a newly owned partition resumes: the checkpoint its lease record carries (null: never
   * checkpointed). Absent: from the scheduler's CheckpointStore (the single node).
   */
  readonly resumeFrom?: number | null;
  /** Being handed to another node: run what is in progress, start nothing, then `handBack`. */
  readonly draining?: boolean;
}

export interface PartitionAssignment {
  /** The partitions to schedule now. One that disappears is no longer this node's. */
  owned(): readonly OwnedPartition[];
  /** Whether this node still holds the partition under `epoch` (checked before publishing). */
  holds?(entity: string, partition: number, epoch: number): boolean;
  /** A draining partition has no run in progress: its final checkpoint, to release it with. */
  handBack?(entity: string, partition: number, epoch: number, nextSecond: number): void;
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
