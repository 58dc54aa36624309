/**
 * Which live node should own which partition. Every node computes the same answer from the same
 * inputs (no coordinator): partitions in key order each go to the node that ranks highest for it
 * (rendezvous hashing, so a node joining or leaving moves few partitions) among those not yet at
 * their fair share ⌈partitions / nodes⌉, so the spread is even.
 */
import { crc32 } from "node:zlib";

export function assignPartitions(partitions: readonly string[], nodes: readonly string[]): Map<string, string> {
  const assignment = new Map<string, string>();
  if (nodes.length === 0) return assignment;
  const sortedNodes = [...new Set(nodes)].sort();
  const capacity = Math.ceil(partitions.length / sortedNodes.length);
  const load = new Map(sortedNodes.map((node) => [node, 0]));
  for (const partition of [...new Set(partitions)].sort()) {
    const ranked = sortedNodes
      .map((node) => ({ node, score: crc32(`${node}\u0000${partition}`) }))
      .sort((a, b) => b.score - a.score || (a.node < b.node ? -1 : 1));
    const chosen = ranked.find((candidate) => load.get(candidate.node)! < capacity)!;
    load.set(chosen.node, load.get(chosen.node)! + 1);
    assignment.set(partition, chosen.node);
  }
  return assignment;
}
