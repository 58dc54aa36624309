/**
 * The reliability suite (docs/reliability.md): against a real `quarry serve` process, a fuzz run
 * and a load soak, with /health polled and resident memory sampled throughout; then the query log
 * accounted for, resident memory after the load compared with before it, and a SIGTERM sent while
 * 100 clients are still sending, timed.
 *
 *   npm run reliability                         1,000,000 inputs, 5-minute 100-client soak; writes BENCHMARKS.md
 *   npm run reliability -- --inputs 50000 --soak-seconds 30 --seed 7 --no-write
 *   npm run reliability -- --inputs 200000 --no-write --engine-errors /tmp/engine-errors.tsv
 *   npm run reliability -- --replay 7:1234 --now 1795000000000 [--url http://127.0.0.1:1218]
 *
 * Exits 1 when a target is missed. test/reliability runs a short smoke through `runReliability`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { fuzz } from "./fuzz.js";
import { describeRequest, fuzzInput, type FuzzRequest } from "./fuzz-inputs.js";
import { classify, type Outcomes } from "./outcomes.js";
import { send } from "./send.js";
import { mappingChanges, startServerProcess, type ServerProcess, type StopResult } from "./server-process.js";
import { soak } from "./soak.js";

export interface ReliabilityOptions {
  readonly inputs: number;
  readonly soakSeconds: number;
  readonly soakClients: number;
  readonly seed: number;
  readonly demoRows: number;
  /** Connections the fuzz sends over. */
  readonly concurrency: number;
  /** Load before the memory baseline, so that it counts the engine warmed up (seconds). */
  readonly warmupSeconds: number;
  /**
   * Fuzz inputs in the warm-up (their own seed), after its soak: every kind of input has then
   * been answered once before memory is measured, so the baseline is the memory of a server that
   * has served all of it (code compiled, caches and pools at their working sizes), and what
   * stays after the load is what the load itself kept.
   */
  readonly warmupInputs?: number;
  /**
   * Quiet time after the warm-up and after the load before memory is measured (seconds; the
   * median of its second half). Long enough that the reading comes after the server's idle
   * memory release, which waits for 10 s without a request, and the runner's query-log checks
   * are requests: a 150,000-input run held its memory for 34 s after the soak, then fell by
   * 33 MB at once (docs/reliability.md, "When memory is read").
   */
  readonly settleSeconds: number;
  readonly shutdownTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface RssSample {
  readonly second: number;
  readonly phase: string;
  readonly rssMb: number;
  readonly anonMb: number;
}

export interface PhaseOutcome {
  readonly requests: number;
  readonly seconds: number;
  readonly fiveHundreds: number;
  readonly untyped: number;
  readonly slow: number;
  readonly reachedClickHouse: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly answers: string;
  readonly kinds: string[];
  readonly examples: string[];
  /** Distinct failures (5xx, untyped), most frequent first. */
  readonly failures: string[];
  /** ClickHouse's refusals and failures by code, most frequent first. */
  readonly engineErrors: string[];
  /** The same by message shape. */
  readonly engineErrorShapes: string[];
  /** Answers carrying a ClickHouse type or argument-count error (TYPE_ERROR_CODES). */
  readonly engineTypeErrors: number;
  /** Every input ClickHouse refused or failed (the first 10,000), for `--engine-errors FILE`. */
  readonly engineErrorInputs: readonly { replay: string; code: number; message: string }[];
}

