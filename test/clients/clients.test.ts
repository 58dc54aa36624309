/**
 * The Go and Python clients generated from proto/ (clients/go, clients/python), tested in their own
 * languages against a real server: `go test` and `pytest` each start scripts/test-server.ts and run
 * SnQL, MQL, subscription create/list/get/delete and refused requests with their typed
 * quarry.v1.ErrorDetail, over every protocol their libraries speak. This file installs their
 * toolchain (scripts/clients/toolchain.ts, cached under .cache/), runs both suites, and checks that
 * every test ran and passed in each of them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureClientToolchain, repoRoot, type ClientToolchain } from "../../scripts/clients/toolchain.js";
import { run } from "../../scripts/test-services/system-packages.js";

let toolchain: ClientToolchain;

beforeAll(async () => {
  toolchain = await ensureClientToolchain();
}, 900_000);

/** The environment of a suite: its own server, never one a developer's shell points at. */
function suiteEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.QUARRY_URL;
  return env;
}

async function runSuite(command: string, args: readonly string[], cwd: string): Promise<string> {
  try {
    return await run(command, args, { cwd, env: suiteEnv(), timeoutMs: 600_000 });
  } catch (reason) {
    // The error quotes the output's tail: the failing test and its message.
    throw new Error(`${[command, ...args].join(" ")} failed in ${cwd}:\n${reason instanceof Error ? reason.message : String(reason)}`);
  }
}

const TESTS = ["Snql", "Mql", "RefusedQueryCarriesErrorDetail", "SubscriptionCreateListGetDelete", "RefusedSubscriptionNamesTheField"];

describe("Go client (clients/go)", () => {
  const GO_PROTOCOLS = ["connect-go/Connect_(HTTP/1.1)", "connect-go/gRPC_(h2c)", "connect-go/gRPC-Web_(HTTP/1.1)", "grpc-go_(h2c)"];

  it("passes go test: every test over Connect, gRPC and gRPC-Web (connect-go) and gRPC (grpc-go)", async () => {
    const output = await runSuite(toolchain.go, ["test", "-count=1", "-v", "./..."], join(repoRoot, "clients", "go"));
    const passed = new Set([...output.matchAll(/^\s*--- PASS: (\S+)/gm)].map((m) => m[1]));
    for (const test of TESTS) {
      for (const protocol of GO_PROTOCOLS) expect(passed, output).toContain(`Test${test}/${protocol}`);
    }
    expect(output).not.toMatch(/--- (FAIL|SKIP)/);
    expect(output).toMatch(/^ok\s+quarry\/clients\/go\/integration\s/m);
  });
});

describe("Python client (clients/python)", () => {
  const PYTHON_CLIENTS = [
    "grpcio (gRPC, h2c)",
    "connectrpc (Connect, HTTP/1.1)",
    "connectrpc (Connect, h2c)",
    "connectrpc (gRPC, h2c)",
    "connectrpc (gRPC-Web, HTTP/1.1)",
  ];
  const snake = (name: string): string => name.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? c.toLowerCase() : `_${c.toLowerCase()}`));

  it("passes pytest: every test over grpcio (gRPC) and connectrpc (Connect, gRPC, gRPC-Web)", async () => {
    const output = await runSuite(toolchain.python, ["-m", "pytest", "-v", "-rA"], join(repoRoot, "clients", "python"));
    const passed = new Set([...output.matchAll(/^tests\/test_quarry\.py::(\S+\[[^\]]+\]) PASSED/gm)].map((m) => m[1]));
    for (const test of TESTS) {
      for (const client of PYTHON_CLIENTS) expect(passed, output).toContain(`test_${snake(test)}[${client}]`);
    }
    const summary = /^=+ (.*) in [\d.]+s/m.exec(output)?.[1] ?? "";
    expect(summary, output).toMatch(/^\d+ passed$/);
  });

  const pyproject = (): string => readFileSync(join(repoRoot, "clients", "python", "pyproject.toml"), "utf8");

  it("is versioned with the protos: pyproject.toml has package.json's version", () => {
    const packageJson = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
    expect(/^version = "([^"]+)"/m.exec(pyproject())?.[1]).toBe(packageJson.version);
  });

  it("sets its protobuf and grpcio lower bounds to the versions the generated code checks at import", () => {
    const generated = join(repoRoot, "clients", "python", "src", "quarry", "v1");
    const protobuf = /^# Protobuf Python Version: (\S+)$/m.exec(readFileSync(join(generated, "query_pb2.py"), "utf8"))?.[1];
    const grpcio = /^GRPC_GENERATED_VERSION = '([^']+)'$/m.exec(readFileSync(join(generated, "query_pb2_grpc.py"), "utf8"))?.[1];
    expect(protobuf).toMatch(/^\d+\.\d+\.\d+$/);
    expect(grpcio).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pyproject()).toContain(`"protobuf>=${protobuf},`);
    expect(pyproject()).toContain(`"grpcio>=${grpcio}"`);
  });
});
