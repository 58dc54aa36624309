/**
 * A producer of live Sentry data for tests that schedule subscriptions on the ingestion commit
 * log: every `intervalMs` it sends, for each of `projects`, one error event (level `error`) to
 * `events` and one transaction to `transactions`, stamped with the wall clock, keyed by project
 * and placed by librdkafka's partitioner, as Sentry's producers do (so a project's events are in
 * its subscriptions' partition). A failed send (a broker restarting) is counted, not retried:
 * the oracle recounts what landed.
 */
import { randomBytes } from "node:crypto";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { LibrdkafkaPartitioner } from "../../src/demo-data/kafka/librdkafka-partitioner.js";

export interface LiveSentryProducerOptions {
  readonly brokers: readonly string[];
  readonly projects: readonly number[];
  /** Physical topic names. */
  readonly topics: { readonly events: string; readonly transactions: string };
  readonly intervalMs?: number;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

function errorEvent(project: number, nowMs: number): string {
  return JSON.stringify([
    2,
    "insert",
    {
      event_id: hex(16),
      group_id: 1 + (project % 7),
      message: `live error of project ${project}`,
      primary_hash: hex(16),
      project_id: project,
      datetime: new Date(nowMs).toISOString(),
      platform: "python",
      data: { received: nowMs / 1000, type: "error", tags: [["level", "error"]] },
    },
    { is_new: false },
  ]);
}

function transaction(project: number, nowMs: number): string {
  const finish = nowMs / 1000;
  return JSON.stringify([
    2,
    "insert",
    {
      event_id: hex(16),
      project_id: project,
      platform: "python",
      retention_days: 90,
      data: {
        type: "transaction",
        transaction: `GET /live/${project}`,
        timestamp: finish,
        start_timestamp: finish - 0.1,
        received: finish,
        contexts: { trace: { trace_id: hex(16), span_id: hex(8), op: "http.server", status: "ok" } },
      },
    },
    {},
  ]);
}

export class LiveSentryProducer {
  private readonly producer: Producer;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> = Promise.resolve();
  sent = 0;
  failedSends = 0;

  constructor(private readonly options: LiveSentryProducerOptions) {
    const kafka = new Kafka({ clientId: "live-sentry-producer", brokers: [...options.brokers], logLevel: logLevel.NOTHING });
    // No retries: a send the broker refused is dropped now, never appended seconds later with its
    // old timestamp (later than the delay an idle partition is trusted after).
    this.producer = kafka.producer({ createPartitioner: LibrdkafkaPartitioner, allowAutoTopicCreation: false, retry: { retries: 0 } });
  }

  async start(): Promise<void> {
    await this.producer.connect();
    const tick = () => {
      this.inFlight = this.sendRound().finally(() => {
        if (this.timer !== null) this.timer = setTimeout(tick, this.options.intervalMs ?? 250);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  private async sendRound(): Promise<void> {
    const now = Date.now();
    const { projects, topics } = this.options;
    try {
      await this.producer.sendBatch({
        topicMessages: [
          { topic: topics.events, messages: projects.map((project) => ({ key: String(project), value: errorEvent(project, now), timestamp: String(now) })) },
          { topic: topics.transactions, messages: projects.map((project) => ({ key: String(project), value: transaction(project, now), timestamp: String(now) })) },
        ],
      });
      this.sent += projects.length * 2;
    } catch {
      this.failedSends += 1;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
    await this.producer.disconnect();
  }
}
