/**
 * Confluent's `confluent-kafka` Python package from PyPI (python-package.ts): it wraps librdkafka,
 * the client Sentry's producers use, so the demo producer's partitioner is checked against the
 * partitions librdkafka really chooses. Installed at test time, never copied into the repository.
 */
import { ensurePythonPackage } from "./python-package.js";

/** Pinned (the version sentry-arroyo 2.48.0 installs) so CI compares with a fixed librdkafka. */
export const CONFLUENT_KAFKA_VERSION = process.env.QUARRY_CONFLUENT_KAFKA_VERSION ?? "2.16.2";

/** A python that imports `confluent_kafka`. */
export async function ensureConfluentKafka(version = CONFLUENT_KAFKA_VERSION): Promise<string> {
  const installed = await ensurePythonPackage({
    name: "confluent-kafka",
    version,
    module: "confluent_kafka",
    expect: ["__init__.py"],
    versionVariable: "QUARRY_CONFLUENT_KAFKA_VERSION",
    purpose: "its librdkafka producer shows which partition Sentry's producers choose for a key",
  });
  return installed.python;
}
