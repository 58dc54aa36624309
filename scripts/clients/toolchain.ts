/**
 * The code generators behind `buf generate` for the Go and Python clients, and the Python venv
 * their tests run in, installed from the registries into `.cache/` (never committed):
 *
 * - `.cache/protoc-plugins/bin/protoc-gen-go`, `protoc-gen-connect-go` and `protoc-gen-go-grpc`,
 *   built with `go install` from the Go module proxy. protoc-gen-go and protoc-gen-connect-go take
 *   the versions clients/go/go.mod requires of google.golang.org/protobuf and
 *   connectrpc.com/connect, so generated code and runtime always match.
 * - `.cache/python/quarry-clients/`, a venv with clients/python/requirements-dev.txt (grpcio-tools,
 *   protoc-gen-connectrpc, the runtime libraries, pytest) and the client package itself, editable.
 *   `.cache/protoc-plugins/bin/grpc-tools-protoc` and `protoc-gen-connectrpc` link into it, and
 *   `protoc-gen-grpc_python` runs scripts/clients/protoc_gen_grpc_python.py with its python.
 *
 * Each part is redone only when what it was built from changed (versions, requirements, pyproject).
 *
 *   npx tsx scripts/clients/toolchain.ts     # install, then print GO=, PYTHON=, PLUGINS= lines
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run, which } from "../test-services/system-packages.js";

/** protoc-gen-go-grpc is its own module, versioned apart from google.golang.org/grpc. */
export const PROTOC_GEN_GO_GRPC_VERSION = "v1.6.2";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const pluginBin = join(repoRoot, ".cache", "protoc-plugins", "bin");
const venv = join(repoRoot, ".cache", "python", "quarry-clients");
const goModPath = join(repoRoot, "clients", "go", "go.mod");
const pythonClient = join(repoRoot, "clients", "python");

export interface ClientToolchain {
  /** The `go` command. */
  readonly go: string;
  /** The venv's python, with grpcio, connectrpc, pytest and the quarry-client package. */
  readonly python: string;
  /** Where buf.gen.yaml finds the Go and Python plugins. */
  readonly pluginBin: string;
}

function log(message: string): void {
  process.stderr.write(`[clients] ${message}\n`);
}

/** The version clients/go/go.mod requires of `module`. */
export function goModRequirement(module: string): string {
  const goMod = readFileSync(goModPath, "utf8");
  const escaped = module.replace(/[.]/g, "\\.");
  const match = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, "m").exec(goMod);
  if (!match?.[1]) throw new Error(`clients/go/go.mod does not require ${module}`);
  return match[1];
}

function goPlugins(): ReadonlyArray<{ readonly binary: string; readonly pkg: string; readonly version: string }> {
  return [
    { binary: "protoc-gen-go", pkg: "google.golang.org/protobuf/cmd/protoc-gen-go", version: goModRequirement("google.golang.org/protobuf") },
    { binary: "protoc-gen-connect-go", pkg: "connectrpc.com/connect/cmd/protoc-gen-connect-go", version: goModRequirement("connectrpc.com/connect") },
    { binary: "protoc-gen-go-grpc", pkg: "google.golang.org/grpc/cmd/protoc-gen-go-grpc", version: PROTOC_GEN_GO_GRPC_VERSION },
  ];
}

async function ensureGoPlugins(go: string): Promise<void> {
  const plugins = goPlugins();
  const wanted = plugins.map((p) => `${p.pkg}@${p.version}`).join("\n") + "\n";
  const marker = join(pluginBin, ".go-plugins");
  const complete = existsSync(marker) && readFileSync(marker, "utf8") === wanted && plugins.every((p) => existsSync(join(pluginBin, p.binary)));
  if (complete) return;
  mkdirSync(pluginBin, { recursive: true });
  rmSync(marker, { force: true });
  for (const plugin of plugins) {
    log(`go install ${plugin.pkg}@${plugin.version}`);
    // GOFLAGS from the caller (e.g. -mod=vendor) must not reach an install of a pinned version.
    await run(go, ["install", `${plugin.pkg}@${plugin.version}`], {
      cwd: repoRoot,
      env: { ...process.env, GOBIN: pluginBin, GOFLAGS: "" },
      timeoutMs: 600_000,
    });
  }
  writeFileSync(marker, wanted);
}

