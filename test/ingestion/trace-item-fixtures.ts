/**
 * TraceItems serialised by Sentry's own sentry-protos package (scripts/fixtures/trace-items.py,
 * run with the python the test setup installs it into), by name.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const SCRIPT = join(import.meta.dirname, "../../scripts/fixtures/trace-items.py");

export function sentryTraceItems(python: string): ReadonlyMap<string, Buffer> {
  const encoded = JSON.parse(execFileSync(python, [SCRIPT], { encoding: "utf8" })) as Record<string, string>;
  return new Map(Object.entries(encoded).map(([name, base64]) => [name, Buffer.from(base64, "base64")]));
}

/** The fixtures' event time (2025-01-01T12:00:00.25Z) and Relay's received time (3.9 s later). */
export const FIXTURE_TIMESTAMP = 1_735_732_800;
export const FIXTURE_RECEIVED = FIXTURE_TIMESTAMP + 3;
/** The fixtures' item_id bytes 01 02 … 10, read little-endian. */
export const FIXTURE_ITEM_ID = BigInt("0x100f0e0d0c0b0a090807060504030201").toString();

export interface SentryTraceItemDescriptors {
  /** Per message of trace_item.proto (and its nested map entries): [number, name, type, label, type name] of each field. */
  readonly messages: Record<string, [number, string, number, number, string][]>;
  readonly TraceItemType: Record<string, number>;
}

/** What Sentry's package says trace_item.proto's messages are on the wire. */
export function sentryTraceItemDescriptors(python: string): SentryTraceItemDescriptors {
  return JSON.parse(execFileSync(python, [SCRIPT, "--descriptors"], { encoding: "utf8" })) as SentryTraceItemDescriptors;
}
