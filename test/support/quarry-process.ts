/**
 * `quarry` commands as real child processes for fault tests: started with `tsx`, their output
 * kept, stopped and signalled by process id.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "src/cli/main.ts");

export interface QuarryProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  output: string;
  readonly exited: Promise<number | null>;
  signal(signal: NodeJS.Signals): void;
}

export function startQuarry(args: string[], env: NodeJS.ProcessEnv): QuarryProcess {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], { cwd: ROOT, env: { ...process.env, ADMIN_PORT: process.env.ADMIN_PORT ?? "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const running: QuarryProcess = {
    child,
    pid: child.pid!,
    output: "",
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
    signal(signal) {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, signal);
    },
  };
  child.stdout!.on("data", (chunk: Buffer) => (running.output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (running.output += chunk.toString()));
  return running;
}

/** Polls `probe` every 500 ms until it returns a value (errors count as "not yet"). */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
