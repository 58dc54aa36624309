/**
 * The processors a storage's `stream_loader` may name, by Snuba's name for them. A storage YAML
 * naming one that is not here is refused when its consumer is built (and by a test of the
 * shipped definitions), with the names that exist.
 */
import type { MessageProcessor } from "./message-processor.js";
import { EapItemsProcessor } from "./processors/eap-items-processor.js";
import { ErrorsProcessor } from "./processors/errors-processor.js";
import { GENERIC_METRICS_PROCESSOR_NAMES, genericMetricsProcessor, type GenericMetricType } from "./processors/generic-metrics-processor.js";
import { RELEASE_HEALTH_PROCESSOR_NAME, releaseHealthMetricsProcessor } from "./processors/release-health-metrics-processor.js";
import { TransactionsProcessor } from "./processors/transactions-processor.js";

const FACTORIES: ReadonlyMap<string, () => MessageProcessor> = new Map<string, () => MessageProcessor>([
  ["ErrorsProcessor", () => new ErrorsProcessor()],
  ["EAPItemsProcessor", () => new EapItemsProcessor()],
  ["TransactionsMessageProcessor", () => new TransactionsProcessor()],
  [RELEASE_HEALTH_PROCESSOR_NAME, () => releaseHealthMetricsProcessor()],
  ...(Object.entries(GENERIC_METRICS_PROCESSOR_NAMES) as [GenericMetricType, string][]).map(
    ([type, name]) => [name, () => genericMetricsProcessor(type)] as [string, () => MessageProcessor],
  ),
]);

export function processorNames(): string[] {
  return [...FACTORIES.keys()].sort();
}

/** A new processor for Snuba's name `name`, or null when Quarry has none by that name. */
export function createProcessor(name: string): MessageProcessor | null {
  return FACTORIES.get(name)?.() ?? null;
}
