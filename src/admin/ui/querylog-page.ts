/** Query log: the newest queries, filtered by referrer, organization, status and duration; a row opens its query in the Query page. */
import { getJson } from "./api.js";
import { el, table } from "./dom.js";

const COLUMNS = ["timestamp", "dataset", "referrer", "organization_id", "status", "error_type", "duration_ms", "cache_status", "result_rows", "query_text"];

export async function queryLogPage(root: HTMLElement): Promise<void> {
  const referrer = el("input", { id: "filter-referrer", placeholder: "referrer contains" });
  const organization = el("input", { id: "filter-organization", placeholder: "organization id", type: "number" });
  const status = el("select", { id: "filter-status" }, el("option", { value: "" }, "any status"), ...["success", "error", "rate-limited", "invalid"].map((s) => el("option", { value: s }, s)));
  const duration = el("input", { id: "filter-duration", placeholder: "min duration ms", type: "number" });
  const apply = el("button", { id: "apply" }, "Filter");
  const list = el("div", { id: "querylog" });

  const load = async () => {
    const query = new URLSearchParams({ limit: "100" });
    if (referrer.value) query.set("referrer", referrer.value);
    if (organization.value) query.set("organization_id", organization.value);
    if (status.value) query.set("status", status.value);
    if (duration.value) query.set("min_duration_ms", duration.value);
    const answer = await getJson(`/admin/querylog?${query}`);
    if (answer.status !== 200) {
      list.replaceChildren(el("div", { class: "error" }, answer.json?.error?.message ?? `HTTP ${answer.status}`));
      return;
    }
    const rows = answer.json.data as Record<string, unknown>[];
    list.replaceChildren(
      el("p", { class: "muted" }, `${rows.length} queries, newest first; click one to open it in the Query page (the log is written every second)`),
      table(COLUMNS, rows, (row) => {
        const params = new URLSearchParams({ dataset: String(row.dataset), q: String(row.query_text) });
        if (String(row.query_text).trimStart().startsWith("MATCH") === false) params.set("language", "mql");
        location.hash = `#/query?${params}`;
      }),
    );
  };
  apply.addEventListener("click", () => void load());
  root.replaceChildren(el("h2", {}, "Query log"), el("div", { class: "controls" }, referrer, organization, status, duration, apply), list);
  await load();
}