async function ensurePythonVenv(): Promise<string> {
  const python = join(venv, "bin", "python");
  const requirements = join(pythonClient, "requirements-dev.txt");
  const wanted = createHash("sha256")
    .update(readFileSync(requirements))
    .update(readFileSync(join(pythonClient, "pyproject.toml")))
    .digest("hex");
  const marker = join(venv, "installed");
  if (existsSync(marker) && readFileSync(marker, "utf8").trim() === wanted) return python;

  const system = which("python3");
  if (!system) throw new Error("python3 is not on PATH: it is needed for the Python client's code generation and tests");
  // A venv names its own path in its scripts, so it is built where it stays; the marker, written
  // last, is what makes it complete. An interrupted or outdated one is removed and rebuilt.
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(join(venv, ".."), { recursive: true });
  log(`installing ${requirements} and clients/python (editable) from PyPI into ${venv}`);
  try {
    await run(system, ["-m", "venv", venv], { timeoutMs: 120_000 });
    const pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"] as const;
    await run(pip[0], [...pip.slice(1), "-r", requirements], { timeoutMs: 600_000 });
    await run(pip[0], [...pip.slice(1), "-e", `${pythonClient}[grpc,connect]`], { timeoutMs: 600_000 });
  } catch (reason) {
    rmSync(venv, { recursive: true, force: true });
    throw reason;
  }
  writeFileSync(marker, `${wanted}\n`);
  return python;
}

function link(target: string, name: string): void {
  const path = join(pluginBin, name);
  rmSync(path, { force: true });
  symlinkSync(target, path);
}

/** A plugin that is a Python script of this repository, run by the venv's python. */
function pythonPlugin(python: string, script: string, name: string): void {
  const path = join(pluginBin, name);
  rmSync(path, { force: true });
  writeFileSync(path, `#!/bin/sh\nexec '${python}' '${join(repoRoot, "scripts", "clients", script)}' "$@"\n`, { mode: 0o755 });
}

/** Whether a process with this id is running (signal 0 checks without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs `task` while holding a lock directory (mkdir is atomic) that names its holder's process
 * id: test files in parallel forks ask for the toolchain at once, and only one may build it. The
 * lock of a holder that is gone (killed mid-install) is taken over.
 */
async function withLock<T>(task: () => Promise<T>): Promise<T> {
  const lock = join(repoRoot, ".cache", "clients-toolchain.lock");
  const holder = join(lock, "pid");
  mkdirSync(join(lock, ".."), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(holder, `${process.pid}\n`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let pid = Number.NaN;
      let ageMs = 0;
      try {
        ageMs = Date.now() - statSync(lock).mtimeMs;
        pid = Number(readFileSync(holder, "utf8"));
      } catch {
        // just made, its pid not yet written (or released meanwhile): look again shortly
      }
      const abandoned = Number.isInteger(pid) && pid > 0 ? !alive(pid) : ageMs > 60_000;
      if (abandoned) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await task();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Installs (once) and returns the Go and Python code generators and the Python test venv. */
export async function ensureClientToolchain(): Promise<ClientToolchain> {
  const go = which("go");
  if (!go) throw new Error("go is not on PATH: it is needed to build the Go protoc plugins and to test the Go client");
  return withLock(async () => {
    await ensureGoPlugins(go);
    const python = await ensurePythonVenv();
    mkdirSync(pluginBin, { recursive: true });
    // buf runs protoc's built-in python and pyi generators through grpc_tools' protoc.
    link(join(venv, "bin", "python-grpc-tools-protoc"), "grpc-tools-protoc");
    link(join(venv, "bin", "protoc-gen-connectrpc"), "protoc-gen-connectrpc");
    pythonPlugin(python, "protoc_gen_grpc_python.py", "protoc-gen-grpc_python");
    return { go, python, pluginBin };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const toolchain = await ensureClientToolchain();
  process.stdout.write(`GO=${toolchain.go}\nPYTHON=${toolchain.python}\nPLUGINS=${toolchain.pluginBin}\n`);
}
