/**
 * npx tsx scripts/test-services/cli.ts                       start NATS + Kafka, print their addresses, run until Ctrl-C
 * npx tsx scripts/test-services/cli.ts start --clickhouse    also a ClickHouse server (CLICKHOUSE_URL, CLICKHOUSE_NODE_URLS)
 * npx tsx scripts/test-services/cli.ts install [--clickhouse]  only install / cache what they need (CI warm-up)
 */
import { installTestServices, startTestServices, type TestServicesOptions } from "./index.js";

const usage = "usage: tsx scripts/test-services/cli.ts [start|install] [--clickhouse]";

function parseFlags(flags: readonly string[]): TestServicesOptions | undefined {
  const options: TestServicesOptions = {};
  for (const flag of flags) {
    if (flag === "--clickhouse") options.clickhouse = true;
    else return undefined;
  }
  return options;
}

async function main(command: string, flags: readonly string[]): Promise<void> {
  const options = parseFlags(flags);
  if ((command !== "install" && command !== "start") || options === undefined) {
    process.stderr.write(`${usage}\n`);
    process.exitCode = 2;
    return;
  }
  if (command === "install") {
    await installTestServices(options);
    return;
  }
  const services = await startTestServices(options);
  // stdout carries only these lines, so `... | grep KAFKA_BROKERS` or sourcing them works.
  process.stdout.write(`NATS_URL=${services.natsUrl}\n`);
  process.stdout.write(`KAFKA_BROKERS=${services.kafkaBrokers.join(",")}\n`);
  if (services.clickhouseUrl !== undefined) {
    // What a Quarry node needs to use the server, and every node's URL for tests.
    process.stdout.write(`CLICKHOUSE_URL=${services.clickhouseUrl}\n`);
    process.stdout.write(`CLICKHOUSE_NODE_URLS=${(services.clickhouseNodeUrls ?? []).join(",")}\n`);
  }
  process.stderr.write("[test-services] running; press Ctrl-C to stop\n");
  await new Promise<void>((resolve) => {
    const shutdown = (): void => {
      process.off("SIGINT", shutdown);
      process.off("SIGTERM", shutdown);
      resolve();
    };
    process.on("SIGINT", shutdown);
    process.on("SIGTERM", shutdown);
  });
  await services.stop();
}

// A bare flag (`cli.ts --clickhouse`) means `start`.
const [first, ...rest] = process.argv.slice(2);
const command = first === undefined || first.startsWith("--") ? "start" : first;
main(command, first?.startsWith("--") ? [first, ...rest] : rest).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
