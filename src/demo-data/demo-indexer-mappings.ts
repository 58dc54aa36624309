/**
 * The string -> integer ids of the demo metrics: metric MRIs, tag keys and (for the legacy
 * `metrics` dataset, whose tag values are indexed too) tag values. MQL requests against the
 * demo data pass (a subset of) this object as `mql_context.indexer_mappings`.
 *
 * Strings Sentry hard-codes (`sentry/sentry_metrics/indexer/strings.py`) keep Sentry's number
 * WITHOUT its `1 << 63` prefix (`d:transactions/duration@millisecond` is 9223372036854775909
 * in Sentry, 101 here), so every id is a safe JavaScript integer and survives JSON. Other
 * strings get "dynamic" ids from 65536 up, as Sentry's indexer does for per-organization
 * strings.
 */

/** Metric MRIs -> metric_id. */
export const DEMO_METRIC_IDS = {
  // release health (legacy `metrics` dataset, use case `sessions`)
  "c:sessions/session@none": 1,
  "s:sessions/error@none": 2,
  "s:sessions/user@none": 3,
  "d:sessions/duration@second": 4,
  // transactions (generic_metrics, use case `transactions`)
  "s:transactions/user@none": 100,
  "d:transactions/duration@millisecond": 101,
  "d:transactions/measurements.lcp@millisecond": 103,
  "c:transactions/count_per_root_project@none": 125,
  // spans (generic_metrics, use case `spans`)
  "s:spans/user@none": 403,
  "d:spans/exclusive_time@millisecond": 405,
  "g:spans/self_time@millisecond": 419,
  // custom (generic_metrics, use case `custom`)
  "c:custom/page_views@none": 65_536,
  "d:custom/checkout.cart_value@none": 65_537,
  "s:custom/active_organizations@none": 65_538,
  "g:custom/queue.depth@none": 65_539,
  "g:custom/memory.rss@byte": 65_540,
} as const;

/** Tag keys -> tag key ids (`tags.key`). */
export const DEMO_TAG_KEY_IDS = {
  environment: 202,
  release: 208,
  "session.status": 209,
  transaction: 212,
  "transaction.status": 213,
  "transaction.op": 214,
  "http.method": 215,
  "browser.name": 216,
  decision: 240,
  "span.op": 242,
  "span.description": 249,
  page: 65_600,
  payment_method: 65_601,
  queue: 65_602,
  server_name: 65_603,
} as const;

/**
 * Tag values -> ids, used only by the legacy `metrics` dataset (`tags.value`); generic
 * metrics store tag values as raw strings (`tags.raw_value`).
 */
export const DEMO_TAG_VALUE_IDS = {
  abnormal: 200,
  crashed: 201,
  errored: 203,
  exited: 204,
  init: 206,
  production: 207,
  staging: 210,
  errored_preaggr: 211,
  "backend@1.2.0": 65_700,
  "backend@1.2.1": 65_701,
  "backend@1.2.2": 65_702,
  "backend@1.2.3": 65_703,
  "backend@1.3.0": 65_704,
  "frontend@2.4.0": 65_705,
  "frontend@2.4.1": 65_706,
  "frontend@2.5.0": 65_707,
  "frontend@2.5.1": 65_708,
  "frontend@2.6.0": 65_709,
  "worker@0.9.0": 65_710,
  "worker@0.9.1": 65_711,
  "worker@0.9.2": 65_712,
  "worker@0.10.0": 65_713,
  "worker@0.10.1": 65_714,
} as const;

/** Everything above in one object: what `mql_context.indexer_mappings` takes. */
export const DEMO_INDEXER_MAPPINGS: Readonly<Record<string, number>> = Object.freeze({
  ...DEMO_METRIC_IDS,
  ...DEMO_TAG_KEY_IDS,
  ...DEMO_TAG_VALUE_IDS,
});

export type DemoMri = keyof typeof DEMO_METRIC_IDS;
export type DemoTagKey = keyof typeof DEMO_TAG_KEY_IDS;

