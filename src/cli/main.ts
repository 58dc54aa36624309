/**
 * The `quarry` command: one binary for every role.
 *   quarry serve [--bootstrap]   serve JSON, Connect, gRPC and gRPC-Web on one port
 *                                (--bootstrap: migrate, and load demo data into an empty store)
 *   quarry migrate               create every storage's tables (idempotent)
 *   quarry demo-data [--rows N]  write deterministic demo data
 *   quarry subscriptions tail    print subscription results as they arrive
 *   quarry subscriptions audit   windows expected, published, missing, duplicated (cluster);
 *                                --recount: each published result against a run of its window now
 *   quarry scheduler             a scheduler cluster node (NATS_URL)
 *   quarry consumer --storage S  ingestion consumers for storages S (KAFKA_BROKERS)
 */
import { startAdminServer, type AdminServer } from "../admin/admin-server.js";
import { createColumnstoreClient } from "../clickhouse/client-factory.js";
import { runMigrations } from "../clickhouse/migrations.js";
import { readSettings } from "../config/settings.js";
import { defaultRegistry } from "../datasets/registry.js";
import { DEMO_INDEXER_MAPPINGS } from "../demo-data/demo-indexer-mappings.js";
import { hasDemoData, loadDemoData } from "../demo-data/load-demo-data.js";
import { startServer } from "../server/start-server.js";
import { tailResultsTable, tailResultTopics } from "../subscriptions/publishing/results-tail.js";
import { ConsumerSetupError } from "../ingestion/consumer-setup-error.js";
import { selectConsumerStorages, type IngestionConsumers } from "../ingestion/ingestion-consumers.js";
import { runDemoKafka } from "../demo-data/kafka/demo-kafka-command.js";
import { runAuditCommand } from "./audit-command.js";
import type { CommitLogClock } from "../subscriptions/scheduling/commit-log-clock.js";
import { commitLogEntityNames, startCommitLogClock } from "./commit-log-following.js";
import { checkConsumerSettings, consumersFromSettings, runConsumerCommand } from "./consumer-command.js";
import { clusterNodeId, openCluster } from "./cluster-connection.js";
import { runSchedulerCommand } from "./scheduler-command.js";
import { exitOnStopSignals } from "./stop-signals.js";

const USAGE = `usage: quarry <command> [options]

commands:
  serve [--bootstrap]     serve queries on HOST:PORT (default 127.0.0.1:1218)
                          --bootstrap: migrate first, and load demo data when the store is empty
  migrate                 create every storage's tables (a second run changes nothing)
  demo-data [--rows N]    write deterministic demo data (default QUARRY_DEMO_ROWS or 1000000 rows)
  demo-data --kafka ...   write demo data as Sentry's messages onto the Kafka topics (KAFKA_BROKERS)
  subscriptions tail [--from-beginning | --since <ISO 8601>]
                          print subscription results as they arrive: "<subscription id><TAB><message>";
                          from the results storage through QUARRY_QUERY_URL (default http://HOST:PORT),
                          or from the result topics when KAFKA_BROKERS is set
  subscriptions audit --from <ISO 8601> --to <ISO 8601> [--json] [--recount [--recount-concurrency N]]
                          per subscription: windows expected, published, missing, duplicated, and the
                          lag; reads the cluster store (NATS_URL) and the result topics (KAFKA_BROKERS);
                          --recount: runs each published window again now on QUARRY_QUERY_URL (past the
                          cache, N at once, default 8) and compares the results;
                          exit 1 when a window is missing or a result differs from (or fails) its recount
  scheduler               a scheduler cluster node (NATS_URL, KAFKA_BROKERS): leases partitions, runs
                          their windows on QUARRY_QUERY_URL (or CLICKHOUSE_URL), publishes to Kafka;
                          /health and /metrics on QUARRY_SCHEDULER_PORT (default 1228)
  consumer --storage NAME[,NAME...] | --storage all
                          ingestion consumers: read the storages' Kafka topics (KAFKA_BROKERS) into
                          ClickHouse (CLICKHOUSE_URL, else the embedded engine), exactly once;
                          /health and /metrics on QUARRY_CONSUMER_PORT (default 1238)

With NATS_URL set, serve keeps subscriptions in NATS KV and its scheduler (QUARRY_SCHEDULER) joins
the cluster's partition leases. With QUARRY_CONSUMERS=NAME,... (or all), serve also runs those
storages' ingestion consumers in its process.
`;

