import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Kafka, logLevel } from "kafkajs";
import { freePorts, retryOnPortClash } from "./free-port.js";
import { log } from "./log.js";
import { registerTempDir, releaseTempDir, spawnManaged, waitUntilReady } from "./managed-process.js";
import { ensureCommand, run } from "./system-packages.js";

/**
 * Newest Kafka 4.x whose full runtime dependency set resolves from Maven Central.
 * 4.4.0 is listed in the metadata, but its org.apache.kafka:kafka-tools-api:4.4.0
 * is missing from Central, so copy-dependencies fails for it. Pinned (rather than
 * "newest at run time") so CI does not change brokers under our feet.
 */
export const KAFKA_VERSION = process.env.QUARRY_KAFKA_VERSION ?? "4.3.1";
/** Must match the log4j-api version Kafka 4.3 depends on. */
const LOG4J_VERSION = "2.25.4";
/** Pinned: without a version, Maven 3.8 falls back to the ancient 2.8 plugin. */
const DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cacheRoot = join(repoRoot, ".cache", "kafka");

interface CacheManifest {
  kafkaVersion: string;
  jars: string[];
}

function pomXml(version: string): string {
  // log4j-slf4j-impl binds Kafka's slf4j 1.7 logging to log4j2 so that our file
  // appender receives it; without a binding slf4j prints NOP warnings and drops the log.
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>quarry.test</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka_2.13</artifactId>
      <version>${version}</version>
    </dependency>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId>
      <artifactId>log4j-slf4j-impl</artifactId>
      <version>${LOG4J_VERSION}</version>
    </dependency>
  </dependencies>
</project>
`;
}

function readManifest(dir: string): CacheManifest | undefined {
  const file = join(dir, "manifest.json");
  if (!existsSync(file)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, "utf8")) as CacheManifest;
    const complete = manifest.jars.length > 0 && manifest.jars.every((jar) => existsSync(join(dir, "libs", jar)));
    return complete ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** Moves a complete staging dir into place, tolerating a concurrent run that won the race. */
function publishCache(staging: string, target: string): void {
  try {
    renameSync(staging, target);
    return;
  } catch (err) {
    if (readManifest(target) !== undefined) return; // another run published a complete cache
    // A leftover, incomplete target (e.g. from an older layout): replace it.
    rmSync(target, { recursive: true, force: true });
    try {
      renameSync(staging, target);
    } catch {
      throw err;
    }
  }
}

/**
 * Directory holding the broker's jars (`<dir>/*` is the classpath). The first run
 * resolves them with Maven into `.cache/kafka/<version>/`; later runs only check
 * the manifest and never start mvn.
 */
export async function ensureKafkaJars(version = KAFKA_VERSION): Promise<string> {
  const target = join(cacheRoot, version);
  if (readManifest(target) !== undefined) return join(target, "libs");

  const mvn = await ensureCommand("mvn", "maven");
  // Resolve into a staging dir and rename at the end, so an interrupted or
  // concurrent run never leaves a half-filled cache that later looks complete.
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, `.staging-${version}-`));
  try {
    writeFileSync(join(staging, "pom.xml"), pomXml(version));
    log(`resolving org.apache.kafka:kafka_2.13:${version} and its runtime dependencies with mvn into ${target}`);
    const started = Date.now();
    await run(
      mvn,
      [
        "-B",
        "-q",
        "-f",
        join(staging, "pom.xml"),
        `${DEPENDENCY_PLUGIN}:copy-dependencies`,
        `-DoutputDirectory=${join(staging, "libs")}`,
        "-DincludeScope=runtime",
      ],
      { cwd: staging, timeoutMs: 900_000 },
    );
    const jars = readdirSync(join(staging, "libs"))
      .filter((name) => name.endsWith(".jar"))
      .sort();
    const manifest: CacheManifest = { kafkaVersion: version, jars };
    writeFileSync(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    publishCache(staging, target);
    log(`cached ${jars.length} jars for Kafka ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return join(target, "libs");
}

export async function ensureJava(): Promise<string> {
  // default-jre-headless is Java 17 on Debian 12 and 21 on Debian 13; Kafka 4 needs 17+.
  return ensureCommand("java", "default-jre-headless");
}

/** Kafka's Uuid format: 16 random bytes, base64url without padding. */
function randomClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString("base64url");
    // Kafka's own generator avoids a leading '-' because CLIs would read it as a flag.
    if (!id.startsWith("-")) return id;
  }
}

function serverProperties(dir: string, brokerPort: number, controllerPort: number): string {
  return [
    "# Single-node KRaft cluster for tests: one process is both broker and controller.",
    "process.roles=broker,controller",
    "node.id=1",
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${brokerPort}`,
    "controller.listener.names=CONTROLLER",
    "inter.broker.listener.name=PLAINTEXT",
    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
    `log.dirs=${join(dir, "data")}`,
    "auto.create.topics.enable=true",
    "num.partitions=1",
    // Internal topics default to replication 3, which a single node can never satisfy.
    "offsets.topic.replication.factor=1",
    // 50 partitions by default; creating and loading them delays the first consumer group.
    "offsets.topic.num.partitions=1",
    "transaction.state.log.replication.factor=1",
    "transaction.state.log.min.isr=1",
    "transaction.state.log.num.partitions=1",
    "share.coordinator.state.topic.replication.factor=1",
    "share.coordinator.state.topic.min.isr=1",
    // Tests join one consumer at a time; the default 3 s delay would only slow them.
    "group.initial.rebalance.delay.ms=0",
    "",
  ].join("\n");
}

function log4jProperties(logFile: string): string {
  // Everything to a file, nothing to the console: the test output stays quiet and
  // the file's tail goes into error messages when the broker misbehaves.
  return [
    "status = warn",
    "appender.file.type = File",
    "appender.file.name = file",
    `appender.file.fileName = ${logFile}`,
    "appender.file.layout.type = PatternLayout",
    "appender.file.layout.pattern = [%d] %p %m (%c)%n",
    "rootLogger.level = info",
    "rootLogger.appenderRef.file.ref = file",
    "",
  ].join("\n");
}

export interface RunningKafka {
  brokers: string[];
  /** The broker's current process id. */
  readonly pid: number | undefined;
  /**
   * Stops the broker (SIGTERM, SIGKILL after a grace period), stays down `downMs`, and starts it
   * again on the same ports and log dir, resolving once it answers: a broker restart under load.
   */
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 90_000;

/** Formats a fresh KRaft log dir and starts a single-node Kafka on 127.0.0.1. */
export function startKafka(java: string, libsDir: string): Promise<RunningKafka> {
  return retryOnPortClash("kafka", () => startKafkaOnce(java, libsDir));
}

async function startKafkaOnce(java: string, libsDir: string): Promise<RunningKafka> {
  const dir = mkdtempSync(join(tmpdir(), "quarry-kafka-"));
  registerTempDir(dir);
  const [brokerPort, controllerPort] = await freePorts(2);
  if (brokerPort === undefined || controllerPort === undefined) throw new Error("no free ports");
  const broker = `127.0.0.1:${brokerPort}`;
  const propertiesFile = join(dir, "server.properties");
  const log4jFile = join(dir, "log4j2.properties");
  const serverLog = join(dir, "server.log");
  writeFileSync(propertiesFile, serverProperties(dir, brokerPort, controllerPort));
  writeFileSync(log4jFile, log4jProperties(serverLog));

  const jvmArgs = [
    "-Xms128m",
    "-Xmx512m",
    "-Djava.awt.headless=true",
    `-Dlog4j2.configurationFile=${log4jFile}`,
    "-cp",
    // The JVM expands `dir/*` itself; this keeps the command line short and readable in ps.
    join(libsDir, "*"),
  ];

  try {
    // KRaft refuses to start on an unformatted log dir. With static
    // controller.quorum.voters, `format --cluster-id` is enough (no --standalone).
    await run(java, [...jvmArgs, "kafka.tools.StorageTool", "format", "--cluster-id", randomClusterId(), "--config", propertiesFile], {
      cwd: dir,
      timeoutMs: 120_000,
    });
  } catch (err) {
    releaseTempDir(dir);
    throw new Error(`formatting the Kafka storage dir failed: ${err instanceof Error ? err.message : String(err)}`);
  }

  const launch = () =>
    spawnManaged({
      name: "kafka",
      command: java,
      args: [...jvmArgs, "kafka.Kafka", propertiesFile],
      cwd: dir,
      outputFile: join(dir, "stdout.log"),
      extraLogFiles: [serverLog],
      // Matches the layout above: "[date] ERROR message (logger)".
      highlight: /^\[[^\]]+\] (ERROR|FATAL) /,
    });
  let server = launch();
  const stop = async (): Promise<void> => {
    // A clean shutdown takes ~2 s; the grace period covers a slow CI box.
    await server.stop(20_000);
    releaseTempDir(dir);
  };
  const ready = () =>
    waitUntilReady(
      async () => {
        const admin = new Kafka({
          clientId: "quarry-test-services",
          brokers: [broker],
          connectionTimeout: 2_000,
          requestTimeout: 5_000,
          retry: { retries: 0 },
          // Refused connections are expected while the JVM boots; we retry ourselves.
          logLevel: logLevel.NOTHING,
        }).admin();
        try {
          await admin.connect();
          await admin.listTopics();
        } finally {
          await admin.disconnect();
        }
      },
      { what: `Kafka ${KAFKA_VERSION} on ${broker}`, timeoutMs: READY_TIMEOUT_MS, process: server },
    );
  try {
    await ready();
  } catch (err) {
    await stop();
    throw err;
  }
  log(`kafka pid ${server.pid} listening on ${broker}`);
  return {
    brokers: [broker],
    get pid() {
      return server.pid;
    },
    async restart(options = {}) {
      await server.stop(20_000);
      log(`kafka on ${broker} stopped for a restart`);
      if (options.downMs) await new Promise((resolve) => setTimeout(resolve, options.downMs));
      server = launch();
      await ready();
      log(`kafka pid ${server.pid} listening on ${broker} again`);
    },
    stop,
  };
}
