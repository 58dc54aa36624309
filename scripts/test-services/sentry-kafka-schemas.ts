/**
 * Sentry's `sentry-kafka-schemas` Python package from PyPI (python-package.ts): the JSON schemas
 * and example messages of Sentry's Kafka topics, which the subscription tests validate Quarry's
 * result messages against. Read from the installed package, never copied into the repository.
 */
import { ensurePythonPackage } from "./python-package.js";

/** Pinned (what PyPI serves today) so CI does not validate against a moving target. */
export const SENTRY_KAFKA_SCHEMAS_VERSION = process.env.QUARRY_SENTRY_KAFKA_SCHEMAS_VERSION ?? "3.0.2";

/** The absolute directory of the installed `sentry_kafka_schemas` package (its `topics/`, `schemas/` and `examples/`). */
export async function ensureSentryKafkaSchemas(version = SENTRY_KAFKA_SCHEMAS_VERSION): Promise<string> {
  const installed = await ensurePythonPackage({
    name: "sentry-kafka-schemas",
    version,
    module: "sentry_kafka_schemas",
    expect: ["topics", "schemas"],
    versionVariable: "QUARRY_SENTRY_KAFKA_SCHEMAS_VERSION",
    purpose: "its topic schemas are what the subscription tests validate result messages against",
  });
  return installed.packageDir;
}
