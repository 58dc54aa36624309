/**
 * The embedded mode's subscription store: the `subscriptions` storage, a ReplacingMergeTree
 * keyed by (entity, partition, uuid). A delete inserts a tombstone with a newer version, so a
 * deleted id can be told from one that never existed; reads use FINAL.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { quoteString } from "../../clickhouse/escaping.js";
import { utcDateTimeText } from "../../clickhouse/utc-datetime-text.js";
import type { DeleteOutcome, SubscriptionStore } from "./subscription-store.js";
import { formatSubscriptionId, storedJson, type Subscription } from "./subscription.js";

const SUBSCRIPTIONS_TABLE = "subscriptions_local";

interface Row {
  entity: string;
  partition: number;
  uuid: string;
  dataset: string;
  project_id: string | number;
  time_window: number;
  resolution: number;
  subscription_type: string;
  query: string;
  organization_id: string | number;
  created_at_ms: string | number;
  deleted: number;
  /** Snuba's stored JSON (storedJson): where an rpc subscription's request lives. */
  data: string;
}

const COLUMNS =
  "entity, partition, uuid, dataset, project_id, time_window, resolution, subscription_type, query, organization_id, toUnixTimestamp64Milli(created_at) AS created_at_ms, deleted, data";

/** The request of an rpc subscription, from its stored JSON. */
function rpcFields(row: Row): Pick<Subscription, "rpc"> {
  if (row.subscription_type !== "rpc") return {};
  const data = JSON.parse(row.data) as Record<string, unknown>;
  return { rpc: { requestName: String(data.request_name), requestVersion: String(data.request_version), timeSeriesRequest: String(data.time_series_request) } };
}

function fromRow(row: Row): Subscription {
  return {
    id: formatSubscriptionId(row.partition, row.uuid),
    dataset: row.dataset,
    entity: row.entity,
    partition: row.partition,
    uuid: row.uuid,
    projectId: Number(row.project_id),
    timeWindow: row.time_window,
    resolution: row.resolution,
    type: row.subscription_type === "rpc" ? "rpc" : "snql",
    query: row.query,
    ...rpcFields(row),
    organizationId: Number(row.organization_id),
    createdAt: Number(row.created_at_ms),
  };
}

export class ClickHouseSubscriptionStore implements SubscriptionStore {
  /** Versions only grow, even when two writes fall in the same millisecond. */
  private lastVersion = 0;

  constructor(private readonly client: ClickHouseClient) {}

  private nextVersion(): number {
    this.lastVersion = Math.max(Date.now(), this.lastVersion + 1);
    return this.lastVersion;
  }

  private async write(subscription: Subscription, deleted: boolean): Promise<void> {
    await this.client.insert({
      table: SUBSCRIPTIONS_TABLE,
      format: "JSONEachRow",
      values: [
        {
          entity: subscription.entity,
          partition: subscription.partition,
          uuid: subscription.uuid,
          dataset: subscription.dataset,
          project_id: subscription.projectId,
          time_window: subscription.timeWindow,
          resolution: subscription.resolution,
          subscription_type: subscription.type,
          query: subscription.query,
          organization_id: subscription.organizationId,
          data: JSON.stringify(storedJson(subscription)),
          created_at: utcDateTimeText(subscription.createdAt),
          deleted: deleted ? 1 : 0,
          version: this.nextVersion(),
        },
      ],
      // Synchronous: the row is on disk when the insert returns (the 202 depends on it).
      clickhouse_settings: { async_insert: 0 },
    });
  }

  private async select(where: string): Promise<Row[]> {
    const result = await this.client.query({
      query: `SELECT ${COLUMNS} FROM ${SUBSCRIPTIONS_TABLE} FINAL WHERE ${where} ORDER BY entity, partition, uuid`,
      format: "JSONEachRow",
    });
    return result.json<Row>();
  }

  create(subscription: Subscription): Promise<void> {
    return this.write(subscription, false);
  }

  async delete(entity: string, partition: number, uuid: string): Promise<DeleteOutcome> {
    const [row] = await this.select(this.keyCondition(entity, partition, uuid));
    if (!row) return "not_found";
    if (row.deleted) return "already_deleted";
    await this.write(fromRow(row), true);
    return "deleted";
  }

  async get(entity: string, partition: number, uuid: string): Promise<Subscription | null> {
    const [row] = await this.select(`${this.keyCondition(entity, partition, uuid)} AND deleted = 0`);
    return row ? fromRow(row) : null;
  }

  async list(entity?: string): Promise<Subscription[]> {
    const rows = await this.select(entity === undefined ? "deleted = 0" : `entity = ${quoteString(entity)} AND deleted = 0`);
    return rows.map(fromRow);
  }

  private keyCondition(entity: string, partition: number, uuid: string): string {
    if (!Number.isInteger(partition) || partition < 0) throw new Error(`invalid partition ${partition}`);
    return `entity = ${quoteString(entity)} AND partition = ${partition} AND uuid = ${quoteString(uuid)}`;
  }
}
