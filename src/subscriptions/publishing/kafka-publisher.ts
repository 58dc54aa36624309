/**
 * Publishes results to Kafka with kafkajs's idempotent producer (acks from all in-sync replicas,
 * no duplicates from producer retries), one topic per entity, key = subscription id, no headers on
 * a single node (Snuba's shape). In a cluster, a `quarry-lease-epoch` header names the lease the
 * result was computed under, so the audit can tell a fenced owner's late result from the new
 * owner's. Results of one event-loop turn go out in one `sendBatch`.
 */
import { Kafka, logLevel, type Producer } from "kafkajs";
import { MicroBatcher } from "./micro-batcher.js";
import type { PublishableResult } from "./result-message.js";
import type { ResultPublisher } from "./result-publisher.js";

/** The Kafka header carrying a cluster result's lease epoch. */
export const LEASE_EPOCH_HEADER = "quarry-lease-epoch";

export interface KafkaPublisherOptions {
  readonly brokers: readonly string[];
  readonly clientId?: string;
  /** How long one send may take before it fails (and the run retries). */
  readonly requestTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

export class KafkaPublisher implements ResultPublisher {
  readonly description: string;
  private readonly producer: Producer;
  private readonly batcher: MicroBatcher<PublishableResult>;
  private connecting: Promise<void> | null = null;
  private lastError: string | null = null;

  constructor(private readonly options: KafkaPublisherOptions) {
    this.description = `kafka ${options.brokers.join(",")}`;
    const kafka = new Kafka({
      clientId: options.clientId ?? "quarry-subscriptions",
      brokers: [...options.brokers],
      requestTimeout: options.requestTimeoutMs ?? 10_000,
      // kafkajs logs retriable errors at ERROR; failures reach us as rejected sends.
      logLevel: logLevel.NOTHING,
    });
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
    this.batcher = new MicroBatcher((results) => this.send(results), 500);
  }

  /** Connects now (the first publish would otherwise); resolves once the broker answers. */
  connect(): Promise<void> {
    this.connecting ??= this.producer.connect().catch((reason: unknown) => {
      this.connecting = null;
      throw reason;
    });
    return this.connecting;
  }

  publish(result: PublishableResult): Promise<void> {
    return this.batcher.add(result);
  }

  private async send(results: PublishableResult[]): Promise<void> {
    try {
      await this.connect();
      const byTopic = new Map<string, { key: string; value: string; headers?: Record<string, string> }[]>();
      for (const result of results) {
        let messages = byTopic.get(result.topic);
        if (!messages) byTopic.set(result.topic, (messages = []));
        messages.push({ key: result.key, value: result.value, ...(result.epoch > 0 ? { headers: { [LEASE_EPOCH_HEADER]: String(result.epoch) } } : {}) });
      }
      await this.producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
      this.lastError = null;
    } catch (reason) {
      this.lastError = reason instanceof Error ? reason.message : String(reason);
      this.options.log?.(`subscription results: kafka send of ${results.length} failed: ${this.lastError}`);
      throw reason;
    }
  }

  health(): string {
    return this.lastError === null ? "ok" : `kafka send failed: ${this.lastError}`;
  }

  async close(): Promise<void> {
    if (this.connecting) await this.producer.disconnect();
  }
}
