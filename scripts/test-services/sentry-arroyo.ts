/**
 * Sentry's `sentry-arroyo` Python package from PyPI (python-package.ts): its CommitCodec is how
 * Snuba's and Sentry's subscription schedulers read a commit log, so the ingestion tests decode
 * Quarry's commit-log messages with it. Installed at test time, never copied into the repository.
 */
import { ensurePythonPackage } from "./python-package.js";

/** Pinned (what PyPI serves today) so CI does not decode with a moving target. */
export const SENTRY_ARROYO_VERSION = process.env.QUARRY_SENTRY_ARROYO_VERSION ?? "2.48.0";

/** A python that imports `arroyo` (with confluent-kafka, which its Kafka backend imports). */
export async function ensureSentryArroyo(version = SENTRY_ARROYO_VERSION): Promise<string> {
  const installed = await ensurePythonPackage({
    name: "sentry-arroyo",
    version,
    module: "arroyo",
    expect: ["backends/kafka/commit.py"],
    versionVariable: "QUARRY_SENTRY_ARROYO_VERSION",
    purpose: "its CommitCodec decodes Quarry's commit-log messages as Snuba's and Sentry's schedulers do",
  });
  return installed.python;
}
