/**
 * The cluster's shared state lives in three JetStream KV buckets (names prefixed with
 * QUARRY_NATS_BUCKET_PREFIX, default `quarry`, so that several clusters can share one NATS):
 *   quarry_subscriptions        one record per subscription (a tombstone after delete)
 *   quarry_scheduler            partition leases (with their checkpoints), node heartbeats and the
 *                               epoch log the audit reads
 *   quarry_subscription_status  what each subscription's runs did, for list/get on any node
 * Buckets are replicated on a NATS cluster (3 replicas, or QUARRY_NATS_REPLICAS) so that losing a
 * NATS node, the stream leader included, loses nothing that was acknowledged.
 */
import { connect, type KV, type NatsConnection } from "nats";

const DEFAULT_BUCKET_PREFIX = "quarry";

function bucketNames(prefix = DEFAULT_BUCKET_PREFIX): { subscriptions: string; scheduler: string; status: string } {
  return { subscriptions: `${prefix}_subscriptions`, scheduler: `${prefix}_scheduler`, status: `${prefix}_subscription_status` };
}

export interface ClusterBuckets {
  readonly connection: NatsConnection;
  readonly subscriptions: KV;
  readonly scheduler: KV;
  readonly status: KV;
  readonly replicas: number;
  close(): Promise<void>;
}

export interface ClusterConnectOptions {
  /** Replicas per bucket; default 3 on a NATS cluster, 1 on a lone server. */
  readonly replicas?: number;
  readonly name?: string;
  /** Bucket name prefix (default `quarry`). */
  readonly prefix?: string;
  readonly log?: (line: string) => void;
}

/** `nats://a:4222,nats://b:4222` → the server list (a client fails over between them). */
function natsServers(url: string): string[] {
  return url
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

export async function openClusterBuckets(url: string, options: ClusterConnectOptions = {}): Promise<ClusterBuckets> {
  const connection = await connect({
    servers: natsServers(url),
    name: options.name ?? "quarry",
    // Keep trying for ever: a NATS outage must not end the process; health shows it instead.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    timeout: 5_000,
  });
  try {
    const replicas = options.replicas ?? (connection.info?.cluster ? 3 : 1);
    const js = connection.jetstream({ timeout: 5_000 });
    const open = (bucket: string, history: number) => js.views.kv(bucket, { replicas, history });
    const names = bucketNames(options.prefix);
    const [subscriptions, scheduler, status] = [await open(names.subscriptions, 1), await open(names.scheduler, 1), await open(names.status, 1)];
    options.log?.(`nats: buckets ${names.subscriptions}, ${names.scheduler}, ${names.status} with ${replicas} replica(s) on ${url}`);
    return {
      connection,
      subscriptions,
      scheduler,
      status,
      replicas,
      close: async () => {
        await connection.drain().catch(() => connection.close());
      },
    };
  } catch (reason) {
    await connection.close();
    throw reason;
  }
}
