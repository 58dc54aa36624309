/**
 * The `errors` storage's processor (Snuba's `ErrorsProcessor`, topic `events`). A message is a
 * JSON array:
 * - `[2, "insert", event, state]`: one errors_local row (error-row.ts); the fourth element is for
 *   Sentry's post-processing and only has to be there;
 * - `[2, type, body]`: an event replacement (start_/end_ merge, unmerge, delete_groups,
 *   delete_tag, tombstone_events, replace_group, exclude_groups, and any other type): only
 *   `body.project_id` is read, and the consumer forwards the message unchanged to
 *   `event-replacements`, keyed by it. Quarry does not apply replacements.
 * Anything else (another version, a 3-element insert, a 4-element non-insert, an event of type
 * "transaction", a field of the wrong type) is an InvalidMessage, as Snuba's processor errors.
 */
import { InvalidMessage, type IngestMessage, type MessageProcessor, type ProcessedMessage } from "../message-processor.js";
import { decodeMessageJson } from "./decode-message-json.js";
import { errorRow, type ErrorRowSettings } from "./error-row.js";
import { jsonKind } from "./json-kind.js";
import { isJsonObject } from "./lossless-json.js";
import { SNUBA_RETENTION, type RetentionPolicy } from "./retention.js";
import { requiredUnsigned, unsignedOrNull } from "./serde-fields.js";

export interface ErrorsProcessorOptions {
  readonly retention?: RetentionPolicy;
  /** Snuba's PROJECT_STACKTRACE_BLACKLIST (empty by default). */
  readonly projectsWithoutStacks?: Iterable<number>;
  /** For a `datetime` that does not parse (Snuba takes the current time). */
  readonly now?: () => number;
}

export class ErrorsProcessor implements MessageProcessor {
  readonly name = "ErrorsProcessor";
  private readonly settings: ErrorRowSettings;

  constructor(options: ErrorsProcessorOptions = {}) {
    this.settings = {
      retention: options.retention ?? SNUBA_RETENTION,
      projectsWithoutStacks: new Set([...(options.projectsWithoutStacks ?? [])].map(String)),
      now: options.now ?? Date.now,
    };
  }

  process(message: IngestMessage): ProcessedMessage {
    const envelope = decodeMessageJson(message.value);
    if (!Array.isArray(envelope) || (envelope.length !== 3 && envelope.length !== 4)) {
      throw new InvalidMessage(
        `an events message is an array [2, "insert", event, state] or [2, replacement type, body], got ${Array.isArray(envelope) ? `an array of ${envelope.length}` : jsonKind(envelope)}`,
      );
    }
    const [version, type, body] = envelope;
    const versionNumber = unsignedOrNull(version, 64);
    if (versionNumber === null) throw new InvalidMessage(`the message version must be an integer, got ${jsonKind(version)}`);
    if (versionNumber !== 2) throw new InvalidMessage(`unsupported message version ${versionNumber} (only 2 is)`);
    if (typeof type !== "string") throw new InvalidMessage(`the message type must be a string, got ${jsonKind(type)}`);
    if (!isJsonObject(body)) throw new InvalidMessage(`the message body must be an object, got ${jsonKind(body)}`);

    if (envelope.length === 4) {
      if (type !== "insert") throw new InvalidMessage(`a 4-element events message is an insert, not ${JSON.stringify(type)}`);
      const { row, received } = errorRow(body, message, this.settings);
      return { kind: "rows", rows: [row], originTimestamp: received };
    }
    if (type === "insert") throw new InvalidMessage("an insert has 4 elements [2, \"insert\", event, state]; this one has 3");
    const projectId = requiredUnsigned(body, "project_id", 64, "project_id");
    // The consumer keys the forwarded message by project id; the interface carries it as a number.
    if (typeof projectId !== "number") throw new InvalidMessage(`project_id ${projectId} is beyond what Quarry can key exactly (2^53)`);
    return { kind: "replacement", projectId };
  }
}
