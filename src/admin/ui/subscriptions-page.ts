/** Subscriptions: every subscription of every entity that has them, with its state, last run, lag and last error. */
import { getJson, loadOverview } from "./api.js";
import { el, table } from "./dom.js";

const COLUMNS = ["dataset", "entity", "subscription_id", "resolution", "time_window", "last_window", "lag_s", "published", "failed", "skipped_stale", "last_error", "query"];

export async function subscriptionsPage(root: HTMLElement): Promise<void> {
  const overview = await loadOverview();
  const rows: Record<string, unknown>[] = [];
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
        lag_s: lastWindow === null ? "" : Math.round((Date.now() - lastWindow) / 1000),
        published: s.status?.published,
        failed: s.status?.failed,
        skipped_stale: s.status?.skipped_stale,
        last_error: s.status?.last_error ?? "",
        query: s.query ?? s.request_name ?? "",
      });
    }
  }
  root.replaceChildren(
    el("h2", {}, "Subscriptions"),
    el("p", { class: "muted" }, rows.length === 0 ? "No subscriptions yet: create one with POST /{dataset}/{entity}/subscriptions (README)." : `${rows.length} subscriptions`),
    table(COLUMNS, rows),
  );
}
