/**
 * `npm run bench`: runs every bench section, prints a table and rewrites BENCHMARKS.md with the
 * figures, the machine and the command, one block per section. `--only <section>` runs one
 * section and replaces only its block (the others keep their figures and dates). `--quick` runs
 * briefly (CI smoke run) and does not write the file.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import type { BenchRow, BenchSection } from "./bench-row.js";
import { ingestionConsumerBench } from "./ingestion/consumer-bench.js";
import { mqlFrontendBench } from "./mql/mql-frontend-bench.js";
import { rpcFrontendBench } from "./rpc/rpc-frontend-bench.js";
import { serviceBench } from "./service/service-bench.js";
import { snqlFrontendBench } from "./snql/snql-frontend-bench.js";
import { clusterBench } from "./subscriptions/cluster-bench.js";
import { commitLogLagBench } from "./subscriptions/commit-log-lag-bench.js";
import { subscriptionBench } from "./subscriptions/subscription-bench.js";

/** Each section is one file under bench/<stage>/; add new ones here. The title heads its block. */
const SECTIONS: readonly { readonly name: string; readonly title: string; readonly run: BenchSection }[] = [
  { name: "snql", title: "SnQL front end", run: snqlFrontendBench },
  { name: "mql", title: "MQL front end", run: mqlFrontendBench },
  { name: "rpc", title: "RPC front end", run: rpcFrontendBench },
  { name: "service", title: "Service", run: serviceBench },
  { name: "subscriptions", title: "Subscriptions", run: subscriptionBench },
  { name: "commit-log-lag", title: "Subscriptions on the commit-log clock", run: commitLogLagBench },
  { name: "cluster", title: "Scheduler cluster", run: clusterBench },
  { name: "ingestion", title: "Ingestion consumers", run: ingestionConsumerBench },
];

const quick = process.argv.includes("--quick");
const onlyIndex = process.argv.indexOf("--only");
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : undefined;
const chosen = only === undefined ? SECTIONS : SECTIONS.filter((section) => section.name === only);
if (chosen.length === 0) {
  console.error(`unknown section '${only}'; sections: ${SECTIONS.map((s) => s.name).join(", ")}`);
  process.exit(2);
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const date = new Date().toISOString().slice(0, 10);
// Every flag, so a section's own ones (commit-log-lag's --duration) are in the recorded command.
const flags = process.argv.slice(2).join(" ");
const command = flags === "" ? "npm run bench" : `npm run bench -- ${flags}`;

function block(title: string, rows: readonly BenchRow[]): string {
  const table = ["| bench | figure | target |", "|---|---|---|", ...rows.map((row) => `| ${row.bench} | ${row.figure} | ${row.target} |`)].join("\n");
  return `## ${title}\n\nMachine: ${machine}. Command: \`${command}\` (${date}).\n\n${table}\n`;
}

/** The `## <title>` blocks of the current file, by title. */
function currentBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  if (!existsSync("BENCHMARKS.md")) return blocks;
  const parts = readFileSync("BENCHMARKS.md", "utf8").split(/^(?=## )/m).slice(1);
  for (const part of parts) blocks.set(part.slice(3, part.indexOf("\n")).trim(), `${part.trimEnd()}\n`);
  return blocks;
}

const blocks = currentBlocks();
for (const section of chosen) {
  const rows = await section.run({ quick });
  const text = block(section.title, rows);
  console.log(text);
  blocks.set(section.title, text);
}

if (!quick) {
  // Sections first, in their order; blocks other commands wrote (the reliability suite) after them.
  const titles = SECTIONS.map((section) => section.title);
  const ordered = [...titles.map((title) => blocks.get(title)), ...[...blocks].filter(([title]) => !titles.includes(title)).map(([, text]) => text)].filter(
    (text): text is string => text !== undefined,
  );
  writeFileSync("BENCHMARKS.md", `# Benchmarks\n\nEach block says the machine, the command and the day it was measured.\n\n${ordered.join("\n")}`);
}
