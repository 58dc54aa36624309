/**
 * The INSERT of a range's rows. One statement per range, deduplicated by the range's token, and
 * rows the engine refuses isolated by halving (isolate-refused-rows.ts): each half carries a token
 * of its own derived from the range's (range-token.ts), so a replay sends the same halves under
 * the same tokens.
 *
 * The settings are a SETTINGS clause of the statement, not the client's clickhouse_settings: the
 * embedded engine's connection turns those into `SET` statements on its session, where they stay
 * for every later query, and a token left there would make the next writer's inserts look like
 * repeats of this one.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { quoteIdentifier, quoteString } from "../clickhouse/escaping.js";
import { insertIsolatingRefusals, refusalText } from "../clickhouse/isolate-refused-rows.js";
import type { DeadLetter, RangeEntry } from "./message-outcome.js";
import { partToken } from "./range-token.js";

/** Writes JSONEachRow lines into a table with statement-level settings (ColumnstoreClient.insertRows). */
export type RowWriter = (table: string, settings: Readonly<Record<string, string | number>>, body: string) => Promise<void>;

/** A RowWriter for any client: the rows follow the INSERT statement in its text (a server's HTTP body). */
export function statementRowWriter(client: ClickHouseClient): RowWriter {
  return async (table, settings, body) => {
    const pairs = Object.entries(settings).map(([name, value]) => `${name} = ${typeof value === "number" ? String(value) : quoteString(value)}`);
    await client.command({ query: `INSERT INTO ${quoteIdentifier(table)} SETTINGS ${pairs.join(", ")} FORMAT JSONEachRow\n${body}` });
  };
}

export interface RangeInsert {
  readonly write: RowWriter;
  readonly table: string;
  /** The range's token (range-token.ts). */
  readonly token: string;
  /** The range's messages that have rows, in offset order. */
  readonly entries: readonly RangeEntry[];
  /** Before each INSERT (the whole range or a part): throws to stop. */
  before(): Promise<void>;
  onInserted(rows: number, seconds: number): void;
  onFailure(reason: unknown): void;
}

/**
 * Deduplicated by `token`, in the table and in every materialized view it feeds; synchronous (an
 * async insert deduplicates otherwise); and ONE block whatever its size, so that a refused row
 * fails the whole statement before any of it is written (with ClickHouse's default block sizes a
 * refusal late in a large range leaves the blocks before it written, and the halves sent next
 * would write them again under other tokens).
 */
export function insertSettings(token: string): Record<string, string | number> {
  return {
    insert_deduplicate: 1,
    insert_deduplication_token: token,
    deduplicate_blocks_in_dependent_materialized_views: 1,
    async_insert: 0,
    max_insert_block_size: 1_000_000_000,
    min_insert_block_size_rows: 1_000_000_000,
    min_insert_block_size_bytes: 2 ** 40,
  };
}

function rowsOf(entries: readonly RangeEntry[]): number {
  return entries.reduce((sum, entry) => sum + (entry.outcome.kind === "rows" ? entry.outcome.rows : 0), 0);
}

/** Writes the rows; returns the messages whose rows the engine refused, as dead letters with its reason. */
export async function insertRange(insert: RangeInsert): Promise<DeadLetter[]> {
  const refused: DeadLetter[] = [];
  await insertIsolatingRefusals(insert.entries, {
    insert: async (part) => {
      await insert.before();
      const token = part.length === insert.entries.length ? insert.token : partToken(insert.token, part[0]!.offset, part[part.length - 1]!.offset);
      let body = "";
      for (const entry of part) if (entry.outcome.kind === "rows") body += entry.outcome.lines;
      const started = performance.now();
      await insert.write(insert.table, insertSettings(token), body);
      insert.onInserted(rowsOf(part), (performance.now() - started) / 1000);
    },
    onRefused: (entry, reason) => {
      refused.push({ entry, cause: "refused_by_engine", reason: `ClickHouse refused the row(s): ${refusalText(reason)}` });
    },
    onFailure: (reason) => insert.onFailure(reason),
  });
  return refused;
}
