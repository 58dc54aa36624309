/**
 * How far each partition has been scheduled: every window that fires before `nextSecond` has
 * been published or counted as skipped. A scheduler resumes from here after a restart. The
 * embedded mode keeps checkpoints in ClickHouse; the cluster in NATS KV, fenced by lease.
 */
export interface Checkpoint {
  readonly entity: string;
  readonly partition: number;
  /** Unix seconds: the first firing second not yet finished. */
  readonly nextSecond: number;
  /** The lease epoch of the writer (0 on a single node): a store fenced by leases refuses an old one. */
  readonly epoch?: number;
}

export interface CheckpointStore {
  load(): Promise<Checkpoint[]>;
  save(checkpoints: readonly Checkpoint[]): Promise<void>;
}

export function partitionKey(entity: string, partition: number): string {
  return `${entity}/${partition}`;
}