export interface ReliabilityReport {
  readonly startMs: number;
  readonly now: number;
  readonly fuzz: PhaseOutcome;
  readonly soak: PhaseOutcome;
  readonly health: { checks: number; failures: number; examples: string[] };
  readonly rss: {
    bootMb: number;
    baselineMb: number;
    baselineAnonMb: number;
    peakMb: number;
    peakAnonMb: number;
    endMb: number;
    endAnonMb: number;
    /** The median 10 to 20 s into each quiet period (the figure of runs before settle-seconds was 90). */
    earlyBaselineMb: number;
    earlyEndMb: number;
    /**
     * Whether each reading came after the server's idle memory release (a compacting collection,
     * malloc_trim, the engine's purge: src/server/idle-memory-release.ts), which runs once the
     * server has been quiet for QUARRY_IDLE_MEMORY_RELEASE_MS; null when the server has it off.
     * A reading before it measures where V8's collector happened to be, not what the load left.
     */
    baselineAfterRelease: boolean | null;
    endAfterRelease: boolean | null;
    samples: RssSample[];
  };
  /** The JavaScript side of that memory (V8 heap in use, external buffers), from /metrics: what is not here is the engine's. */
  readonly js: {
    baselineHeapMb: number;
    baselineHeapTotalMb: number;
    baselineExternalMb: number;
    baselineThreads: number;
    /** The engine's own tracked memory (quarry_engine_memory_tracked_bytes), part of the rest. */
    baselineEngineMb: number;
    endEngineMb: number;
    /** What each of the engine's caches holds (quarry_engine_cache_bytes), in MB, at the baseline and at the end. */
    baselineEngineCachesMb: Readonly<Record<string, number>>;
    endEngineCachesMb: Readonly<Record<string, number>>;
    /** The V8 heap reserved by space (nodejs_heap_space_size_total_bytes), in MB, at the baseline and at the end. */
    baselineHeapSpacesMb: Readonly<Record<string, number>>;
    endHeapSpacesMb: Readonly<Record<string, number>>;
    endHeapMb: number;
    endHeapTotalMb: number;
    endExternalMb: number;
    endThreads: number;
  };
  readonly queryLog: {
    /** Query requests the server counted (quarry_requests_total), and subscription test runs. */
    requests: number;
    subscriptionTestRuns: number;
    written: number;
    dropped: number;
    droppedByReason: Record<string, number>;
    buffered: number;
    flushFailures: number;
    /** Rows in the querylog storage (what `written` claims), counted with a query. */
    stored: number | null;
  };
  readonly stop: StopResult & {
    deadlineMs: number;
    /** Requests in flight when SIGTERM was sent, and how many of them were answered. */
    inFlight: number;
    inFlightAnswered: number;
    inFlightUntyped: number;
    afterSignal: string;
  };
  readonly serverErrors: string[];
}

export interface TargetCheck {
  readonly bench: string;
  readonly figure: string;
  readonly target: string;
  readonly ok: boolean;
}

/**
 * ClickHouse's codes for a call whose argument types or count it refuses (43
 * ILLEGAL_TYPE_OF_ARGUMENT, 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH, 34/35 too many/few arguments,
 * 386 NO_COMMON_TYPE, 48 NOT_IMPLEMENTED for a conversion it has no code for, `toDate(trace_id)`):
 * Quarry leaves expression types to the engine, so these are expected answers, typed 400s,
 * counted apart from the other codes.
 */
