/**
 * `quarry consumer --storage NAME[,NAME…]`: ingestion consumers in a process of their own, for
 * deployments on a ClickHouse server (CLICKHOUSE_URL); start more to scale out, Kafka's consumer
 * groups share the partitions. /health and /metrics on QUARRY_CONSUMER_PORT. SIGTERM writes and
 * commits what the consumers hold, then exits 0; a second signal exits at once.
 *
 * `serve` runs the same consumers in its own process with QUARRY_CONSUMERS (consumersFromSettings).
 */
import { Registry } from "prom-client";
import { createColumnstoreClient, type ColumnstoreClient } from "../clickhouse/client-factory.js";
import type { Settings } from "../config/settings.js";
import type { StorageDefinition } from "../datasets/definition-types.js";
import { ConsumerSetupError } from "../ingestion/consumer-setup-error.js";
import { IngestionConsumers, selectConsumerStorages, type ConsumerSelection } from "../ingestion/ingestion-consumers.js";
import { startHousekeepingServer, type HousekeepingServer } from "../metrics/housekeeping-server.js";
import { processRegistry } from "../metrics/process-metrics.js";
import { exitOnStopSignals } from "./stop-signals.js";

/**
 * The storages a selection names, once the settings can run their consumers; ConsumerSetupError
 * says what is wrong (an unknown storage, no KAFKA_BROKERS, a buffer below a batch). Checked
 * before anything opens, by `serve` and `quarry consumer` alike.
 */
export function checkConsumerSettings(settings: Settings, storages: readonly StorageDefinition[], selection: ConsumerSelection): StorageDefinition[] {
  const chosen = selectConsumerStorages(storages, selection);
  if (settings.kafkaBrokers.length === 0) throw new ConsumerSetupError("ingestion consumers read Kafka: set KAFKA_BROKERS (host:port[,host:port…])");
  if (settings.consumerBatching.maxBufferedRows < settings.consumerBatching.maxBatchRows) {
    throw new ConsumerSetupError(
      `QUARRY_CONSUMER_MAX_BUFFERED_ROWS (${settings.consumerBatching.maxBufferedRows}) is below QUARRY_CONSUMER_MAX_BATCH_ROWS (${settings.consumerBatching.maxBatchRows}): a batch could never fill`,
    );
  }
  return chosen;
}

/** The consumers a selection names, configured from the settings; ConsumerSetupError says what is missing. */
export function consumersFromSettings(
  settings: Settings,
  storages: readonly StorageDefinition[],
  selection: ConsumerSelection,
  columnstore: ColumnstoreClient,
  registry: Registry,
  log: (line: string) => void,
): IngestionConsumers {
  checkConsumerSettings(settings, storages, selection);
  return new IngestionConsumers(
    {
      storages,
      selection,
      brokers: settings.kafkaBrokers,
      client: columnstore.client,
      writeRows: (table, rowSettings, body) => columnstore.insertRows(table, rowSettings, body),
      topicMap: settings.kafkaTopics,
      groupMap: settings.consumerGroups,
      batching: settings.consumerBatching,
      topicCreation: { sourcePartitions: settings.consumerSourcePartitions },
      stuckAfterMs: settings.consumerStuckSeconds * 1000,
      sessionTimeoutMs: settings.consumerSessionTimeoutMs,
      log,
    },
    registry,
  );
}

/** The names after `--storage` (comma-separated, or `all`). */
export function storageSelection(args: readonly string[]): ConsumerSelection | null {
  const index = args.indexOf("--storage");
  const text = index >= 0 ? args[index + 1] : undefined;
  if (text === undefined || text.startsWith("--")) return null;
  if (text.trim().toLowerCase() === "all") return "all";
  return text.split(",").map((name) => name.trim()).filter(Boolean);
}

/** Returns an exit code for a refusal; -1 while the consumers run (the process exits on a signal). */
export async function runConsumerCommand(settings: Settings, storages: readonly StorageDefinition[], args: readonly string[], log: (line: string) => void): Promise<number> {
  const selection = storageSelection(args);
  if (selection === null) {
    log(`quarry consumer needs --storage NAME[,NAME…] or --storage all; storages with consumers: ${selectConsumerStorages(storages, "all").map((s) => s.name).join(", ")}`);
    return 2;
  }
  try {
    checkConsumerSettings(settings, storages, selection);
  } catch (reason) {
    if (!(reason instanceof ConsumerSetupError)) throw reason;
    log(`quarry consumer: ${reason.message}`);
    return 2;
  }
  const columnstore = createColumnstoreClient(settings);
  const registry = new Registry();
  processRegistry();
  let consumers: IngestionConsumers | null = null;
  let server: HousekeepingServer | null = null;
  // The signal handlers come first: a supervisor may stop the process while its consumers are
  // still joining their groups, and it must then exit 0 rather than by the signal.
  let startup: Promise<unknown> = Promise.resolve();
  const signals = exitOnStopSignals({
    log,
    deadlineMs: settings.shutdownTimeoutMs,
    graceMs: 2000,
    doing: (deadline) => `writing and committing what the consumers hold within ${deadline} ms`,
    async shutdown(deadline) {
      await startup.catch(() => undefined);
      await consumers?.stop(deadline);
      await server?.close();
      await columnstore.close();
    },
  });

  try {
    consumers = consumersFromSettings(settings, storages, selection, columnstore, registry, log);
    startup = consumers.start();
    await startup;
  } catch (reason) {
    if (signals.stopping()) return -1;
    await columnstore.close();
    if (reason instanceof ConsumerSetupError) {
      log(`quarry consumer: ${reason.message}`);
      return 2;
    }
    throw reason;
  }
  if (signals.stopping()) return -1;
  const running = consumers;
  server = await startHousekeepingServer({
    host: settings.host,
    port: settings.consumerPort,
    registry,
    role: "a consumer process",
    health: () => {
      const dependencies = running.health();
      const healthy = Object.values(dependencies).every((state) => state === "ok");
      return { healthy, body: { status: healthy ? "ok" : "down", dependencies, consumers: running.statuses() } };
    },
  });
  log(
    `quarry consumer: ${running.storages.join(", ")} from ${settings.kafkaBrokers.join(",")} into ${columnstore.kind} ClickHouse at ${columnstore.location}; ` +
      `/health and /metrics on http://${settings.host}:${server.port}`,
  );
  // A consumer that stops on its own (a setup the broker later refuses, a crash) ends the process
  // with an error, so that its supervisor restarts it rather than leaving it idle.
  for (const consumer of running.consumers) {
    void consumer.stopped.then((error) => {
      if (error && !signals.stopping()) {
        log(`consumer ${consumer.storage} stopped: ${error.message}; exiting`);
        process.exit(1);
      }
    });
  }
  return -1;
}
