/**
 * What each answer was, by status and error type, and whether it was typed:
 *
 * - a non-2xx answer must carry the spec's `{"error": {"type": "...", "message": "..."}}` (on a
 *   Connect path, `/quarry.v1.*`, Connect's own `{"code": "...", "message": "..."}`; on Snuba's
 *   RPC transport, `/rpc/*`, a serialised `Error` whose code is the status);
 * - a 2xx answer where JSON is due (query, subscription and Connect routes) must be JSON;
 * - a connection reset, a refused connection or a timeout is untyped too.
 *
 * Untyped answers and 5xx are the failures the suite looks for; the first few are kept with the
 * input that caused them (and its replay id).
 */
import { fromBinary } from "@bufbuild/protobuf";
import { ErrorSchema } from "../../gen/sentry_protos/snuba/v1/error_pb.js";
import type { FuzzRequest } from "./fuzz-inputs.js";

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** The body as received (RPC answers are protobuf). */
  readonly bytes?: Uint8Array;
  readonly ms: number;
}

export interface NetworkFailure {
  readonly network: string;
  readonly ms: number;
}

export interface Classified {
  readonly label: string;
  readonly typed: boolean;
  readonly fiveHundred: boolean;
  /** Why an untyped answer is untyped. */
  readonly why?: string;
}

export function classify(request: FuzzRequest, answer: Answer | NetworkFailure): Classified {
  if ("network" in answer) return { label: `network ${answer.network}`, typed: false, fiveHundred: false, why: `no answer: ${answer.network}` };
  const connect = request.path.startsWith("/quarry.v1.") || request.path.startsWith("/quarry.rpc.v1.");
  if (request.path.startsWith("/rpc")) return classifyRpc(answer);
  let parsed: unknown;
  let json = true;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    json = false;
  }
  const fiveHundred = answer.status >= 500;
  if (answer.status >= 200 && answer.status < 300) {
    // A Connect call in binary protobuf is answered in protobuf: that is its typed answer.
    const protobuf = connect && /^application\/(proto|grpc)/.test(answer.contentType);
    if (request.expect === "json" && !json && !protobuf) return { label: `${answer.status} not-json`, typed: false, fiveHundred, why: `a ${answer.status} whose body is not JSON (content-type '${answer.contentType}')` };
    return { label: String(answer.status), typed: true, fiveHundred };
  }
  const error = (parsed as { error?: { type?: unknown; message?: unknown } } | null | undefined)?.error;
  if (json && error && typeof error === "object" && typeof error.type === "string" && typeof error.message === "string") {
    return { label: `${answer.status} ${error.type}`, typed: true, fiveHundred };
  }
  const code = (parsed as { code?: unknown } | null | undefined)?.code;
  if (connect && json && typeof code === "string") return { label: `${answer.status} connect:${code}`, typed: true, fiveHundred };
  return {
    label: `${answer.status} untyped`,
    typed: false,
    fiveHundred,
    why: json ? `a ${answer.status} whose JSON is not {"error": {"type", "message"}}` : `a ${answer.status} whose body is not JSON (content-type '${answer.contentType}')`,
  };
}

/**
 * Snuba's RPC transport answers protobuf: a response with 200, else a serialised `Error` whose
 * `code` is the status. Anything else (JSON, an empty body, a code that disagrees) is untyped.
 */
function classifyRpc(answer: Answer): Classified {
  const fiveHundred = answer.status >= 500;
  if (!answer.contentType.startsWith("application/x-protobuf")) {
    return { label: `${answer.status} untyped`, typed: false, fiveHundred, why: `an RPC answer that is not protobuf (content-type '${answer.contentType}')` };
  }
  if (answer.status === 200) return { label: "200 rpc", typed: true, fiveHundred };
  try {
    const error = fromBinary(ErrorSchema, answer.bytes ?? new Uint8Array());
    if (error.code === answer.status && error.message !== "") return { label: `${answer.status} rpc`, typed: true, fiveHundred };
    return { label: `${answer.status} untyped`, typed: false, fiveHundred, why: `an RPC Error with code ${error.code} on a ${answer.status}, or no message` };
  } catch {
    return { label: `${answer.status} untyped`, typed: false, fiveHundred, why: `a ${answer.status} whose body is not a serialised Error` };
  }
}