const TYPE_ERROR_CODES: ReadonlySet<number> = new Set([43, 42, 34, 35, 386, 48]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function phase(outcomes: Outcomes, seconds: number): PhaseOutcome {
  return {
    requests: outcomes.total,
    seconds,
    fiveHundreds: outcomes.fiveHundreds,
    untyped: outcomes.untyped,
    slow: outcomes.slow,
    reachedClickHouse: outcomes.reached(),
    p50Ms: outcomes.percentile(0.5),
    p99Ms: outcomes.percentile(0.99),
    answers: outcomes.summary(),
    kinds: outcomes.kinds(),
    examples: outcomes.examples,
    failures: outcomes.failureLines(),
    engineErrors: outcomes.engineErrorLines(),
    engineErrorShapes: outcomes.engineErrorShapeLines(),
    engineTypeErrors: outcomes.engineErrorCount(TYPE_ERROR_CODES),
    engineErrorInputs: outcomes.engineErrorInputs,
  };
}

/** Subscription creates that ran their test query (and so wrote a query-log row no request counter counts). */
async function storedQueryLogRows(server: ServerProcess): Promise<number | null> {
  const query = "MATCH STORAGE(querylog) SELECT count() AS n WHERE timestamp >= toDateTime('2000-01-01T00:00:00') AND timestamp < toDateTime('2100-01-01T00:00:00')";
  const response = await fetch(`${server.baseUrl}/query`, {
    method: "POST",
    body: JSON.stringify({ dataset: "events", query, tenant_ids: { organization_id: 1, referrer: "reliability.check" } }),
    signal: AbortSignal.timeout(30_000),
  }).catch(() => null);
  if (!response?.ok) return null;
  const body = (await response.json()) as { data?: { n?: number | string }[] };
  const n = body.data?.[0]?.n;
  return n === undefined ? null : Number(n);
}

async function drainQueryLog(server: ServerProcess, timeoutMs: number): Promise<Map<string, number>> {
  const deadline = Date.now() + timeoutMs;
  let metrics = await server.metrics();
  while ((metrics.get("quarry_querylog_buffered_rows") ?? 0) > 0 && Date.now() < deadline) {
    await sleep(250);
    metrics = await server.metrics();
  }
  return metrics;
}

export async function runReliability(options: ReliabilityOptions): Promise<ReliabilityReport> {
  const log = options.log ?? (() => {});
  const now = Date.now();
  const server = await startServerProcess({ demoRows: options.demoRows, shutdownTimeoutMs: options.shutdownTimeoutMs ?? 5000 });
  const t0 = performance.now();
  let currentPhase = "boot";
  const samples: RssSample[] = [];
  const health = { checks: 0, failures: 0, examples: [] as string[] };
  let healthActive = true;
  const sampler = setInterval(() => {
    if (server.exited()) return;
    samples.push({ second: Math.round((performance.now() - t0) / 1000), phase: currentPhase, rssMb: server.rssMb(), anonMb: server.anonMb() });
  }, 1000);
  // The second (of the run) at which each quiet period's idle memory release ran, from its counter.
  const releases: { second: number; phase: string }[] = [];
  let releasesSeen: { phase: string; count: number } | null = null;
  const releaseWatch = setInterval(() => {
    const watched = currentPhase;
    if (watched !== "baseline" && watched !== "settle") return;
    void server.metrics().then(
      (metrics) => {
        const count = metrics.get("quarry_idle_memory_releases_total") ?? 0;
        if (releasesSeen?.phase === watched && count > releasesSeen.count) releases.push({ second: Math.round((performance.now() - t0) / 1000), phase: watched });
        releasesSeen = { phase: watched, count };
      },
      () => undefined,
    );
  }, 1000);
  const poller = setInterval(() => {
    if (!healthActive) return;
    health.checks += 1;
    const at = `${currentPhase} +${Math.round((performance.now() - t0) / 1000)} s`;
    const fail = (why: string) => {
      health.failures += 1;
      if (health.examples.length < 10) health.examples.push(`${at}: ${why}`);
    };
    fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(5000) }).then(
      async (response) => {
        const text = await response.text();
        if (!response.ok) fail(`${response.status} ${text.slice(0, 300)}`);
      },
      (reason: Error) => fail(`no answer: ${reason.name === "TimeoutError" ? "timeout (5 s)" : reason.message}`),
    );
  }, 500);
  try {
    const bootMb = server.rssMb();
    log(`server pid ${server.pid} at ${server.baseUrl}: started in ${(server.startMs / 1000).toFixed(1)} s, ${bootMb} MB resident`);

    currentPhase = "warm-up";
    await soak(server.baseUrl, { clients: options.soakClients, seconds: options.warmupSeconds, seed: options.seed + 7, now });
    if ((options.warmupInputs ?? 0) > 0) {
      await fuzz(server.baseUrl, { inputs: options.warmupInputs!, seed: options.seed + 13, concurrency: options.concurrency, now });
    }
    await drainQueryLog(server, 30_000);
    currentPhase = "baseline";
    await sleep(options.settleSeconds * 1000);
    const baseline = settledMemory(samples, "baseline", server);
    const baselineMb = baseline.rssMb;
    const baselineAnonMb = baseline.anonMb;
    const baselineMetrics = await server.metrics();
    const baselineJs = jsMemoryMb(baselineMetrics, server);
    const releaseEnabled = (baselineMetrics.get("quarry_idle_memory_release_enabled") ?? 0) > 0;
    const baselineAfterRelease = releaseEnabled ? releases.some((r) => r.phase === "baseline" && r.second <= baseline.fromSecond) : null;
    const baselineMappings = server.residentByMapping();
    log(`warm-up done: ${baselineMb} MB resident, ${releaseReading(baselineAfterRelease)} (${baselineAnonMb} MB anonymous; JS heap ${baselineJs.heapMb} MB of ${baselineJs.heapTotalMb} MB reserved, external ${baselineJs.externalMb} MB; engine tracked ${baselineJs.engineMb} MB; ${baselineJs.threads} threads)`);

    currentPhase = "fuzz";
    const fuzzed = await fuzz(server.baseUrl, {
      inputs: options.inputs,
      seed: options.seed,
      concurrency: options.concurrency,
      now,
      progress: (sent, outcomes) =>
        log(`fuzz: ${sent.toLocaleString("en")} sent, ${outcomes.fiveHundreds} 5xx, ${outcomes.untyped} untyped, ${outcomes.reached().toLocaleString("en")} reached ClickHouse; ${server.rssMb()} MB resident`),
      progressEvery: options.inputs >= 200_000 ? 50_000 : 5_000,
    });
    log(`fuzz: ${fuzzed.outcomes.total.toLocaleString("en")} answers in ${fuzzed.seconds.toFixed(0)} s: ${fuzzed.outcomes.summary()}`);

    currentPhase = "soak";
    const soaked = await soak(server.baseUrl, { clients: options.soakClients, seconds: options.soakSeconds, seed: options.seed + 1, now });
    log(`soak: ${soaked.outcomes.total.toLocaleString("en")} answers in ${soaked.seconds.toFixed(0)} s: ${soaked.outcomes.summary()}`);

    // The query log catches up; then its counters, and the rows in its table.
    currentPhase = "settle";
    let metrics = await drainQueryLog(server, 60_000);
    const stored = await storedQueryLogRows(server);
    const dropped = [...metrics].filter(([key]) => key.startsWith("quarry_querylog_rows_dropped_total{"));
    const queryLog = {
      requests: metrics.get("quarry_requests_total:sum") ?? 0,
      // Counted by the server: a creation whose test run failed has a row too.
      subscriptionTestRuns: metrics.get("quarry_subscription_creation_test_runs_total:sum") ?? 0,
      written: metrics.get("quarry_querylog_rows_written_total") ?? 0,
      dropped: metrics.get("quarry_querylog_rows_dropped_total:sum") ?? 0,
      droppedByReason: Object.fromEntries(dropped.map(([key, value]) => [/reason="([^"]*)"/.exec(key)?.[1] ?? key, value])),
      buffered: metrics.get("quarry_querylog_buffered_rows") ?? 0,
      flushFailures: metrics.get("quarry_querylog_flush_failures_total") ?? 0,
      stored,
    };
    // The count query above is itself a query (a request and a row): leave it out of both sides.
    await sleep(options.settleSeconds * 1000);
    metrics = await drainQueryLog(server, 30_000);
    const settled = settledMemory(samples, "settle", server);
    const endMb = settled.rssMb;
    const endAnonMb = settled.anonMb;
    const endJs = jsMemoryMb(metrics, server);
    const endAfterRelease = releaseEnabled ? releases.some((r) => r.phase === "settle" && r.second <= settled.fromSecond) : null;
    log(`resident memory by mapping, baseline -> settled: ${mappingChanges(baselineMappings, server.residentByMapping())}`);
    log(`settled: ${endMb} MB resident, ${releaseReading(endAfterRelease)} (${endAnonMb} MB anonymous; JS heap ${endJs.heapMb} MB of ${endJs.heapTotalMb} MB reserved, external ${endJs.externalMb} MB; engine tracked ${endJs.engineMb} MB; ${endJs.threads} threads); query log ${JSON.stringify(queryLog)}`);

    // SIGTERM while 100 clients are still sending.
    currentPhase = "stop";
    healthActive = false;
    let signalledAt = Infinity;
    let inFlight = 0;
    let inFlightAnswered = 0;
    let inFlightUntyped = 0;
    const after = new Map<string, number>();
    let signalled!: () => void;
    const stopping = new Promise<void>((resolve) => (signalled = resolve));
    const load = soak(server.baseUrl, {
      clients: options.soakClients,
      seconds: 120,
      seed: options.seed + 2,
      now,
      until: stopping.then(() => waitExit(server)),
      onAnswer: (request: FuzzRequest, startedAt, answer) => {
        if (startedAt < signalledAt && performance.now() >= signalledAt) {
          inFlight += 1;
          const outcome = classify(request, answer);
          if (!("network" in answer)) inFlightAnswered += 1;
          if (!("network" in answer) && !outcome.typed) inFlightUntyped += 1;
        } else if (startedAt >= signalledAt) {
          const label = "network" in answer ? `network ${answer.network}` : classify(request, answer).label;
          after.set(label, (after.get(label) ?? 0) + 1);
        }
      },
    });
    await sleep(3000);
    signalledAt = performance.now();
    signalled();
    const stop = await server.stop();
    await load;
    clearInterval(sampler);
    log(`stop: exit code ${stop.code} after ${stop.ms} ms; ${inFlight} requests in flight at SIGTERM, ${inFlightAnswered} answered`);

    const peakMb = Math.max(0, ...samples.filter((s) => s.phase !== "boot").map((s) => s.rssMb));
    const peakAnonMb = Math.max(0, ...samples.filter((s) => s.phase !== "boot").map((s) => s.anonMb));
    return {
      startMs: server.startMs,
      now,
      fuzz: phase(fuzzed.outcomes, fuzzed.seconds),
      soak: phase(soaked.outcomes, soaked.seconds),
      health,
      rss: { bootMb, baselineMb, baselineAnonMb, peakMb, peakAnonMb, endMb, endAnonMb, earlyBaselineMb: earlyMemoryMb(samples, "baseline"), earlyEndMb: earlyMemoryMb(samples, "settle"), baselineAfterRelease, endAfterRelease, samples },
      js: {
        baselineHeapMb: baselineJs.heapMb,
        baselineHeapTotalMb: baselineJs.heapTotalMb,
        baselineExternalMb: baselineJs.externalMb,
        baselineThreads: baselineJs.threads,
        baselineEngineMb: baselineJs.engineMb,
        endEngineMb: endJs.engineMb,
        baselineEngineCachesMb: baselineJs.engineCachesMb,
        endEngineCachesMb: endJs.engineCachesMb,
        baselineHeapSpacesMb: baselineJs.heapSpacesMb,
        endHeapSpacesMb: endJs.heapSpacesMb,
        endHeapMb: endJs.heapMb,
        endHeapTotalMb: endJs.heapTotalMb,
        endExternalMb: endJs.externalMb,
        endThreads: endJs.threads,
      },
      queryLog,
      stop: {
        ...stop,
        deadlineMs: server.shutdownTimeoutMs,
        inFlight,
        inFlightAnswered,
        inFlightUntyped,
        afterSignal: [...after].sort((a, b) => b[1] - a[1]).map(([label, n]) => `${label}: ${n}`).join(", "),
      },
      serverErrors: server
        .output()
        .split("\n")
        .filter((line) => /"level":\s*"(error|fatal)"|\b(ERROR|FATAL|Error:|uncaught|unhandled)/i.test(line))
        .slice(-10),
    };
  } finally {
    clearInterval(sampler);
    clearInterval(poller);
    clearInterval(releaseWatch);
    if (!server.exited()) await server.stop();
  }
}

