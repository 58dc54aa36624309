/**
 * Synthetic error events for the subscription benches: `rows` events spread evenly over the last
 * two hours across projects 1..`projects`, so every window of every subscription holds some.
 */
import type { ClickHouseClient } from "@clickhouse/client";

export async function loadSyntheticEvents(client: Pick<ClickHouseClient, "command">, projects: number, rows: number): Promise<void> {
  const nowSecond = Math.floor(Date.now() / 1000);
  await client.command({
    query: `INSERT INTO errors_local (project_id, timestamp, received, event_id, primary_hash, group_id, platform, user, release, level, retention_days, deleted)
      SELECT 1 + number % ${projects}, toDateTime(${nowSecond - 7200} + intDiv(number * 7200, ${rows})), toDateTime(${nowSecond}),
        generateUUIDv4(), generateUUIDv4(), number % 5000, 'python', toString(cityHash64(number) % 200000),
        concat('backend@1.', toString(number % 20)), ['error', 'warning', 'info'][1 + number % 3], 90, 0
      FROM numbers(${rows})`,
  });
}
