/**
 * The hand-off between a language front end (SnQL, MQL) and the shared back end: the final SQL,
 * where it reads, and what the response reports about it. Front ends produce one; the back end
 * (`runPreparedQuery`) admits, caches, executes and logs it the same way for every language.
 */
import type { StorageDefinition } from "../datasets/definition-types.js";

export interface PreparedQuery {
  readonly sql: string;
  /** Output names in SELECT order (the SQL uses mangled aliases). */
  readonly columnNames: readonly string[];
  /** The entity the query was written against (for the query log and metrics). */
  readonly entity: string;
  readonly storage: StorageDefinition;
  /** The ClickHouse table read (`stats.columnstore_table`). */
  readonly table: string;
  readonly final: boolean;
  readonly sample: number | null;
}
