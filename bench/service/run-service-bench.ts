/** Runs only the service section: `node dist/bench/service/run-service-bench.js [--quick]`. */
import { serviceBench } from "./service-bench.js";

for (const row of await serviceBench({ quick: process.argv.includes("--quick") })) console.log(`| ${row.bench} | ${row.figure} | ${row.target} |`);
