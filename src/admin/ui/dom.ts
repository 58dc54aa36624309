/** A small element builder: the pages are plain DOM, no framework. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
}

/** A table of rows (objects) with the given columns; cells hold text, objects as JSON. */
export function table(columns: readonly string[], rows: readonly Record<string, unknown>[], onRowClick?: (row: Record<string, unknown>) => void): HTMLTableElement {
  const head = el("thead", {}, el("tr", {}, ...columns.map((column) => el("th", {}, column))));
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr", onRowClick ? { class: "clickable" } : {}, ...columns.map((column) => el("td", {}, cellText(row[column]))));
    if (onRowClick) tr.addEventListener("click", () => onRowClick(row));
    body.append(tr);
  }
  return el("table", {}, head, body);
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
