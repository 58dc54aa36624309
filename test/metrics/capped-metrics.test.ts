/** Quarry's metrics on prom-client: the text exposition, bounded label sets, scrape-time gauges, one registry per server. */
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { CappedCounter } from "../../src/metrics/capped-counter.js";
import { CappedHistogram } from "../../src/metrics/capped-histogram.js";
import { exposition } from "../../src/metrics/process-metrics.js";
import { registerLabelledScrapeTimeGauge, registerScrapeTimeGauge } from "../../src/metrics/scrape-time-gauge.js";
import { MAX_LABEL_CHARS, MAX_SERIES } from "../../src/metrics/series-cap.js";
import { ServiceMetrics } from "../../src/metrics/service-metrics.js";

const samplesOf = (text: string, name: string) => text.split("\n").filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));

describe("capped counters and histograms", () => {
  it("render in the text exposition format: HELP and TYPE, escaped labels, cumulative buckets, sum and count", async () => {
    const registry = new Registry();
    const counter = new CappedCounter(registry, { name: "q_total", help: "Queries.", labelNames: ["referrer"] });
    const histogram = new CappedHistogram(registry, { name: "q_seconds", help: "Latency.", labelNames: ["referrer"], buckets: [0.1, 1] });
    counter.inc({ referrer: 'say "hi"\\now' });
    counter.inc({ referrer: "plain" }, 2);
    histogram.observe({ referrer: "plain" }, 0.05);
    histogram.observe({ referrer: "plain" }, 0.5);
    histogram.observe({ referrer: "plain" }, 5);
    expect(await registry.metrics()).toBe(
      [
        "# HELP q_total Queries.",
        "# TYPE q_total counter",
        'q_total{referrer="say \\"hi\\"\\\\now"} 1',
        'q_total{referrer="plain"} 2',
        "",
        "# HELP q_seconds Latency.",
        "# TYPE q_seconds histogram",
        'q_seconds_bucket{le="0.1",referrer="plain"} 1',
        'q_seconds_bucket{le="1",referrer="plain"} 2',
        'q_seconds_bucket{le="+Inf",referrer="plain"} 3',
        'q_seconds_sum{referrer="plain"} 5.55',
        'q_seconds_count{referrer="plain"} 3',
        "",
      ].join("\n"),
    );
    expect(await counter.value({ referrer: "plain" })).toBe(2);
    expect(await counter.value({ referrer: "never seen" })).toBe(0);
  });

  it("cap the number of label sets, folding the rest into 'other'", async () => {
    const registry = new Registry();
    const counter = new CappedCounter(registry, { name: "c_total", help: "C.", labelNames: ["referrer", "status"] });
    for (let i = 0; i < MAX_SERIES + 100; i++) counter.inc({ referrer: `referrer-${i}`, status: "success" });
    // A set kept before the cap still counts under its own labels.
    counter.inc({ referrer: "referrer-0", status: "success" });
    const lines = samplesOf(await registry.metrics(), "c_total");
    expect(lines).toHaveLength(MAX_SERIES + 1);
    expect(lines).toContain('c_total{referrer="other",status="other"} 100');
    expect(lines).toContain('c_total{referrer="referrer-0",status="success"} 2');
    expect(await counter.value({ referrer: "referrer-550", status: "success" })).toBe(100);
  });

  it("cut long label values and replace control characters (a 100,000-character referrer made /metrics 18 MB)", async () => {
    const registry = new Registry();
    const counter = new CappedCounter(registry, { name: "c_total", help: "C.", labelNames: ["referrer"] });
    counter.inc({ referrer: "x".repeat(100_000) });
    counter.inc({ referrer: "x".repeat(200_000) });
    counter.inc({ referrer: "a\u0000b\tc\nd" });
    const text = await registry.metrics();
    expect(text.length).toBeLessThan(500);
    expect(text).toContain(`c_total{referrer="${"x".repeat(MAX_LABEL_CHARS - 1)}…"} 2`);
    expect(text).toContain('c_total{referrer="a\uFFFDb\uFFFDc\uFFFDd"} 1');
  });
});

describe("scrape-time gauges", () => {
  it("read their value at each scrape, and a labelled one drops the label sets its reader no longer yields", async () => {
    const registry = new Registry();
    let bytes = 10;
    let held = [{ entity: "events", partition: "0" }, { entity: "events", partition: "1" }];
    registerScrapeTimeGauge(registry, "g_bytes", "Bytes.", () => bytes);
    registerLabelledScrapeTimeGauge(registry, "g_epoch", "Epochs.", ["entity", "partition"], () => held.map((labels, i) => [labels, i + 5] as const));
    let text = await registry.metrics();
    expect(text).toContain("# TYPE g_bytes gauge\ng_bytes 10");
    expect(samplesOf(text, "g_epoch")).toEqual(['g_epoch{entity="events",partition="0"} 5', 'g_epoch{entity="events",partition="1"} 6']);
    bytes = 20;
    held = [{ entity: "events", partition: "1" }];
    text = await registry.metrics();
    expect(text).toContain("g_bytes 20");
    expect(samplesOf(text, "g_epoch")).toEqual(['g_epoch{entity="events",partition="1"} 5']);
  });
});

describe("one registry per server", () => {
  it("two servers in one process count apart, and each reports the process's metrics once", async () => {
    const first = new ServiceMetrics();
    const second = new ServiceMetrics();
    first.requests.inc({ dataset: "events", referrer: "a", status: "success" });
    first.requests.inc({ dataset: "events", referrer: "a", status: "success" });
    second.requests.inc({ dataset: "events", referrer: "a", status: "success" });
    const [firstText, secondText] = [await first.render(), await second.render()];
    expect(firstText).toContain('quarry_requests_total{dataset="events",referrer="a",status="success"} 2');
    expect(secondText).toContain('quarry_requests_total{dataset="events",referrer="a",status="success"} 1');
    for (const text of [firstText, secondText]) {
      const types = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
      expect(new Set(types).size).toBe(types.length);
      expect(types).toEqual(expect.arrayContaining(["process_cpu_user_seconds_total", "nodejs_eventloop_lag_seconds", "nodejs_gc_duration_seconds", "quarry_requests_total"]));
    }
  });

  it("refuses a metric name the process's metrics already use, rather than exporting it twice", async () => {
    const registry = new Registry();
    registerScrapeTimeGauge(registry, "process_resident_memory_bytes", "A second copy.", () => 1);
    await expect(exposition(registry)).rejects.toThrow(/process_resident_memory_bytes has already been registered/);
  });
});