/**
 * Resident memory once the process is idle: the median of the second half of a quiet period's
 * samples. One reading can land on a background merge of the query log's parts (the embedded
 * engine's, running after the load ends), which holds a few hundred MB for seconds and gives
 * them back; the median of the quiet half does not, and is measured the same way before and
 * after the load. The peak is reported separately.
 */
function settledMemory(samples: readonly RssSample[], phase: string, server: ServerProcess): { rssMb: number; anonMb: number; fromSecond: number } {
  const quiet = samples.filter((s) => s.phase === phase);
  const half = quiet.slice(Math.floor(quiet.length / 2));
  const lastSecond = samples.at(-1)?.second ?? 0;
  if (half.length === 0) return { rssMb: server.rssMb(), anonMb: server.anonMb(), fromSecond: lastSecond };
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { rssMb: median(half.map((s) => s.rssMb)), anonMb: median(half.map((s) => s.anonMb)), fromSecond: half[0]!.second };
}

function releaseReading(afterRelease: boolean | null): string {
  if (afterRelease === null) return "the server's idle memory release off";
  return afterRelease ? "read after the idle memory release" : "read BEFORE the idle memory release (quiet period too short)";
}

/** Resident memory 10 to 20 s into a quiet period (the median of those samples): before what the process gives back later. */
function earlyMemoryMb(samples: readonly RssSample[], phase: string): number {
  const quiet = samples.filter((s) => s.phase === phase);
  const start = quiet[0]?.second ?? 0;
  const early = quiet.filter((s) => s.second - start >= 10 && s.second - start <= 20).map((s) => s.rssMb);
  return early.length === 0 ? NaN : early.sort((a, b) => a - b)[Math.floor(early.length / 2)]!;
}

