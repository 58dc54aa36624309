/**
 * Consumes one storage's source topic into its ClickHouse table, exactly once, with Snuba's
 * commit log and a dead-letter topic (docs/ingestion.md, "Consumers"). In short:
 *
 * - Messages of a partition collect into a contiguous offset range; a range closes when the
 *   storage's open rows or bytes reach the batch limit, or its first message is `maxBatchTimeMs`
 *   old. Each closed range is written on its own, in offset order per partition.
 * - Writing a range [start, end] with rows: commit `start` with metadata `pending:<end>`; INSERT
 *   the rows as one block with `insert_deduplication_token` = `<topic>:<partition>:<start>-<end>`
 *   (rows the engine refuses are isolated by halving and dead-lettered); produce the dead letters,
 *   replacements and the commit-log line, each acknowledged; commit `end + 1`. A consumer that
 *   reads the partition after a crash finds `pending:<end>`, forms the same range again, and the
 *   engine drops the repeated INSERT by its token.
 * - Only the assignment that formed a range writes and commits it: a rebalance (or crash, or
 *   stop) starts a new epoch, and every step of an older epoch's write gives up before it begins.
 *   Commits go through the batch's commitOffsetsIfNecessary (no retries across a rebalance, no
 *   silent no-op while the consumer stops), and a new assignment reads its committed offsets only
 *   after the older epoch's commit requests have settled.
 * - A write that fails is retried with backoff while its partition is paused; the rows held per
 *   storage are bounded (`maxBufferedRows` / `maxBufferedBytes`), past which every partition is
 *   paused until writes catch up.
 */
import { Kafka, logLevel, type Admin, type Consumer, type EachBatchPayload, type Message, type Offsets, type PartitionOffset, type Producer } from "kafkajs";
import { Registry } from "prom-client";
import { isRefusedData } from "../clickhouse/isolate-refused-rows.js";
import { encodeCommitLogMessage } from "./commit-log-message.js";
import { ConsumerMetrics, type PartitionGauge } from "./consumer-metrics.js";
import {
  DEFAULT_BATCHING,
  DEFAULT_CONSUMER_GROUP,
  DEFAULT_TOPIC_CREATION,
  SimulatedCrash,
  type BatchingOptions,
  type ConsumerHooks,
  type ConsumerTopics,
  type StorageConsumerConfig,
  type TopicCreation,
} from "./consumer-options.js";
import { ConsumerSetupError } from "./consumer-setup-error.js";
import { ensureConsumerTopics } from "./consumer-topics.js";
import { deadLetterMessage } from "./dead-letter-message.js";
import { processMessage, type DeadLetter } from "./message-outcome.js";
import type { MessageProcessor } from "./message-processor.js";
import type { FlushReason, OffsetRange } from "./offset-range.js";
import { PartitionState } from "./partition-state.js";
import { insertRange, statementRowWriter, type RowWriter } from "./range-insert.js";
import { pendingEnd, pendingMetadata, rangeToken } from "./range-token.js";

export type ConsumerState = "new" | "starting" | "running" | "stopping" | "stopped" | "crashed";

export interface ConsumerStatus {
  readonly storage: string;
  readonly state: ConsumerState;
  readonly groupId: string;
  readonly topic: string;
  readonly partitions: readonly {
    readonly partition: number;
    readonly committed: string | null;
    readonly highWatermark: string | null;
    readonly lagMessages: number;
    readonly lagSeconds: number;
    readonly heldRows: number;
    readonly closedRanges: number;
    readonly paused: boolean;
    readonly failing: boolean;
  }[];
  readonly heldRows: number;
  readonly heldBytes: number;
  /** When a range was last written and committed, ms; null before the first. */
  readonly lastWriteAt: number | null;
  /** What stopped the consumer (state `crashed`), else null. */
  readonly error: string | null;
  /** Why its latest failed write failed, or null while none has. */
  readonly lastWriteError: string | null;
}

/** A step of an older epoch's write: it stops there, neither writing nor committing. */
class Abandoned extends Error {
  constructor() {
    super("the partition's assignment changed; the write is left to the next reader");
    this.name = "Abandoned";
  }
}

