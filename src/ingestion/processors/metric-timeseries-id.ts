/**
 * `timeseries_id` of a metrics row, as Snuba's processors compute it: Adler-32 over the
 * little-endian 8-byte org_id, project_id and metric_id, then each tag in the row's order (tag
 * keys sorted as text), its key's text followed by its value. The value is the raw text for
 * generic metrics and the little-endian 8-byte indexer id for release-health metrics. Snuba's
 * distributed tables shard on it; here it is stored so the rows stay the same.
 */
import { Adler32 } from "./adler32.js";

function idsChecksum(orgId: bigint, projectId: bigint, metricId: bigint): Adler32 {
  return new Adler32().updateU64LittleEndian(orgId).updateU64LittleEndian(projectId).updateU64LittleEndian(metricId);
}

/** Generic metrics: tags as [key text, raw value], in the row's (sorted) order. */
export function genericTimeseriesId(orgId: bigint, projectId: bigint, metricId: bigint, tags: readonly (readonly [string, string])[]): number {
  const checksum = idsChecksum(orgId, projectId, metricId);
  for (const [key, value] of tags) checksum.updateText(key).updateText(value);
  return checksum.digest();
}

/** Release-health metrics: tags as [key text, indexed value], in the row's (sorted) order. */
export function releaseHealthTimeseriesId(orgId: bigint, projectId: bigint, metricId: bigint, tags: readonly (readonly [string, bigint])[]): number {
  const checksum = idsChecksum(orgId, projectId, metricId);
  for (const [key, value] of tags) checksum.updateText(key).updateU64LittleEndian(value);
  return checksum.digest();
}
