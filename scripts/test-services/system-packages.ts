import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { log } from "./log.js";

// Debian installs nats-server into /usr/sbin, which is not on a non-root user's PATH.
const SBIN_DIRS = ["/usr/local/sbin", "/usr/sbin", "/sbin"];

/** Absolute path of `command` on PATH (or in the sbin dirs), or undefined. */
export function which(command: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? "").split(delimiter), ...SBIN_DIRS]) {
    if (dir === "") continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Stream the command's output to our stderr instead of capturing it. */
  passthrough?: boolean;
}

/**
 * Runs a command to completion. Captured output is returned and, on failure, the
 * last part of it is put into the error so CI logs show why.
 */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      // fd 2 for passthrough: stdout stays clean for the CLI's KEY=value lines.
      stdio: options.passthrough ? ["ignore", 2, 2] : ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const append = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      // Only the tail is ever shown; cap memory for chatty tools such as mvn.
      if (output.length > 256_000) output = output.slice(-128_000);
    };
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${command}: ${err.message}`));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve(output);
        return;
      }
      const why = signal === "SIGKILL" ? `was killed after ${options.timeoutMs} ms` : `exited with ${code ?? signal}`;
      const tail = output.trim().split("\n").slice(-40).join("\n");
      reject(new Error(`${command} ${args.join(" ")} ${why}${tail ? `\n--- output tail ---\n${tail}` : ""}`));
    });
  });
}

let aptUpdated: Promise<void> | undefined;
// dpkg holds a global lock: concurrent installs (e.g. nats-server and a JRE) must queue.
let aptQueue: Promise<unknown> = Promise.resolve();

/** Prefix for commands that need root: CI runners are usually non-root with passwordless sudo. */
function asRoot(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() === 0) return [command, args];
  if (which("sudo") === undefined) {
    throw new Error(`${command} needs root, and sudo is not available; install the package by hand`);
  }
  // -n: fail instead of hanging on a password prompt in CI.
  return ["sudo", ["-n", command, ...args]];
}

/**
 * Installs Debian packages with apt-get. `apt-get update` runs at most once per
 * process, since package lists on a fresh CI image are usually missing or stale.
 */
export function aptInstall(packages: string[]): Promise<void> {
  const next = aptQueue.then(() => aptInstallNow(packages));
  aptQueue = next.catch(() => undefined);
  return next;
}

async function aptInstallNow(packages: string[]): Promise<void> {
  if (which("apt-get") === undefined) {
    throw new Error(`apt-get is not available; install ${packages.join(", ")} by hand`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  aptUpdated ??= (async () => {
    log("running apt-get update");
    const [cmd, args] = asRoot("apt-get", ["update", "-q"]);
    await run(cmd, args, { env, timeoutMs: 300_000, passthrough: true });
  })();
  try {
    await aptUpdated;
  } catch (err) {
    aptUpdated = undefined; // let a later call retry
    throw err;
  }
  log(`installing Debian package(s): ${packages.join(", ")}`);
  const [cmd, args] = asRoot("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...packages]);
  await run(cmd, args, { env, timeoutMs: 600_000, passthrough: true });
}

/**
 * Path of `command`, installing `debianPackage` first if it is not on PATH.
 */
export async function ensureCommand(command: string, debianPackage: string): Promise<string> {
  const found = which(command);
  if (found !== undefined) return found;
  log(`${command} not found on PATH; installing Debian package ${debianPackage}`);
  await aptInstall([debianPackage]);
  const installed = which(command);
  if (installed === undefined) {
    throw new Error(`installed ${debianPackage}, but ${command} is still not on PATH (${process.env.PATH ?? ""}) or in ${SBIN_DIRS.join(", ")}`);
  }
  log(`installed ${debianPackage}: ${installed}`);
  return installed;
}
