/**
 * A generator plan: how to compute rows of one table from `numbers(start, count)` inside
 * ClickHouse, and how to run it in chunks.
 *
 * The SQL is `INSERT INTO t (c1, c2, ...) SELECT e1, e2, ... FROM (SELECT number, <variables>
 * FROM numbers(start, count))`: the inner query computes named random variables of the row
 * number, the outer one the column values. Only columns the table really has and can be
 * written (not MATERIALIZED / ALIAS) are inserted, so columns the plan does not know get their
 * ClickHouse defaults.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { quoteIdentifier, quoteString } from "../clickhouse/escaping.js";

export interface GeneratorPlan {
  /** What the progress bar and the log call it (`events`, `transactions`...). */
  readonly label: string;
  readonly table: string;
  readonly rows: number;
  /** Inner SELECT, in order: `[alias, expression]`, each may use `number` and earlier aliases. */
  readonly variables: readonly (readonly [string, string])[];
  /** Outer SELECT: physical column name (`tags.key` for Nested) -> expression over the variables. */
  readonly columns: Readonly<Record<string, string>>;
}

export interface TableColumn {
  readonly name: string;
  readonly type: string;
  /** '' for an ordinary column, else DEFAULT / MATERIALIZED / ALIAS / EPHEMERAL. */
  readonly defaultKind: string;
}

/** The columns of a table in the current database, or null when the table does not exist. */
export async function tableColumns(client: ClickHouseClient, table: string): Promise<TableColumn[] | null> {
  const result = await client.query({
    query:
      "SELECT name, type, default_kind AS defaultKind FROM system.columns " +
      `WHERE database = currentDatabase() AND table = ${quoteString(table)} ORDER BY position`,
    format: "JSONEachRow",
  });
  const rows = await result.json<TableColumn>();
  return rows.length === 0 ? null : rows;
}

/**
 * The `[column, expression]` pairs to insert: the plan's columns that the table can take.
 * A Nested column stored unflattened (`tags Nested(key, value)` rather than `tags.key`,
 * `tags.value`) gets an array of tuples zipped from the plan's subcolumn expressions.
 */
function insertableColumns(
  plan: Pick<GeneratorPlan, "columns">,
  columns: readonly TableColumn[],
): [string, string][] {
  const out: [string, string][] = [];
  for (const column of columns) {
    if (column.defaultKind === "MATERIALIZED" || column.defaultKind === "ALIAS" || column.defaultKind === "EPHEMERAL") {
      continue;
    }
    const direct = plan.columns[column.name];
    if (direct !== undefined) {
      out.push([column.name, direct]);
      continue;
    }
    const nested = /^Nested\((.*)\)$/s.exec(column.type);
    if (!nested?.[1]) continue;
    const subnames = splitTopLevel(nested[1]).map((field) => field.trim().split(/\s+/)[0] ?? "");
    const subExprs = subnames.map((sub) => plan.columns[`${column.name}.${sub}`]);
    if (subExprs.some((e) => e === undefined)) continue;
    const params = subnames.map((_, i) => `x${i}`);
    out.push([column.name, `arrayMap((${params.join(", ")}) -> tuple(${params.join(", ")}), ${subExprs.join(", ")})`]);
  }
  return out;
}

/** Splits on commas outside parentheses. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  let quoted = false;
  for (const char of text) {
    if (char === "'") quoted = !quoted;
    if (!quoted && char === "(") depth += 1;
    if (!quoted && char === ")") depth -= 1;
    if (!quoted && char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  if (current.trim() !== "") parts.push(current);
  return parts;
}

/**
 * The INSERT ... SELECT of rows [start, start + count) of a plan.
 *
 * With a `sortingKey` (the table's ORDER BY, over column names), the row numbers are sorted
 * by it first, from a narrow subquery computing only the key's columns; the wide rows are then
 * computed in that order. The MergeTree writer finds its block already sorted and skips
 * permuting ~70 columns of arrays, which is most of the cost of an insert.
 */
function insertSql(
  plan: GeneratorPlan,
  pairs: readonly [string, string][],
  start: number,
  count: number,
  sortingKey: string | null = null,
): string {
  const names = pairs.map(([name]) => quoteIdentifier(name)).join(", ");
  const exprs = pairs.map(([, expr]) => expr).join(",\n  ");
  const variables = plan.variables.map(([alias, expr]) => `${expr} AS ${alias}`).join(",\n    ");
  const withVariables = (source: string) => `(SELECT number${variables ? `,\n    ${variables}` : ""}\n  FROM ${source})`;
  let source = `numbers(${start}, ${count})`;
  const keyColumns = sortingKey ? pairs.filter(([name]) => mentions(sortingKey, name)) : [];
  if (sortingKey && keyColumns.length > 0) {
    const keyExprs = keyColumns.map(([name, expr]) => `${expr} AS \`${name}\``).join(", ");
    source = `(SELECT number FROM (SELECT number, ${keyExprs} FROM ${withVariables(source)}) ORDER BY ${sortingKey})`;
  }
  return `INSERT INTO ${quoteIdentifier(plan.table)} (${names})\nSELECT\n  ${exprs}\nFROM ${withVariables(source)}`;
}

/** Whether an SQL expression mentions a column name as a whole identifier. */
function mentions(sql: string, column: string): boolean {
  const escaped = column.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^A-Za-z0-9_.\`])\`?${escaped}\`?($|[^A-Za-z0-9_.\`])`).test(sql);
}

/** The ORDER BY of a MergeTree table (system.tables.sorting_key), null when none. */
async function tableSortingKey(client: ClickHouseClient, table: string): Promise<string | null> {
  const result = await client.query({
    query: `SELECT sorting_key FROM system.tables WHERE database = currentDatabase() AND name = ${quoteString(table)}`,
    format: "JSONEachRow",
  });
  const rows = await result.json<{ sorting_key: string }>();
  const key = rows[0]?.sorting_key ?? "";
  return key === "" ? null : key;
}

/** Keep the subquery ORDER BY of `insertSql`: ClickHouse would otherwise drop it as redundant. */
const INSERT_SETTINGS = { query_plan_remove_redundant_sorting: 0 } as const;

/** Rows generated per INSERT: the progress bar advances once per chunk. */
const CHUNK_ROWS = 100_000;

/**
 * Runs a plan chunk by chunk; `onChunk` gets the rows done so far. Returns the columns that
 * were inserted (others got their defaults).
 */
export async function runPlan(
  client: ClickHouseClient,
  plan: GeneratorPlan,
  columns: readonly TableColumn[],
  onChunk: (done: number) => void,
): Promise<string[]> {
  const pairs = insertableColumns(plan, columns);
  const sortingKey = await tableSortingKey(client, plan.table);
  for (let start = 0; start < plan.rows; start += CHUNK_ROWS) {
    const count = Math.min(CHUNK_ROWS, plan.rows - start);
    await client.command({
      query: insertSql(plan, pairs, start, count, sortingKey),
      clickhouse_settings: INSERT_SETTINGS,
    });
    onChunk(start + count);
  }
  return pairs.map(([name]) => name);
}
