/**
 * A real Quarry server for tests written in other languages (clients/go, clients/python): the
 * embedded engine (chDB) in a fresh temporary data directory, every table migrated, the known rows
 * of the TypeScript suites inserted (events and transactions of test/server/fixture-server.ts on
 * 2024-01-01, metrics of test/mql/mql-fixture.ts), served on a free 127.0.0.1 port with no
 * subscription scheduler (subscriptions are stored, never run).
 *
 *   node --import tsx scripts/test-server.ts
 *
 * Prints one line, `QUARRY_URL=http://127.0.0.1:<port>`, once the server answers. Stops on SIGTERM
 * or SIGINT, or when its standard input closes (the test process that started it is gone), then
 * removes its data directory and exits 0. Run it as `node --import tsx` rather than through npx or
 * the tsx CLI, so the process id the caller holds is the server's own.
 */
import { startFixtureServer } from "../test/server/fixture-server.js";
import { insertKnownMetricRows } from "../test/mql/mql-fixture.js";

function log(message: string): void {
  process.stderr.write(`[test-server] ${message}\n`);
}

const server = await startFixtureServer();
try {
  await insertKnownMetricRows(server.columnstore, server.definitions);
} catch (reason) {
  await server.close();
  throw reason;
}

let stopping = false;
function stop(why: string): void {
  if (stopping) return;
  stopping = true;
  log(`${why}: stopping ${server.baseUrl}`);
  server.close().then(
    () => process.exit(0),
    (reason: unknown) => {
      log(`stopping failed: ${reason instanceof Error ? reason.message : String(reason)}`);
      process.exit(1);
    },
  );
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
// The caller holds our stdin open; when it closes (the caller exited or crashed), stop too.
process.stdin.on("end", () => stop("stdin closed"));
process.stdin.on("error", () => stop("stdin failed"));
process.stdin.resume();

process.stdout.write(`QUARRY_URL=${server.baseUrl}\n`);
log(`serving ${server.baseUrl} (data in ${server.dataDir})`);
