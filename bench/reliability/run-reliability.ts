/**
 * The reliability suite: a fuzz run and a load soak against a real `quarry serve` process, with
 * /health polled and resident memory sampled throughout, the query log accounted for at the end,
 * and the stop on SIGTERM timed.
 *
 *   npm run reliability                       1,000,000 inputs, 5-minute 100-client soak; writes BENCHMARKS.md
 *   npm run reliability -- --inputs 50000 --soak-seconds 30 --seed 7
 *   (test/reliability runs a short smoke through `runReliability`)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { fuzz } from "./fuzz.js";
import { startServerProcess } from "./server-process.js";
import { soak } from "./soak.js";

export interface ReliabilityOptions {
  readonly inputs: number;
  readonly soakSeconds: number;
  readonly soakClients: number;
  readonly seed: number;
  readonly demoRows: number;
  readonly concurrency: number;
  readonly log?: (line: string) => void;
}

export interface ReliabilityReport {
  readonly fuzz: { inputs: number; seconds: number; fiveHundreds: number; untyped: number; answers: string; examples: string[] };
  readonly soak: { requests: number; seconds: number; fiveHundreds: number; untyped: number; p50Ms: number; p99Ms: number; answers: string; examples: string[] };
  readonly healthChecks: number;
  readonly healthFailures: number;
  readonly rss: { startMb: number; peakMb: number; endMb: number; anonStartMb: number; anonEndMb: number };
  readonly queryLog: { requests: number; written: number; dropped: number; buffered: number; flushFailures: number };
  readonly stop: { code: number | null; ms: number; deadlineMs: number };
}

export async function runReliability(options: ReliabilityOptions): Promise<ReliabilityReport> {
  const log = options.log ?? (() => {});
  const server = await startServerProcess({ demoRows: options.demoRows });
  let healthChecks = 0;
  let healthFailures = 0;
  let peakMb = 0;
  const poll = setInterval(() => {
    healthChecks += 1;
    fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(5000) }).then(
      (response) => {
        if (!response.ok) healthFailures += 1;
        return response.arrayBuffer();
      },
      () => (healthFailures += 1),
    );
    peakMb = Math.max(peakMb, server.rssMb());
  }, 500);
  try {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const startMb = server.rssMb();
    const anonStartMb = server.anonMb();
    log(`server pid ${server.pid} at ${server.baseUrl}, ${startMb} MB resident`);
    const fuzzed = await fuzz(server.baseUrl, {
      inputs: options.inputs,
      seed: options.seed,
      concurrency: options.concurrency,
      progress: (sent) => log(`fuzz: ${sent.toLocaleString("en")} sent, ${server.rssMb()} MB resident`),
    });
    log(`fuzz: ${fuzzed.outcomes.total} answers in ${fuzzed.seconds.toFixed(0)} s: ${fuzzed.outcomes.summary()}`);
    const soaked = await soak(server.baseUrl, { clients: options.soakClients, seconds: options.soakSeconds, seed: options.seed + 1 });
    log(`soak: ${soaked.outcomes.total} answers in ${soaked.seconds.toFixed(0)} s: ${soaked.outcomes.summary()}`);

    // The query log catches up, memory settles.
    const deadline = Date.now() + 60_000;
    let metrics = await server.metrics();
    while ((metrics.get("quarry_querylog_buffered_rows") ?? 0) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      metrics = await server.metrics();
    }
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    metrics = await server.metrics();
    const endMb = server.rssMb();
    const anonEndMb = server.anonMb();
    clearInterval(poll);
    const queryLog = {
      requests: metrics.get("quarry_requests_total:sum") ?? 0,
      written: metrics.get("quarry_querylog_rows_written_total") ?? 0,
      dropped: metrics.get("quarry_querylog_rows_dropped_total:sum") ?? 0,
      buffered: metrics.get("quarry_querylog_buffered_rows") ?? 0,
      flushFailures: metrics.get("quarry_querylog_flush_failures_total") ?? 0,
    };
    const stop = await server.stop();
    if (stop.code !== 0) log(`server output tail:\n${server.output().slice(-3000)}`);
    return {
      fuzz: {
        inputs: fuzzed.outcomes.total,
        seconds: fuzzed.seconds,
        fiveHundreds: fuzzed.outcomes.fiveHundreds,
        untyped: fuzzed.outcomes.untyped,
        answers: fuzzed.outcomes.summary(),
        examples: fuzzed.outcomes.examples,
      },
      soak: {
        requests: soaked.outcomes.total,
        seconds: soaked.seconds,
        fiveHundreds: soaked.outcomes.fiveHundreds,
        untyped: soaked.outcomes.untyped,
        p50Ms: soaked.p50Ms,
        p99Ms: soaked.p99Ms,
        answers: soaked.outcomes.summary(),
        examples: soaked.outcomes.examples,
      },
      healthChecks,
      healthFailures,
      rss: { startMb, peakMb, endMb, anonStartMb, anonEndMb },
      queryLog,
      stop: { ...stop, deadlineMs: server.shutdownTimeoutMs },
    };
  } finally {
    clearInterval(poll);
  }
}

function percent(before: number, after: number): string {
  const change = ((after - before) / before) * 100;
  return `${change >= 0 ? "+" : ""}${change.toFixed(1)} %`;
}

function block(report: ReliabilityReport, options: ReliabilityOptions, command: string): string {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const { fuzz: f, soak: s, rss, queryLog: q, stop } = report;
  const rows = [
    [
      `Fuzz: ${f.inputs.toLocaleString("en")} inputs (grammar-generated SnQL and MQL, mutations, random JSON, wrong HTTP), ${options.concurrency} connections, seed ${options.seed}, ${options.demoRows.toLocaleString("en")} demo rows`,
      `${f.fiveHundreds} 5xx, ${f.untyped} untyped, in ${f.seconds.toFixed(0)} s (${Math.round(f.inputs / f.seconds).toLocaleString("en")}/s); ${f.answers}`,
      "0 5xx, 0 untyped",
    ],
    [
      `Soak: ${options.soakClients} clients for ${options.soakSeconds} s, cached / uncached / MQL / invalid`,
      `${s.requests.toLocaleString("en")} requests, ${s.fiveHundreds} 5xx, ${s.untyped} untyped; p50 ${s.p50Ms.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms; ${s.answers}`,
      "0 5xx, 0 untyped",
    ],
    [`/health during both, every 500 ms`, `${report.healthChecks - report.healthFailures} of ${report.healthChecks} ok`, "all ok"],
    [
      `Resident memory of the server (anonymous part: heap, buffers, caches; the rest is the engine's code paged in)`,
      `${rss.startMb} MB before, ${rss.peakMb} MB peak, ${rss.endMb} MB after (${percent(rss.startMb, rss.endMb)}); anonymous ${rss.anonStartMb} MB before, ${rss.anonEndMb} MB after (${percent(rss.anonStartMb, rss.anonEndMb)})`,
      "after within 10 % of before",
    ],
    [
      `Query log accounting`,
      `${q.requests.toLocaleString("en")} queries: ${q.written.toLocaleString("en")} rows written + ${q.dropped.toLocaleString("en")} dropped with a reason + ${q.buffered} buffered; ${q.flushFailures} failed INSERTs`,
      "written + dropped = queries",
    ],
    [`Stop on SIGTERM after the load`, `exit code ${stop.code} after ${stop.ms} ms`, `exit 0 within ${stop.deadlineMs} ms`],
  ];
  const table = ["| bench | figure | target |", "|---|---|---|", ...rows.map(([a, b, c]) => `| ${a} | ${b} | ${c} |`)].join("\n");
  return `## Reliability\n\nMachine: ${machine}. Command: \`${command}\` (${new Date().toISOString().slice(0, 10)}).\n\n${table}\n`;
}

/** Replaces (or appends) the `## Reliability` block of BENCHMARKS.md, keeping the others. */
function writeBlock(text: string): void {
  const current = existsSync("BENCHMARKS.md") ? readFileSync("BENCHMARKS.md", "utf8") : "# Benchmarks\n";
  const parts = current.split(/^(?=## )/m);
  const kept = parts.filter((part) => !part.startsWith("## Reliability"));
  writeFileSync("BENCHMARKS.md", `${kept.map((part) => part.trimEnd()).join("\n\n")}\n\n${text}`);
}

if (process.argv[1] && /run-reliability\.(ts|js)$/.test(process.argv[1])) {
  const arg = (name: string, fallback: number) => {
    const index = process.argv.indexOf(name);
    return index >= 0 ? Number(process.argv[index + 1]) : fallback;
  };
  const options: ReliabilityOptions = {
    inputs: arg("--inputs", 1_000_000),
    soakSeconds: arg("--soak-seconds", 300),
    soakClients: arg("--clients", 100),
    seed: arg("--seed", 1),
    demoRows: arg("--demo-rows", 100_000),
    concurrency: arg("--concurrency", 8),
    log: (line) => console.error(line),
  };
  const report = await runReliability(options);
  const text = block(report, options, `npm run reliability -- ${process.argv.slice(2).join(" ")}`.trim());
  console.log(text);
  for (const example of [...report.fuzz.examples, ...report.soak.examples]) console.log(example);
  if (!process.argv.includes("--no-write")) writeBlock(text);
}
