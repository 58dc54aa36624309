/**
 * Where results go. `publish` resolves only once the result is durably accepted (Kafka acked
 * it, or ClickHouse wrote it); the scheduler's checkpoint never passes a result that has not.
 */
import type { PublishableResult } from "./result-message.js";

export interface ResultPublisher {
  /** e.g. "kafka 127.0.0.1:9092" or "clickhouse table subscription_results_local". */
  readonly description: string;
  publish(result: PublishableResult): Promise<void>;
  /** "ok", or what went wrong with the last write. */
  health(): string;
  close(): Promise<void>;
}
