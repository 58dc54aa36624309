/**
 * The topics `quarry demo-data --kafka` writes, one message builder each. A builder added here
 * is produced with the others (same count, same window, same rate budget).
 */
import { eapItemMessage } from "./eap-item-messages.js";
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

/** Spans as Relay writes them to `snuba-items` (protobuf TraceItem, unkeyed); each picks its time in the window. */
function eapItemSource(window: DemoWindow): DemoTopicSource {
  const seconds = { start: Math.floor(window.startMs / 1000), end: Math.floor(window.endMs / 1000) };
  return { topic: "snuba-items", salt: 5, message: ({ index }) => ({ key: null, value: eapItemMessage(index, seconds) }) };
}

export function demoTopicSources(window: DemoWindow): DemoTopicSource[] {
  return [
    errorEventMessages(window.startMs, window.endMs),
    transactionMessages(window.startMs, window.endMs),
    genericMetricMessages(),
    releaseHealthMetricMessages(),
    eapItemSource(window),
  ];
}

/** Snuba's names of the topics above, for --topics and its error message. */
export function demoTopicNames(): string[] {
  return demoTopicSources({ startMs: 0, endMs: 1 }).map((source) => source.topic);
}
