/**
 * Creates the table (or view) of every storage, once. Each storage is one migration,
 * `create_<storage>`, recorded in `quarry_migrations` with a checksum of its DDL. A later run
 * skips what is recorded; when a definition changed after its table was created, the run says
 * so and leaves the table alone: dropping and recreating would lose data, and altering a
 * table is a decision for an operator (or a dedicated migration), not a side effect of startup.
 * A view holds no data: when its definition changed, it is dropped and created again.
 *
 * Each writable MergeTree table also gets `deduplication_window_<storage>`, which turns on
 * ClickHouse's insert deduplication for it (deduplication-window.ts): the ingestion consumers'
 * exactly-once writes rely on it. An ALTER of its own rather than a clause of the CREATE, so that
 * tables created before it get it too and the CREATE migrations keep their checksums.
 */
import { createHash } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import type { StorageDefinition } from "../datasets/definition-types.js";
import type { DatasetRegistry } from "../datasets/registry.js";
import { quoteIdentifier } from "./escaping.js";
import { deduplicationWindowDdl } from "./deduplication-window.js";
import { createTableDdl } from "./table-ddl.js";
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
  /** A view (no data of its own): replaced when its definition changed. */
  readonly view: string | null;
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

/**
 * Tables first, each followed by its deduplication window, then views (a view needs its source
 * tables); by name within each group.
 */
function plan(registry: DatasetRegistry): Migration[] {
  const storages = [...registry.storages()];
  const order = (s: StorageDefinition): number => (s.view ? 1 : 0);
  storages.sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name));
  return storages.flatMap((storage) => {
    const ddl = createTableDdl(storage, (name) => registry.storage(name));
    const migrations: Migration[] = [{ id: `create_${storage.name}`, ddl, checksum: checksum(ddl), view: storage.view ? storage.table : null }];
    const window = deduplicationWindowDdl(storage);
    if (window !== null) migrations.push({ id: `deduplication_window_${storage.name}`, ddl: window, checksum: checksum(window), view: null });
    return migrations;
  });
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
    if (previous !== undefined && migration.view !== null) {
      await client.command({ query: `DROP VIEW IF EXISTS ${quoteIdentifier(migration.view)}` });
      log(`migration ${migration.id}: the view's definition changed; replacing it (a view holds no data)`);
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
