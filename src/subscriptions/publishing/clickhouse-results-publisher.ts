/**
 * Without Kafka (the embedded default), results are appended to the `subscription_results`
 * storage: one row per window with the exact message a Kafka consumer would have read. A result
 * counts as published once the insert returned.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { utcDateTimeText } from "../../clickhouse/utc-datetime-text.js";
import { MicroBatcher } from "./micro-batcher.js";
import type { PublishableResult } from "./result-message.js";
import type { ResultPublisher } from "./result-publisher.js";

const RESULTS_TABLE = "subscription_results_local";

export class ClickHouseResultsPublisher implements ResultPublisher {
  readonly description = `clickhouse table ${RESULTS_TABLE}`;
  private readonly batcher: MicroBatcher<PublishableResult>;
  private lastError: string | null = null;

  constructor(
    private readonly client: ClickHouseClient,
    private readonly now: () => number = Date.now,
  ) {
    this.batcher = new MicroBatcher((results) => this.insert(results), 1000);
  }

  publish(result: PublishableResult): Promise<void> {
    return this.batcher.add(result);
  }

  private async insert(results: PublishableResult[]): Promise<void> {
    const publishedAt = utcDateTimeText(this.now());
    try {
      await this.client.insert({
        table: RESULTS_TABLE,
        format: "JSONEachRow",
        values: results.map((result) => ({
          subscription_id: result.key,
          entity: result.entity,
          project_id: result.projectId,
          timestamp: result.windowEnd,
          published_at: publishedAt,
          topic: result.topic,
          result_rows: result.resultRows,
          payload: result.value,
        })),
      });
      this.lastError = null;
    } catch (reason) {
      this.lastError = reason instanceof Error ? reason.message : String(reason);
      throw reason;
    }
  }

  health(): string {
    return this.lastError === null ? "ok" : `results insert failed: ${this.lastError}`;
  }

  async close(): Promise<void> {}
}
