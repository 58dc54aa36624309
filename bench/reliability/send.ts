/** Sends one request over the shared keep-alive pool and reads the whole answer (or the network failure), with a time limit. */
import type { FuzzRequest } from "./fuzz-inputs.js";
import type { Answer, NetworkFailure } from "./outcomes.js";

export async function send(baseUrl: string, request: FuzzRequest, timeoutMs = 60_000): Promise<Answer | NetworkFailure> {
  const started = performance.now();
  try {
    const headers: Record<string, string> = {};
    if (request.contentType === undefined) headers["content-type"] = "application/json";
    else if (request.contentType !== "") headers["content-type"] = request.contentType;
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      ...(request.body === undefined ? {} : { body: typeof request.body === "string" ? request.body : Buffer.from(request.body) }),
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, contentType: response.headers.get("content-type") ?? "", body: new TextDecoder().decode(bytes), bytes, ms: performance.now() - started };
  } catch (reason) {
    const error = reason as { name?: string; cause?: { code?: string; message?: string }; message?: string };
    const network = error.name === "TimeoutError" ? "timeout" : (error.cause?.code ?? error.cause?.message ?? error.message ?? "error");
    return { network, ms: performance.now() - started };
  }
}
