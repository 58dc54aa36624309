/**
 * The process's own gauges, in the names prom-client uses so that standard dashboards read
 * them: resident memory, and the part of it the JavaScript side holds (heap, external buffers);
 * CPU time, start time, active handles, event-loop lag, garbage collections.
 * Resident minus heap and external is, roughly, what the embedded engine holds natively: the
 * split is what tells a leak in Quarry's code from the engine's caches.
 */
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import { Gauge, LabelledGauge, type PrometheusRegistry } from "./prometheus-registry.js";

export function registerProcessMetrics(registry: PrometheusRegistry): void {
  const memory = cachedMemoryUsage();
  registry.register(new Gauge("process_resident_memory_bytes", "Resident memory of the process (the embedded engine included).", () => memory().rss));
  registry.register(new Gauge("nodejs_heap_size_used_bytes", "V8 heap in use.", () => memory().heapUsed));
  registry.register(new Gauge("nodejs_heap_size_total_bytes", "V8 heap reserved.", () => memory().heapTotal));
  registry.register(new Gauge("nodejs_external_memory_bytes", "Memory of C++ objects bound to JavaScript objects, Buffers included.", () => memory().external));
  registry.register(new Gauge("nodejs_array_buffers_bytes", "Memory of ArrayBuffers and Buffers.", () => memory().arrayBuffers));
  // Per space (new, old, code, large objects, ...): which part of the heap a burst grew, and
  // whether what stays reserved is young-generation room or old pages.
  registry.register(new LabelledGauge("nodejs_heap_space_size_total_bytes", "V8 heap reserved, by space.", ["space"], () => getHeapSpaceStatistics().map((space) => [[space.space_name], space.space_size] as const)));
  registry.register(new LabelledGauge("nodejs_heap_space_size_used_bytes", "V8 heap in use, by space.", ["space"], () => getHeapSpaceStatistics().map((space) => [[space.space_name], space.space_used_size] as const)));
  const delay = eventLoopDelay();
  registry.register(
    new Gauge("nodejs_eventloop_lag_p99_seconds", "99th percentile of event-loop delay since the last scrape.", () => {
      const p99 = delay.percentile(99) / 1e9;
      delay.reset();
      return Number.isFinite(p99) ? p99 : 0;
    }),
  );
  registry.register(new Gauge("process_cpu_seconds_total", "User and system CPU time of the process.", () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  }));
  registry.register(new Gauge("process_start_time_seconds", "Start time of the process since the Unix epoch.", () => PROCESS_START_SECONDS));
  registry.register(new Gauge("nodejs_active_handles", "Handles (sockets, timers, files, ...) that keep the event loop alive.", () => process.getActiveResourcesInfo().length));
  const gc = garbageCollections();
  registry.register(new LabelledGauge("nodejs_gc_duration_seconds_total", "Time spent in garbage collection since start, by kind.", ["kind"], () => [...gc.seconds].map(([kind, seconds]) => [[kind], seconds] as const)));
  registry.register(new LabelledGauge("nodejs_gc_runs_total", "Garbage collections since start, by kind.", ["kind"], () => [...gc.runs].map(([kind, runs]) => [[kind], runs] as const)));
}

const PROCESS_START_SECONDS = Math.round((Date.now() - process.uptime() * 1000) / 1000);

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
};

/** One observer per process: collections and their time, by kind, as V8 reports them. */
let sharedGc: { seconds: Map<string, number>; runs: Map<string, number> } | null = null;
function garbageCollections(): { seconds: Map<string, number>; runs: Map<string, number> } {
  if (!sharedGc) {
    const totals = { seconds: new Map<string, number>(), runs: new Map<string, number>() };
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = GC_KINDS[(entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1] ?? "other";
        totals.seconds.set(kind, (totals.seconds.get(kind) ?? 0) + entry.duration / 1000);
        totals.runs.set(kind, (totals.runs.get(kind) ?? 0) + 1);
      }
    });
    observer.observe({ entryTypes: ["gc"] });
    sharedGc = totals;
  }
  return sharedGc;
}

/** One monitor per process, however many servers it runs (tests start many). */
let sharedDelay: ReturnType<typeof monitorEventLoopDelay> | null = null;
function eventLoopDelay(): ReturnType<typeof monitorEventLoopDelay> {
  if (!sharedDelay) {
    sharedDelay = monitorEventLoopDelay({ resolution: 20 });
    sharedDelay.enable();
  }
  return sharedDelay;
}

/** One memoryUsage() call per scrape, however many gauges read it. */
function cachedMemoryUsage(): () => NodeJS.MemoryUsage {
  let at = 0;
  let value = process.memoryUsage();
  return () => {
    const now = Date.now();
    if (now - at > 100) {
      value = process.memoryUsage();
      at = now;
    }
    return value;
  };
}
