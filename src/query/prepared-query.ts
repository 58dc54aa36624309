/**
 * The hand-off between a language front end (SnQL, MQL) and the shared back end: the final SQL,
 * where it reads, and what the response reports about it. Front ends produce one; the back end
 * (`runPreparedQuery`) admits, caches, executes and logs it the same way for every language.
 */
import type { StorageDefinition } from "../datasets/definition-types.js";
import type { WrittenNames } from "../query/written-names.js";

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
  /**
   * Where the query text wrote each function and column, for an engine error that names one
   * (src/errors/engine-error-position.ts). Computed only when the engine fails the query, so a
   * query that runs pays nothing; absent where the language has no text positions (MQL, RPC).
   */
  readonly writtenNames?: () => WrittenNames;
}
