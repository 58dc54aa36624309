/**
 * `npm run bench`: runs the benches, prints a table and rewrites BENCHMARKS.md with the figures,
 * the machine and the command. `--quick` runs briefly (CI smoke run) and does not write the file.
 */
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { runSnqlFrontendBench, SNQL_CORPUS } from "./snql-frontend.js";

const quick = process.argv.includes("--quick");
const frontend = runSnqlFrontendBench(quick ? 300 : 5000);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

const table = [
  "| bench | figure | target |",
  "|---|---|---|",
  `| SnQL front end (parse + validate + SQL), ${SNQL_CORPUS.length} queries, one core | ${frontend.queriesPerSecond.toLocaleString("en")} queries/s; median ${frontend.medianMicros} µs, p99 ${frontend.p99Micros} µs; heap ${frontend.heapUsedMb} MB | ≥ 20,000 queries/s |`,
].join("\n");
console.log(table);

if (!quick) {
  writeFileSync(
    "BENCHMARKS.md",
    `# Benchmarks\n\nMachine: ${machine}.\nCommand: \`npm run bench\` (${new Date().toISOString().slice(0, 10)}).\n\n${table}\n`,
  );
}
