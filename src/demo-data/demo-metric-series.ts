/**
 * The demo metrics, as a list of time series per metrics table: one series is a metric of a
 * project with one combination of tag values. Each series has a value model: samples are
 * log-normal around `median` (distributions, gauges), counts of up to `maxSamples` events per
 * 10-second bucket (counters), or ids drawn from a pool of `pool` members (sets).
 */
import { DEMO_ENVIRONMENTS, DEMO_PROJECTS, SPAN_TEMPLATES, TRANSACTION_TEMPLATES } from "./demo-vocabulary.js";
import { DEMO_METRIC_IDS, DEMO_TAG_KEY_IDS, type DemoMri, type DemoTagKey } from "./demo-indexer-mappings.js";

export type MetricKind = "counter" | "distribution" | "set" | "gauge";

export interface MetricSeries {
  readonly mri: DemoMri;
  readonly metricId: number;
  readonly useCase: string;
  readonly project: number;
  /** Sorted by tag key id. */
  readonly tags: readonly (readonly [DemoTagKey, string])[];
  /** Relative traffic: more rows and more samples per row. */
  readonly weight: number;
  /** Distributions / gauges: median sample; counters: unused. */
  readonly median: number;
  /** Log-normal sigma of samples (distributions / gauges). */
  readonly sigma: number;
  /** Most samples (or counted events) in one 10-second bucket. */
  readonly maxSamples: number;
  /** Sets: how many distinct members the series draws from. */
  readonly pool: number;
}

function series(
  mri: DemoMri,
  useCase: string,
  project: number,
  tags: Partial<Record<DemoTagKey, string>>,
  model: { weight: number; median?: number; sigma?: number; maxSamples: number; pool?: number },
): MetricSeries {
  const sortedTags = (Object.entries(tags) as [DemoTagKey, string][])
    .filter(([, value]) => value !== "")
    .sort(([a], [b]) => DEMO_TAG_KEY_IDS[a] - DEMO_TAG_KEY_IDS[b]);
  return {
    mri,
    metricId: DEMO_METRIC_IDS[mri],
    useCase,
    project,
    tags: sortedTags,
    weight: model.weight,
    median: model.median ?? 1,
    sigma: model.sigma ?? 0,
    maxSamples: model.maxSamples,
    pool: model.pool ?? 1,
  };
}

const ENVS: readonly [string, number][] = [
  [DEMO_ENVIRONMENTS[0], 0.85],
  [DEMO_ENVIRONMENTS[1], 0.15],
];

function transactionsUseCase(): { counters: MetricSeries[]; distributions: MetricSeries[]; sets: MetricSeries[] } {
  const counters: MetricSeries[] = [];
  const distributions: MetricSeries[] = [];
  const sets: MetricSeries[] = [];
  for (const project of DEMO_PROJECTS) {
    for (const [environment, envWeight] of ENVS) {
      counters.push(
        series("c:transactions/count_per_root_project@none", "transactions", project.id, { decision: "keep", environment }, {
          weight: project.transactionShare * envWeight,
          maxSamples: 40,
        }),
      );
    }
  }
  for (const t of TRANSACTION_TEMPLATES) {
    for (const [environment, envWeight] of ENVS) {
      for (const [status, statusWeight, slowdown] of [
        ["ok", 0.95, 1],
        ["internal_error", 0.05, 1.6],
      ] as const) {
        const tags = {
          environment,
          transaction: t.name,
          "transaction.op": t.op,
          "transaction.status": status,
          "http.method": t.method ?? "",
        };
        const weight = t.weight * envWeight * statusWeight;
        distributions.push(
          series("d:transactions/duration@millisecond", "transactions", t.project, tags, {
            weight,
            median: t.medianMs * slowdown,
            sigma: 0.8,
            maxSamples: 8,
          }),
        );
      }
      sets.push(
        series("s:transactions/user@none", "transactions", t.project, { environment, transaction: t.name }, {
          weight: t.weight * envWeight,
          maxSamples: 5,
          pool: 2000,
        }),
      );
      if (t.op === "pageload") {
        for (const browser of ["Chrome", "Safari", "Firefox", "Edge"]) {
          distributions.push(
            series("d:transactions/measurements.lcp@millisecond", "transactions", t.project, {
              environment,
              transaction: t.name,
              "browser.name": browser,
            }, { weight: t.weight * envWeight * (browser === "Chrome" ? 0.6 : 0.13), median: t.medianMs * 0.8, sigma: 0.6, maxSamples: 6 }),
          );
        }
      }
    }
  }
  return { counters, distributions, sets };
}

