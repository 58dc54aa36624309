/** Subscription status in the embedded ClickHouse (`subscription_status`, newest version wins). */
import type { ClickHouseClient } from "@clickhouse/client";
import { utcDateTimeText } from "../../clickhouse/utc-datetime-text.js";
import type { StatusEntry, StatusStore } from "./subscription-status.js";

const STATUS_TABLE = "subscription_status_local";

interface Row {
  entity: string;
  partition: number;
  uuid: string;
  last_window: number | string | null;
  last_run_ms: number | string | null;
  last_result_ms: number | string | null;
  last_error: string | null;
  last_error_ms: number | string | null;
  published: number | string;
  failed: number | string;
  skipped_stale: number | string;
}

const orNull = (value: number | string | null): number | null => (value === null ? null : Number(value));
const text = (ms: number | null): string | null => (ms === null ? null : utcDateTimeText(ms));

export class ClickHouseStatusStore implements StatusStore {
  private lastVersion = 0;

  constructor(private readonly client: ClickHouseClient) {}

  async load(): Promise<StatusEntry[]> {
    const result = await this.client.query({
      query: `SELECT entity, partition, uuid, toUnixTimestamp(last_window) AS last_window, toUnixTimestamp64Milli(last_run_at) AS last_run_ms,
        toUnixTimestamp64Milli(last_result_at) AS last_result_ms, last_error, toUnixTimestamp64Milli(last_error_at) AS last_error_ms,
        published, failed, skipped_stale FROM ${STATUS_TABLE} FINAL`,
      format: "JSONEachRow",
    });
    const rows = await result.json<Row>();
    return rows.map((row) => ({
      entity: row.entity,
      partition: row.partition,
      uuid: row.uuid,
      status: {
        lastWindow: orNull(row.last_window),
        lastRunAt: orNull(row.last_run_ms),
        lastResultAt: orNull(row.last_result_ms),
        lastError: row.last_error,
        lastErrorAt: orNull(row.last_error_ms),
        published: Number(row.published),
        failed: Number(row.failed),
        skippedStale: Number(row.skipped_stale),
      },
    }));
  }

  async save(entries: readonly StatusEntry[]): Promise<void> {
    if (entries.length === 0) return;
    this.lastVersion = Math.max(Date.now(), this.lastVersion + 1);
    await this.client.insert({
      table: STATUS_TABLE,
      format: "JSONEachRow",
      values: entries.map(({ entity, partition, uuid, status }) => ({
        entity,
        partition,
        uuid,
        last_window: status.lastWindow,
        last_run_at: text(status.lastRunAt),
        last_result_at: text(status.lastResultAt),
        last_error: status.lastError,
        last_error_at: text(status.lastErrorAt),
        published: status.published,
        failed: status.failed,
        skipped_stale: status.skippedStale,
        version: this.lastVersion,
      })),
    });
  }
}
