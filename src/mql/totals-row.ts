/**
 * Moves the marked totals row (see `withTotalsRow` in translate-mql.ts) out of `data` into
 * `totals`, and drops the marker column, so the response has Snuba's shape.
 */
import type { QueryResult } from "../query/query-result.js";
import { TOTALS_MARKER } from "./translate-mql.js";

export function popTotalsRow(result: QueryResult): QueryResult {
  if (!result.meta.some((column) => column.name === TOTALS_MARKER)) return result;
  const data = [];
  let totals;
  for (const row of result.data) {
    const { [TOTALS_MARKER]: marker, ...rest } = row;
    if (Number(marker) === 1) totals = rest;
    else data.push(rest);
  }
  const meta = result.meta.filter((column) => column.name !== TOTALS_MARKER);
  const popped: QueryResult = { ...result, data, meta };
  if (totals) popped.totals = totals;
  if (result.stats) popped.stats = { ...result.stats, result_rows: data.length, result_cols: meta.length };
  return popped;
}
