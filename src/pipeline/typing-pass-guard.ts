/**
 * The typing pass (argument-types.ts and typing/) refuses what ClickHouse would refuse. It is a
 * few thousand lines of rules, and a rule that throws something other than a refusal must not
 * turn a query into a 500: such an exception is counted (GET /metrics,
 * `quarry_typing_pass_failures`), its first occurrences are written to stderr, and the query goes
 * on unjudged, for ClickHouse to judge as it did before the pass existed.
 */
import { QueryServiceError } from "../errors/query-service-error.js";

/** How many distinct messages are written to stderr before the rest are only counted. */
const LOGGED_MESSAGES = 20;

let failures = 0;
const logged = new Set<string>();

/** Unexpected exceptions of the typing pass since the process started. */
export function typingPassFailures(): number {
  return failures;
}

/** Runs `judge` (the typing pass over one query): a refusal stands; any other exception is counted and passed over. */
export function judgedFailingOpen(judge: () => void, queryText: () => string): void {
  try {
    judge();
  } catch (error) {
    if (error instanceof QueryServiceError) throw error;
    failures += 1;
    const message = error instanceof Error ? error.message : String(error);
    if (logged.size < LOGGED_MESSAGES && !logged.has(message)) {
      logged.add(message);
      process.stderr.write(`quarry: the typing pass failed (${message}); the query goes to ClickHouse unjudged: ${queryText().slice(0, 500)}\n`);
    }
  }
}
