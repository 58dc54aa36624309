/**
 * A Python package from PyPI in its own venv, cached under `.cache/python/<name>-<version>/`:
 * Sentry's packages that the tests use as fixtures (sentry-kafka-schemas, sentry-protos) are
 * installed here by the test setup, never copied into the repository. The first run creates the
 * venv and installs the package with pip; later runs only read the cache manifest.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { log } from "./log.js";
import { run, which } from "./system-packages.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cacheRoot = join(repoRoot, ".cache", "python");

export interface PythonPackage {
  /** The PyPI name, e.g. `sentry-protos`. */
  readonly name: string;
  readonly version: string;
  /** The import name, e.g. `sentry_protos`. */
  readonly module: string;
  /** Paths inside the package directory that a complete install has. */
  readonly expect?: readonly string[];
  /** The variable that overrides the version (named in errors). */
  readonly versionVariable: string;
  /** Why the tests need it (named in errors). */
  readonly purpose: string;
}

export interface InstalledPythonPackage {
  /** The package's directory inside the venv. */
  readonly packageDir: string;
  /** The venv's python, which imports the package. */
  readonly python: string;
}

interface CacheManifest {
  version: string;
  /** The package directory, relative to the venv. */
  packageDir: string;
}

/** The package directory of a complete cached venv, or undefined. */
function cachedPackageDir(venv: string, pkg: PythonPackage): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(venv, "manifest.json"), "utf8")) as CacheManifest;
    if (manifest.version !== pkg.version) return undefined;
    const dir = join(venv, manifest.packageDir);
    return existsSync(dir) && (pkg.expect ?? []).every((path) => existsSync(join(dir, path))) ? dir : undefined;
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
function publishCache(staging: string, target: string, pkg: PythonPackage): void {
  try {
    renameSync(staging, target);
    return;
  } catch (err) {
    if (cachedPackageDir(target, pkg) !== undefined) return; // another run published a complete cache
    // A leftover, incomplete target (e.g. from an older layout): replace it.
    rmSync(target, { recursive: true, force: true });
    try {
      renameSync(staging, target);
    } catch {
      throw err;
    }
  }
}

/** Installs (once) and returns the package's directory and the venv's python. */
export async function ensurePythonPackage(pkg: PythonPackage): Promise<InstalledPythonPackage> {
  const { name, version } = pkg;
  // The version becomes part of a path and of a pip requirement: PEP 440 characters only.
  if (!/^[0-9][0-9A-Za-z.+!_-]*$/.test(version)) {
    throw new Error(`${pkg.versionVariable}=${version} is not a version number (e.g. 3.0.2)`);
  }
  const target = join(cacheRoot, `${name}-${version}`);
  const python = join(target, "bin", "python");
  const cached = cachedPackageDir(target, pkg);
  if (cached !== undefined) return { packageDir: cached, python };

  const python3 = which("python3");
  if (python3 === undefined) {
    throw new Error(
      `python3 is not on PATH (${process.env.PATH ?? ""}); the test setup needs it (with its venv module) to install ` +
        `${name} ${version} from PyPI (${pkg.purpose}). ` +
        "Install Python 3 (on Debian/Ubuntu: apt-get install python3 python3-venv).",
    );
  }
  const env = pythonEnv();
  // Build the venv in a staging dir and rename it at the end, so an interrupted or concurrent
  // run never leaves a half-installed venv that later looks complete.
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, `.staging-${name}-${version}-`));
  try {
    log(`installing ${name} ${version} from PyPI into ${target}`);
    const started = Date.now();
    try {
      // --prompt: activate scripts would otherwise show the staging dir's name.
      await run(python3, ["-m", "venv", "--prompt", `${name}-${version}`, staging], { env, timeoutMs: 120_000 });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`${python3} -m venv failed (on Debian/Ubuntu the venv module is the python3-venv package):\n${why}`);
    }
    await run(
      join(staging, "bin", "pip"),
      ["install", "--quiet", "--no-input", "--disable-pip-version-check", `${name}==${version}`],
      { env, timeoutMs: 600_000 },
    );
    const printed = await run(
      join(staging, "bin", "python"),
      // -I: isolated, so neither PYTHON* variables nor the cwd can put another copy first.
      ["-I", "-c", `import ${pkg.module}, os; print(os.path.dirname(${pkg.module}.__file__))`],
      { env, timeoutMs: 60_000 },
    );
    // run() captures stderr too: the path is the last line printed.
    const imported = printed.trim().split("\n").at(-1)?.trim() ?? "";
    const packageDir = relative(staging, imported);
    if (!isAbsolute(imported) || packageDir === "" || packageDir.startsWith("..") || isAbsolute(packageDir)) {
      throw new Error(`${pkg.module} was imported from "${imported}", not from inside the venv ${staging}`);
    }
    retargetVenv(staging, target);
    const manifest: CacheManifest = { version, packageDir };
    // Written last: a staging dir with a manifest is complete.
    writeFileSync(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    publishCache(staging, target, pkg);
    log(`cached ${name} ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const installed = cachedPackageDir(target, pkg);
  if (installed === undefined) throw new Error(`installed ${name} ${version}, but ${target} is not a complete cache`);
  return { packageDir: installed, python };
}
