/** Checkpoints in the embedded ClickHouse (`subscription_checkpoints`, newest version wins). */
import type { ClickHouseClient } from "@clickhouse/client";
import { utcDateTimeText } from "../../clickhouse/utc-datetime-text.js";
import type { Checkpoint, CheckpointStore } from "./checkpoint-store.js";

const CHECKPOINTS_TABLE = "subscription_checkpoints_local";

export class ClickHouseCheckpointStore implements CheckpointStore {
  private lastVersion = 0;

  constructor(private readonly client: ClickHouseClient) {}

  async load(): Promise<Checkpoint[]> {
    const result = await this.client.query({
      query: `SELECT entity, partition, next_second FROM ${CHECKPOINTS_TABLE} FINAL`,
      format: "JSONEachRow",
    });
    const rows = await result.json<{ entity: string; partition: number; next_second: string | number }>();
    return rows.map((row) => ({ entity: row.entity, partition: row.partition, nextSecond: Number(row.next_second) }));
  }

  async save(checkpoints: readonly Checkpoint[]): Promise<void> {
    if (checkpoints.length === 0) return;
    this.lastVersion = Math.max(Date.now(), this.lastVersion + 1);
    const updatedAt = utcDateTimeText(Date.now());
    await this.client.insert({
      table: CHECKPOINTS_TABLE,
      format: "JSONEachRow",
      values: checkpoints.map((c) => ({ entity: c.entity, partition: c.partition, next_second: c.nextSecond, updated_at: updatedAt, version: this.lastVersion })),
      clickhouse_settings: { async_insert: 0 },
    });
  }
}
