/**
 * Creates the table (or view) of every storage, once, then gives tables their settings and
 * creates the materialized views storages declare. Each step is one migration recorded in
 * `quarry_migrations` with a checksum of its DDL:
 * - `create_<storage>`: the table or view;
 * - `settings_<storage>`: `ALTER TABLE ... MODIFY SETTING` for the storage's table settings;
 * - `create_<materialized view>`: a view fed by inserts into its storage's table.
 * A later run skips what is recorded. When a table's definition changed after it was created,
 * the run says so and leaves the table alone: dropping and recreating would lose data, and
 * altering a table is a decision for an operator (or a dedicated migration), not a side effect
 * of startup. What holds no data is replaced when its definition changed: a view, a materialized
 * view (dropped and created again; rows inserted in between are not materialized, which is why
 * migrations run before the consumers start), and settings (the ALTER is run again; a setting
 * removed from the YAML stays on the table until an operator resets it).
 */
import { createHash } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import type { StorageDefinition } from "../datasets/definition-types.js";
import type { DatasetRegistry } from "../datasets/registry.js";
import { quoteIdentifier } from "./escaping.js";
import { materializedViewDdl } from "./materialized-view-ddl.js";
import { createTableDdl } from "./table-ddl.js";
import { tableSettingsDdl } from "./table-settings-ddl.js";
import { utcDateTimeText } from "./utc-datetime-text.js";

export const MIGRATIONS_TABLE = "quarry_migrations";

export interface MigrationOutcome {
  /** Migrations run now, in order. */
  readonly applied: string[];
  /** Migrations already recorded (unchanged, or changed and therefore left alone). */
  readonly skipped: string[];
}

interface Migration {
  readonly id: string;
  readonly ddl: string;
  readonly checksum: string;
  /**
   * What to do when the recorded checksum differs: keep the table (`table`), run the DDL again
   * (`rerun`, for settings), or drop this view first and create it again (`replace`).
   */
  readonly onChange: { readonly kind: "table" } | { readonly kind: "rerun" } | { readonly kind: "replace"; readonly view: string };
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}
(
    id String,
    checksum String,
    applied_at DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY id`;


function checksum(ddl: string): string {
  return createHash("sha256").update(ddl).digest("hex");
}

function migration(id: string, ddl: string, onChange: Migration["onChange"]): Migration {
  return { id, ddl, checksum: checksum(ddl), onChange };
}

/**
 * Tables first, then their settings, then views (a view needs its source tables), then
 * materialized views (they need their source and target tables); by name within each group.
 */
function plan(registry: DatasetRegistry): Migration[] {
  const storageNamed = (name: string): StorageDefinition | undefined => registry.storage(name);
  const storages = [...registry.storages()].sort((a, b) => a.name.localeCompare(b.name));
  const tables = storages.filter((storage) => !storage.view);
  const views = storages.filter((storage) => storage.view);
  const settings = tables.flatMap((storage) => {
    const ddl = tableSettingsDdl(storage);
    return ddl === null ? [] : [migration(`settings_${storage.name}`, ddl, { kind: "rerun" })];
  });
  const materializedViews = tables
    .flatMap((storage) => storage.materializedViews.map((view) => ({ storage, view })))
    .sort((a, b) => a.view.name.localeCompare(b.view.name))
    .map(({ storage, view }) =>
      migration(`create_${view.name}`, materializedViewDdl(storage, view, storageNamed), { kind: "replace", view: view.name }),
    );
  return [
    ...tables.map((storage) => migration(`create_${storage.name}`, createTableDdl(storage, storageNamed), { kind: "table" })),
    ...settings,
    ...views.map((storage) => migration(`create_${storage.name}`, createTableDdl(storage, storageNamed), { kind: "replace", view: storage.table })),
    ...materializedViews,
  ];
}

async function recordedChecksums(client: ClickHouseClient): Promise<Map<string, string>> {
  const result = await client.query({
    query: `SELECT id, argMax(checksum, applied_at) AS checksum FROM ${MIGRATIONS_TABLE} GROUP BY id`,
    format: "JSONEachRow",
  });
  const rows = await result.json<{ id: string; checksum: string }>();
  return new Map(rows.map((row) => [row.id, row.checksum]));
}

export async function runMigrations(
  client: ClickHouseClient,
  registry: DatasetRegistry,
  log: (line: string) => void = () => {},
): Promise<MigrationOutcome> {
  await client.command({ query: CREATE_MIGRATIONS_TABLE });
  const recorded = await recordedChecksums(client);
  const applied: string[] = [];
  const skipped: string[] = [];
  for (const migration of plan(registry)) {
    const previous = recorded.get(migration.id);
    if (previous === migration.checksum) {
      skipped.push(migration.id);
      continue;
    }
    if (previous !== undefined && migration.onChange.kind === "replace") {
      await client.command({ query: `DROP VIEW IF EXISTS ${quoteIdentifier(migration.onChange.view)}` });
      log(`migration ${migration.id}: the view's definition changed; replacing it (a view holds no data)`);
    } else if (previous !== undefined && migration.onChange.kind === "rerun") {
      log(`migration ${migration.id}: the table settings changed; applying them again`);
    } else if (previous !== undefined) {
      log(
        `migration ${migration.id}: the storage definition changed since it was applied ` +
          `(checksum ${previous.slice(0, 12)} then, ${migration.checksum.slice(0, 12)} now); ` +
          `the existing table is kept as it is, alter it by hand if the change must reach it`,
      );
      skipped.push(migration.id);
      continue;
    }
    await client.command({ query: migration.ddl });
    await client.insert({
      table: MIGRATIONS_TABLE,
      values: [{ id: migration.id, checksum: migration.checksum, applied_at: utcDateTimeText(Date.now()) }],
      format: "JSONEachRow",
    });
    log(`migration ${migration.id}: applied`);
    applied.push(migration.id);
  }
  return { applied, skipped };
}
