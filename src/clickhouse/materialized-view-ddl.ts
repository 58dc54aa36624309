/**
 * The CREATE statement of a materialized view a storage declares: the view reads each block
 * inserted into the storage's table and writes its SELECT's rows into the target storage's table
 * (`TO`), so it holds no data of its own and can be dropped and created again when its definition
 * changes (migrations.ts).
 */
import type { MaterializedViewDefinition, StorageDefinition } from "../datasets/definition-types.js";
import { quoteIdentifier } from "./table-ddl.js";

export function materializedViewDdl(
  source: StorageDefinition,
  view: MaterializedViewDefinition,
  storageNamed: (name: string) => StorageDefinition | undefined,
): string {
  const target = storageNamed(view.target);
  if (!target) throw new Error(`materialized view '${view.name}' of storage '${source.name}' writes unknown storage '${view.target}'`);
  const lines = [
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${quoteIdentifier(view.name)} TO ${quoteIdentifier(target.table)} AS`,
    `SELECT ${view.select}`,
    `FROM ${quoteIdentifier(source.table)}`,
  ];
  if (view.where) lines.push(`WHERE ${view.where}`);
  if (view.groupBy) lines.push(`GROUP BY ${view.groupBy}`);
  return lines.join("\n");
}