function spansUseCase(): { distributions: MetricSeries[]; sets: MetricSeries[]; gauges: MetricSeries[] } {
  const distributions: MetricSeries[] = [];
  const sets: MetricSeries[] = [];
  const gauges: MetricSeries[] = [];
  SPAN_TEMPLATES.forEach((span, index) => {
    const median = span.op === "db" ? 12 : span.op.startsWith("http") ? 85 : span.op.startsWith("cache") ? 1.5 : 30;
    const weight = 10 / (1 + (index % 4));
    distributions.push(
      series("d:spans/exclusive_time@millisecond", "spans", span.project, {
        environment: "production",
        "span.op": span.op,
        "span.description": span.description,
      }, { weight, median, sigma: 0.9, maxSamples: 8 }),
    );
    gauges.push(
      series("g:spans/self_time@millisecond", "spans", span.project, { "span.op": span.op, "span.description": span.description }, {
        weight,
        median,
        sigma: 0.3,
        maxSamples: 6,
      }),
    );
  });
  for (const project of DEMO_PROJECTS) {
    for (const op of [...new Set(SPAN_TEMPLATES.filter((s) => s.project === project.id).map((s) => s.op))]) {
      sets.push(
        series("s:spans/user@none", "spans", project.id, { environment: "production", "span.op": op }, {
          weight: 5,
          maxSamples: 4,
          pool: 1500,
        }),
      );
    }
  }
  return { distributions, sets, gauges };
}

function customUseCase(): { counters: MetricSeries[]; distributions: MetricSeries[]; sets: MetricSeries[]; gauges: MetricSeries[] } {
  const pages = ["/", "/pricing", "/docs", "/signup", "/blog"];
  const counters = pages.flatMap((page, i) =>
    ENVS.map(([environment, envWeight]) =>
      series("c:custom/page_views@none", "custom", 2, { environment, page }, { weight: (20 / (i + 1)) * envWeight, maxSamples: 25 }),
    ),
  );
  const distributions = ["card", "paypal", "invoice"].map((method, i) =>
    series("d:custom/checkout.cart_value@none", "custom", 1, { environment: "production", payment_method: method }, {
      weight: 6 / (i + 1),
      median: 49 + 30 * i,
      sigma: 0.7,
      maxSamples: 5,
    }),
  );
  const sets = [1, 2, 3].map((project) =>
    series("s:custom/active_organizations@none", "custom", project, { environment: "production" }, {
      weight: 4,
      maxSamples: 6,
      pool: 300,
    }),
  );
  const gauges = [
    ...["emails", "invoices", "sync"].map((queue, i) =>
      series("g:custom/queue.depth@none", "custom", 3, { environment: "production", queue }, {
        weight: 6,
        median: 40 * (i + 1),
        sigma: 0.5,
        maxSamples: 6,
      }),
    ),
    ...DEMO_PROJECTS.flatMap((project) => [...project.serverNames.http, ...project.serverNames.task]
      .map((server) => series("g:custom/memory.rss@byte", "custom", project.id, { server_name: server }, {
        weight: 3,
        median: 380_000_000,
        sigma: 0.15,
        maxSamples: 6,
      })),
    ),
  ];
  return { counters, distributions, sets, gauges };
}

