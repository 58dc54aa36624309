/**
 * The browsable SnQL form at GET /{dataset}/snql: a textarea, the flags, the JSON answer, and
 * when the answer is a time series (a `time` column) a light SVG chart of it, one line per group.
 * The admin UI's Query page (when it runs) does more: the form links to it.
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function renderBrowsableForm(dataset: string, adminUrl?: string): string {
  const now = new Date();
  const end = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000).toISOString().slice(0, 19);
  const start = new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 13) + ":00:00";
  const entity = dataset === "transactions" ? "transactions" : "events";
  const template = JSON.stringify(
    {
      query: `MATCH (${entity}) SELECT count() AS count BY project_id WHERE timestamp >= toDateTime('${start}') AND timestamp < toDateTime('${end}') AND project_id IN tuple(1, 2, 3)`,
      tenant_ids: { organization_id: 1, referrer: "browsable-form" },
    },
    null,
    4,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Quarry — ${escapeHtml(dataset)} SnQL</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}textarea{width:100%;font-family:monospace}label{margin-right:1rem}</style>
</head><body>
<h1>Query <small>${escapeHtml(dataset)}</small></h1>
${adminUrl ? `<p><a id="admin-link" href="${escapeHtml(adminUrl)}/#/query?dataset=${encodeURIComponent(dataset)}">Open the admin UI's Query page</a> for tables, charts, the query log and more.</p>` : ""}
<textarea id="body" rows="12">${escapeHtml(template)}</textarea>
<p><label><input type="checkbox" id="debug"> debug</label><label><input type="checkbox" id="consistent"> consistent</label><label><input type="checkbox" id="turbo"> turbo</label>
<button id="run">Run</button></p>
<h2>Result</h2>
<svg id="chart" width="900" height="260" hidden></svg>
<textarea id="result" rows="24" readonly></textarea>
<script>
document.getElementById("run").addEventListener("click", async () => {
  const out = document.getElementById("result");
  let body;
  try { body = JSON.parse(document.getElementById("body").value); } catch (e) { out.value = "The body is not valid JSON: " + e.message; return; }
  for (const flag of ["debug", "consistent", "turbo"]) if (document.getElementById(flag).checked) body[flag] = true;
  const response = await fetch(window.location.pathname, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  try { out.value = response.status + "\\n" + JSON.stringify(JSON.parse(text), null, 4); } catch { out.value = response.status + "\\n" + text; }
  try { chart(JSON.parse(text)); } catch { document.getElementById("chart").hidden = true; }
});
// A time series as lines: x = the time column, y = the last numeric column, a line per group.
function chart(answer) {
  const svg = document.getElementById("chart");
  const rows = answer.data || [];
  const names = (answer.meta || []).map((m) => m.name);
  const value = names.slice().reverse().find((n) => n !== "time" && rows.some((r) => typeof r[n] === "number"));
  svg.hidden = !(names.includes("time") && value && rows.length > 0);
  if (svg.hidden) return;
  const groups = new Map();
  for (const r of rows) {
    const key = names.filter((n) => n !== "time" && n !== value).map((n) => String(r[n])).join(" / ") || value;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push([Date.parse(r.time), Number(r[value])]);
  }
  const xs = rows.map((r) => Date.parse(r.time)), ys = rows.map((r) => Number(r[value]));
  const [x0, x1, y1] = [Math.min(...xs), Math.max(...xs), Math.max(...ys, 0)];
  const px = (x) => 40 + ((x - x0) / (x1 - x0 || 1)) * 840, py = (y) => 230 - (y / (y1 || 1)) * 210;
  const colours = ["#2f6fde", "#d9534f", "#3a9d5d", "#e08e0b", "#8e44ad", "#16a2b8"];
  let i = 0, parts = ['<line x1="40" y1="230" x2="880" y2="230" stroke="#999"/><text x="2" y="24" font-size="11">' + y1 + "</text>"];
  for (const [key, points] of groups) {
    const colour = colours[i++ % colours.length];
    points.sort((a, b) => a[0] - b[0]);
    parts.push('<polyline fill="none" stroke="' + colour + '" stroke-width="2" points="' + points.map(([x, y]) => px(x) + "," + py(y)).join(" ") + '"/>');
    parts.push('<text x="' + (40 + 120 * (i - 1)) + '" y="252" font-size="11" fill="' + colour + '">' + key.replace(/[<&]/g, "") + "</text>");
  }
  svg.innerHTML = parts.join("");
}
</script>
</body></html>`;
}
