/**
 * Parses a JSONCompact answer, repairing the one malformed shape the embedded engine produces.
 *
 * chDB (3.4) writes a `GROUP BY … WITH TOTALS` query that matches no rows out of order: the
 * tail of the `data` array and the `totals` block come first, then the document from `{"meta"`
 * with an empty `data` array cut open (`"data": [` directly followed by `,`). A ClickHouse
 * server never does this. The repair moves the leading fragment back where it belongs; any other
 * malformed text is left to fail as it would.
 */
const DOCUMENT_START = '{\n\t"meta":';
const OPEN_DATA = '"data":\n\t[\n';

export function parseJsonCompact(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (parseError) {
    const repaired = repairLeadingTotals(text);
    if (repaired === null) throw parseError;
    return JSON.parse(repaired);
  }
}

function repairLeadingTotals(text: string): string | null {
  const start = text.indexOf(DOCUMENT_START);
  if (start <= 0) return null;
  const fragment = text.slice(0, start);
  if (!/^\s*\],\s*"totals":/.test(fragment)) return null;
  const document = text.slice(start);
  const dataAt = document.indexOf(OPEN_DATA);
  if (dataAt < 0) return null;
  const splice = dataAt + OPEN_DATA.length;
  return document.slice(0, splice) + fragment + document.slice(splice);
}
