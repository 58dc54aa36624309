/**
 * The sampling columns of an `eap_items` row from a TraceItem's client and server sample rates,
 * as Snuba's EAPItemsProcessor computes them (facts: snuba-ingestion.md §1.6). Queries extrapolate
 * with them (`sum(sampling_weight)`, `1 / sampling_factor`), so they must match to the digit.
 */

/** sampling_factor is rounded to this many parts, which hides float noise such as 0.1 * 0.3. */
const SAMPLING_FACTOR_PRECISION = 1e6;
/** The smallest sampling_factor written, so that the weight stays finite. */
const MIN_SAMPLING_FACTOR = 1 / SAMPLING_FACTOR_PRECISION;

export interface EapSampling {
  readonly sampling_factor: number;
  readonly sampling_weight: number;
  readonly client_sample_rate: number;
  readonly server_sample_rate: number;
}

/** A rate in (0, 1] counts; 0 (unset), negatives, NaN and rates above 1 mean "not sampled" (1). */
function validRate(rate: number): boolean {
  return rate > 0 && rate <= 1;
}

export function eapSampling(clientSampleRate: number, serverSampleRate: number): EapSampling {
  const client = validRate(clientSampleRate) ? clientSampleRate : 1;
  const server = validRate(serverSampleRate) ? serverSampleRate : 1;
  // Multiplied in Snuba's order (1 × client × server), so the product rounds the same way.
  const factor = Math.max(MIN_SAMPLING_FACTOR, Math.round(1 * client * server * SAMPLING_FACTOR_PRECISION) / SAMPLING_FACTOR_PRECISION);
  // Both values are positive, where Math.round and Rust's f64::round (half away from zero) agree.
  return { sampling_factor: factor, sampling_weight: Math.round(1 / factor), client_sample_rate: client, server_sample_rate: server };
}
