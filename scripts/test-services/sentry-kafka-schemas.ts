/**
 * Sentry's `sentry-kafka-schemas` Python package from PyPI, in a venv cached under
 * `.cache/python/`: the JSON schemas and example messages of Sentry's Kafka topics, which the
 * subscription tests validate Quarry's result messages against. Read from the installed package,
 * never copied into the repository.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { log } from "./log.js";
import { run, which } from "./system-packages.js";

/** Pinned (what PyPI serves today) so CI does not validate against a moving target. */
export const SENTRY_KAFKA_SCHEMAS_VERSION = process.env.QUARRY_SENTRY_KAFKA_SCHEMAS_VERSION ?? "3.0.2";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cacheRoot = join(repoRoot, ".cache", "python");

interface CacheManifest {
  version: string;
  /** The `sentry_kafka_schemas` package directory, relative to the venv. */
  packageDir: string;
}

/** The package directory of a complete cached venv, or undefined. */
function cachedPackageDir(venv: string, version: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(venv, "manifest.json"), "utf8")) as CacheManifest;
    if (manifest.version !== version) return undefined;
    const dir = join(venv, manifest.packageDir);
    return existsSync(join(dir, "topics")) && existsSync(join(dir, "schemas")) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Environment for python and pip: variables that would make `import` find another copy of the
 * package, or make pip install outside the venv, are dropped.
 */
function pythonEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PIP_USER", "PIP_TARGET", "PIP_PREFIX", "PIP_ROOT"]) delete env[name];
  return env;
}

/**
 * A venv writes its own absolute path into bin/pip's shebang, bin/activate* and pyvenv.cfg.
 * bin/python (a symlink to the base interpreter) works from any path, but the rest would keep
 * naming the staging dir after the rename; point them at the final path instead.
 */
function retargetVenv(staging: string, target: string): void {
  const files = [join(staging, "pyvenv.cfg"), ...readdirSync(join(staging, "bin")).map((name) => join(staging, "bin", name))];
  for (const file of files) {
    if (!lstatSync(file).isFile()) continue;
    const text = readFileSync(file, "utf8");
    if (text.includes(staging)) writeFileSync(file, text.split(staging).join(target));
  }
}

/** Moves a complete staging venv into place, tolerating a concurrent run that won the race. */
function publishCache(staging: string, target: string, version: string): void {
  try {
    renameSync(staging, target);
    return;
  } catch (err) {
    if (cachedPackageDir(target, version) !== undefined) return; // another run published a complete cache
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
 * The absolute directory of the installed `sentry_kafka_schemas` package (its `topics/`,
 * `schemas/` and `examples/`). The first run creates a venv in `.cache/python/` and installs the
 * package with pip; later runs only read the cache manifest and start neither python nor pip.
 */
export async function ensureSentryKafkaSchemas(version = SENTRY_KAFKA_SCHEMAS_VERSION): Promise<string> {
  // The version becomes part of a path and of a pip requirement: PEP 440 characters only.
  if (!/^[0-9][0-9A-Za-z.+!_-]*$/.test(version)) {
    throw new Error(`QUARRY_SENTRY_KAFKA_SCHEMAS_VERSION=${version} is not a version number (e.g. 3.0.2)`);
  }
  const target = join(cacheRoot, `sentry-kafka-schemas-${version}`);
  const cached = cachedPackageDir(target, version);
  if (cached !== undefined) return cached;

  const python3 = which("python3");
  if (python3 === undefined) {
    throw new Error(
      `python3 is not on PATH (${process.env.PATH ?? ""}); the test setup needs it (with its venv module) to install ` +
        `sentry-kafka-schemas ${version} from PyPI, whose schemas the subscription tests validate against. ` +
        "Install Python 3 (on Debian/Ubuntu: apt-get install python3 python3-venv).",
    );
  }
  const env = pythonEnv();
  // Build the venv in a staging dir and rename it at the end, so an interrupted or concurrent
  // run never leaves a half-installed venv that later looks complete.
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, `.staging-sentry-kafka-schemas-${version}-`));
  try {
    log(`installing sentry-kafka-schemas ${version} from PyPI into ${target}`);
    const started = Date.now();
    try {
      // --prompt: activate scripts would otherwise show the staging dir's name.
      await run(python3, ["-m", "venv", "--prompt", `sentry-kafka-schemas-${version}`, staging], { env, timeoutMs: 120_000 });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`${python3} -m venv failed (on Debian/Ubuntu the venv module is the python3-venv package):\n${why}`);
    }
    await run(
      join(staging, "bin", "pip"),
      ["install", "--quiet", "--no-input", "--disable-pip-version-check", `sentry-kafka-schemas==${version}`],
      { env, timeoutMs: 600_000 },
    );
    const printed = await run(
      join(staging, "bin", "python"),
      // -I: isolated, so neither PYTHON* variables nor the cwd can put another copy first.
      ["-I", "-c", "import sentry_kafka_schemas, os; print(os.path.dirname(sentry_kafka_schemas.__file__))"],
      { env, timeoutMs: 60_000 },
    );
    // run() captures stderr too: the path is the last line printed.
    const imported = printed.trim().split("\n").at(-1)?.trim() ?? "";
    const packageDir = relative(staging, imported);
    if (!isAbsolute(imported) || packageDir === "" || packageDir.startsWith("..") || isAbsolute(packageDir)) {
      throw new Error(`sentry_kafka_schemas was imported from "${imported}", not from inside the venv ${staging}`);
    }
    retargetVenv(staging, target);
    const manifest: CacheManifest = { version, packageDir };
    // Written last: a staging dir with a manifest is complete.
    writeFileSync(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    publishCache(staging, target, version);
    log(`cached sentry-kafka-schemas ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const installed = cachedPackageDir(target, version);
  if (installed === undefined) throw new Error(`installed sentry-kafka-schemas ${version}, but ${target} is not a complete cache`);
  return installed;
}