function jsMemoryMb(
  metrics: Map<string, number>,
  server: ServerProcess,
): { heapMb: number; heapTotalMb: number; externalMb: number; engineMb: number; engineCachesMb: Record<string, number>; heapSpacesMb: Record<string, number>; threads: number } {
  const mb = (name: string) => Math.round((metrics.get(name) ?? NaN) / (1024 * 1024));
  return {
    heapMb: mb("nodejs_heap_size_used_bytes"),
    heapTotalMb: mb("nodejs_heap_size_total_bytes"),
    externalMb: mb("nodejs_external_memory_bytes"),
    engineMb: mb("quarry_engine_memory_tracked_bytes"),
    engineCachesMb: labelledMb(metrics, "quarry_engine_cache_bytes", "cache"),
    heapSpacesMb: labelledMb(metrics, "nodejs_heap_space_size_total_bytes", "space"),
    threads: server.threads(),
  };
}

/** A labelled gauge's series as label value -> MB (one decimal). */
function labelledMb(metrics: Map<string, number>, name: string, label: string): Record<string, number> {
  const series: Record<string, number> = {};
  const pattern = new RegExp(`^${name}\\{${label}="(\\w+)"\\}$`);
  for (const [key, bytes] of metrics) {
    const value = pattern.exec(key)?.[1];
    if (value) series[value] = Math.round(bytes / 1024 / 102.4) / 10;
  }
  return series;
}

