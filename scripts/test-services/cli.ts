/**
 * npx tsx scripts/test-services/cli.ts           start NATS + Kafka, print their addresses, run until Ctrl-C
 * npx tsx scripts/test-services/cli.ts install   only install / cache what they need (CI warm-up)
 */
import { installTestServices, startTestServices } from "./index.js";

const usage = "usage: tsx scripts/test-services/cli.ts [start|install]";

async function main(command: string): Promise<void> {
  if (command === "install") {
    await installTestServices();
    return;
  }
  if (command !== "start") {
    process.stderr.write(`${usage}\n`);
    process.exitCode = 2;
    return;
  }
  const services = await startTestServices();
  // stdout carries only these lines, so `... | grep KAFKA_BROKERS` or sourcing them works.
  process.stdout.write(`NATS_URL=${services.natsUrl}\n`);
  process.stdout.write(`KAFKA_BROKERS=${services.kafkaBrokers.join(",")}\n`);
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

main(process.argv[2] ?? "start").catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
