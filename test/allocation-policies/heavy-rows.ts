/** Enough error rows in one project that a query takes tens of milliseconds, so queries overlap. */
import type { ColumnstoreClient } from "../../src/clickhouse/client-factory.js";

export const HEAVY_PROJECT = 7;

export async function insertHeavyRows(columnstore: ColumnstoreClient, rows = 1_000_000): Promise<void> {
  await columnstore.client.command({
    query: `INSERT INTO errors_local (project_id, timestamp, received, event_id, primary_hash, group_id, platform, user, retention_days, deleted)
      SELECT ${HEAVY_PROJECT}, toDateTime('2024-01-01 00:00:00') + number % 86400, toDateTime('2024-01-01 00:00:00'),
        generateUUIDv4(), generateUUIDv4(), number % 1000, 'python', toString(number % 50000), 90, 0
      FROM numbers(${rows})`,
  });
}