/** The message of a serialised RPC Error, or null. */
function rpcErrorMessage(answer: Answer): string | null {
  if (!answer.contentType.startsWith("application/x-protobuf") || answer.status === 200) return null;
  try {
    return fromBinary(ErrorSchema, answer.bytes ?? new Uint8Array()).message;
  } catch {
    return null;
  }
}

/** What tells two failures apart: the label and the error message, without its numbers and quoted parts. */
export function failureSignature(outcome: Classified, answer: Answer | NetworkFailure): string {
  if ("network" in answer) return outcome.label;
  let message = rpcErrorMessage(answer) ?? "";
  if (message === "") try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: unknown }; message?: unknown };
    message = String(parsed.error?.message ?? parsed.message ?? "");
  } catch {
    message = answer.body;
  }
  const shape = message.replace(/`[^`]*`|'[^']*'|"[^"]*"/g, "…").replace(/\d+/g, "N").slice(0, 90);
  return `${outcome.label}: ${shape}`;
}

/** Labels that mean the query reached ClickHouse: it ran, or ClickHouse refused it. */
export function reachedClickHouse(label: string): boolean {
  return label === "200" || label.endsWith(" columnstore");
}

export class Outcomes {
  readonly byLabel = new Map<string, number>();
  readonly byKind = new Map<string, Map<string, number>>();
  readonly latenciesMs: number[] = [];
  total = 0;
  fiveHundreds = 0;
  untyped = 0;
  slow = 0;
  /** The first example of each distinct failure (see `examples`) and how many more there were. */
  readonly examples: string[] = [];
  /** Failures grouped by signature (status, error type and message with numbers and quotes blanked). */
  readonly failures = new Map<string, { count: number; first: string }>();
  /** `columnstore` answers (ClickHouse refused or failed the query) by ClickHouse code, with the first input of each. */
  readonly engineErrors = new Map<number, { count: number; first: string; message: string }>();
  /** The same by message shape (quoted names and numbers blanked), to tell the families of one code apart. */
  readonly engineErrorShapes = new Map<string, { count: number; first: string }>();
  /** Every `columnstore` answer's input, code and message (the first 10,000), for `--engine-errors`. */
  readonly engineErrorInputs: { replay: string; code: number; message: string }[] = [];

  constructor(
    private readonly maxExamples = 10,
    /** An answer slower than this is counted slow (not a failure by itself). */
    private readonly slowMs = 10_000,
  ) {}

  record(request: FuzzRequest, answer: Answer | NetworkFailure, replay: string, describe: (request: FuzzRequest) => string): Classified {
    const outcome = classify(request, answer);
    this.total += 1;
    if (outcome.fiveHundred) this.fiveHundreds += 1;
    if (!outcome.typed) this.untyped += 1;
    if (answer.ms > this.slowMs) this.slow += 1;
    this.latenciesMs.push(answer.ms);
    this.byLabel.set(outcome.label, (this.byLabel.get(outcome.label) ?? 0) + 1);
    const kind = this.byKind.get(request.kind) ?? new Map<string, number>();
    kind.set(outcome.label, (kind.get(outcome.label) ?? 0) + 1);
    this.byKind.set(request.kind, kind);
    if (outcome.label.endsWith(" columnstore") && !("network" in answer)) this.recordEngineError(answer.body, replay);
    if (outcome.fiveHundred || !outcome.typed) {
      const signature = failureSignature(outcome, answer);
      const seen = this.failures.get(signature);
      if (seen) seen.count += 1;
      else {
        this.failures.set(signature, { count: 1, first: replay });
        if (this.examples.length < this.maxExamples) {
          const got = "network" in answer ? `no answer (${answer.network}) after ${Math.round(answer.ms)} ms` : `${answer.status} [${answer.contentType}] ${answer.body.slice(0, 600)}`;
          this.examples.push(`[${request.kind}] replay ${replay}: ${outcome.why ?? "5xx"}\n  request: ${describe(request)}\n  answer:  ${got}`);
        }
      }
    }
    return outcome;
  }

  private recordEngineError(body: string, replay: string): void {
    let error: { code?: unknown; message?: unknown } | undefined;
    try {
      error = (JSON.parse(body) as { error?: { code?: unknown; message?: unknown } }).error;
    } catch {
      return;
    }
    const code = typeof error?.code === "number" ? error.code : -1;
    const message = String(error?.message ?? "");
    if (this.engineErrorInputs.length < 10_000) this.engineErrorInputs.push({ replay, code, message: message.slice(0, 300) });
    const seen = this.engineErrors.get(code);
    if (seen) seen.count += 1;
    else this.engineErrors.set(code, { count: 1, first: replay, message: message.slice(0, 160) });
    const shape = `code ${code}: ${message.replace(/: In scope .*$|: while .*$|\. In query .*$/s, "").replace(/`[^`]*`|'[^']*'|"[^"]*"/g, "…").replace(/\d+/g, "N").slice(0, 140)}`;
    const family = this.engineErrorShapes.get(shape);
    if (family) family.count += 1;
    else if (this.engineErrorShapes.size < 5000) this.engineErrorShapes.set(shape, { count: 1, first: replay });
  }

  /** One line per ClickHouse code the answers carried: how many, the first input and its message. */
  engineErrorLines(): string[] {
    return [...this.engineErrors]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([code, { count, first, message }]) => `code ${code}: ${count.toLocaleString("en")} (first: ${first}: ${message})`);
  }

  /** The commonest message shapes of ClickHouse's errors, with the first input of each. */
  engineErrorShapeLines(limit = 40): string[] {
    return [...this.engineErrorShapes]
      .sort((a, b) => b[1].count - a[1].count)
      .slice(0, limit)
      .map(([shape, { count, first }]) => `${count.toLocaleString("en")} × ${shape} (first: ${first})`);
  }

  /** How many answers carried one of these ClickHouse codes. */
  engineErrorCount(codes: ReadonlySet<number>): number {
    let count = 0;
    for (const [code, { count: n }] of this.engineErrors) if (codes.has(code)) count += n;
    return count;
  }

  percentile(p: number): number {
    const sorted = [...this.latenciesMs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  }

  /** How many answers reached ClickHouse (ran, or were refused by it). */
  reached(): number {
    let count = 0;
    for (const [label, n] of this.byLabel) if (reachedClickHouse(label)) count += n;
    return count;
  }

  summary(limit = 12): string {
    const sorted = [...this.byLabel].sort((a, b) => b[1] - a[1]);
    const shown = sorted.slice(0, limit).map(([label, count]) => `${label}: ${count.toLocaleString("en")}`);
    const rest = sorted.slice(limit).reduce((sum, [, count]) => sum + count, 0);
    return rest > 0 ? `${shown.join(", ")}, other: ${rest.toLocaleString("en")}` : shown.join(", ");
  }

  /** One line per distinct failure: how many, and the first input's replay id. */
  failureLines(): string[] {
    return [...this.failures].sort((a, b) => b[1].count - a[1].count).map(([signature, { count, first }]) => `${count.toLocaleString("en")} × ${signature} (first: ${first})`);
  }

  /** One line per kind of input: how many, and their answers. */
  kinds(): string[] {
    return [...this.byKind]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([kind, labels]) => {
        const total = [...labels.values()].reduce((sum, n) => sum + n, 0);
        const top = [...labels].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([label, n]) => `${label} ${((n / total) * 100).toFixed(0)}%`);
        return `${kind} (${total.toLocaleString("en")}): ${top.join(", ")}`;
      });
  }
}