/** The series that held something at either end, as "Mark 0.2 -> 0.3 MB" (the largest first). */
export function changesMb(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): string {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((name) => (before[name] ?? 0) > 0 || (after[name] ?? 0) > 0);
  if (names.length === 0) return "none held anything";
  names.sort((a, b) => Math.max(after[b] ?? 0, before[b] ?? 0) - Math.max(after[a] ?? 0, before[a] ?? 0));
  return names.map((name) => `${name} ${before[name] ?? 0} -> ${after[name] ?? 0} MB`).join(", ");
}

async function waitExit(server: ServerProcess): Promise<void> {
  while (!server.exited()) await sleep(50);
}

const percent = (before: number, after: number) => {
  const change = ((after - before) / before) * 100;
  return `${change >= 0 ? "+" : ""}${change.toFixed(1)} %`;
};

/**
 * The memory target: resident memory after the load within 10 % of before it, read only after
 * the server's idle memory release in both quiet periods (or with the release off). A reading
 * before the release says where V8's collector happened to be, which swings by 100 MB and more
 * between runs of one build: such a run has no figure for the target.
 */
export function memoryTarget(
  rss: Pick<ReliabilityReport["rss"], "baselineMb" | "endMb" | "baselineAfterRelease" | "endAfterRelease">,
): { measured: boolean; ok: boolean } {
  const measured = rss.baselineAfterRelease !== false && rss.endAfterRelease !== false;
  return { measured, ok: measured && rss.endMb <= rss.baselineMb * 1.1 };
}

/** Every target of issue 15, with its figure. */
export function evaluate(report: ReliabilityReport): TargetCheck[] {
  const { fuzz: f, soak: s, health, rss, queryLog: q, stop } = report;
  const memory = memoryTarget(rss);
  const accounted = q.written + q.dropped + q.buffered;
  const expected = q.requests + q.subscriptionTestRuns;
  return [
    { bench: "Fuzz: 5xx answers", figure: `${f.fiveHundreds} of ${f.requests.toLocaleString("en")}`, target: "0", ok: f.fiveHundreds === 0 },
    { bench: "Fuzz: untyped answers (no typed error body, not JSON, reset, timeout)", figure: `${f.untyped}`, target: "0", ok: f.untyped === 0 },
    { bench: "Soak: 5xx answers", figure: `${s.fiveHundreds} of ${s.requests.toLocaleString("en")}`, target: "0", ok: s.fiveHundreds === 0 },
    { bench: "Soak: untyped answers", figure: `${s.untyped}`, target: "0", ok: s.untyped === 0 },
    { bench: "/health every 500 ms, warm-up to stop", figure: `${health.checks - health.failures} of ${health.checks} ok`, target: "all ok", ok: health.failures === 0 && health.checks > 0 },
    {
      bench: "Resident memory after the load against before it (each the median of the second half of a quiet period after warm-up and after the load)",
      figure: `${memory.measured ? "" : "not measured, a reading came before the server's idle memory release (quiet period too short: --settle-seconds 90 reads after it): "}${rss.baselineMb} MB -> ${rss.endMb} MB (${percent(rss.baselineMb, rss.endMb)}${Number.isNaN(rss.earlyBaselineMb + rss.earlyEndMb) ? "" : `; 10 to 20 s into each quiet period ${rss.earlyBaselineMb} -> ${rss.earlyEndMb} MB, ${percent(rss.earlyBaselineMb, rss.earlyEndMb)}`}); peak ${rss.peakMb} MB; anonymous ${rss.baselineAnonMb} -> ${rss.endAnonMb} MB (${percent(rss.baselineAnonMb, rss.endAnonMb)}); of which JS heap ${report.js.baselineHeapMb} -> ${report.js.endHeapMb} MB (reserved ${report.js.baselineHeapTotalMb} -> ${report.js.endHeapTotalMb} MB: ${changesMb(report.js.baselineHeapSpacesMb, report.js.endHeapSpacesMb)}), external ${report.js.baselineExternalMb} -> ${report.js.endExternalMb} MB; engine tracked ${report.js.baselineEngineMb} -> ${report.js.endEngineMb} MB (caches: ${changesMb(report.js.baselineEngineCachesMb, report.js.endEngineCachesMb)}); threads ${report.js.baselineThreads} -> ${report.js.endThreads}`,
      target: "within 10 %",
      ok: memory.ok,
    },
    {
      bench: "Query log: rows written + dropped (by reason) + buffered, against queries answered + subscription test runs",
      figure: `${q.written.toLocaleString("en")} + ${q.dropped.toLocaleString("en")} ${JSON.stringify(q.droppedByReason)} + ${q.buffered} = ${accounted.toLocaleString("en")} of ${q.requests.toLocaleString("en")} + ${q.subscriptionTestRuns}; ${q.flushFailures} failed INSERTs`,
      target: "equal",
      ok: accounted === expected,
    },
    {
      bench: "Query log: rows in the querylog storage against rows counted written",
      figure: q.stored === null ? "count query failed" : `${q.stored.toLocaleString("en")} of ${q.written.toLocaleString("en")}`,
      target: "equal",
      ok: q.stored === q.written,
    },
    {
      bench: "SIGTERM with 100 clients sending: exit",
      figure: `exit code ${stop.code}${stop.signal ? ` (${stop.signal})` : ""} after ${stop.ms} ms${stop.killed ? ", had to be SIGKILLed" : ""}`,
      target: `code 0 within ${stop.deadlineMs} ms`,
      ok: stop.code === 0 && stop.ms <= stop.deadlineMs && !stop.killed,
    },
    {
      bench: "SIGTERM with 100 clients sending: requests in flight answered",
      figure: `${stop.inFlightAnswered} of ${stop.inFlight} (${stop.inFlightUntyped} untyped); after the signal: ${stop.afterSignal || "none sent"}`,
      target: "all, typed",
      ok: stop.inFlightAnswered === stop.inFlight && stop.inFlightUntyped === 0,
    },
  ];
}

