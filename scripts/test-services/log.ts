/**
 * Diagnostics go to stderr so that stdout stays reserved for the CLI's
 * machine-readable `KEY=value` lines.
 */
export function log(message: string): void {
  process.stderr.write(`[test-services] ${message}\n`);
}