function sessionsUseCase(): { counters: MetricSeries[]; distributions: MetricSeries[]; sets: MetricSeries[] } {
  const counters: MetricSeries[] = [];
  const distributions: MetricSeries[] = [];
  const sets: MetricSeries[] = [];
  for (const project of DEMO_PROJECTS) {
    project.releases.forEach((release, r) => {
      const releaseWeight = 1 + r;
      for (const [environment, envWeight] of ENVS) {
        const base = { environment, release };
        for (const [status, statusWeight] of [
          ["init", 1],
          ["errored_preaggr", 0.08],
          ["crashed", 0.01],
          ["abnormal", 0.004],
        ] as const) {
          counters.push(
            series("c:sessions/session@none", "sessions", project.id, { ...base, "session.status": status }, {
              weight: releaseWeight * envWeight * statusWeight * 10,
              maxSamples: status === "init" ? 30 : 3,
            }),
          );
        }
        for (const [status, statusWeight] of [
          ["init", 1],
          ["crashed", 0.05],
        ] as const) {
          sets.push(
            series("s:sessions/user@none", "sessions", project.id, { ...base, "session.status": status }, {
              weight: releaseWeight * envWeight * statusWeight * 6,
              maxSamples: status === "init" ? 8 : 2,
              pool: 2000,
            }),
          );
        }
        sets.push(
          series("s:sessions/error@none", "sessions", project.id, base, {
            weight: releaseWeight * envWeight * 2,
            maxSamples: 3,
            pool: 100_000,
          }),
        );
        distributions.push(
          series("d:sessions/duration@second", "sessions", project.id, { ...base, "session.status": "exited" }, {
            weight: releaseWeight * envWeight * 5,
            median: project.id === 2 ? 240 : 1800,
            sigma: 1.1,
            maxSamples: 6,
          }),
        );
      }
    });
  }
  return { counters, distributions, sets };
}

export interface MetricsTableSeries {
  /** Registry storage name of the aggregated table that queries read. */
  readonly storage: string;
  /**
   * Registry storage name of the raw table the rows are written to: its materialized view
   * aggregates them into `storage` at every granularity, as ingestion's rows are.
   */
  readonly rawStorage: string;
  readonly kind: MetricKind;
  /** Generic metrics store the granularity enum (0/1/2/3) and raw tag values. */
  readonly generic: boolean;
  /** Share of the metrics rows this table gets. */
  readonly share: number;
  readonly series: readonly MetricSeries[];
}

export function demoMetricsTables(): MetricsTableSeries[] {
  const transactions = transactionsUseCase();
  const spans = spansUseCase();
  const custom = customUseCase();
  const sessions = sessionsUseCase();
  return [
    {
      storage: "generic_metrics_counters",
      rawStorage: "generic_metrics_counters_raw",
      kind: "counter",
      generic: true,
      share: 12,
      series: [...transactions.counters, ...custom.counters],
    },
    {
      storage: "generic_metrics_distributions",
      rawStorage: "generic_metrics_distributions_raw",
      kind: "distribution",
      generic: true,
      share: 30,
      series: [...transactions.distributions, ...spans.distributions, ...custom.distributions],
    },
    {
      storage: "generic_metrics_sets",
      rawStorage: "generic_metrics_sets_raw",
      kind: "set",
      generic: true,
      share: 12,
      series: [...transactions.sets, ...spans.sets, ...custom.sets],
    },
    {
      storage: "generic_metrics_gauges",
      rawStorage: "generic_metrics_gauges_raw",
      kind: "gauge",
      generic: true,
      share: 12,
      series: [...spans.gauges, ...custom.gauges],
    },
    // The release-health tables share one raw table: each type's view takes its metric_type.
    { storage: "metrics_counters", rawStorage: "metrics_raw", kind: "counter", generic: false, share: 14, series: sessions.counters },
    {
      storage: "metrics_distributions",
      rawStorage: "metrics_raw",
      kind: "distribution",
      generic: false,
      share: 10,
      series: sessions.distributions,
    },
    { storage: "metrics_sets", rawStorage: "metrics_raw", kind: "set", generic: false, share: 10, series: sessions.sets },
  ];
}
