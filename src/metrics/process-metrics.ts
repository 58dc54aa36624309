/**
 * The process's own gauges, in the names prom-client uses so that standard dashboards read
 * them: resident memory, and the part of it the JavaScript side holds (heap, external buffers).
 * Resident minus heap and external is, roughly, what the embedded engine holds natively: the
 * split is what tells a leak in Quarry's code from the engine's caches.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Gauge, type PrometheusRegistry } from "./prometheus-registry.js";

export function registerProcessMetrics(registry: PrometheusRegistry): void {
  const memory = cachedMemoryUsage();
  registry.register(new Gauge("process_resident_memory_bytes", "Resident memory of the process (the embedded engine included).", () => memory().rss));
  registry.register(new Gauge("nodejs_heap_size_used_bytes", "V8 heap in use.", () => memory().heapUsed));
  registry.register(new Gauge("nodejs_heap_size_total_bytes", "V8 heap reserved.", () => memory().heapTotal));
  registry.register(new Gauge("nodejs_external_memory_bytes", "Memory of C++ objects bound to JavaScript objects, Buffers included.", () => memory().external));
  registry.register(new Gauge("nodejs_array_buffers_bytes", "Memory of ArrayBuffers and Buffers.", () => memory().arrayBuffers));
  const delay = eventLoopDelay();
  registry.register(
    new Gauge("nodejs_eventloop_lag_p99_seconds", "99th percentile of event-loop delay since the last scrape.", () => {
      const p99 = delay.percentile(99) / 1e9;
      delay.reset();
      return Number.isFinite(p99) ? p99 : 0;
    }),
  );
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
