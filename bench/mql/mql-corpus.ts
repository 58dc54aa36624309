/**
 * Realistic MQL as snuba-sdk prints it (every formula parenthesised, conditions joined by AND,
 * values quoted, `by (…)`), over the demo metrics, each with the dataset and use case it reads.
 */
export interface MqlCorpusEntry {
  readonly dataset: "generic_metrics" | "metrics";
  readonly useCase: string;
  readonly mql: string;
  readonly interval: number | null;
}

const D = "d:transactions/duration@millisecond";
const LCP = "d:transactions/measurements.lcp@millisecond";
const COUNT = "c:transactions/count_per_root_project@none";

export const MQL_CORPUS: readonly MqlCorpusEntry[] = [
  { dataset: "generic_metrics", useCase: "transactions", interval: 3600, mql: `avg(${D})` },
  { dataset: "generic_metrics", useCase: "transactions", interval: 3600, mql: `quantiles(0.95)(${D}){transaction:"GET /api/0/users/me/"}` },
  { dataset: "generic_metrics", useCase: "transactions", interval: 60, mql: `quantiles(0.5, 0.75, 0.95)(${D}){environment:"production" AND transaction.op:"http.server"} by (transaction)` },
  { dataset: "generic_metrics", useCase: "transactions", interval: null, mql: `count(${D}){transaction.status:["ok", "cancelled"]} by (transaction, http.method)` },
  { dataset: "generic_metrics", useCase: "transactions", interval: 3600, mql: `sum(${COUNT}){!decision:"drop"} by (environment)` },
  { dataset: "generic_metrics", useCase: "transactions", interval: 86400, mql: `max(${LCP}){browser.name:"Chrome*"} by (browser.name)` },
  { dataset: "generic_metrics", useCase: "transactions", interval: 3600, mql: `(sum(${D}) / count(${D})) by (transaction)` },
  { dataset: "generic_metrics", useCase: "transactions", interval: 3600, mql: `((count(${D}){transaction.status:"ok"} / count(${D})) * 100)` },
  { dataset: "generic_metrics", useCase: "transactions", interval: null, mql: `(count(${D}){(transaction.status:"internal_error" OR transaction.status:"unknown")} / count(${D})){environment:"production"} by (transaction)` },
  { dataset: "generic_metrics", useCase: "transactions", interval: 3600, mql: "uniq(s:transactions/user@none){environment:\"production\"} by (transaction)" },
  { dataset: "generic_metrics", useCase: "spans", interval: 600, mql: "avg(d:spans/exclusive_time@millisecond){span.op:\"db\" AND !span.description:\"SELECT 1\"} by (span.op)" },
  { dataset: "generic_metrics", useCase: "spans", interval: 3600, mql: "max(g:spans/self_time@millisecond) by (span.op)" },
  { dataset: "generic_metrics", useCase: "custom", interval: 3600, mql: "sum(c:custom/page_views@none){page:[\"/\", \"/pricing\", \"/docs\"]} by (page)" },
  { dataset: "generic_metrics", useCase: "custom", interval: 86400, mql: "(sum(c:custom/page_views@none) / uniq(s:custom/active_organizations@none))" },
  { dataset: "generic_metrics", useCase: "custom", interval: null, mql: "avg(g:custom/queue.depth@none){environment:\"production\"} by (queue)" },
  { dataset: "generic_metrics", useCase: "custom", interval: 3600, mql: "quantiles(0.99)(d:custom/checkout.cart_value@none){payment_method:\"card\"}" },
  { dataset: "metrics", useCase: "sessions", interval: 86400, mql: "sum(c:sessions/session@none){session.status:\"init\"} by (release)" },
  { dataset: "metrics", useCase: "sessions", interval: 3600, mql: "(sum(c:sessions/session@none){session.status:\"crashed\"} / sum(c:sessions/session@none){session.status:\"init\"})" },
  { dataset: "metrics", useCase: "sessions", interval: null, mql: "uniq(s:sessions/user@none){environment:\"production\"} by (release)" },
  { dataset: "metrics", useCase: "sessions", interval: 3600, mql: "avg(d:sessions/duration@second){session.status:\"exited\"}" },
];
