/** Sends one request and reads the whole answer (or the network failure), with a time limit. */
import type { Answer } from "./outcomes.js";
import type { FuzzRequest } from "./fuzz-inputs.js";

export async function send(baseUrl: string, request: FuzzRequest, timeoutMs = 60_000): Promise<Answer | { network: string }> {
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      ...(request.body === undefined ? {} : { body: request.body }),
      headers: { "content-type": request.contentType ?? "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    return { status: response.status, contentType: response.headers.get("content-type") ?? "", body };
  } catch (reason) {
    const error = reason as { name?: string; cause?: { code?: string }; message?: string };
    return { network: error.name === "TimeoutError" ? "timeout" : (error.cause?.code ?? error.message ?? "error") };
  }
}
