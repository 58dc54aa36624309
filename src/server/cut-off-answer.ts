/**
 * What a request still running at the stop deadline is answered (single-port-server.ts): a typed
 * 503 in its protocol, rather than a connection cut under it. The caller can tell a stopping
 * node from a broken one and send the request again elsewhere. The work behind the request is
 * abandoned: whatever its handler writes afterwards goes nowhere.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { QueryServiceError } from "../errors/query-service-error.js";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

const MESSAGE =
  "the server is stopping and this request was still running at its stop deadline (QUARRY_SHUTDOWN_TIMEOUT_MS): it was not answered; send it again";

/** Answers the request with a typed 503 and returns true, or returns false where its answer has begun (the connection is then cut). */
export function answerCutOff(request: Request, response: Response): boolean {
  if (response.headersSent || response.writableEnded) return false;
  const out = response as ServerResponse;
  const path = request.url ?? "";
  const contentType = String(request.headers["content-type"] ?? "");
  if ((path.startsWith("/quarry.v1.") || path.startsWith("/quarry.rpc.v1.")) && contentType.startsWith("application/grpc")) {
    // gRPC and gRPC-Web: a trailers-only answer, status UNAVAILABLE (14).
    out.writeHead(200, { "content-type": contentType.split(";")[0]!, "grpc-status": "14", "grpc-message": encodeURIComponent(MESSAGE) });
    out.end();
  } else if (path.startsWith("/quarry.v1.") || path.startsWith("/quarry.rpc.v1.")) {
    send(out, JSON.stringify({ code: "unavailable", message: MESSAGE }));
  } else {
    send(out, JSON.stringify({ error: new QueryServiceError("storage-not-available", MESSAGE, { httpStatus: 503 }).toErrorBody() }));
  }
  abandon(out);
  return true;
}

function send(response: ServerResponse, body: string): void {
  const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
  // HTTP/1.1: the connection goes with the answer (HTTP/2 forbids the header; its session is closing).
  if (response.req?.httpVersionMajor === 1) headers.connection = "close";
  response.writeHead(503, headers);
  response.end(body);
}

/** The handler still runs and will answer in its turn: its writes go nowhere rather than throw. */
function abandon(response: ServerResponse): void {
  Object.assign(response, {
    setHeader: () => response,
    writeHead: () => response,
    write: () => true,
    end: () => response,
  });
}
