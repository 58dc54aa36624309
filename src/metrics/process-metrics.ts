/**
 * The process's own metrics, shared by every registry in the process (tests start several
 * servers in one): prom-client's defaults (CPU time, resident memory, heap and heap spaces,
 * event-loop lag, active handles and resources, GC durations, open file descriptors, Node's
 * version), and two it lacks: ArrayBuffer memory, and GC runs and time by kind counted from
 * every collection V8 reports. Resident minus heap and external is, roughly, what the embedded
 * engine holds natively: the split is what tells a leak in Quarry's code from the engine's caches.
 *
 * They live in one registry per process, built when the first server of the process is (CPU
 * time, GC runs and event-loop lag count from then: prom-client measures from its collectors'
 * creation), so a process has one event-loop monitor and one GC observer however many servers
 * it runs, and each server's /metrics reports the process once.
 */
import { constants, PerformanceObserver } from "node:perf_hooks";
import { collectDefaultMetrics, Registry } from "prom-client";
import { registerLabelledScrapeTimeGauge, registerScrapeTimeGauge } from "./scrape-time-gauge.js";

let shared: Registry | null = null;

/** Starts watching the process (once; later calls return the same registry). */
export function processRegistry(): Registry {
  if (!shared) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    registerScrapeTimeGauge(registry, "nodejs_array_buffers_bytes", "Memory of ArrayBuffers and Buffers.", () => process.memoryUsage().arrayBuffers);
    const gc = garbageCollections();
    registerLabelledScrapeTimeGauge(registry, "nodejs_gc_duration_seconds_total", "Time spent in garbage collection since the process's first server started, by kind.", ["kind"], () =>
      [...gc.seconds].map(([kind, seconds]) => [{ kind }, seconds] as const),
    );
    registerLabelledScrapeTimeGauge(registry, "nodejs_gc_runs_total", "Garbage collections since the process's first server started, by kind.", ["kind"], () => [...gc.runs].map(([kind, runs]) => [{ kind }, runs] as const));
    shared = registry;
  }
  return shared;
}

/** The exposition for GET /metrics: the process's metrics, then those of `registry`. */
export async function exposition(registry: Registry): Promise<string> {
  return Registry.merge([processRegistry(), registry]).metrics();
}

export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
};

/**
 * Collections and their time, by kind, from every entry V8 reports (prom-client's
 * nodejs_gc_duration_seconds histogram records only the first entry of each batch).
 */
function garbageCollections(): { seconds: Map<string, number>; runs: Map<string, number> } {
  const totals = { seconds: new Map<string, number>(), runs: new Map<string, number>() };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1] ?? "other";
      totals.seconds.set(kind, (totals.seconds.get(kind) ?? 0) + entry.duration / 1000);
      totals.runs.set(kind, (totals.runs.get(kind) ?? 0) + 1);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return totals;
}