/** The engine, or an error that says why the data directory could not be opened. */
function openColumnstore(settings: ReturnType<typeof readSettings>): ReturnType<typeof createColumnstoreClient> {
  try {
    return createColumnstoreClient(settings);
  } catch (reason) {
    const detail = reason instanceof Error ? reason.message : String(reason);
    throw new Error(
      `cannot open the embedded ClickHouse in ${settings.dataDir} (${detail}): another quarry process may be using it (one process owns a data directory); stop it, or set QUARRY_DATA_DIR`,
    );
  }
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  const settings = readSettings();
  const registry = defaultRegistry();
  const log = (line: string) => process.stderr.write(`${line}\n`);

  switch (command) {
    case "migrate": {
      const columnstore = openColumnstore(settings);
      const { applied, skipped } = await runMigrations(columnstore.client, registry, log);
      log(`migrations: ${applied.length} applied, ${skipped.length} already applied`);
      await columnstore.close();
      return 0;
    }
    case "demo-data": {
      if (args.includes("--kafka")) return runDemoKafka(settings, args, log);
      const rowsText = option(args, "--rows");
      const rows = rowsText === undefined ? settings.demoRows : Number(rowsText);
      if (!Number.isInteger(rows) || rows <= 0) {
        log(`--rows must be a positive integer, got '${rowsText}'`);
        return 2;
      }
      const columnstore = openColumnstore(settings);
      await runMigrations(columnstore.client, registry, log);
      await loadDemoData(columnstore.client, { rows, log, progress: process.stderr.isTTY ?? false });
      await columnstore.close();
      return 0;
    }
    case "scheduler": {
      await runSchedulerCommand(settings, registry, registry.storages(), log);
      return -1;
    }
    case "consumer": {
      return runConsumerCommand(settings, registry.storages(), args, log);
    }
    case "subscriptions": {
      if (args[0] === "audit") {
        const auditArgs = {
          from: option(args, "--from"),
          to: option(args, "--to"),
          json: args.includes("--json"),
          recount: args.includes("--recount"),
          recountConcurrency: option(args, "--recount-concurrency"),
        };
        return runAuditCommand(settings, registry, auditArgs, (text) => process.stdout.write(text), log);
      }
      if (args[0] !== "tail") {
        log(`unknown subscriptions command '${args[0] ?? ""}': use 'quarry subscriptions tail' or 'quarry subscriptions audit'`);
        return 2;
      }
      const sinceText = option(args, "--since");
      const fromBeginning = args.includes("--from-beginning");
      const sinceMs = sinceText !== undefined ? Date.parse(sinceText) : fromBeginning ? 0 : Date.now();
      if (Number.isNaN(sinceMs)) {
        log(`--since must be an ISO 8601 datetime, got '${sinceText}'`);
        return 2;
      }
      const abort = new AbortController();
      process.once("SIGINT", () => abort.abort());
      process.once("SIGTERM", () => abort.abort());
      const tail = { sinceMs, write: (line: string) => process.stdout.write(`${line}\n`), signal: abort.signal, log };
      if (settings.kafkaBrokers.length > 0) {
        const topics = new Set(registry.entities().flatMap((e) => (e.subscriptions ? [settings.subscriptionTopics[e.name] ?? e.subscriptions.resultTopic] : [])));
        log(`tailing ${[...topics].join(", ")} on ${settings.kafkaBrokers.join(",")} (Ctrl-C stops)`);
        await tailResultTopics(settings.kafkaBrokers, [...topics], fromBeginning, tail);
      } else {
        log(`tailing the subscription_results storage through ${settings.queryUrl} (Ctrl-C stops)`);
        await tailResultsTable(settings.queryUrl, tail);
      }
      return 0;
    }
    case "serve": {
      const consumerSelection = settings.consumers === "all" || settings.consumers.length > 0 ? settings.consumers : null;
      if (consumerSelection !== null) {
        try {
          checkConsumerSettings(settings, registry.storages(), consumerSelection);
        } catch (reason) {
          if (!(reason instanceof ConsumerSetupError)) throw reason;
          log(`QUARRY_CONSUMERS: ${reason.message}`);
          return 2;
        }
      }
      const columnstore = openColumnstore(settings);
      if (args.includes("--bootstrap")) {
        await runMigrations(columnstore.client, registry, log);
        if (!(await hasDemoData(columnstore.client))) {
          log(`empty store at ${columnstore.location}: loading ${settings.demoRows} demo rows (once)`);
          await loadDemoData(columnstore.client, { rows: settings.demoRows, log, progress: process.stderr.isTTY ?? false });
        }
      }
      // A bootstrapped demo store knows the ids that wrote its metrics, so MQL works without
      // indexer_mappings there; anywhere else the request must send them.
      const demoStore = args.includes("--bootstrap") && (await hasDemoData(columnstore.client));
      let cluster: Awaited<ReturnType<typeof openCluster>> | null = null;
      if (settings.natsUrl) {
        try {
          cluster = await openCluster(settings, log);
        } catch (reason) {
          await columnstore.close();
          throw reason;
        }
      }
      let server: Awaited<ReturnType<typeof startServer>>;
      let consumers: IngestionConsumers | null = null;
      // Entities on the commit-log clock wait (no window is due) until the clock has started.
      const consumerStorages = new Set(consumerSelection === null ? [] : selectConsumerStorages(registry.storages(), consumerSelection).map((storage) => storage.name));
      const onCommitLog = settings.scheduler && settings.kafkaBrokers.length > 0 ? commitLogEntityNames(settings, registry, registry.storages(), consumerStorages) : new Set<string>();
      if (settings.subscriptionClock === "commit_log" && settings.kafkaBrokers.length === 0) {
        log("QUARRY_SUBSCRIPTION_CLOCK=commit_log needs KAFKA_BROKERS: the commit logs are Kafka topics");
        await columnstore.close();
        return 2;
      }
      let commitLogClock: CommitLogClock | null = null;
      try {
        server = await startServer({
          host: settings.host,
          port: settings.port,
          definitions: registry,
          columnstore,
          statsInResponse: settings.statsInResponse,
          idleMemoryReleaseMs: settings.idleMemoryReleaseMs,
          ...(settings.adminPort !== 0 ? { adminUrl: `http://${settings.adminHost}:${settings.adminPort}` } : {}),
          ...(demoStore ? { storeIndexerMappings: DEMO_INDEXER_MAPPINGS } : {}),
          ...(consumerSelection !== null ? { extraHealth: () => consumers?.health() ?? { consumers: "starting" } } : {}),
          backend: {
            policyOverrides: settings.policyOverrides,
            cacheTtlMs: settings.cacheTtlMs,
            cacheMaxBytes: settings.cacheMaxBytes,
            limits: settings.executionLimits,
            queryLogFlushIntervalMs: settings.queryLogFlushIntervalMs,
            log,
          },
          subscriptions: {
            scheduler: settings.scheduler,
            kafkaBrokers: settings.kafkaBrokers,
            topics: settings.subscriptionTopics,
            staleThresholdSeconds: settings.subscriptionStaleSeconds,
            maxConcurrentRuns: settings.subscriptionConcurrency,
            ...(settings.subscriptionDelaySeconds === null ? {} : { delaySeconds: settings.subscriptionDelaySeconds }),
            ...(onCommitLog.size > 0 ? { horizonFor: (entity: string, partition: number) => (onCommitLog.has(entity) ? (commitLogClock?.horizon(entity, partition) ?? null) : undefined) } : {}),
            ...(cluster ? { cluster: { buckets: cluster, nodeId: clusterNodeId(settings), leaseMs: settings.leaseMs, renewMs: settings.leaseRenewMs } } : {}),
            log,
          },
        });
      } catch (reason) {
        await cluster?.close();
        await columnstore.close();
        const code = (reason as { code?: unknown }).code;
        if (code === "EADDRINUSE") throw new Error(`port ${settings.port} on ${settings.host} is in use: another server listens there; set PORT to a free port`);
        if (code === "EACCES") throw new Error(`port ${settings.port} on ${settings.host} is not allowed for this user; set PORT above 1023`);
        throw reason;
      }
      log(`quarry serving JSON, Connect, gRPC and gRPC-Web on http://${server.host}:${server.port} (${columnstore.kind} ClickHouse at ${columnstore.location})`);
      if (consumerSelection !== null) {
        try {
          consumers = consumersFromSettings(settings, registry.storages(), consumerSelection, columnstore, server.backend.metrics.registry, log);
          await consumers.start();
        } catch (reason) {
          await server.close();
          await cluster?.close();
          await columnstore.close();
          if (!(reason instanceof ConsumerSetupError)) throw reason;
          log(`QUARRY_CONSUMERS: ${reason.message}`);
          return 2;
        }
        log(`ingestion consumers: ${consumers.storages.join(", ")} from ${settings.kafkaBrokers.join(",")}`);
      }
      if (onCommitLog.size > 0) {
        try {
          commitLogClock = await startCommitLogClock(settings, registry, registry.storages(), consumerStorages, server.backend.metrics.registry, log);
        } catch (reason) {
          await consumers?.stop(0);
          await server.close();
          await cluster?.close();
          await columnstore.close();
          log(reason instanceof Error ? reason.message : String(reason));
          return 2;
        }
      }
      let admin: AdminServer | null = null;
      if (settings.adminPort !== 0) {
        try {
          admin = await startAdminServer({
            host: settings.adminHost,
            port: settings.adminPort,
            queryUrl: `http://${server.host === "0.0.0.0" ? "127.0.0.1" : server.host}:${server.port}`,
            columnstore,
            registry,
            policyOverrides: settings.policyOverrides,
            policyUsage: () => server.backend.policies.usage(Date.now()),
            consumerStatuses: () => consumers?.statuses() ?? [],
          });
          log(`admin UI on http://${admin.host}:${admin.port} (ADMIN_PORT; 0 turns it off)`);
        } catch (reason) {
          // The query service runs without its admin UI rather than not at all.
          const code = (reason as { code?: unknown }).code;
          log(`admin UI not started: ${code === "EADDRINUSE" ? `port ${settings.adminPort} on ${settings.adminHost} is in use; set ADMIN_PORT to a free port or 0` : reason instanceof Error ? reason.message : String(reason)}`);
        }
      }
      const where = cluster ? `in NATS KV at ${settings.natsUrl} (cluster node ${clusterNodeId(settings)})` : `in the embedded store`;
      log(
        settings.scheduler
          ? `subscriptions: stored ${where}; scheduler running, results to ${server.subscriptions.publisher.description}`
          : `subscriptions: stored ${where}; scheduler off (QUARRY_SCHEDULER=off); the API stores and lists subscriptions`,
      );
      // SIGTERM/SIGINT: stop accepting, let requests, subscription runs and the query log finish
      // within the deadline, exit 0. The consumers stop first: what they hold is written while
      // the engine is still open.
      exitOnStopSignals({
        log,
        deadlineMs: settings.shutdownTimeoutMs,
        graceMs: 2000,
        doing: (deadline) => `shutting down within ${deadline} ms: finishing requests and subscription runs, saving checkpoints, writing the query log`,
        async shutdown(deadline) {
          const started = Date.now();
          await commitLogClock?.stop();
          await consumers?.stop(Math.floor(deadline / 2));
          await server.close(Math.max(0, deadline - (Date.now() - started)));
          await admin?.close();
          await cluster?.close();
          await columnstore.close();
        },
      });
      return -1;
    }
    default:
      process.stderr.write(`unknown command '${command}'\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (reason: unknown) => {
    process.stderr.write(`quarry: ${reason instanceof Error ? reason.message : String(reason)}\n`);
    process.exit(1);
  },
);
