/**
 * Query: SnQL or MQL against a dataset, the request flags, and what came back: the error at its
 * line and column in the editor, or the generated SQL, stats, timing, quota decision, the rows
 * as a table and, when a column holds time buckets, as a chart (one series per group).
 */
import { loadOverview, postJson } from "./api.js";
import { el, table } from "./dom.js";
import { drawChart, seriesOf, timeColumn } from "./time-series-chart.js";

const FLAGS = ["debug", "consistent", "turbo", "dry_run"] as const;

const SNQL_EXAMPLE = (entity: string) => {
  const to = new Date();
  to.setUTCMinutes(0, 0, 0);
  const from = new Date(to.getTime() - 24 * 3_600_000);
  const iso = (date: Date) => date.toISOString().slice(0, 19);
  return `MATCH (${entity})\nSELECT count() AS count BY time\nWHERE timestamp >= toDateTime('${iso(from)}') AND timestamp < toDateTime('${iso(to)}')\n  AND project_id = 1\nORDER BY time ASC\nGRANULARITY 3600`;
};

const MQL_CONTEXT = () => {
  const end = new Date();
  end.setUTCMinutes(0, 0, 0);
  const start = new Date(end.getTime() - 24 * 3_600_000);
  return JSON.stringify(
    {
      start: start.toISOString(),
      end: end.toISOString(),
      rollup: { granularity: 3600, interval: 3600, orderby: null, with_totals: null },
      scope: { org_ids: [1], project_ids: [1], use_case_id: "transactions" },
      limit: null,
      offset: null,
    },
    null,
    2,
  );
};

export async function queryPage(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const overview = await loadOverview();
  const language = el("select", { id: "language" }, el("option", { value: "snql" }, "SnQL"), el("option", { value: "mql" }, "MQL"));
  const dataset = el("select", { id: "dataset" }, ...overview.datasets.map((d) => el("option", { value: d.name }, d.name)));
  const entity = el("select", { id: "entity" });
  const editor = el("textarea", { id: "query", rows: "9", spellcheck: "false" });
  const context = el("textarea", { id: "mql-context", rows: "9", spellcheck: "false" });
  const contextBlock = el("div", { class: "mql-only" }, el("label", {}, "mql_context"), context);
  const flags = FLAGS.map((flag) => el("input", { type: "checkbox", id: `flag-${flag}`, ...(flag === "debug" ? { checked: "" } : {}) }));
  const run = el("button", { id: "run" }, "Run");
  const errorBox = el("div", { id: "error", class: "error", hidden: "" });
  const results = el("div", { id: "results" });

  const fillEntities = () => {
    const chosen = overview.datasets.find((d) => d.name === dataset.value);
    entity.replaceChildren(...(chosen?.entities ?? []).map((name) => el("option", { value: name }, name)));
  };
  dataset.addEventListener("change", fillEntities);
  entity.addEventListener("change", () => {
    if (language.value === "snql") editor.value = SNQL_EXAMPLE(entity.value);
  });
  const showLanguage = () => {
    contextBlock.hidden = language.value !== "mql";
    if (language.value === "mql" && context.value === "") context.value = MQL_CONTEXT();
  };
  language.addEventListener("change", showLanguage);

  dataset.value = params.get("dataset") ?? (overview.datasets.some((d) => d.name === "events") ? "events" : overview.datasets[0]?.name ?? "");
  fillEntities();
  language.value = params.get("language") === "mql" ? "mql" : "snql";
  editor.value = params.get("q") ?? SNQL_EXAMPLE(entity.value || "events");
  showLanguage();

  run.addEventListener("click", async () => {
    errorBox.hidden = true;
    results.replaceChildren(el("p", { class: "muted" }, "running…"));
    const body: Record<string, unknown> = { tenant_ids: { organization_id: 1, referrer: "admin.query" } };
    FLAGS.forEach((flag, i) => {
      if (flags[i]!.checked) body[flag] = true;
    });
    let path: string;
    if (language.value === "mql") {
      body.mql = editor.value;
      try {
        body.mql_context = JSON.parse(context.value);
      } catch {
        showError("mql_context is not valid JSON", null);
        return;
      }
      path = `/${dataset.value}/mql`;
    } else {
      body.query = editor.value;
      path = `/${dataset.value}/snql`;
    }
    const answer = await postJson(path, body);
    if (answer.json?.error) {
      const { type, message, line, column } = answer.json.error as { type: string; message: string; line?: number; column?: number };
      showError(`${answer.status} ${type}: ${message}`, line !== undefined && column !== undefined ? { line, column } : null);
      results.replaceChildren();
      return;
    }
    showResults(answer.json);
  });

  function showError(message: string, position: { line: number; column: number } | null): void {
    errorBox.hidden = false;
    errorBox.replaceChildren(el("span", {}, message));
    if (!position) return;
    errorBox.append(el("span", { class: "position", id: "error-position" }, ` (line ${position.line}, column ${position.column})`));
    // The editor selects the offending character, so the caret is where the error is.
    const lines = editor.value.split("\n");
    let offset = 0;
    for (let i = 0; i < position.line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
    offset += position.column - 1;
    editor.focus();
    editor.setSelectionRange(offset, Math.min(editor.value.length, offset + 1));
    editor.classList.add("has-error");
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a query response, read field by field
  function showResults(json: any): void {
    editor.classList.remove("has-error");
    const rows = (json.data ?? []) as Record<string, unknown>[];
    const columns = ((json.meta ?? []) as { name: string }[]).map((m) => m.name);
    const parts: Node[] = [el("h3", {}, `${rows.length} row${rows.length === 1 ? "" : "s"}`)];
    const time = timeColumn(columns, rows);
    const series = time ? seriesOf(columns, rows, time) : null;
    const chart = el("div", { id: "chart" });
    if (series) parts.push(chart);
    parts.push(el("div", { id: "rows" }, table(columns, rows)));
    if (json.sql) parts.push(el("h3", {}, "SQL"), el("pre", { id: "sql" }, json.sql));
    if (json.stats) parts.push(el("h3", {}, "Stats"), el("pre", { id: "stats" }, JSON.stringify(json.stats, null, 2)));
    if (json.timing) parts.push(el("h3", {}, "Timing"), el("pre", { id: "timing" }, JSON.stringify(json.timing, null, 2)));
    if (json.quota_allowance) parts.push(el("h3", {}, "Quota decision"), el("pre", { id: "quota" }, JSON.stringify(json.quota_allowance.summary ?? json.quota_allowance, null, 2)));
    results.replaceChildren(...parts);
    if (series) drawChart(chart, series);
  }

  root.replaceChildren(
    el("h2", {}, "Query"),
    el("div", { class: "controls" }, el("label", {}, "language ", language), el("label", {}, "dataset ", dataset), el("label", {}, "entity ", entity)),
    editor,
    contextBlock,
    el("div", { class: "controls" }, ...FLAGS.map((flag, i) => el("label", {}, flags[i]!, ` ${flag}`)), run),
    errorBox,
    results,
  );
  if (params.get("run") === "1") run.click();
}
