/**
 * The statement that gives a storage's table its MergeTree settings. Settings are applied with
 * `ALTER TABLE ... MODIFY SETTING` rather than written into the CREATE statement, so that a setting
 * added to an existing storage (the deduplication window every writable table gets for the
 * ingestion consumers' exactly-once inserts, deduplication-window.ts) reaches
 * tables created before it: the ALTER is idempotent and keeps the data, where a changed CREATE
 * would only be reported (migrations.ts).
 */
import type { StorageDefinition } from "../datasets/definition-types.js";
import { deduplicationWindowSettings } from "./deduplication-window.js";
import { quoteString } from "./escaping.js";
import { quoteIdentifier } from "./table-ddl.js";

/** `ALTER TABLE t MODIFY SETTING a = 1, b = 'x'`, or null when the storage sets nothing. */
export function tableSettingsDdl(storage: StorageDefinition): string | null {
  // A writable table's deduplication window first, so that the storage's own settings may change it.
  const entries = Object.entries({ ...deduplicationWindowSettings(storage), ...storage.tableSettings }).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0 || storage.view) return null;
  // Names are checked by the storage schema (lowercase words); values are numbers or quoted text.
  const assignments = entries.map(([name, value]) => `${name} = ${typeof value === "number" ? String(value) : quoteString(value)}`);
  return `ALTER TABLE ${quoteIdentifier(storage.table)} MODIFY SETTING ${assignments.join(", ")}`;
}
