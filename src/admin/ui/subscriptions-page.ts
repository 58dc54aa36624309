/**
 * Subscriptions: every subscription of every entity that has them, with its state, last run,
 * lag, counts and last error; a chart of its recent results (from the results storage the
 * embedded scheduler writes); create and delete, through the public subscription routes.
 */
import { getJson, loadOverview, postJson, type Overview } from "./api.js";
import { el, table } from "./dom.js";
import { drawChart, seriesOf } from "./time-series-chart.js";

const COLUMNS = ["dataset", "entity", "subscription_id", "resolution", "time_window", "last_window", "lag_s", "published", "failed", "skipped_stale", "last_error", "query"];

type Row = Record<string, unknown>;

export async function subscriptionsPage(root: HTMLElement): Promise<void> {
  const overview = await loadOverview();
  const rows: Row[] = [];
  for (const { dataset, entity } of overview.subscribable) {
    const answer = await getJson(`/${dataset}/${entity}/subscriptions`);
    for (const s of (answer.json?.data ?? []) as Record<string, any>[]) { // eslint-disable-line @typescript-eslint/no-explicit-any
      const lastWindow = s.status?.last_window ? Date.parse(s.status.last_window) : null;
      rows.push({
        dataset,
        entity,
        subscription_id: s.subscription_id,
        resolution: s.resolution,
        time_window: s.time_window,
        last_window: s.status?.last_window ?? "",
        lag_s: lastWindow === null || Number.isNaN(lastWindow) ? "" : Math.round((Date.now() - lastWindow) / 1000),
        published: s.status?.published,
        failed: s.status?.failed,
        skipped_stale: s.status?.skipped_stale,
        last_error: s.status?.last_error ?? "",
        query: s.query ?? s.request_name ?? "",
      });
    }
  }
  const detail = el("div", { id: "subscription-detail" });
  const list = rows.length === 0
    ? el("p", { class: "muted", id: "subscriptions-empty" }, "No subscriptions yet: create one below, or with POST /{dataset}/{entity}/subscriptions (README).")
    : el("div", { id: "subscriptions" }, table(COLUMNS, rows, (row) => void showDetail(detail, row, () => void subscriptionsPage(root))));
  root.replaceChildren(el("h2", {}, "Subscriptions"), list, detail, createForm(overview, () => void subscriptionsPage(root)));
}

/** One subscription: its recent results as a chart, and a delete button. */
async function showDetail(detail: HTMLElement, row: Row, reload: () => void): Promise<void> {
  const id = String(row.subscription_id);
  const remove = el("button", { id: "delete-subscription" }, "Delete");
  const message = el("div", { id: "subscription-message" });
  remove.addEventListener("click", async () => {
    const response = await fetch(`/api/${row.dataset}/${row.entity}/subscriptions/${id}`, { method: "DELETE" });
    if (response.status === 202) reload();
    else message.replaceChildren(el("div", { class: "error" }, `delete failed: ${response.status} ${await response.text()}`));
  });
  const chart = el("div", { id: "results-chart" });
  detail.replaceChildren(el("h3", {}, `Subscription ${id}`), el("div", { class: "controls" }, remove), message, chart);
  const to = new Date();
  const from = new Date(to.getTime() - 7 * 86_400_000);
  const iso = (date: Date) => date.toISOString().slice(0, 19);
  const query =
    "MATCH STORAGE(subscription_results) SELECT timestamp, payload " +
    `WHERE subscription_id = '${id.replace(/[\\']/g, "")}' AND timestamp >= toDateTime('${iso(from)}') AND timestamp < toDateTime('${iso(to)}') ` +
    "ORDER BY timestamp ASC LIMIT 500";
  const answer = await postJson("/query", { dataset: "events", query, tenant_ids: { organization_id: 0, referrer: "admin.subscriptions" } });
  if (answer.json?.error) {
    chart.replaceChildren(el("div", { class: "error" }, answer.json.error.message));
    return;
  }
  // Each result row carries the window's answer: its first numeric value is what the chart draws.
  const points: Row[] = [];
  for (const result of answer.json.data as { timestamp: string; payload: string }[]) {
    const first = (JSON.parse(result.payload)?.payload?.result?.data ?? [])[0] as Row | undefined;
    const value = first ? Object.values(first).find((v) => typeof v === "number") : undefined;
    if (typeof value === "number") points.push({ time: result.timestamp, value });
  }
  if (points.length === 0) {
    chart.replaceChildren(el("p", { class: "muted" }, "No results in the last 7 days (results come every resolution seconds once the scheduler runs it)."));
    return;
  }
  chart.replaceChildren(el("p", { class: "muted" }, `${points.length} results`));
  const series = seriesOf(["time", "value"], points, "time");
  if (series) drawChart(chart, series);
}

function createForm(overview: Overview, reload: () => void): HTMLElement {
  const target = el("select", { id: "new-target" }, ...overview.subscribable.map(({ dataset, entity }) => el("option", { value: `${dataset}/${entity}` }, `${dataset} / ${entity}`)));
  const project = el("input", { id: "new-project", type: "number", value: "1" });
  const window = el("input", { id: "new-window", type: "number", value: "3600" });
  const resolution = el("input", { id: "new-resolution", type: "number", value: "60" });
  const query = el("textarea", { id: "new-query", rows: "3", spellcheck: "false" });
  query.value = "MATCH (events) SELECT count() AS count WHERE project_id = 1";
  const create = el("button", { id: "create-subscription" }, "Create");
  const message = el("div", { id: "create-message" });
  create.addEventListener("click", async () => {
    const answer = await postJson(`/${target.value}/subscriptions`, {
      project_id: Number(project.value),
      time_window: Number(window.value),
      resolution: Number(resolution.value),
      query: query.value,
      tenant_ids: { organization_id: 1, referrer: "admin.subscriptions" },
    });
    if (answer.status === 202) reload();
    else message.replaceChildren(el("div", { class: "error" }, `${answer.status} ${answer.json?.error?.type ?? ""}: ${answer.json?.error?.message ?? ""}`));
  });
  return el(
    "div",
    {},
    el("h3", {}, "New subscription"),
    el("div", { class: "controls" }, el("label", {}, "entity ", target), el("label", {}, "project ", project), el("label", {}, "time_window s ", window), el("label", {}, "resolution s ", resolution)),
    query,
    el("div", { class: "controls" }, create),
    message,
  );
}
