/**
 * The topics `quarry demo-data --kafka` writes, one message builder each. A builder added here
 * is produced with the others (same count, same window, same rate budget).
 */
import { errorEventMessages } from "./error-event-messages.js";
import { genericMetricMessages } from "./generic-metric-messages.js";
import type { DemoTopicSource } from "./demo-message-source.js";
import { releaseHealthMetricMessages } from "./release-health-metric-messages.js";
import { transactionMessages } from "./transaction-messages.js";

export interface DemoWindow {
  /** Milliseconds since the epoch; the window is [startMs, endMs). */
  readonly startMs: number;
  readonly endMs: number;
}

export function demoTopicSources(window: DemoWindow): DemoTopicSource[] {
  return [
    errorEventMessages(window.startMs, window.endMs),
    transactionMessages(window.startMs, window.endMs),
    genericMetricMessages(),
    releaseHealthMetricMessages(),
    // EAP items (`snuba-items`, protobuf TraceItem): the builder in eap-item-messages.ts plugs
    // in here, as one more DemoTopicSource in this list.
  ];
}

/** Snuba's names of the topics above, for --topics and its error message. */
export function demoTopicNames(): string[] {
  return demoTopicSources({ startMs: 0, endMs: 1 }).map((source) => source.topic);
}
