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

/** Sends failed in a row after which the producer is replaced by a new one (at most once in REPLACE_EVERY_MS, through an outage). */
const FAILURES_BEFORE_NEW_PRODUCER = 3;
const REPLACE_EVERY_MS = 10_000;

export class KafkaPublisher implements ResultPublisher {
  readonly description: string;
  private readonly kafka: Kafka;
  private producer: Producer;
  private failuresInARow = 0;
  private replacedAt = -Infinity;
  private readonly batcher: MicroBatcher<PublishableResult>;
  private connecting: Promise<void> | null = null;
  private lastError: string | null = null;

  constructor(private readonly options: KafkaPublisherOptions) {
    this.description = `kafka ${options.brokers.join(",")}`;
    this.kafka = new Kafka({
      clientId: options.clientId ?? "quarry-subscriptions",
      brokers: [...options.brokers],
      requestTimeout: options.requestTimeoutMs ?? 10_000,
      // kafkajs logs retriable errors at ERROR; failures reach us as rejected sends.
      logLevel: logLevel.NOTHING,
    });
    this.producer = this.newProducer();
    this.batcher = new MicroBatcher((results) => this.send(results), 500);
  }

  private newProducer(): Producer {
    return this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
  }

  /**
   * After a broker has been unreachable for a while (paused rather than down), a kafkajs producer
   * can keep failing every send with "Broker not connected", a plain error it never retries or
   * recovers from. A producer that has failed several sends in a row is therefore dropped and a new
   * one connects on the next send. Runs retry their publish, so nothing is lost; a send the old
   * producer had in flight may be published twice (results are at least once).
   */
  private replaceProducer(): void {
    const old = this.producer;
    this.producer = this.newProducer();
    this.connecting = null;
    this.failuresInARow = 0;
    this.replacedAt = Date.now();
    void old.disconnect().catch(() => {});
    this.options.log?.("subscription results: a new Kafka producer replaces one that kept failing");
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
      this.failuresInARow = 0;
    } catch (reason) {
      this.lastError = reason instanceof Error ? reason.message : String(reason);
      this.options.log?.(`subscription results: kafka send of ${results.length} failed: ${this.lastError}`);
      this.failuresInARow += 1;
      if (this.failuresInARow >= FAILURES_BEFORE_NEW_PRODUCER && Date.now() - this.replacedAt >= REPLACE_EVERY_MS) this.replaceProducer();
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
