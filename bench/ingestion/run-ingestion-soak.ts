/**
 * The ingestion soak at full size (docs/ingestion.md, "Proof under faults"):
 *
 *   npx tsx bench/ingestion/run-ingestion-soak.ts [--messages 1000000] [--kills 10] [--partitions 4] [--rate 0] [--fault-gap-ms 10000]
 *
 * Starts Kafka (scripts/test-services) unless KAFKA_BROKERS is set, and a ClickHouse server of
 * its own; prints each check and exits 1 when one fails.
 */
import { startTestServices } from "../../scripts/test-services/index.js";
import { runIngestionSoak } from "./ingestion-soak.js";

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const services = process.env.KAFKA_BROKERS ? null : await startTestServices();
const brokers = services ? services.kafkaBrokers : process.env.KAFKA_BROKERS!.split(",");
try {
  const report = await runIngestionSoak({
    brokers,
    messages: option("--messages", 1_000_000),
    consumerKills: option("--kills", 10),
    engineOutage: true,
    poisonEvery: 100,
    partitions: option("--partitions", 4),
    produceRate: option("--rate", 0),
    faultGapMs: option("--fault-gap-ms", 10_000),
    log,
  });
  const outage = report.outageHealth.map((answer) => `${answer.status}${answer.status === 502 ? ` ${answer.body.match(/stuck: [^"]*/)?.[0] ?? ""}` : ""}`);
  process.stdout.write(`${JSON.stringify({ ...report, checks: undefined, outageHealth: outage }, null, 1)}\n`);
  process.exitCode = report.ok ? 0 : 1;
} finally {
  await services?.stop();
}
