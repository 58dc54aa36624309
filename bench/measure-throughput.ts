/**
 * Runs a synchronous function over a corpus, round robin, on this one thread for a fixed time,
 * and reports throughput, per-call latency percentiles and the heap afterwards.
 */
export interface ThroughputResult {
  readonly queriesPerSecond: number;
  readonly medianMicros: number;
  readonly p99Micros: number;
  readonly heapUsedMb: number;
  readonly iterations: number;
}

export function measureThroughput<T>(corpus: readonly T[], run: (item: T) => unknown, durationMs: number): ThroughputResult {
  const warmUp = Math.min(2000, corpus.length * 40);
  for (let i = 0; i < warmUp; i++) run(corpus[i % corpus.length]!);
  const samples: number[] = [];
  const started = performance.now();
  let i = 0;
  while (performance.now() - started < durationMs) {
    const t0 = performance.now();
    run(corpus[i % corpus.length]!);
    samples.push(performance.now() - t0);
    i++;
  }
  const elapsed = performance.now() - started;
  samples.sort((a, b) => a - b);
  return {
    queriesPerSecond: Math.round((i / elapsed) * 1000),
    medianMicros: Math.round(samples[Math.floor(samples.length / 2)]! * 1000),
    p99Micros: Math.round(samples[Math.floor(samples.length * 0.99)]! * 1000),
    heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1048576),
    iterations: i,
  };
}

export function describeThroughput(result: ThroughputResult): string {
  return `${result.queriesPerSecond.toLocaleString("en")} queries/s; median ${result.medianMicros} µs, p99 ${result.p99Micros} µs; heap ${result.heapUsedMb} MB`;
}
