/**
 * Vitest globalSetup: starts real NATS JetStream and Kafka servers once per run.
 * Tests get their addresses via `inject('natsUrl')` / `inject('kafkaBrokers')`,
 * and code that reads configuration from the environment sees NATS_URL and
 * KAFKA_BROKERS (set here, before vitest forks the test workers, so they inherit it).
 *
 * QUARRY_TEST_SERVICES=none skips starting them for quick unit-only runs. Then
 * nothing is provided (unless NATS_URL / KAFKA_BROKERS are already set, e.g. from
 * `npx tsx scripts/test-services/cli.ts` in another terminal), and integration
 * tests fail with a message instead of silently passing.
 */
import type { TestProject } from "vitest/node";
import { startTestServices } from "../../scripts/test-services/index.js";
import { ensureSentryKafkaSchemas } from "../../scripts/test-services/sentry-kafka-schemas.js";
import { ensureSentryProtos } from "../../scripts/test-services/sentry-protos.js";
import { ensureCommand } from "../../scripts/test-services/system-packages.js";

declare module "vitest" {
  export interface ProvidedContext {
    natsUrl: string;
    kafkaBrokers: string[];
    /** The installed sentry_kafka_schemas package: Sentry's topic schemas and examples. */
    sentryKafkaSchemasDir: string;
    /** A python that imports sentry_protos: the RPC tests build their requests with it. */
    sentryProtosPython: string;
    /** Debian's chromium (installed if missing): the admin UI's browser tests drive it with playwright-core. */
    chromiumPath: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // Servers the tests spawn run without the admin UI (its fixed port would clash between them);
  // the admin tests start their own admin server on a free port.
  process.env.ADMIN_PORT ??= "0";
  if (process.env.QUARRY_TEST_SERVICES === "none") {
    const natsUrl = process.env.NATS_URL;
    const kafkaBrokers = process.env.KAFKA_BROKERS;
    if (natsUrl) project.provide("natsUrl", natsUrl);
    if (kafkaBrokers) project.provide("kafkaBrokers", kafkaBrokers.split(","));
    // No server needed: the schemas are files of a Python package.
    project.provide("sentryKafkaSchemasDir", await ensureSentryKafkaSchemas());
    project.provide("sentryProtosPython", await ensureSentryProtos());
    project.provide("chromiumPath", await ensureCommand("chromium", "chromium"));
    return undefined;
  }

  const services = await startTestServices();
  process.env.NATS_URL = services.natsUrl;
  process.env.KAFKA_BROKERS = services.kafkaBrokers.join(",");
  project.provide("natsUrl", services.natsUrl);
  project.provide("kafkaBrokers", services.kafkaBrokers);
  project.provide("sentryKafkaSchemasDir", services.sentryKafkaSchemasDir);
  project.provide("sentryProtosPython", services.sentryProtosPython);
  project.provide("chromiumPath", await ensureCommand("chromium", "chromium"));
  return () => services.stop();
}