const DEFAULT_SESSION_TIMEOUT_MS = 10_000;
/** How long a setup step is retried while Kafka calls its error retriable. */
const SETUP_RETRY_MS = 60_000;

/** A kafkajs error Kafka calls retriable, or kafkajs' own "retries exceeded" around one. */
function isRetriableKafkaError(reason: unknown): boolean {
  const error = reason as { retriable?: unknown; cause?: { retriable?: unknown } } | null;
  return error?.retriable === true || error?.cause?.retriable === true;
}

/** Seconds between two log lines about one partition's failing writes. */
const LOG_EVERY_MS = 10_000;

export class StorageConsumer {
  readonly storage: string;
  readonly groupId: string;
  private readonly processor: MessageProcessor;
  private readonly table: string;
  private readonly topics: ConsumerTopics;
  private readonly writeRows: RowWriter;
  private readonly batching: BatchingOptions;
  private readonly topicCreation: TopicCreation;
  private readonly fromBeginning: boolean;
  private readonly hooks: ConsumerHooks;
  private readonly log: (line: string) => void;
  readonly metrics: ConsumerMetrics;
  private readonly admin: Admin;
  private readonly consumer: Consumer;
  private readonly producer: Producer;

  private state: ConsumerState = "new";
  /** Bumped by every rebalance, crash and stop: a write started in an older epoch gives up. */
  private epoch = 0;
  private partitions = new Map<number, PartitionState>();
  /** The latest batch's commit function: the current group generation, no retries (see the file's comment). */
  private commitFn: ((offsets: Offsets) => Promise<void>) | null = null;
  private readonly commitsInFlight = new Set<Promise<unknown>>();
  private readonly paused = new Set<number>();
  /** The storage holds as many rows or bytes as it may: every partition is paused. */
  private bufferFull = false;
  private ticker: NodeJS.Timeout | null = null;
  private readonly listeners: (() => void)[] = [];
  private detachMetrics: (() => void) | null = null;
  private lastWriteAt: number | null = null;
  private failure: Error | null = null;
  /** Why the latest failed write failed (kept after later successes: /health shows it while stuck). */
  private lastWriteError: string | null = null;
  private readonly lastLogAt = new Map<string, number>();
  private shutdownPromise: Promise<void> | null = null;
  private resolveStopped!: (error: Error | null) => void;
  /** Resolves when the consumer has stopped: null after stop() or abandon(), the error after a crash. */
  readonly stopped: Promise<Error | null> = new Promise((resolve) => (this.resolveStopped = resolve));

  constructor(config: StorageConsumerConfig) {
    this.storage = config.storage;
    this.groupId = config.groupId ?? DEFAULT_CONSUMER_GROUP;
    this.processor = config.processor;
    this.table = config.table;
    this.topics = config.topics;
    this.writeRows = config.writeRows ?? statementRowWriter(config.client);
    this.batching = { ...DEFAULT_BATCHING, ...config.batching };
    this.topicCreation = { ...DEFAULT_TOPIC_CREATION, ...config.topicCreation };
    this.fromBeginning = config.fromBeginning ?? true;
    this.hooks = config.hooks ?? {};
    this.log = config.log ?? (() => {});
    this.metrics = config.metrics ?? new ConsumerMetrics(new Registry());
    const kafka = new Kafka({
      clientId: config.clientId ?? `quarry-consumer-${config.storage}`,
      brokers: [...config.brokers],
      // kafkajs logs retried errors at ERROR; what matters reaches the consumer as events and rejections.
      logLevel: logLevel.NOTHING,
    });
    this.admin = kafka.admin();
    // A fetch waits at most 500 ms for data (librdkafka's fetch.wait.max.ms; kafkajs waits 5 s):
    // leaving the group waits for the fetch in flight, so a stop or a rebalance takes that long.
    const sessionTimeout = config.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
    this.consumer = kafka.consumer({
      groupId: this.groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 500,
      sessionTimeout,
      heartbeatInterval: Math.max(500, Math.floor(sessionTimeout / 4)),
    });
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  }

