/**
 * Sentry's `sentry-kafka-schemas` Python package from PyPI, in a venv cached under
 * `.cache/python/`: the JSON schemas and example messages of Sentry's Kafka topics, which the
 * subscription tests validate Quarry's result messages against. Read from the installed package,
 * never copied into the repository.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { log } from "./log.js";
import { run, which } from "./system-packages.js";

export const SENTRY_KAFKA_SCHEMAS_VERSION = process.env.QUARRY_SENTRY_KAFKA_SCHEMAS_VERSION ?? "3.0.2";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cacheRoot = join(repoRoot, ".cache", "python");

async function packageDir(python: string): Promise<string> {
  const out = await run(python, ["-c", "import os, sentry_kafka_schemas; print(os.path.dirname(sentry_kafka_schemas.__file__))"], { timeoutMs: 30_000 });
  return out.trim();
}

/** The directory of the installed `sentry_kafka_schemas` package (installing it once). */
export async function ensureSentryKafkaSchemas(): Promise<string> {
  const venv = join(cacheRoot, `sentry-kafka-schemas-${SENTRY_KAFKA_SCHEMAS_VERSION}`);
  const python = join(venv, "bin", "python");
  // The marker is written last: a venv without it is an interrupted install.
  if (existsSync(join(venv, "installed"))) return packageDir(python);

  const system = which("python3");
  if (!system) throw new Error("python3 is not on PATH: it is needed to install sentry-kafka-schemas from PyPI for the subscription tests");
  mkdirSync(cacheRoot, { recursive: true });
  // A venv names its own path in its scripts, so it is built where it stays; the marker file,
  // written last, is what makes it complete. An interrupted install is removed and redone.
  rmSync(venv, { recursive: true, force: true });
  log(`installing sentry-kafka-schemas ${SENTRY_KAFKA_SCHEMAS_VERSION} from PyPI into ${venv}`);
  try {
    await run(system, ["-m", "venv", venv], { timeoutMs: 120_000 });
    await run(join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `sentry-kafka-schemas==${SENTRY_KAFKA_SCHEMAS_VERSION}`], {
      timeoutMs: 300_000,
    });
  } catch (reason) {
    rmSync(venv, { recursive: true, force: true });
    throw reason;
  }
  const dir = await packageDir(python);
  writeFileSync(join(venv, "installed"), `${SENTRY_KAFKA_SCHEMAS_VERSION}\n`);
  return dir;
}
