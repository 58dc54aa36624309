/**
 * The CREATE statement for a storage, built from its definition alone: a MergeTree-family
 * table, or a view (UNION ALL of other storages) for `engine: View`. Migrations run it and
 * checksum its text, so the text must depend only on the definition. The table's settings are not
 * part of it: they are applied by a migration of their own (table-settings-ddl.ts).
 */
import { formatClickHouseType, parseClickHouseType } from "../datasets/clickhouse-type.js";
import type { ColumnDefinition, StorageDefinition, ViewSource } from "../datasets/definition-types.js";

/** Backtick-quotes an identifier, so names like `offset`, `user` or `tags.key` are safe. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``;
}

function columnDdl(column: ColumnDefinition): string {
  const type = formatClickHouseType(parseClickHouseType(column.type));
  const materialized = column.materialized === undefined ? "" : ` MATERIALIZED ${column.materialized}`;
  const defaulted = column.default === undefined ? "" : ` DEFAULT ${column.default}`;
  return `${quoteIdentifier(column.name)} ${type}${materialized}${defaulted}`;
}

/** View columns as the flat names a SELECT produces: Nested `tags` is `tags.key`, `tags.value`. */
function flatColumns(columns: readonly ColumnDefinition[]): { name: string; type: string }[] {
  return columns.flatMap((column) => {
    const type = parseClickHouseType(column.type);
    if (type.kind !== "nested") return [{ name: column.name, type: formatClickHouseType(type) }];
    return type.fields.map((field) => ({
      name: `${column.name}.${field.name}`,
      type: `Array(${formatClickHouseType(field.type)})`,
    }));
  });
}

function viewSelect(view: StorageDefinition, source: ViewSource, sourceStorage: StorageDefinition): string {
  const available = new Set(flatColumns(sourceStorage.columns).map((c) => c.name));
  const items = flatColumns(view.columns).map(({ name, type }) => {
    // Qualified with the source alias so `CAST(x) AS x` never resolves x to its own alias.
    // A column the source lacks reads as NULL (its view type is Nullable), or [] for an array.
    const missing = type.startsWith("Array(") ? "[]" : "NULL";
    const expression = source.columns[name] ?? (available.has(name) ? `src.${quoteIdentifier(name)}` : missing);
    return `CAST(${expression} AS ${type}) AS ${quoteIdentifier(name)}`;
  });
  return `SELECT\n    ${items.join(",\n    ")}\nFROM ${quoteIdentifier(sourceStorage.table)} AS src`;
}

/**
 * `CREATE TABLE IF NOT EXISTS` (or `CREATE VIEW IF NOT EXISTS`) for a storage. `storageNamed`
 * resolves the sources of a view; the registry's reference checks guarantee they exist.
 */
export function createTableDdl(
  storage: StorageDefinition,
  storageNamed: (name: string) => StorageDefinition | undefined,
): string {
  if (storage.view) {
    const selects = storage.view.sources.map((source) => {
      const sourceStorage = storageNamed(source.storage);
      if (!sourceStorage) throw new Error(`storage '${storage.name}' is a view over unknown storage '${source.storage}'`);
      return viewSelect(storage, source, sourceStorage);
    });
    return `CREATE VIEW IF NOT EXISTS ${quoteIdentifier(storage.table)} AS\n${selects.join("\nUNION ALL\n")}`;
  }
  const lines = [
    `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(storage.table)}`,
    `(\n    ${storage.columns.map(columnDdl).join(",\n    ")}\n)`,
    `ENGINE = ${storage.engine}`,
    `ORDER BY ${storage.orderBy}`,
  ];
  if (storage.partitionBy) lines.push(`PARTITION BY ${storage.partitionBy}`);
  if (storage.primaryKey) lines.push(`PRIMARY KEY ${storage.primaryKey}`);
  if (storage.sampleBy) lines.push(`SAMPLE BY ${storage.sampleBy}`);
  if (storage.ttl) lines.push(`TTL ${storage.ttl}`);
  return lines.join("\n");
}
