/**
 * The README's Go and Python client examples, exactly as written there, against what the README's
 * `npm start` runs: `quarry serve --bootstrap` (migrations and demo data, here few rows in a
 * temporary data directory, on a free port). The Go program is built in a module of its own set up
 * as the README says (require + replace of quarry/clients/go, go mod tidy); the Python programs run
 * in the client venv. Each must run to its end and print the typed error it reads.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureClientToolchain, repoRoot, type ClientToolchain } from "../../scripts/clients/toolchain.js";
import { freePort } from "../../scripts/test-services/free-port.js";
import { run } from "../../scripts/test-services/system-packages.js";

interface CodeBlock {
  readonly language: string;
  readonly code: string;
}

/** The fenced code blocks of the README between two headings. */
function readmeBlocks(fromHeading: string, toHeading: string): CodeBlock[] {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf(`\n${fromHeading}\n`);
  const end = readme.indexOf(`\n${toHeading}\n`, start);
  if (start < 0 || end < 0) throw new Error(`README.md has no section from '${fromHeading}' to '${toHeading}'`);
  return [...readme.slice(start, end).matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ language: m[1]!, code: m[2]! }));
}

const goBlocks = readmeBlocks("### Go client", "### Python client");
const pythonBlocks = readmeBlocks("### Python client", "### Client tests and code generation");

let toolchain: ClientToolchain;
let server: ChildProcess | undefined;
let serverOutput = "";
let baseUrl = "";
const dataDir = mkdtempSync(join(tmpdir(), "quarry-readme-examples-"));
const work = mkdtempSync(join(tmpdir(), "quarry-readme-programs-"));

beforeAll(async () => {
  toolchain = await ensureClientToolchain();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "src/cli/main.ts"), "serve", "--bootstrap"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", QUARRY_DATA_DIR: dataDir, QUARRY_DEMO_ROWS: "20000", QUARRY_SCHEDULER: "off", KAFKA_BROKERS: "", NATS_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (chunk: Buffer) => (serverOutput += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (serverOutput += chunk.toString()));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`quarry serve --bootstrap exited early:\n${serverOutput}`);
    if (await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`quarry serve --bootstrap did not answer on ${baseUrl}:\n${serverOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}, 900_000);

afterAll(async () => {
  // Stopped by its process id; SIGKILL if it outlives its shutdown deadline.
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    const timer = setTimeout(() => server!.kill("SIGKILL"), 20_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}, 60_000);

/** The README's programs name the `npm start` address; point them at this test's server. */
const atTestServer = (code: string): string => code.replaceAll("http://localhost:1218", baseUrl).replaceAll('"localhost:1218"', `"${baseUrl.slice("http://".length)}"`);

describe("README: Go client", () => {
  it("has a setup and a program that builds as the README says, creates a subscription and reads the typed error", async () => {
    const setup = goBlocks.find((b) => b.language === "sh")?.code ?? "";
    const program = goBlocks.find((b) => b.language === "go" && b.code.startsWith("package main"))?.code;
    expect(setup).toContain("go mod edit -require=quarry/clients/go@v0.0.0 -replace=quarry/clients/go=../quarry/clients/go");
    expect(program).toBeDefined();
    const dir = join(work, "go");
    await run("mkdir", ["-p", dir], { timeoutMs: 10_000 });
    writeFileSync(join(dir, "main.go"), atTestServer(program!));
    const go = (args: string[]): Promise<string> => run(toolchain.go, args, { cwd: dir, timeoutMs: 300_000 });
    await go(["mod", "init", "example.com/quarry-readme"]);
    // The README's setup, with this checkout in place of ../quarry.
    await go(["mod", "edit", "-require=quarry/clients/go@v0.0.0", `-replace=quarry/clients/go=${join(repoRoot, "clients", "go")}`]);
    await go(["mod", "tidy"]);
    const output = await go(["run", "."]);
    expect(output).toMatch(/^subscription \d+\/[0-9a-f]{32}$/m);
    expect(output).toContain("invalid_argument: invalid_query at 1:8: Missing >= condition");
  });
});

describe("README: Python client", () => {
  it.each([
    ["grpcio", 0, "StatusCode.INVALID_ARGUMENT invalid_query 1 8 Missing >= condition"],
    ["connectrpc", 1, "Code.INVALID_ARGUMENT invalid_query 1 8"],
  ] as const)("runs the %s program (Snql, Mql, the typed error)", async (_name, index, expected) => {
    const program = pythonBlocks.filter((b) => b.language === "python")[index]?.code;
    expect(program).toBeDefined();
    const file = join(work, `readme_${index}.py`);
    writeFileSync(file, atTestServer(program!));
    const output = await run(toolchain.python, [file], { cwd: work, timeoutMs: 120_000 });
    expect(output).toContain(expected);
  });
});
