/**
 * The `transactions` storage's processor (Snuba's `TransactionsMessageProcessor`, topic
 * `transactions`). A message `[version, "insert", event, ...]` becomes one transactions_local row
 * (transaction-row.ts). As in Snuba, some messages are skipped rather than refused (committed,
 * no row):
 * - not an array of at least 2, or a version other than 0, 1, 2;
 * - a type other than "insert";
 * - an event whose data.type is not "transaction", or without a trace context;
 * - an event older than its retention (Snuba's DISCARD_OLD_EVENTS).
 * Anything Python would raise on (a missing event_id, a trace_id that is not a UUID, …) is an
 * InvalidMessage. Retention is not clamped by default (Snuba's ENFORCE_RETENTION is off).
 */
import { InvalidMessage, type IngestMessage, type MessageProcessor, type ProcessedMessage } from "../message-processor.js";
import { decodeMessageJson } from "./decode-message-json.js";
import { jsonKind } from "./json-kind.js";
import { isJsonObject, JsonNumber, numberOf, type JsonObject, type JsonValue } from "./lossless-json.js";
import { dictOrRefuse, requiredKey, truthy } from "./python-values.js";
import { enforceRetention, SNUBA_RETENTION, type RetentionPolicy } from "./retention.js";
import { timestampMicros, transactionRow, type TransactionRowSettings } from "./transaction-row.js";
import { MAX_SPANS_PER_TRANSACTION } from "./transaction-spans.js";

export interface TransactionsProcessorOptions {
  /** Clamp retention to the policy's valid values (Snuba's ENFORCE_RETENTION, off by default). */
  readonly enforceRetention?: boolean;
  readonly retention?: RetentionPolicy;
  /** Skip events older than their retention (Snuba's DISCARD_OLD_EVENTS, on by default). */
  readonly discardOldEvents?: boolean;
  /** sentry-option max_spans_per_transaction (2000). */
  readonly maxSpansPerTransaction?: number;
  /** Milliseconds since the epoch: what "older than its retention" and invalid timestamps are measured against. */
  readonly now?: () => number;
}

const SKIP: ProcessedMessage = { kind: "skip" };
const DAY_MICROS = 86_400_000_000;

/** Python's `version in (0, 1, 2)`: equality, so 2.0 and true (== 1) count. */
function knownVersion(version: JsonValue | undefined): boolean {
  const value = typeof version === "boolean" ? Number(version) : numberOf(version);
  return value === 0 || value === 1 || value === 2;
}

/** `event.get("retention_days")` when it is a Python int (an integer, or a boolean), else the default. */
function requestedRetention(event: JsonObject, policy: RetentionPolicy): number {
  const value = event.get("retention_days");
  if (typeof value === "boolean") return Number(value);
  if (typeof value === "number") return value;
  if (value instanceof JsonNumber && value.integer) return value.value;
  return policy.defaultDays;
}

export class TransactionsProcessor implements MessageProcessor {
  readonly name = "TransactionsMessageProcessor";
  private readonly rowSettings: TransactionRowSettings;
  private readonly retention: RetentionPolicy;
  private readonly clampRetention: boolean;
  private readonly discardOldEvents: boolean;

  constructor(options: TransactionsProcessorOptions = {}) {
    this.retention = options.retention ?? SNUBA_RETENTION;
    this.clampRetention = options.enforceRetention ?? false;
    this.discardOldEvents = options.discardOldEvents ?? true;
    this.rowSettings = { maxSpans: options.maxSpansPerTransaction ?? MAX_SPANS_PER_TRANSACTION, now: options.now ?? Date.now };
  }

  process(message: IngestMessage): ProcessedMessage {
    const envelope = decodeMessageJson(message.value);
    if (!Array.isArray(envelope) || envelope.length < 2) return SKIP;
    if (!knownVersion(envelope[0])) return SKIP;
    if (envelope.length < 3) throw new InvalidMessage(`a transactions message is [version, "insert", event, ...]; this one has ${envelope.length} elements`);
    if (envelope[1] !== "insert") return SKIP;
    const event = envelope[2];
    if (!isJsonObject(event)) throw new InvalidMessage(`the event must be an object, got ${jsonKind(event)}`);
    const data = dictOrRefuse(requiredKey(event, "data", "data"), "data");
    if (data.get("type") !== "transaction") return SKIP;
    const contexts = data.has("contexts") ? dictOrRefuse(data.get("contexts"), "data.contexts") : new Map<string, JsonValue>();
    const trace = contexts.get("trace");
    if (!truthy(trace)) return SKIP;

    let retentionDays = requestedRetention(event, this.retention);
    if (this.clampRetention) retentionDays = enforceRetention(retentionDays, this.retention);
    const finishMicros = timestampMicros(data, "timestamp", this.rowSettings.now);
    if (this.discardOldEvents && finishMicros < this.rowSettings.now() * 1000 - retentionDays * DAY_MICROS) return SKIP;
    if (!Number.isInteger(retentionDays) || retentionDays < 0 || retentionDays > 65535) {
      throw new InvalidMessage(`retention_days ${retentionDays} does not fit the UInt16 column`);
    }

    const traceContext = dictOrRefuse(trace, "data.contexts.trace");
    const { row, received } = transactionRow(event, data, traceContext, retentionDays, message, this.rowSettings);
    return received === undefined ? { kind: "rows", rows: [row] } : { kind: "rows", rows: [row], originTimestamp: received };
  }
}
