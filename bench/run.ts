/**
 * `npm run bench`: runs every bench section, prints a table and rewrites BENCHMARKS.md with the
 * figures, the machine and the command. `--quick` runs briefly (CI smoke run) and does not write
 * the file.
 */
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import type { BenchRow, BenchSection } from "./bench-row.js";
import { mqlFrontendBench } from "./mql/mql-frontend-bench.js";
import { serviceBench } from "./service/service-bench.js";
import { snqlFrontendBench } from "./snql/snql-frontend-bench.js";
import { subscriptionBench } from "./subscriptions/subscription-bench.js";

/** Each section is one file under bench/<stage>/; add new ones here. */
const SECTIONS: readonly BenchSection[] = [snqlFrontendBench, mqlFrontendBench, serviceBench, subscriptionBench];

const quick = process.argv.includes("--quick");
const rows: BenchRow[] = [];
for (const section of SECTIONS) rows.push(...(await section({ quick })));
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

const table = ["| bench | figure | target |", "|---|---|---|", ...rows.map((row) => `| ${row.bench} | ${row.figure} | ${row.target} |`)].join("\n");
console.log(table);

if (!quick) {
  writeFileSync(
    "BENCHMARKS.md",
    `# Benchmarks\n\nMachine: ${machine}.\nCommand: \`npm run bench\` (${new Date().toISOString().slice(0, 10)}).\n\n${table}\n`,
  );
}
