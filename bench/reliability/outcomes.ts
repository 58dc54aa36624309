/**
 * What each answer was: its status and error type, and whether it was typed (the spec's
 * `{"error": {"type", "message"}}` body for a failure; JSON where JSON is due). Untyped answers and
 * 5xx are the failures the reliability suite looks for; the first few are kept to replay.
 */
export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export class Outcomes {
  readonly byStatus = new Map<string, number>();
  total = 0;
  fiveHundreds = 0;
  untyped = 0;
  readonly examples: string[] = [];

  record(kind: string, request: string, answer: Answer | { network: string }): void {
    this.total += 1;
    let label: string;
    let typed = true;
    if ("network" in answer) {
      label = `network ${answer.network}`;
      typed = false;
    } else {
      const json = answer.contentType.includes("json");
      let parsed: unknown = null;
      if (json) {
        try {
          parsed = JSON.parse(answer.body);
        } catch {
          typed = false;
        }
      }
      if (answer.status >= 400) {
        const error = (parsed as { error?: { type?: unknown; message?: unknown } } | null)?.error;
        // Connect routes answer Connect's own typed errors: {"code", "message"}.
        const connect = parsed as { code?: unknown; message?: unknown } | null;
        if (error && typeof error.type === "string" && typeof error.message === "string") label = `${answer.status} ${error.type}`;
        else if (connect && typeof connect.code === "string") label = `${answer.status} connect:${connect.code}`;
        else {
          label = `${answer.status} untyped`;
          typed = false;
        }
      } else {
        label = `${answer.status}`;
      }
      if (answer.status >= 500) this.fiveHundreds += 1;
    }
    if (!typed) this.untyped += 1;
    this.byStatus.set(label, (this.byStatus.get(label) ?? 0) + 1);
    const failed = !typed || ("status" in answer && answer.status >= 500);
    if (failed && this.examples.length < 10) {
      const what = "network" in answer ? answer.network : `${answer.status} ${answer.body.slice(0, 300)}`;
      this.examples.push(`[${kind}] ${request.slice(0, 400)}\n  -> ${what}`);
    }
  }

  summary(): string {
    return [...this.byStatus].sort((a, b) => b[1] - a[1]).map(([label, count]) => `${label}: ${count}`).join(", ");
  }
}
