/** The NATS side of a cluster role, from the settings: the buckets, and this node's id. */
import { hostname } from "node:os";
import type { Settings } from "../config/settings.js";
import { openClusterBuckets, type ClusterBuckets } from "../subscriptions/cluster/nats-buckets.js";
import { safeNodeId } from "../subscriptions/cluster/partition-leases.js";

export function clusterNodeId(settings: Settings): string {
  return safeNodeId(settings.nodeId ?? `${hostname()}-${process.pid}`);
}

export async function openCluster(settings: Settings, log: (line: string) => void): Promise<ClusterBuckets> {
  if (!settings.natsUrl) throw new Error("NATS_URL is not set: the scheduler cluster keeps its subscriptions and leases in NATS JetStream");
  try {
    return await openClusterBuckets(settings.natsUrl, {
      prefix: settings.natsBucketPrefix,
      name: `quarry ${clusterNodeId(settings)}`,
      log,
      ...(settings.natsReplicas === null ? {} : { replicas: settings.natsReplicas }),
    });
  } catch (reason) {
    throw new Error(`cannot open the cluster's NATS KV buckets at ${settings.natsUrl}: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}
