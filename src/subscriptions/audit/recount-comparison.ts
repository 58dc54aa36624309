/**
 * Whether a published window result equals its recount: the same rows, value for value, exactly
 * (no tolerance: a recount runs the same SQL over the same rows, so a float that differs means
 * the data differs). Rows are compared as a multiset: a grouped query without ORDER BY returns
 * its groups in any order, and two runs of one query may order them differently.
 *
 * Before comparing, each column's values take one form, from the column's type: a 64-bit
 * integer is a number when a double holds it exactly, else a BigInt. The forms differ by wire:
 * a result published in-process carries such an integer as a bare JSON number, one run through
 * a query node's Connect API (a `quarry scheduler` node's, and the recount's) as a string.
 */
import { converterFor } from "../../execution/result-values.js";
import type { ColumnMetaEntry, ResultRow, ResultValue } from "../../query/query-result.js";

/** A window result's rows and columns, as published (`payload.result`) or as recounted. */
export interface WindowRows {
  readonly data: readonly unknown[];
  readonly meta: readonly ColumnMetaEntry[];
}

export interface RowComparison {
  readonly equal: boolean;
  /** Both sides' rows, their values in the one form compared. */
  readonly published: ResultRow[];
  readonly recounted: ResultRow[];
}

/** Each row's values in one form per column type (idempotent: a value already in that form stays). */
export function normalizeRows(rows: WindowRows): ResultRow[] {
  const converters = new Map(rows.meta.map((column) => [column.name, converterFor(column.type)]));
  return rows.data.map((row) => {
    if (row === null || typeof row !== "object" || Array.isArray(row)) return { "": row as ResultValue };
    const out: ResultRow = {};
    for (const [name, value] of Object.entries(row as Record<string, unknown>)) {
      const convert = converters.get(name);
      out[name] = convert ? convert(value) : (value as ResultValue);
    }
    return out;
  });
}

/** JSON text with object keys sorted and BigInts as bare integers: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(",")}}`;
  }
  // Numbers as JSON writes them (the shortest text that reads back as the same double; NaN and
  // infinities as null, as a published message carries them), strings quoted, booleans, null.
  return JSON.stringify(value) ?? "null";
}

export function compareWindowRows(published: WindowRows, recounted: WindowRows): RowComparison {
  const publishedRows = normalizeRows(published);
  const recountedRows = normalizeRows(recounted);
  const texts = (rows: ResultRow[]) => rows.map(canonicalJson).sort();
  const a = texts(publishedRows);
  const b = texts(recountedRows);
  const equal = a.length === b.length && a.every((text, i) => text === b[i]);
  return { equal, published: publishedRows, recounted: recountedRows };
}
