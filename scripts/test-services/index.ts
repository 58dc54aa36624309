/**
 * Real NATS JetStream and Kafka servers for integration tests, started as plain
 * local processes (no Docker): nats-server from the Debian package, Kafka from
 * Maven Central jars cached in `.cache/kafka/`. On request also a ClickHouse server,
 * run from chDB's libchdb.so (clickhouse-server.ts).
 */
import { ensureChdbServerLauncher, startClickHouseServer, type RunningClickHouseServer } from "./clickhouse-server.js";
import { ensureJava, ensureKafkaJars, KAFKA_VERSION, startKafka, type RunningKafka } from "./kafka-broker.js";
import { log } from "./log.js";
import { ensureNatsServer, natsServerVersion, startNats, type RunningNats } from "./nats-server.js";
import { ensureSentryKafkaSchemas } from "./sentry-kafka-schemas.js";
import { ensureSentryProtos } from "./sentry-protos.js";

export { KAFKA_VERSION } from "./kafka-broker.js";

export interface TestServices {
  /** e.g. `nats://127.0.0.1:40123` */
  natsUrl: string;
  /** e.g. `["127.0.0.1:40125"]` */
  kafkaBrokers: string[];
  /** The installed `sentry_kafka_schemas` Python package (schemas and examples of Sentry's topics). */
  sentryKafkaSchemasDir: string;
  /** A python that imports Sentry's `sentry_protos` (the RPC tests build their requests with it). */
  sentryProtosPython: string;
  /** With `clickhouse: true`: the ClickHouse server's HTTP URL, e.g. `http://127.0.0.1:40127`. */
  clickhouseUrl?: string;
  /** With `clickhouse: true`: every ClickHouse node's HTTP URL (one server: `[clickhouseUrl]`). */
  clickhouseNodeUrls?: string[];
  /** Stops every server and removes their temp dirs. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface InstalledTools {
  natsServer: string;
  java: string;
  kafkaLibs: string;
  sentryKafkaSchemas: string;
  sentryProtosPython: string;
  /** With `clickhouse: true`: the compiled launcher of the chDB ClickHouse server. */
  chdbServerLauncher?: string;
}

export interface TestServicesOptions {
  /** Also a ClickHouse server (chDB's libchdb.so run as a server). */
  clickhouse?: boolean;
}

/** Installs / caches everything the services need, without starting them. */
export async function installTestServices(options: TestServicesOptions = {}): Promise<InstalledTools> {
  // Sequential on purpose: nats-server and the JRE may both need apt, and the
  // mvn step may need apt too; apt installs are serialised anyway.
  const natsServer = await ensureNatsServer();
  log(`nats-server: ${natsServer} (${await natsServerVersion(natsServer)})`);
  const java = await ensureJava();
  const kafkaLibs = await ensureKafkaJars();
  log(`kafka ${KAFKA_VERSION}: ${kafkaLibs}`);
  const sentryKafkaSchemas = await ensureSentryKafkaSchemas();
  log(`sentry-kafka-schemas: ${sentryKafkaSchemas}`);
  const sentryProtosPython = await ensureSentryProtos();
  log(`sentry-protos: ${sentryProtosPython}`);
  const chdbServerLauncher = options.clickhouse ? await ensureChdbServerLauncher() : undefined;
  return { natsServer, java, kafkaLibs, sentryKafkaSchemas, sentryProtosPython, chdbServerLauncher };
}

/**
 * Starts nats-server (JetStream on) and a single-node KRaft Kafka (and, with
 * `clickhouse: true`, a ClickHouse server) on free 127.0.0.1 ports and waits until
 * each answers real client requests.
 */
export async function startTestServices(options: TestServicesOptions = {}): Promise<TestServices> {
  const started = Date.now();
  const tools = await installTestServices(options);
  // Start all at once; if one fails, the others must not be left running.
  const [nats, kafka, clickhouse] = await Promise.allSettled([
    startNats(tools.natsServer),
    startKafka(tools.java, tools.kafkaLibs),
    options.clickhouse ? startClickHouseServer() : Promise.resolve(undefined),
  ]);
  if (nats.status === "rejected" || kafka.status === "rejected" || clickhouse.status === "rejected") {
    const running: Array<RunningNats | RunningKafka | RunningClickHouseServer> = [];
    if (nats.status === "fulfilled") running.push(nats.value);
    if (kafka.status === "fulfilled") running.push(kafka.value);
    if (clickhouse.status === "fulfilled" && clickhouse.value !== undefined) running.push(clickhouse.value);
    await Promise.allSettled(running.map((service) => service.stop()));
    const errors = [nats, kafka, clickhouse].flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
    const message = errors.map((err) => (err instanceof Error ? err.message : String(err))).join("\n\n");
    throw new Error(`could not start test services:\n${message}`);
  }
  log(`test services ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  let stopping: Promise<void> | undefined;
  return {
    natsUrl: nats.value.url,
    kafkaBrokers: kafka.value.brokers,
    sentryKafkaSchemasDir: tools.sentryKafkaSchemas,
    sentryProtosPython: tools.sentryProtosPython,
    ...(clickhouse.value === undefined
      ? {}
      : { clickhouseUrl: clickhouse.value.url, clickhouseNodeUrls: [clickhouse.value.url] }),
    stop() {
      stopping ??= (async () => {
        const results = await Promise.allSettled([nats.value.stop(), kafka.value.stop(), clickhouse.value?.stop()]);
        const failed = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
        if (failed.length > 0) {
          throw new Error(`stopping test services failed: ${failed.map(String).join("; ")}`);
        }
        log("test services stopped");
      })();
      return stopping;
    },
  };
}