/** RSS over time, one sample per `every` seconds. */
export function rssTimeline(samples: readonly RssSample[], every: number): string {
  const lines: string[] = [];
  let last = -Infinity;
  let lastPhase = "";
  for (const sample of samples) {
    if (sample.second - last >= every || sample.phase !== lastPhase) {
      lines.push(`${String(sample.second).padStart(5)} s  ${sample.phase.padEnd(8)} ${String(sample.rssMb).padStart(6)} MB (${sample.anonMb} MB anonymous)`);
      last = sample.second;
      lastPhase = sample.phase;
    }
  }
  return lines.join("\n");
}

function block(report: ReliabilityReport, checks: readonly TargetCheck[], options: ReliabilityOptions, command: string): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const { fuzz: f, soak: s } = report;
  const rows: [string, string, string][] = [
    [
      `Fuzz: ${f.requests.toLocaleString("en")} inputs (SnQL and MQL from the grammars, corpus, mutations, bad JSON, subscriptions, Connect, wrong HTTP), ${options.concurrency} connections, seed ${options.seed}, ${options.demoRows.toLocaleString("en")} demo rows`,
      `${Math.round(f.requests / f.seconds).toLocaleString("en")} inputs/s, ${((f.reachedClickHouse / f.requests) * 100).toFixed(0)} % reached ClickHouse; p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms; ${f.answers}`,
      "—",
    ],
    [
      "Fuzz: ClickHouse type and argument-count errors, expected typed 400s (codes 43, 42, 34, 35, 386, 48), and every ClickHouse code answered",
      `${f.engineTypeErrors.toLocaleString("en")}; all ClickHouse codes: ${f.engineErrors.slice(0, 8).map((line) => line.replace(/ \(first:.*$/, "")).join(", ") || "none"}`,
      "—",
    ],
    [
      `Soak: ${options.soakClients} keep-alive clients for ${options.soakSeconds} s (cached, uncached, generated, MQL, heavy, invalid; a hot organisation)`,
      `${s.requests.toLocaleString("en")} requests (${Math.round(s.requests / s.seconds).toLocaleString("en")}/s), p50 ${s.p50Ms.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms; ${s.answers}`,
      "—",
    ],
    ...checks.map((check): [string, string, string] => [check.bench, `${check.ok ? "" : "**missed**: "}${check.figure}`, check.target]),
  ];
  const table = ["| bench | figure | target |", "|---|---|---|", ...rows.map(([a, b, c]) => `| ${a} | ${b.replace(/\|/g, "\\|")} | ${c} |`)].join("\n");
  return `## Reliability\n\nMachine: ${machine}. Command: \`${command}\` (${new Date().toISOString().slice(0, 10)}).\n\n${table}\n`;
}

