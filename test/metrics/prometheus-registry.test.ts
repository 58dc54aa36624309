/** The Prometheus text format: HELP/TYPE lines, escaped labels, cumulative histogram buckets. */
import { describe, expect, it } from "vitest";
import { Counter, Histogram, MAX_LABEL_CHARS, PrometheusRegistry } from "../../src/metrics/prometheus-registry.js";

describe("PrometheusRegistry", () => {
  it("renders counters and histograms in the text exposition format", () => {
    const registry = new PrometheusRegistry();
    const counter = registry.register(new Counter("q_total", "Queries.", ["referrer"]));
    const histogram = registry.register(new Histogram("q_seconds", "Latency.", ["referrer"], [0.1, 1]));
    counter.inc(['say "hi"\\now']);
    counter.inc(["plain"], 2);
    histogram.observe(["plain"], 0.05);
    histogram.observe(["plain"], 0.5);
    histogram.observe(["plain"], 5);
    expect(registry.render()).toBe(
      [
        "# HELP q_total Queries.",
        "# TYPE q_total counter",
        'q_total{referrer="say \\"hi\\"\\\\now"} 1',
        'q_total{referrer="plain"} 2',
        "# HELP q_seconds Latency.",
        "# TYPE q_seconds histogram",
        'q_seconds_bucket{referrer="plain",le="0.1"} 1',
        'q_seconds_bucket{referrer="plain",le="1"} 2',
        'q_seconds_bucket{referrer="plain",le="+Inf"} 3',
        'q_seconds_sum{referrer="plain"} 5.55',
        'q_seconds_count{referrer="plain"} 3',
        "",
      ].join("\n"),
    );
  });

  it("caps the number of label sets, folding the rest into 'other'", () => {
    const counter = new Counter("c_total", "C.", ["referrer"]);
    for (let i = 0; i < 600; i++) counter.inc([`referrer-${i}`]);
    const lines = counter.render().split("\n").filter((line) => line.startsWith("c_total{"));
    expect(lines).toHaveLength(501);
    expect(lines).toContain('c_total{referrer="other"} 100');
  });

  it("cuts long label values and replaces control characters (a 100,000-character referrer made /metrics 18 MB)", () => {
    const counter = new Counter("c_total", "C.", ["referrer"]);
    counter.inc(["x".repeat(100_000)]);
    counter.inc(["x".repeat(200_000)]);
    counter.inc(["a\u0000b\tc"]);
    const text = counter.render();
    expect(text.length).toBeLessThan(500);
    expect(text).toContain(`c_total{referrer="${"x".repeat(MAX_LABEL_CHARS - 1)}…"} 2`);
    expect(text).toContain('c_total{referrer="a\uFFFDb\uFFFDc"} 1');
  });
});