  /** Creates missing topics, joins the group and starts consuming. Throws ConsumerSetupError for a setup it refuses. */
  async start(): Promise<void> {
    if (this.state !== "new") throw new Error(`the ${this.storage} consumer was started before`);
    this.state = "starting";
    try {
      if (this.groupId.includes(":")) {
        throw new ConsumerSetupError(`consumer group '${this.groupId}' contains ':', which separates the fields of a commit-log key (<topic>:<partition>:<group>)`);
      }
      await this.admin.connect();
      const created = await this.untilSettled("creating its topics", () => ensureConsumerTopics(this.admin, this.topics, this.topicCreation));
      if (created.length > 0) this.log(`consumer ${this.storage}: created topic(s) ${created.join(", ")}`);
      await this.producer.connect();
      this.listenToGroup();
      await this.consumer.connect();
      await this.untilSettled("subscribing to its topic", () => this.consumer.subscribe({ topics: [this.topics.source], fromBeginning: this.fromBeginning }));
      this.state = "running";
      this.detachMetrics = this.metrics.attach(this.storage, { partitionGauges: () => this.partitionGauges() });
      await this.consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: (payload) => this.eachBatch(payload),
      });
      const tickMs = Math.max(20, Math.min(250, Math.floor(this.batching.maxBatchTimeMs / 4)));
      this.ticker = setInterval(() => this.closeAgedRanges(), tickMs);
      this.ticker.unref();
    } catch (reason) {
      await this.shutdown(null);
      throw reason;
    }
  }

  /**
   * Runs a setup step again while Kafka answers with an error it calls retriable, for up to
   * SETUP_RETRY_MS. A broker that has just started, or a topic another consumer has just
   * created, answers "This server does not host this topic-partition" for a while after its
   * partitions have leaders; kafkajs gives up after its own few retries, and the consumer would
   * then fail to start.
   */
  private async untilSettled<T>(what: string, step: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + SETUP_RETRY_MS;
    for (;;) {
      try {
        return await step();
      } catch (reason) {
        if (!isRetriableKafkaError(reason) || Date.now() > deadline) throw reason;
        this.logThrottled(`setup-${what}`, `consumer ${this.storage}: ${what} failed, retrying: ${describe(reason)}`);
        await sleep(1000);
      }
    }
  }

  /**
   * Stops taking messages, writes and commits what it holds (within `deadlineMs`), then leaves
   * the group. What is not written by then is read again by the partition's next owner.
   */
  async stop(deadlineMs = 10_000): Promise<void> {
    if (this.state === "running") {
      this.state = "stopping";
      this.updatePauses();
      for (const state of this.partitions.values()) {
        state.closeOpen("stop");
        this.kick(state);
      }
      const deadline = Date.now() + deadlineMs;
      while (Date.now() < deadline && [...this.partitions.values()].some((state) => state.writing !== null || state.closed.length > 0)) {
        const writes = [...this.partitions.values()].flatMap((state) => (state.writing ? [state.writing] : []));
        await Promise.race([Promise.allSettled(writes), sleep(50)]);
        if (this.state !== "stopping") break;
      }
    }
    await this.shutdown(null);
  }

  /** Leaves at once, writing and committing nothing more: what a killed process does (tests). */
  abandon(): Promise<void> {
    return this.shutdown(null);
  }

  status(): ConsumerStatus {
    const now = Date.now();
    const partitions = [...this.partitions.values()].map((state) => ({
      partition: state.partition,
      committed: state.committed?.toString() ?? null,
      highWatermark: state.highWatermark?.toString() ?? null,
      lagMessages: state.lagMessages(),
      lagSeconds: state.lagSeconds(now),
      heldRows: state.heldRows(),
      closedRanges: state.closed.length,
      paused: this.paused.has(state.partition),
      failing: state.failing,
    }));
    const held = this.held();
    return {
      storage: this.storage,
      state: this.state,
      groupId: this.groupId,
      topic: this.topics.source,
      partitions,
      heldRows: held.rows,
      heldBytes: held.bytes,
      lastWriteAt: this.lastWriteAt,
      error: this.failure?.message ?? null,
      lastWriteError: this.lastWriteError,
    };
  }

  // --- the group -----------------------------------------------------------------------------

  private listenToGroup(): void {
    const { GROUP_JOIN, REBALANCING, CRASH, STOP } = this.consumer.events;
    this.listeners.push(
      this.consumer.on(GROUP_JOIN, (event) => this.assigned(event.payload.memberAssignment[this.topics.source] ?? [])),
      this.consumer.on(REBALANCING, () => this.epoch++),
      this.consumer.on(STOP, () => this.epoch++),
      this.consumer.on(CRASH, (event) => {
        this.epoch++;
        if (!event.payload.restart) void this.fail(event.payload.error);
        else this.log(`consumer ${this.storage}: kafka client failed, restarting: ${event.payload.error.message}`);
      }),
    );
  }

  /**
   * A new assignment: everything held is dropped (kafkajs reads every partition again from its
   * committed offset), and each partition's committed offset and metadata are read once the older
   * epoch's commit requests have settled, so that they are seen.
   */
  private assigned(partitions: readonly number[]): void {
    this.epoch++;
    const epoch = this.epoch;
    this.partitions = new Map(partitions.map((partition) => [partition, new PartitionState(partition, epoch)]));
    // Pauses outlive a rebalance in kafkajs; this assignment starts with none.
    this.resume([...this.paused]);
    this.bufferFull = false;
    void this.loadCommitted(epoch);
    this.updatePauses();
  }

  private async loadCommitted(epoch: number): Promise<void> {
    await Promise.allSettled([...this.commitsInFlight]);
    let backoff = this.batching.retryInitialMs;
    while (epoch === this.epoch) {
      try {
        const [offsets] = await this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.topics.source] });
        if (epoch !== this.epoch) return;
        for (const { partition, offset, metadata } of offsets?.partitions ?? []) {
          const state = this.partitions.get(partition);
          if (!state) continue;
          const committed = BigInt(offset) >= 0n ? BigInt(offset) : null;
          state.resumeFrom(committed, pendingEnd(metadata));
        }
        for (const state of this.partitions.values()) if (!state.loaded) state.resumeFrom(null, null);
        return;
      } catch (reason) {
        this.logThrottled("offsets", `consumer ${this.storage}: reading the committed offsets failed, retrying: ${describe(reason)}`);
        await sleep(backoff);
        backoff = Math.min(backoff * 2, this.batching.retryMaxMs);
      }
    }
  }

  // --- taking messages -----------------------------------------------------------------------

  private async eachBatch({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }: EachBatchPayload): Promise<void> {
    this.commitFn = commitOffsetsIfNecessary;
    const epoch = this.epoch;
    const state = this.partitions.get(batch.partition);
    if (batch.topic !== this.topics.source || !state || state.epoch !== epoch) return;
    while (!state.loaded) {
      await sleep(20);
      if (epoch !== this.epoch || this.state !== "running") return;
      await heartbeat();
    }
    if (this.state !== "running") return;
    state.highWatermark = BigInt(batch.highWatermark);
    const held = this.held();
    let openRows = this.openRows();
    let openBytes = this.openBytes();
    const now = Date.now();
    for (const raw of batch.messages) {
      if ((this.bufferFull && !replaying(state)) || epoch !== this.epoch || this.state !== "running" || !isRunning() || isStale()) break;
      const entry = processMessage(this.processor, this.topics.source, batch.partition, raw, Boolean(this.topics.replacements));
      const rows = entry.outcome.kind === "rows" ? entry.outcome.rows : 0;
      if (state.take(entry, Number(raw.timestamp), now)) {
        held.rows += rows;
        held.bytes += entry.bytes;
        openRows += rows;
        openBytes += entry.bytes;
      }
      resolveOffset(raw.offset);
      if (openRows >= this.batching.maxBatchRows || openBytes >= this.batching.maxBatchBytes) {
        this.closeAll(openRows >= this.batching.maxBatchRows ? "rows" : "bytes");
        openRows = this.openRows();
        openBytes = this.openBytes();
      }
      if (held.rows >= this.batching.maxBufferedRows || held.bytes >= this.batching.maxBufferedBytes) {
        // The rest of the batch stays unresolved: kafkajs fetches it again once resumed.
        this.bufferFull = true;
        this.updatePauses();
      }
    }
    this.kick(state);
  }

  private closeAll(reason: FlushReason): void {
    for (const state of this.partitions.values()) {
      if (state.closeOpen(reason)) this.kick(state);
    }
  }

  /**
   * Closes the ranges whose first message is `maxBatchTimeMs` old, except on a partition still
   * writing an earlier range: a range closed then would only wait behind that write, so its
   * rows would become visible no sooner, and a partition behind would write many small INSERTs
   * where one larger one costs the engine less. Its range closes at the first tick after the
   * write (or at the rows limit).
   */
  private closeAgedRanges(): void {
    if (this.state !== "running") return;
    const now = Date.now();
    for (const state of this.partitions.values()) {
      if (state.open === null || now - state.open.openedAt < this.batching.maxBatchTimeMs) continue;
      if (state.writing !== null || state.closed.length > 0) continue;
      if (state.closeOpen("time")) this.kick(state);
    }
  }

  private held(): { rows: number; bytes: number } {
    let rows = 0;
    let bytes = 0;
    for (const state of this.partitions.values()) {
      rows += state.heldRows();
      bytes += state.heldBytes();
    }
    return { rows, bytes };
  }

  private openRows(): number {
    let rows = 0;
    for (const state of this.partitions.values()) rows += state.openRows();
    return rows;
  }

  private openBytes(): number {
    let bytes = 0;
    for (const state of this.partitions.values()) bytes += state.openBytes();
    return bytes;
  }

  // --- pausing -------------------------------------------------------------------------------

  /** Pauses the partitions that must not take more (failing writes, full buffer, stopping) and resumes the others. */
  private updatePauses(): void {
    if (this.bufferFull) {
      const held = this.held();
      if (held.rows < this.batching.maxBufferedRows && held.bytes < this.batching.maxBufferedBytes) this.bufferFull = false;
    }
    const pause: number[] = [];
    const resume: number[] = [];
    for (const state of this.partitions.values()) {
      const wanted = (this.bufferFull && !replaying(state)) || state.failing || this.state === "stopping";
      if (wanted && !this.paused.has(state.partition)) pause.push(state.partition);
      if (!wanted && this.paused.has(state.partition)) resume.push(state.partition);
    }
    if (pause.length > 0) {
      try {
        this.consumer.pause([{ topic: this.topics.source, partitions: pause }]);
        for (const partition of pause) this.paused.add(partition);
      } catch {
        // Not running (stopping or restarting): nothing is fetched anyway.
      }
    }
    this.resume(resume);
  }

  private resume(partitions: readonly number[]): void {
    if (partitions.length === 0) return;
    try {
      this.consumer.resume([{ topic: this.topics.source, partitions: [...partitions] }]);
    } catch {
      // Not running: a new run starts unpaused.
    }
    for (const partition of partitions) this.paused.delete(partition);
  }

  // --- writing ranges ------------------------------------------------------------------------

  /** Starts the partition's write loop unless it runs or has nothing to write. */
  private kick(state: PartitionState): void {
    if (state.writing !== null || state.closed.length === 0 || state.epoch !== this.epoch) return;
    state.writing = this.writeClosed(state)
      .catch((reason: unknown) => this.fail(reason))
      .finally(() => {
        state.writing = null;
        this.updatePauses();
        // Ranges closed while the loop was ending.
        if (this.state === "running" || this.state === "stopping") this.kick(state);
      });
  }

  /** Writes the partition's closed ranges in order; a failure is retried with backoff, the partition paused meanwhile. */
  private async writeClosed(state: PartitionState): Promise<void> {
    let backoff = this.batching.retryInitialMs;
    while (state.closed.length > 0 && state.epoch === this.epoch) {
      const range = state.closed[0]!;
      try {
        await this.writeRange(state, range);
        state.written(range);
        this.lastWriteAt = Date.now();
        backoff = this.batching.retryInitialMs;
        this.updatePauses();
      } catch (reason) {
        if (reason instanceof Abandoned) return;
        if (reason instanceof SimulatedCrash) throw reason;
        state.failing = true;
        this.lastWriteError = describe(reason);
        this.updatePauses();
        this.logThrottled(
          `write-${state.partition}`,
          `consumer ${this.storage}: writing ${this.topics.source}[${state.partition}] offsets ${range.start}-${range.end} failed, retrying in ${backoff} ms (partition paused): ${describe(reason)}`,
        );
        await sleep(backoff);
        backoff = Math.min(backoff * 2, this.batching.retryMaxMs);
      }
    }
  }

  /**
   * One range, step by step; each step done is remembered on the range, so a retry resumes
   * after it (repeating one would be harmless: the INSERT by its token, a produce as a duplicate).
   */
  private async writeRange(state: PartitionState, range: OffsetRange): Promise<void> {
    const current = (): void => {
      if (state.epoch !== this.epoch) throw new Abandoned();
    };
    const partition = state.partition;
    current();
    if (range.rows > 0 && !range.done.pendingCommitted) {
      // A replay's range was formed from this very commit: it is there already.
      if (range.sealedBy !== "replay") await this.commit(state, range.start, pendingMetadata(range.end));
      range.done.pendingCommitted = true;
    }
    if (!range.done.inserted) {
      range.refused = await this.insert(state, range, current);
      range.done.inserted = true;
      await this.hooks.afterInsert?.(partition, range);
    }
    current();
    if (!range.done.deadLettered) {
      await this.sendDeadLetters(partition, [...processorDeadLetters(range), ...range.refused]);
      range.done.deadLettered = true;
    }
    current();
    if (!range.done.replacementsSent) {
      await this.sendReplacements(range);
      range.done.replacementsSent = true;
    }
    current();
    if (this.topics.commitLog !== null && !range.done.commitLogSent) {
      const line = encodeCommitLogMessage({
        topic: this.topics.source,
        partition,
        group: this.groupId,
        offset: range.end + 1n,
        origMessageTsMs: range.lastTimestampMs,
        originTimestamps: range.originTimestamps,
      });
      await this.send(this.topics.commitLog, [{ key: line.key, value: line.value, partition: 0 }]);
      range.done.commitLogSent = true;
    }
    await this.commit(state, range.end + 1n, null);
    this.countWritten(range);
  }

  /** INSERTs the range's rows, isolating refused ones; returns those as dead letters. */
  private insert(state: PartitionState, range: OffsetRange, current: () => void): Promise<DeadLetter[]> {
    const labels = { storage: this.storage };
    return insertRange({
      write: this.writeRows,
      table: this.table,
      token: rangeToken(this.topics.source, state.partition, range.start, range.end),
      entries: range.rowEntries(),
      before: async () => {
        current();
        await this.hooks.beforeInsert?.(state.partition, range);
      },
      onInserted: (rows, seconds) => {
        this.metrics.rowsWritten.inc(labels, rows);
        this.metrics.insertSeconds.observe(labels, seconds);
      },
      onFailure: (reason) => {
        if (reason instanceof Abandoned || reason instanceof SimulatedCrash) return;
        this.metrics.insertFailures.inc({ storage: this.storage, kind: isRefusedData(reason) ? "refused" : "insert" });
      },
    });
  }

  private async sendDeadLetters(partition: number, letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    await this.send(
      this.topics.deadLetter,
      letters.map((letter) => deadLetterMessage(letter.entry.raw!, partition, letter.reason)),
    );
    for (const letter of letters) this.metrics.deadLetters.inc({ storage: this.storage, reason: letter.cause });
  }

  /** Replacements go on unchanged, keyed by project (Snuba's key), for a replacer to apply. */
  private async sendReplacements(range: OffsetRange): Promise<void> {
    const messages: Message[] = [];
    for (const entry of range.entries) {
      if (entry.outcome.kind !== "replacement") continue;
      messages.push({ key: String(entry.outcome.projectId), value: entry.raw!.value, headers: entry.raw!.headers ?? {} });
    }
    if (messages.length > 0) await this.send(this.topics.replacements!, messages);
  }

  /** Produces and waits for every in-sync replica's acknowledgement. */
  private async send(topic: string, messages: Message[]): Promise<void> {
    try {
      await this.producer.send({ topic, acks: -1, messages });
    } catch (reason) {
      this.metrics.insertFailures.inc({ storage: this.storage, kind: "kafka" });
      throw reason;
    }
  }

  /**
   * Commits one partition's offset with this epoch's group generation, or gives up (Abandoned)
   * if the epoch is over before or while it commits: a commit that may have landed after a
   * rebalance is never followed by a write.
   */
  private async commit(state: PartitionState, offset: bigint, metadata: string | null): Promise<void> {
    if (state.epoch !== this.epoch) throw new Abandoned();
    const commit = this.commitFn;
    if (commit === null) throw new Error("no batch was consumed yet, so there is no group generation to commit with");
    // kafkajs passes a partition's metadata through to the OffsetCommit request.
    const partitionOffset: PartitionOffset & { metadata: string | null } = { partition: state.partition, offset: offset.toString(), metadata };
    const request = commit({ topics: [{ topic: this.topics.source, partitions: [partitionOffset] }] });
    this.commitsInFlight.add(request);
    try {
      await request;
    } finally {
      this.commitsInFlight.delete(request);
    }
    if (state.epoch !== this.epoch) throw new Abandoned();
  }

  private countWritten(range: OffsetRange): void {
    const reason = range.sealedBy ?? "stop";
    this.metrics.batchRows.observe({ storage: this.storage, reason }, range.rows);
    this.metrics.batchBytes.observe({ storage: this.storage, reason }, range.bytes);
    const refused = new Set(range.refused.map((letter) => letter.entry));
    const kinds = new Map<string, number>();
    for (const entry of range.entries) {
      const kind = entry.outcome.kind === "dead-letter" || refused.has(entry) ? "dead_letter" : entry.outcome.kind;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    for (const [kind, count] of kinds) this.metrics.messages.inc({ storage: this.storage, kind }, count);
  }

  // --- stopping ------------------------------------------------------------------------------

  private async fail(reason: unknown): Promise<void> {
    const error = reason instanceof Error ? reason : new Error(String(reason));
    if (this.failure === null && this.state !== "stopped") {
      this.failure = error;
      this.log(`consumer ${this.storage}: stopped by ${error.name}: ${error.message}`);
    }
    await this.shutdown(error);
  }

  private shutdown(error: Error | null): Promise<void> {
    this.shutdownPromise ??= (async () => {
      this.epoch++;
      this.state = error === null ? "stopped" : "crashed";
      if (this.ticker !== null) clearInterval(this.ticker);
      this.detachMetrics?.();
      for (const remove of this.listeners) remove();
      for (const close of [() => this.consumer.disconnect(), () => this.producer.disconnect(), () => this.admin.disconnect()]) {
        try {
          await close();
        } catch {
          // Leaving anyway: a connection that fails to close is closed by the process's end.
        }
      }
      this.resolveStopped(error);
    })();
    return this.shutdownPromise;
  }

  private partitionGauges(): Iterable<PartitionGauge> {
    const now = Date.now();
    return [...this.partitions.values()].map((state) => ({
      partition: state.partition,
      lagMessages: state.lagMessages(),
      lagSeconds: state.lagSeconds(now),
      paused: this.paused.has(state.partition),
    }));
  }

  private logThrottled(kind: string, line: string): void {
    const now = Date.now();
    if (now - (this.lastLogAt.get(kind) ?? 0) < LOG_EVERY_MS) return;
    this.lastLogAt.set(kind, now);
    this.log(line);
  }
}

/**
 * The partition is still reading the range a `pending:<end>` commit fixed. It reads on even when
 * the storage's buffer is full: that range was formed under the batch limits of the consumer
 * that wrote it, perhaps larger ones, and it cannot be written until its last message is read.
 */
function replaying(state: PartitionState): boolean {
  return state.pendingEnd !== null;
}

/** The processor's dead letters of a range (the engine's come from the INSERT). */
function processorDeadLetters(range: OffsetRange): DeadLetter[] {
  const letters: DeadLetter[] = [];
  for (const entry of range.entries) {
    if (entry.outcome.kind === "dead-letter") letters.push({ entry, cause: entry.outcome.cause, reason: entry.outcome.reason });
  }
  return letters;
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message.split("\n")[0]!.slice(0, 300) : String(reason);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