/** Replaces (or appends) the `## Reliability` block of BENCHMARKS.md, keeping the others. */
function writeBlock(text: string): void {
  const current = existsSync("BENCHMARKS.md") ? readFileSync("BENCHMARKS.md", "utf8") : "# Benchmarks\n";
  const parts = current.split(/^(?=## )/m);
  const at = parts.findIndex((part) => part.startsWith("## Reliability"));
  if (at >= 0) parts[at] = `${text}\n`;
  else parts.push(`${text}\n`);
  writeFileSync("BENCHMARKS.md", `${parts.map((part) => part.trimEnd()).join("\n\n")}\n`);
}

/** Regenerates input `seed:index` and sends it (to `url`, or to a server started for it). */
async function replay(id: string, now: number, url: string | null): Promise<void> {
  const [seed, index] = id.split(":").map(Number);
  const request = fuzzInput(seed!, index!, now);
  console.log(`input ${id} (now ${now}, ${new Date(now).toISOString()}): [${request.kind}]\n${describeRequest(request, Infinity)}\n`);
  const server = url ? null : await startServerProcess({ demoRows: 20_000 });
  try {
    const answer = await send(url ?? server!.baseUrl, request);
    const outcome = classify(request, answer);
    console.log(`answer: ${outcome.label}${outcome.typed ? "" : ` (untyped: ${outcome.why})`}`);
    console.log("network" in answer ? answer.network : answer.body.slice(0, 5000));
  } finally {
    if (server) console.log(`server stopped: ${JSON.stringify(await server.stop())}`);
  }
}

if (process.argv[1] && /run-reliability\.(ts|js)$/.test(process.argv[1])) {
  const value = (name: string) => {
    const index = process.argv.indexOf(name);
    return index >= 0 ? process.argv[index + 1] : undefined;
  };
  const number = (name: string, fallback: number) => Number(value(name) ?? fallback);
  const replayId = value("--replay");
  if (replayId) {
    await replay(replayId, number("--now", Date.now()), value("--url") ?? null);
  } else {
    const options: ReliabilityOptions = {
      inputs: number("--inputs", 1_000_000),
      soakSeconds: number("--soak-seconds", 300),
      soakClients: number("--clients", 100),
      seed: number("--seed", 1),
      demoRows: number("--demo-rows", 100_000),
      concurrency: number("--concurrency", 8),
      warmupSeconds: number("--warmup-seconds", 20),
      warmupInputs: number("--warmup-inputs", 100_000),
      settleSeconds: number("--settle-seconds", 90),
      log: (line) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`),
    };
    const report = await runReliability(options);
    const checks = evaluate(report);
    const text = block(report, checks, options, `npm run reliability -- ${process.argv.slice(2).join(" ")}`.trim());
    console.log(text);
    console.log(`Fuzz answers by kind of input:\n  ${report.fuzz.kinds.join("\n  ")}\n`);
    console.log(`Soak answers by kind of request:\n  ${report.soak.kinds.join("\n  ")}\n`);
    console.log(`Resident memory over time:\n${rssTimeline(report.rss.samples, Math.max(5, Math.round(report.rss.samples.length / 40)))}\n`);
    if (report.health.examples.length > 0) console.log(`/health failures:\n  ${report.health.examples.join("\n  ")}\n`);
    const failures = [...report.fuzz.failures.map((line) => `fuzz: ${line}`), ...report.soak.failures.map((line) => `soak: ${line}`)];
    if (report.fuzz.engineErrors.length > 0) console.log(`Fuzz: ClickHouse errors by code:\n  ${report.fuzz.engineErrors.join("\n  ")}\n`);
    if (report.fuzz.engineErrorShapes.length > 0) console.log(`Fuzz: ClickHouse errors by message shape:\n  ${report.fuzz.engineErrorShapes.join("\n  ")}\n`);
    if (failures.length > 0) console.log(`Failures by signature:\n  ${failures.join("\n  ")}\n`);
    const examples = [...report.fuzz.examples, ...report.soak.examples];
    if (examples.length > 0) console.log(`First failing inputs (replay: npm run reliability -- --replay <seed:index> --now <ms>):\n${examples.join("\n")}\n`);
    if (report.serverErrors.length > 0) console.log(`Server log, last error lines:\n  ${report.serverErrors.join("\n  ")}\n`);
    const engineErrorsFile = value("--engine-errors");
    if (engineErrorsFile) {
      // One line per input: replay id, ClickHouse code, type error or not, message (to work through each family).
      const lines = report.fuzz.engineErrorInputs.map(({ replay, code, message }) => [replay, code, TYPE_ERROR_CODES.has(code) ? "type" : "other", message.replace(/\s+/g, " ")].join("\t"));
      writeFileSync(engineErrorsFile, lines.join("\n") + "\n");
    }
    if (!process.argv.includes("--no-write")) writeBlock(text);
    const missed = checks.filter((check) => !check.ok);
    console.log(missed.length === 0 ? "All targets met." : `Targets missed: ${missed.map((check) => check.bench).join("; ")}`);
    process.exitCode = missed.length === 0 ? 0 : 1;
  }
}
