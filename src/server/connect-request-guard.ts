/**
 * Typed answers for what connect-node answers bare, on the Connect/gRPC paths
 * (`/quarry.v1.<Service>/<Method>`, `/quarry.rpc.v1.<Service>/<Method>`): a method other than POST (405) and a content type no
 * protocol reads (415) get a Connect error body, and a Connect unary request whose protobuf
 * bytes do not parse is the caller's fault (400 `invalid_argument`), not connect-es's 500
 * `internal` "parse binary".
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

// Every RPC here is unary: the streaming Connect types (application/connect+json) are not read.
const PROTOCOL_CONTENT_TYPES = /^application\/(?:json|proto|grpc|grpc-web|grpc-web-text)(?:[+;]|$)/;

function answer(response: Response, status: number, code: string, message: string): void {
  const body = JSON.stringify({ code, message });
  (response as ServerResponse).writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  (response as ServerResponse).end(body);
}

/** Answers the request itself and returns true, or returns false to let connect-node answer. */
export function guardConnectRequest(request: Request, response: Response): boolean {
  if (!request.url?.startsWith("/quarry.v1.") && !request.url?.startsWith("/quarry.rpc.v1.")) return false;
  const method = request.method ?? "GET";
  if (method !== "POST") {
    answer(response, 405, "unimplemented", `method ${method} is not allowed on ${request.url.split("?")[0]}: Connect, gRPC and gRPC-Web calls are POSTs`);
    return true;
  }
  const contentType = String(request.headers["content-type"] ?? "");
  if (!PROTOCOL_CONTENT_TYPES.test(contentType)) {
    answer(response, 415, "invalid_argument", `content type '${contentType}' is not one the Connect, gRPC or gRPC-Web protocols use: send application/json or application/proto`);
    return true;
  }
  if (contentType.startsWith("application/proto")) reportMalformedProtobufAs400(response as ServerResponse);
  return false;
}

/**
 * Holds back a 500 answer until its body is known: connect-es reports bytes that are not the
 * request message as `internal` ("parse binary: ..."); that one becomes 400 `invalid_argument`.
 */
function reportMalformedProtobufAs400(response: ServerResponse): void {
  const writeHead = response.writeHead.bind(response) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  let held: { headers: OutgoingHttpHeaders; chunks: Buffer[] } | null = null;
  response.writeHead = ((status: number, headers?: OutgoingHttpHeaders) => {
    if (status !== 500) return writeHead(status, headers);
    held = { headers: { ...(held?.headers ?? {}), ...(headers ?? {}) }, chunks: held?.chunks ?? [] };
    return response;
  }) as ServerResponse["writeHead"];
  response.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!held) return write(chunk, ...rest);
    held.chunks.push(Buffer.from(chunk as Uint8Array));
    const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as ServerResponse["write"];
  response.end = ((...args: unknown[]) => {
    if (!held) return end(...args);
    const { headers, chunks } = held;
    held = null;
    let body = Buffer.concat(chunks);
    let status = 500;
    try {
      const error = JSON.parse(body.toString("utf8")) as { code?: string; message?: string };
      if (error.code === "internal" && error.message?.startsWith("parse binary")) {
        status = 400;
        body = Buffer.from(JSON.stringify({ ...error, code: "invalid_argument" }));
      }
    } catch {
      // not a Connect JSON error: sent as it was
    }
    writeHead(status, { ...headers, "content-length": body.length });
    const callback = args.find((arg) => typeof arg === "function");
    return end(body, ...(callback ? [callback] : []));
  }) as ServerResponse["end"];
}
