/** The browsable SnQL form at GET /{dataset}/snql: a textarea, the flags, and the JSON answer. */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function renderBrowsableForm(dataset: string): string {
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
<textarea id="body" rows="12">${escapeHtml(template)}</textarea>
<p><label><input type="checkbox" id="debug"> debug</label><label><input type="checkbox" id="consistent"> consistent</label><label><input type="checkbox" id="turbo"> turbo</label>
<button id="run">Run</button></p>
<h2>Result</h2>
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
});
</script>
</body></html>`;
}
