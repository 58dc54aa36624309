/**
 * The `quarry` command: one binary for every role.
 *   quarry serve [--bootstrap]   serve JSON, Connect, gRPC and gRPC-Web on one port
 *                                (--bootstrap: migrate, and load demo data into an empty store)
 *   quarry migrate               create every storage's tables (idempotent)
 *   quarry demo-data [--rows N]  write deterministic demo data
 *   quarry subscriptions tail    print subscription results as they arrive
 */
import { createColumnstoreClient } from "../clickhouse/client-factory.js";
import { runMigrations } from "../clickhouse/migrations.js";
import { readSettings } from "../config/settings.js";
import { defaultRegistry } from "../datasets/registry.js";
import { DEMO_INDEXER_MAPPINGS } from "../demo-data/demo-indexer-mappings.js";
import { hasDemoData, loadDemoData } from "../demo-data/load-demo-data.js";
import { startServer } from "../server/start-server.js";
import { tailResultsTable, tailResultTopics } from "../subscriptions/results-tail.js";

const USAGE = `usage: quarry <command> [options]

commands:
  serve [--bootstrap]     serve queries on HOST:PORT (default 127.0.0.1:1218)
                          --bootstrap: migrate first, and load demo data when the store is empty
  migrate                 create every storage's tables (a second run changes nothing)
  demo-data [--rows N]    write deterministic demo data (default QUARRY_DEMO_ROWS or 1000000 rows)
  subscriptions tail [--from-beginning | --since <ISO 8601>]
                          print subscription results as they arrive: "<subscription id><TAB><message>";
                          from the results storage through QUARRY_QUERY_URL (default http://HOST:PORT),
                          or from the result topics when KAFKA_BROKERS is set
`;

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
      const columnstore = createColumnstoreClient(settings);
      const { applied, skipped } = await runMigrations(columnstore.client, registry, log);
      log(`migrations: ${applied.length} applied, ${skipped.length} already applied`);
      await columnstore.close();
      return 0;
    }
    case "demo-data": {
      const rowsText = option(args, "--rows");
      const rows = rowsText === undefined ? settings.demoRows : Number(rowsText);
      if (!Number.isInteger(rows) || rows <= 0) {
        log(`--rows must be a positive integer, got '${rowsText}'`);
        return 2;
      }
      const columnstore = createColumnstoreClient(settings);
      await runMigrations(columnstore.client, registry, log);
      await loadDemoData(columnstore.client, { rows, log, progress: process.stderr.isTTY ?? false });
      await columnstore.close();
      return 0;
    }
    case "subscriptions": {
      if (args[0] !== "tail") {
        log(`unknown subscriptions command '${args[0] ?? ""}': use 'quarry subscriptions tail'`);
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
      const columnstore = createColumnstoreClient(settings);
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
      const server = await startServer({
        host: settings.host,
        port: settings.port,
        definitions: registry,
        columnstore,
        statsInResponse: settings.statsInResponse,
        ...(demoStore ? { storeIndexerMappings: DEMO_INDEXER_MAPPINGS } : {}),
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
          log,
        },
      });
      log(`quarry serving JSON, Connect, gRPC and gRPC-Web on http://${server.host}:${server.port} (${columnstore.kind} ClickHouse at ${columnstore.location})`);
      log(
        settings.scheduler
          ? `subscriptions: scheduler running, results to ${server.subscriptions.publisher.description}`
          : "subscriptions: scheduler off (QUARRY_SCHEDULER=off); the API stores and lists subscriptions",
      );
      let stopping = false;
      const stop = async () => {
        if (stopping) return;
        stopping = true;
        log("shutting down: finishing requests and subscription runs, saving checkpoints, writing the query log");
        // server.close() flushes the query log before the ClickHouse client is closed.
        await server.close();
        await columnstore.close();
        process.exit(0);
      };
      process.once("SIGINT", () => void stop());
      process.once("SIGTERM", () => void stop());
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
